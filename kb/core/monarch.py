"""The monarch (rule 725): the initiative's sibling designation, and where it differs.

Like the initiative, the monarch is held by one player at a time (725.3) and has
sourceless triggers controlled by whoever was the monarch when they triggered
(725.2, an exception to 113.8): :func:`trigger` stamps ``game.monarch`` then and
there. The hand-over as the monarch leaves shares its walk with the initiative
(:func:`kb.core.designations.successor`). The differences are carried here:

- two triggers, not three: the monarch's end step draws a card, and combat
  damage steals the title **per creature** ("whenever a creature deals combat
  damage to the monarch", 725.2), where the initiative's is per player;
- becoming the monarch triggers nothing and becoming it again does nothing
  (the initiative's 726.5 has no counterpart);
- players an effect says can't become the monarch (``game.cant_become_monarch``,
  an explicit input) never become it; 725.4 skips them and, if nobody can, the
  game continues with no monarch;
- a continuous effect keyed to the monarch does nothing while there is none
  (725.5, :func:`affected`).

>>> from kb.core.game import Game
>>> g = Game(["Ann", "Bruno"], active="Ann", monarch="Ann")
>>> g.players["Bruno"].creatures = ["Wolf", "Bear"]
>>> g.combat_damage({"Bruno": ["Wolf", "Bear"]}, to="Ann")
>>> [t.label for t in g.pending]
['monarch_steal:Wolf@Ann', 'monarch_steal:Bear@Ann']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kb.core import designations, rooms, turns

if TYPE_CHECKING:  # pragma: no cover
    from kb.core.game import Game
    from kb.core.state import Trigger

ABILITIES = ("monarch_draw", "monarch_steal")
# Whom a continuous effect keyed to the monarch concerns (725.5): the monarch, or their opponents.
CONCERNS = ("monarch", "opponents")


def trigger(game: Game, ability: str, player: str, **fields: Any) -> Trigger:
    """One of the monarch's abilities triggers, controlled by the current monarch (725.2)."""
    if game.monarch is None:  # they trigger only for a monarch: end step, damage to them
        raise ValueError(f"{ability} triggers with no monarch")
    return game.new_trigger(ability, controller=game.monarch, player=player, **fields)


def can_become(game: Game, player: str) -> bool:
    """False for a player an effect says can't become the monarch (the model's explicit input)."""
    return player not in game.cant_become_monarch


def become(game: Game, player: str, rule: str = "725.3") -> None:
    """``player`` becomes the monarch; the current monarch ceases to be it (725.3).

    The monarch told to become the monarch stays it and nothing happens; a
    player who can't become the monarch doesn't ("can't" wins over an
    instruction, 101.2), and the current monarch keeps it.
    """
    if game.monarch == player:
        game.note("already_monarch", player=player, rule=rule)
        return
    if not can_become(game, player):
        game.note("cannot_become_monarch", player=player, monarch=game.monarch, rule="101.2")
        return
    previous, game.monarch = game.monarch, player
    game.note("becomes_monarch", player=player, previous=previous, rule=rule)


def end_step_trigger(game: Game) -> None:
    """At the beginning of the monarch's end step, that player will draw a card (725.2).

    With shared team turns the end step is the whole active team's, so it is the
    monarch's whenever the monarch is on the active team.
    """
    if game.monarch is not None and game.monarch in turns.active_players(game):
        trigger(game, "monarch_draw", game.monarch)


def steal_triggers(game: Game, hits: Iterable[tuple[str, str]], to: str) -> None:
    """One trigger per creature that dealt combat damage to the monarch (725.2).

    ``hits`` are (controller, creature) pairs. "Whenever a creature deals combat
    damage" counts creatures one by one: three creatures of one player make three
    triggers, all controlled by the monarch, who orders them; the initiative's
    "one or more creatures a player controls" makes one per player (726.2).
    """
    if game.monarch is None or to != game.monarch:
        return
    for controller, creature in hits:
        trigger(game, "monarch_steal", controller, creature=creature)


def resolve(game: Game, ability: Trigger) -> None:
    """The draw: the player who was the monarch when it triggered draws, even if no longer the
    monarch; the steal: the creature's controller becomes the monarch."""
    if not game.players[ability.player].in_game:
        game.note("does_nothing", label=ability.label, reason="player_left", player=ability.player)
        return
    if ability.ability == "monarch_draw":
        rooms.draw(game, ability.player, 1)  # an empty library is remembered for 704.5b
    else:
        become(game, ability.player, rule="725.2")


def recipient_on_leave(game: Game, leaving: list[str]) -> str | None:
    """Who becomes the monarch as the monarch leaves (725.4); None: nobody can.

    The active player, else the next player in turn order **who can become the
    monarch**. The rule does not say what happens when the active player stays
    but can't become the monarch; its last sentence (no monarch only if no player
    still in the game can become it) implies someone who can does, so the model
    counts on from the active player's seat.
    """
    return designations.successor(
        game,
        leaving,
        "monarch_recipient",
        "725.4",
        can_hold=lambda player: can_become(game, player),
    )


def pass_on_leave(game: Game, leaving: list[str]) -> None:
    """If the monarch is leaving, hand the title on at the same time, or to nobody (725.4).

    Becoming the monarch this way triggers nothing: the monarch has no
    counterpart of the initiative's "whenever a player takes the initiative".
    """
    if game.monarch not in leaving:
        return
    recipient = recipient_on_leave(game, leaving)
    previous, game.monarch = game.monarch, recipient
    if recipient is None:
        game.note("monarch_gone", previous=previous, rule="725.4")
    else:
        game.note("becomes_monarch", player=recipient, previous=previous, rule="725.4")


def affected(game: Game, concerns: str) -> list[str] | None:
    """The players a continuous effect keyed to the monarch applies to; None: it does nothing.

    725.5: with no monarch the effect does nothing until a player becomes the
    monarch (not "applies to nobody", which for the monarch's opponents would
    wrongly read as "everyone"). The model also answers None once 725.4 has left
    the game with no monarch: there is nobody to determine the result from.

    >>> from kb.core.game import Game
    >>> g = Game(["Ann", "Bruno", "Cleo"], active="Ann")
    >>> affected(g, "opponents") is None
    True
    >>> g.become_monarch("Bruno")
    >>> affected(g, "monarch"), affected(g, "opponents")
    (['Bruno'], ['Ann', 'Cleo'])
    """
    if concerns not in CONCERNS:
        raise ValueError(f"a monarch effect concerns one of {CONCERNS}, not {concerns!r}")
    if game.monarch is None:
        return None
    if concerns == "monarch":
        return [game.monarch]
    return turns.opponents(game, game.monarch)
