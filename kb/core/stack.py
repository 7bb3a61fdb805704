"""The resolver: state-based actions, triggers onto the stack in order, resolving the top.

:func:`run_until_priority` is the loop of 704.3 and 603.3b: check state-based
actions until none happen; put waiting triggers on the stack; repeat. The
order is APNAP (101.4, 603.3b): the active player puts all of theirs first, so
they resolve last. With shared team turns the active team goes first as one
group (805.7). Within a group the players order their own triggers through
the chooser; a trigger controlled by a player who has left is not put on the
stack at all (800.4d).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from kb.core import initiative, monarch, rooms, sba, turns, venture
from kb.core.choices import Decision, Refused

if TYPE_CHECKING:  # pragma: no cover
    from kb.core.game import Game
    from kb.core.state import Trigger


def run_until_priority(game: Game) -> None:
    """Repeat state-based actions and putting triggers on the stack until neither happens (704.3)."""
    while not game.game_over:
        if sba.check(game):
            continue
        if not game.pending:
            return
        put_pending_on_stack(game)


def put_pending_on_stack(game: Game) -> None:
    """Every waiting trigger goes on the stack: group by group, each in its controllers' order (603.3b)."""
    waiting, game.pending = game.pending, []
    for ability in waiting:
        if not game.players[ability.controller].in_game:
            game.note(
                "not_put_on_stack",
                label=ability.label,
                controller=ability.controller,
                rule="800.4d",
            )
    waiting = [a for a in waiting if game.players[a.controller].in_game]
    for group in turns.apnap_groups(game):
        theirs = [a for a in waiting if a.controller in group]
        for ability in order(game, group, theirs):
            put_on_stack(game, ability)


def order(game: Game, group: list[str], abilities: list[Trigger]) -> list[Trigger]:
    """The controllers choose the order they go on the stack (first in, last to resolve)."""
    if len(abilities) < 2:
        return abilities
    labels = tuple(a.label for a in abilities)
    rule = "805.7" if len(group) > 1 else "603.3b"
    # 805.2: a team that cannot agree lets its primary player decide; the model
    # asks the first member in seating order.
    answer = game.chooser(Decision("order_triggers", group[0], labels, rule))
    if not isinstance(answer, (list, tuple)) or Counter(answer) != Counter(labels):
        raise Refused(
            "illegal_choice", choice="order_triggers", answer=answer, options=list(labels)
        )
    remaining = list(abilities)
    ordered = []
    for label in answer:
        ability = next(a for a in remaining if a.label == label)
        remaining.remove(ability)
        ordered.append(ability)
    game.note("orders_triggers", player=group[0], order=list(answer), rule=rule)
    return ordered


def put_on_stack(game: Game, ability: Trigger) -> None:
    """Put one ability on the stack, choosing its target; with none legal it is removed (603.3d)."""
    if ability.ability == "room":
        kind = rooms.target_kind(ability)
        if kind:
            options = rooms.target_options(game, kind)
            if not options:
                game.note(
                    "removed_from_stack",
                    label=ability.label,
                    reason="no_legal_target",
                    rule="603.3d",
                )
                return
            target = game.choose(
                Decision(
                    f"target_{kind}", ability.controller, options, "603.3d", {"room": ability.room}
                )
            )
            ability.targets = (target,)
    game.stack.append(ability)
    game.note(
        "put_on_stack",
        label=ability.label,
        controller=ability.controller,
        targets=list(ability.targets),
    )


def resolve_top(game: Game) -> None:
    """The top object of the stack resolves."""
    ability = game.stack.pop()
    game.note("resolves", **ability.as_log())
    if ability.ability == "room":
        rooms.resolve(game, ability)
    elif ability.ability == "venture":
        venture.venture(game, ability.player, ability.quality)
    elif ability.ability in monarch.ABILITIES:
        monarch.resolve(game, ability)
    else:
        initiative.resolve(game, ability)
