"""State-based actions the model needs: completing a dungeon (704.5t) and losing the game.

All applicable actions are performed at once as one event (704.3); :func:`check`
returns whether any was performed, so the caller checks again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.core import dungeons, leaving, turns, venture

if TYPE_CHECKING:  # pragma: no cover
    from kb.core.game import Game


def check(game: Game) -> bool:
    """Perform every applicable state-based action simultaneously; True if any was."""
    finished = dungeons_to_complete(game)
    losers = players_who_lose(game)
    for player in finished:
        venture.complete(game, player, rule="704.5t")
    if losers:
        leaving.leave(game, losers, reason="loses")
    return bool(finished or losers)


def dungeons_to_complete(game: Game) -> list[str]:
    """Owners of a dungeon whose marker is on its bottommost room and no room ability of it waits (704.5t, 309.6).

    "Triggered but not yet left the stack" covers an ability waiting to be put
    on the stack as well as one on it; both hold the dungeon in place.
    """
    waiting = {a.dungeon_id for a in game.pending + game.stack if a.ability == "room"}
    return [
        name
        for name in turns.in_game(game)
        if (p := game.players[name]).dungeon is not None
        and p.room == dungeons.get(p.dungeon).bottommost
        and p.dungeon_id not in waiting
    ]


def players_who_lose(game: Game) -> list[str]:
    """0 or less life (704.5a; a team total in 2HG, 810.8c) or a draw from an empty library (704.5b)."""
    losers = []
    for name in turns.in_game(game):
        p = game.players[name]
        if turns.life(game, name) <= 0 or p.drew_from_empty:
            rule = "704.5b" if p.drew_from_empty else ("810.8c" if p.team else "704.5a")
            game.note("loses_game", player=name, rule=rule)
            losers.append(name)
    return losers
