"""What the initiative (726) and the monarch (725) share in code: handing one on as its holder leaves.

Both are designations one player at a time can have, with sourceless triggers
controlled by whoever had it when they triggered. That much is one line in each
rule's module. The longer piece both rules word alike is the hand-over at the
moment the holder leaves the game (726.4, 725.4): the active player receives it,
or, if the active player is leaving too or there is none, the next player in
turn order. Only the monarch adds "who can become the monarch" and a game that
goes on without one; that difference comes in as ``can_hold``.

Everything else differs and stays in :mod:`kb.core.initiative` and
:mod:`kb.core.monarch`: what the triggers do, one combat trigger per player
(726.2) against one per creature (725.2), taking it again (726.5, no monarch
counterpart), and 725.5.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kb.core import turns
from kb.core.choices import Decision

if TYPE_CHECKING:  # pragma: no cover
    from kb.core.game import Game


def successor(
    game: Game,
    leaving: list[str],
    decision: str,
    rule: str,
    can_hold: Callable[[str], bool] | None = None,
) -> str | None:
    """Who receives a designation as its holder and ``leaving`` leave the game (726.4, 725.4).

    The active player, unless they are leaving or there is none; then the next
    player in turn order (counted from the active player's seat, or from the
    seat of the player whose turn it is) who is neither gone nor leaving. With
    shared team turns every member of the active team is an active player; if
    more than one could receive it, ``decision`` is asked (the rules do not say
    who picks; the model lets the chooser name one). ``can_hold`` filters out
    players who can't receive it; None when nobody can.

    >>> from kb.core.game import Game
    >>> g = Game(["Ann", "Bruno", "Cleo"], active="Ann")
    >>> successor(g, ["Cleo"], "x", "725.4"), successor(g, ["Ann"], "x", "725.4")
    ('Ann', 'Bruno')
    >>> successor(g, ["Ann"], "x", "725.4", can_hold=lambda p: p != "Bruno")
    'Cleo'
    >>> successor(g, ["Ann"], "x", "725.4", can_hold=lambda p: False) is None
    True
    """

    def eligible(player: str) -> bool:
        return player not in leaving and (can_hold is None or can_hold(player))

    candidates = [p for p in turns.active_players(game) if eligible(p)]
    if len(candidates) > 1:
        chosen: str = game.choose(Decision(decision, candidates[0], tuple(candidates), rule))
        return chosen  # one of the candidates: game.choose refuses any other answer
    if candidates:
        return candidates[0]
    staying = [p for p in turns.in_game(game) if eligible(p)]
    seat = game.active_player or game.turn_of
    if seat is None:
        return staying[0] if staying else None
    return turns.next_in_turn_order(game, seat, skip=[p for p in game.order if p not in staying])
