"""What each room ability does, on the model's small board.

The board is deliberately small: life totals (a team total in Two-Headed
Giant), library, hand and land counts, creatures by name, tokens, +1/+1
counters, and a list of *noted* effects (scry, goad, "can't attack" and the
like) whose game consequences the model does not follow further. Targets are
chosen when the ability is put on the stack (:func:`target_options`); every
other choice is asked of the chooser as the ability resolves.

Simplifications (documented in the README, "The executable core"): the Secret Entrance search finds a
basic land whenever the library is not empty; cards are counts, not names,
except the creature put onto the battlefield by Throne of the Dead Three and
the card cast from Mad Wizard's Lair, which the chooser names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kb.core import dungeons, turns
from kb.core.choices import Decision, Refused

if TYPE_CHECKING:  # pragma: no cover
    from kb.core.game import Game
    from kb.core.state import Trigger

# A room ability's effect, carried out as the ability resolves.
Effect = Callable[["Game", "Trigger"], None]


# -- targets ---------------------------------------------------------------------------


def room_of(ability: Trigger) -> dungeons.Room:
    """The room whose ability ``ability`` is (a room ability names its dungeon and room)."""
    if ability.dungeon is None or ability.room is None:
        raise ValueError(f"{ability.label} is not a room ability")
    return dungeons.get(ability.dungeon).room(ability.room)


def target_kind(ability: Trigger) -> str | None:
    return room_of(ability).target


def target_options(game: Game, kind: str) -> tuple[str, ...]:
    """Legal targets: creatures on the battlefield or players in the game, in turn order."""
    if kind == "player":
        return tuple(turns.in_game(game))
    return tuple(c for p in turns.in_game(game) for c in game.players[p].creatures)


def target_still_legal(game: Game, kind: str, target: str) -> bool:
    return target in target_options(game, kind)


def controller_of(game: Game, creature: str) -> str:
    return next(p for p in turns.in_game(game) if creature in game.players[p].creatures)


# -- small actions ---------------------------------------------------------------------


def draw(game: Game, player: str, n: int) -> None:
    """Draw ``n``; drawing from an empty library is remembered for 704.5b."""
    p = game.players[player]
    drawn = min(n, p.library)
    p.library -= drawn
    p.hand += drawn
    if drawn < n:
        p.drew_from_empty = True
    game.note("draws", player=player, n=n)


def note(game: Game, player: str, what: str, **fields: Any) -> None:
    """Record an effect the model does not follow further (scry 2, goad X, ...)."""
    game.players[player].noted.append(":".join([what, *map(str, fields.values())]))
    game.note(what, player=player, **fields)


def create_token(game: Game, player: str, kind: str, creature: bool) -> str:
    name = game.token_name(kind)
    p = game.players[player]
    p.tokens.append(name)
    if creature:
        p.creatures.append(name)
    game.note("creates_token", player=player, token=name)
    return name


def add_counters(game: Game, creature: str, n: int) -> None:
    owner = game.players[controller_of(game, creature)]
    owner.counters[creature] = owner.counters.get(creature, 0) + n
    game.note("counters", creature=creature, n=n, controller=owner.name)


def sacrifice(game: Game, player: str, permanent: str) -> None:
    p = game.players[player]
    if permanent == "land":
        p.lands -= 1
    else:
        p.tokens = [t for t in p.tokens if t != permanent]
        p.creatures = [c for c in p.creatures if c != permanent]
        p.counters.pop(permanent, None)
    game.note("sacrifices", player=player, permanent=permanent)


def discard(game: Game, player: str) -> None:
    game.players[player].hand -= 1
    game.note("discards", player=player, n=1)


def artifacts(game: Game, player: str) -> list[str]:
    # Treasure is the only artifact the model creates.
    return [t for t in game.players[player].tokens if t.startswith("Treasure")]


def each_player_chooses(
    game: Game,
    ability: Trigger,
    kind: str,
    options_for: Callable[[str], tuple[str, ...]],
    act: Callable[[str, str], None],
) -> None:
    """Each player in APNAP order chooses (101.4), then the actions happen at once."""
    answers: list[tuple[str, str]] = []
    for group in turns.apnap_groups(game):
        for player in group:
            options = options_for(player)
            answers.append(
                (
                    player,
                    game.choose(Decision(kind, player, options, "101.4", {"room": ability.room})),
                )
            )
    for player, answer in answers:
        act(player, answer)


# -- the room abilities ----------------------------------------------------------------


def search_basic_land(game: Game, ab: Trigger) -> None:
    p = game.players[ab.controller]
    if p.library > 0:
        p.library -= 1
        p.hand += 1
    note(game, ab.controller, "search_basic_land")


def two_counters(game: Game, ab: Trigger) -> None:
    add_counters(game, ab.targets[0], 2)


def one_counter(game: Game, ab: Trigger) -> None:
    add_counters(game, ab.targets[0], 1)


def target_loses_5(game: Game, ab: Trigger) -> None:
    turns.change_life(game, ab.targets[0], -5)


def goad(game: Game, ab: Trigger) -> None:
    note(game, ab.controller, "goad", creature=ab.targets[0])


def minus_four(game: Game, ab: Trigger) -> None:
    note(game, ab.controller, "minus_four", creature=ab.targets[0])


def cant_attack(game: Game, ab: Trigger) -> None:
    note(game, ab.controller, "cant_attack", creature=ab.targets[0])


def scry(n: int) -> Effect:
    def effect(game: Game, ab: Trigger) -> None:
        note(game, ab.controller, "scry", n=n)

    effect.__name__ = f"scry_{n}"
    return effect


def treasure(game: Game, ab: Trigger) -> None:
    create_token(game, ab.controller, "Treasure", creature=False)


def goblin(game: Game, ab: Trigger) -> None:
    create_token(game, ab.controller, "Goblin", creature=True)


def skeleton_4_1(game: Game, ab: Trigger) -> None:
    create_token(game, ab.controller, "Skeleton", creature=True)


def two_skeletons(game: Game, ab: Trigger) -> None:
    for _ in range(2):
        create_token(game, ab.controller, "Skeleton", creature=True)


def atropal(game: Game, ab: Trigger) -> None:
    create_token(game, ab.controller, "The Atropal", creature=True)


def draw_1(game: Game, ab: Trigger) -> None:
    draw(game, ab.controller, 1)


def gain_1(game: Game, ab: Trigger) -> None:
    turns.change_life(game, ab.controller, 1)


def drain_1(game: Game, ab: Trigger) -> None:
    """Each opponent loses 1 life, you gain 1 (in 2HG each opponent's loss hits their team)."""
    for opponent in turns.opponents(game, ab.controller):
        turns.change_life(game, opponent, -1)
    turns.change_life(game, ab.controller, 1)


def exile_top_2(game: Game, ab: Trigger) -> None:
    p = game.players[ab.controller]
    n = min(2, p.library)
    p.library -= n
    note(game, ab.controller, "exile_top", n=n)


def mad_wizard(game: Game, ab: Trigger) -> None:
    """Draw three and reveal them; the chooser names a card cast free, or None."""
    draw(game, ab.controller, 3)
    cast = game.choose(Decision("cast_free", ab.controller, None, "309.4c", {"room": ab.room}))
    if cast:
        game.players[ab.controller].hand -= 1
        note(game, ab.controller, "cast_free", card=cast)


def throne(game: Game, ab: Trigger) -> None:
    """Reveal ten, put a creature card (named by the chooser, or None) onto the battlefield."""
    p = game.players[ab.controller]
    creature = game.choose(
        Decision("throne_creature", ab.controller, None, "309.4c", {"room": ab.room})
    )
    if creature:
        if p.library == 0 or creature in target_options(game, "creature"):
            raise Refused("illegal_choice", choice="throne_creature", answer=creature)
        p.library -= 1
        p.creatures.append(creature)
        game.note("puts_onto_battlefield", player=ab.controller, creature=creature)
        add_counters(game, creature, 3)
        note(game, ab.controller, "hexproof", creature=creature)
    note(game, ab.controller, "shuffle")


def each_loses_1(game: Game, ab: Trigger) -> None:
    for player in turns.in_game(game):
        turns.change_life(game, player, -1)


def veils_of_fear(game: Game, ab: Trigger) -> None:
    """Each player loses 2 life unless they discard a card."""

    def options(player: str) -> tuple[str, ...]:
        return ("discard", "lose_life") if game.players[player].hand else ("lose_life",)

    def act(player: str, answer: str) -> None:
        if answer == "discard":
            discard(game, player)
        else:
            turns.change_life(game, player, -2)

    each_player_chooses(game, ab, "discard_or_lose", options, act)


def sandfall_cell(game: Game, ab: Trigger) -> None:
    """Each player loses 2 life unless they sacrifice an artifact, a creature or a land."""

    def options(player: str) -> tuple[str, ...]:
        p = game.players[player]
        permanents = artifacts(game, player) + p.creatures + (["land"] if p.lands else [])
        return ("lose_life", *permanents)

    def act(player: str, answer: str) -> None:
        if answer == "lose_life":
            turns.change_life(game, player, -2)
        else:
            sacrifice(game, player, answer)

    each_player_chooses(game, ab, "sacrifice_or_lose", options, act)


def oubliette(game: Game, ab: Trigger) -> None:
    """Discard a card and sacrifice an artifact, a creature and a land (each if you can)."""
    player, p = ab.controller, game.players[ab.controller]
    if p.hand:
        discard(game, player)
    for kind, options in (
        ("sacrifice_artifact", artifacts(game, player)),
        ("sacrifice_creature", list(p.creatures)),
    ):
        if options:
            sacrifice(game, player, game.choose(Decision(kind, player, tuple(options), "309.4c")))
    if p.lands:
        sacrifice(game, player, "land")


EFFECTS: dict[str, Effect] = {
    f.__name__: f
    for f in (
        search_basic_land,
        two_counters,
        one_counter,
        target_loses_5,
        goad,
        minus_four,
        cant_attack,
        scry(1),
        scry(2),
        scry(3),
        treasure,
        goblin,
        skeleton_4_1,
        two_skeletons,
        atropal,
        draw_1,
        gain_1,
        drain_1,
        exile_top_2,
        mad_wizard,
        throne,
        each_loses_1,
        veils_of_fear,
        sandfall_cell,
        oubliette,
    )
}


def resolve(game: Game, ability: Trigger) -> None:
    """A room ability resolves: check its target is still legal, then do the room's effect."""
    kind = target_kind(ability)
    if kind and not target_still_legal(game, kind, ability.targets[0]):
        game.note("fizzles", label=ability.label, target=ability.targets[0], rule="608.2b")
        return
    EFFECTS[room_of(ability).effect](game, ability)
