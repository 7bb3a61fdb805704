"""Break each rule on purpose and watch the examples that show it fail, by name.

Every registered rule points at the code that carries it out (``carried_by``).
For each such piece of code there is a *mutant* below: a plausible wrong
version (often the very mistake an established engine makes). With the mutant
in place, at least one example listing the rule must fail; the targeted tests
at the end name the examples that must catch each known engine mistake.
"""

from __future__ import annotations

import importlib

import pytest
from core_helpers import failing_ids

from kb.core import (
    dungeons,
    initiative,
    monarch,
    outside,
    registry,
    scenario,
    stack,
    turns,
    venture,
)


def _noop(*args, **kwargs):
    return None


def _controller_is_subject(game, ability, player):
    # Like 113.8 without the 726.2 exception: the affected player controls it.
    return game.new_trigger(ability, controller=player, player=player)


def _take_without_moving(game, player, rule="726.3"):
    game.note("takes_initiative", player=player, previous=game.initiative, rule=rule)
    initiative.trigger(game, "taken", player)


def _recipient_ignores_leavers(game, leaving_players):
    # Hands it to the next seat after the holder, even one who has left or is leaving.
    order = game.order
    return order[(order.index(game.initiative) + 1) % len(order)]


def _target_options_with_dungeons(game, kind):
    options = ORIGINAL["rooms.target_options"](game, kind)
    return options + tuple(p.dungeon for p in game.players.values() if p.dungeon)


def _enter_room_without_trigger(game, player, room, rule):
    game.players[player].room = room


def _advance_first_arrow(game, player):
    p = game.players[player]
    venture.enter_room(game, player, dungeons.get(p.dungeon).next_rooms(p.room)[0], "701.49b")


def _complete_only_on_the_stack(game):
    # The engine bug: only abilities already on the stack hold the dungeon.
    on_stack = {a.dungeon_id for a in game.stack if a.ability == "room"}
    return [
        n
        for n in turns.in_game(game)
        if (p := game.players[n]).dungeon
        and p.room == dungeons.get(p.dungeon).bottommost
        and p.dungeon_id not in on_stack
    ]


def _complete_without_record(game, player, rule):
    p = game.players[player]
    p.dungeon = p.dungeon_id = p.room = None


def _appropriate_any(quality):
    return tuple(dungeons.DUNGEONS)


def _venture_no_start(game, player, quality):
    if game.players[player].dungeon is not None:
        ORIGINAL["venture.venture"](game, player, quality)


def _choose_ignoring_quality(game, player, quality, rule):
    return ORIGINAL["venture.choose_dungeon"](game, player, None, rule)


def _dungeons_in_the_sideboard(game, player):
    # Dungeon cards taken for part of the deck or sideboard: only the sideboard is outside.
    return list(game.players[player].sideboard)


def _bring_in_any_card(game, player, card):
    # Without 309.2d: an effect brings a dungeon card in like any other card, to the hand.
    if card not in outside.cards(game, player):
        ORIGINAL["outside.bring_in"](game, player, card)
    p = game.players[player]
    if card in p.sideboard:
        p.sideboard.remove(card)
    p.hand += 1


def _reversed_groups(game):
    return list(reversed(ORIGINAL["turns.apnap_groups"](game)))


def _put_in_trigger_order(game):
    # No ordering by player and no 800.4d: everything goes on as it triggered.
    waiting, game.pending = game.pending, []
    for ability in waiting:
        stack.put_on_stack(game, ability)


def _put_without_target_check(game, ability):
    game.stack.append(ability)


def _remove_player_keeping_objects(game, name, reason):
    game.players[name].in_game = False


def _leave_keeping_active_player(game, players, reason):
    active = game.active_player
    ORIGINAL["leaving.leave"](game, players, reason)
    game.active_player = active


def _next_turn_by_seat(game):
    order = game.order
    return order[(order.index(game.turn_of) + 1) % len(order)]


def _teammates_stay(game, players):
    return list(players)


def _personal_life(game, player, delta):
    game.players[player].life += delta


def _take_initiative_noop(self, player, chooser=None):
    return None


def _become_monarch_noop(self, player, chooser=None):
    return None


def _monarch_steal_per_player(game, hits, to):
    # The initiative's rule (726.2) applied to the monarch: one trigger per player.
    if game.monarch is not None and to == game.monarch:
        for controller in dict.fromkeys(c for c, _ in hits):
            monarch.trigger(game, "monarch_steal", controller)


def _become_without_moving(game, player, rule="725.3"):
    game.note("becomes_monarch", player=player, previous=game.monarch, rule=rule)


def _monarch_recipient_ignores_who_can(game, leaving_players):
    # 725.4 as it read in June 2022 (720.4): the next player in turn order, able or not.
    return ORIGINAL["initiative.recipient_on_leave"](game, leaving_players)


def _affected_by_everyone_without_monarch(game, concerns):
    # Without 725.5: no monarch read as "nobody is the monarch", so everyone is an opponent.
    if game.monarch is None:
        return [] if concerns == "monarch" else turns.in_game(game)
    return ORIGINAL["monarch.affected"](game, concerns)


MUTANTS = {
    "game.Game.take_initiative": _take_initiative_noop,
    "initiative.trigger": _controller_is_subject,
    "initiative.take": _take_without_moving,
    "initiative.recipient_on_leave": _recipient_ignores_leavers,
    "initiative.retake": _noop,
    "venture.start": _noop,
    "rooms.target_options": _target_options_with_dungeons,
    "venture.enter_room": _enter_room_without_trigger,
    "venture.advance": _advance_first_arrow,
    "venture.complete_and_restart": _noop,
    "sba.dungeons_to_complete": _complete_only_on_the_stack,
    "venture.complete": _complete_without_record,
    "dungeons.appropriate": _appropriate_any,
    "venture.venture": _venture_no_start,
    "venture.choose_dungeon": _choose_ignoring_quality,
    "outside.cards": _dungeons_in_the_sideboard,
    "outside.bring_in": _bring_in_any_card,
    "sba.players_who_lose": lambda game: [],
    "turns.apnap_groups": _reversed_groups,
    "stack.put_pending_on_stack": _put_in_trigger_order,
    "stack.put_on_stack": _put_without_target_check,
    "leaving.remove_player": _remove_player_keeping_objects,
    "leaving.leave": _leave_keeping_active_player,
    "turns.next_turn": _next_turn_by_seat,
    "leaving.with_teammates": _teammates_stay,
    "turns.change_life": _personal_life,
    "game.Game.become_monarch": _become_monarch_noop,
    "monarch.steal_triggers": _monarch_steal_per_player,
    "monarch.become": _become_without_moving,
    "monarch.recipient_on_leave": _monarch_recipient_ignores_who_can,
    "monarch.affected": _affected_by_everyone_without_monarch,
}


def _target(dotted: str):
    """(object to patch, attribute name) for a carried_by path like kb.core.game.Game.x."""
    module_part, *attrs = dotted.split(".")
    owner = importlib.import_module(f"kb.core.{module_part}")
    for attr in attrs[:-1]:
        owner = getattr(owner, attr)
    return owner, attrs[-1]


ORIGINAL = {key: getattr(*_target(key)) for key in MUTANTS}
ORIGINAL_RESOLVE = monarch.resolve


def _for_current_monarch(game, ability):
    # The draw taken by whoever is the monarch as it resolves, not by who was when it triggered.
    if ability.ability == "monarch_draw" and game.monarch is not None:
        ability.player = game.monarch
    return ability


SCENARIOS = scenario.load_dir()


def _short(carried_by: str) -> str:
    return carried_by.removeprefix("kb.core.")


def test_every_carrying_function_has_a_mutant():
    assert sorted({_short(r.carried_by) for r in registry.RULES.values()}) == sorted(MUTANTS)


@pytest.mark.parametrize("number", list(registry.RULES))
def test_breaking_the_rule_fails_its_examples(number, monkeypatch):
    key = _short(registry.get(number).carried_by)
    owner, attr = _target(key)
    monkeypatch.setattr(owner, attr, MUTANTS[key])
    showing = [s for s in SCENARIOS if number in s.rules]
    assert showing, f"no example lists {number}"
    failed = failing_ids(showing)
    assert failed, f"breaking {key} ({number}) fails none of {[s.id for s in showing]}"


# The mistakes of established engines (issue 3), each caught by named examples.
KNOWN_WRONG = [
    (
        "initiative.pass_on_leave",
        _noop,
        {
            "initiative-holder-concedes-active-player-takes",
            "initiative-active-holder-concedes",
            "initiative-holder-then-active-player-concede",
            "leaver-abilities-cease-to-exist",
        },
    ),
    (
        "initiative.recipient_on_leave",
        _recipient_ignores_leavers,
        {
            "initiative-holder-concedes-active-player-takes",
            "initiative-active-holder-concedes",
            "initiative-holder-then-active-player-concede",
        },
    ),
    (
        "initiative.trigger",
        lambda game, ability, player: game.new_trigger(
            ability,
            controller=next(
                e["player"]
                for e in game.log + [{"kind": "takes_initiative", "player": game.initiative}]
                if e["kind"] == "takes_initiative"
            ),
            player=player,
        ),
        {"initiative-controller-is-holder-at-trigger-time"},
    ),
    (
        "initiative.steal_triggers",
        lambda game, dealers, to: (
            initiative.trigger(game, "steal", list(dealers)[-1]) if to == game.initiative else None
        ),
        {"initiative-2hg-both-teammates-deal-damage"},
    ),
    (
        "sba.dungeons_to_complete",
        _complete_only_on_the_stack,
        {"dungeon-sba-waits-for-last-room-ability"},
    ),
    (
        "dungeons.appropriate",
        _appropriate_any,
        {"venture-plain-cannot-start-undercity", "venture-plain-from-undercity-last-room"},
    ),
    # The monarch's mistakes: each is the initiative's rule where the monarch's differs, or a
    # piece of 725 left out.
    (
        "monarch.steal_triggers",
        _monarch_steal_per_player,
        {"monarch-one-trigger-per-creature", "monarch-2hg-three-creatures-two-attackers"},
    ),
    (
        "monarch.trigger",
        lambda game, ability, player, **fields: game.new_trigger(
            ability, controller=player, player=player, **fields
        ),
        {"monarch-one-trigger-per-creature", "monarch-2hg-three-creatures-two-attackers"},
    ),
    (
        "monarch.recipient_on_leave",
        _monarch_recipient_ignores_who_can,
        {
            "monarch-next-player-who-can-become-it",
            "monarch-active-player-cant-become-it",
            "monarch-nobody-can-become-it",
        },
    ),
    (
        "monarch.pass_on_leave",
        _noop,
        {
            "monarch-leaves-active-player-becomes-it",
            "monarch-active-monarch-leaves",
            "monarch-dies-to-combat-damage",
            "monarch-draws-from-empty-library",
        },
    ),
    (
        "monarch.end_step_trigger",
        _noop,
        {"monarch-end-step-draw", "monarch-draw-after-losing-the-title"},
    ),
    (
        "monarch.resolve",
        lambda game, ability: ORIGINAL_RESOLVE(game, _for_current_monarch(game, ability)),
        {"monarch-draw-after-losing-the-title"},
    ),
    (
        "monarch.can_become",
        lambda game, player: True,
        {
            "monarch-only-one",
            "monarch-next-player-who-can-become-it",
            "monarch-nobody-can-become-it",
        },
    ),
]


@pytest.mark.parametrize("key, mutant, must_fail", KNOWN_WRONG, ids=[k for k, _, _ in KNOWN_WRONG])
def test_known_engine_mistakes_are_caught(key, mutant, must_fail, monkeypatch):
    owner, attr = _target(key)
    monkeypatch.setattr(owner, attr, mutant)
    failed = failing_ids(SCENARIOS)
    assert must_fail <= failed, f"not caught: {sorted(must_fail - failed)}"


def test_unmutated_examples_all_pass():
    assert failing_ids(SCENARIOS) == set()
