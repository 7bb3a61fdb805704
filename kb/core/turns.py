"""Seats, turns and teams: who is active, who comes next, whose life total changes.

Turn order is the seating order given when the game is made. Players who have
left keep their seat in that list (so "the next player in turn order" can be
counted from the seat of a player who left) but are skipped.

Two-Headed Giant (810) uses shared team turns (805): the active player's team
is the active team, and life is a team total (810.4, 810.9).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from kb.core.game import Game


def in_game(game: Game) -> list[str]:
    """Players still in the game, in turn order."""
    return [name for name in game.order if game.players[name].in_game]


def next_in_turn_order(game: Game, after: str, skip: Iterable[str] = ()) -> str | None:
    """The first player after ``after``'s seat who is in the game and not in ``skip``.

    >>> from kb.core.game import Game
    >>> g = Game(["Ann", "Bruno", "Cleo"])
    >>> next_in_turn_order(g, "Cleo"), next_in_turn_order(g, "Ann", skip=["Bruno"])
    ('Ann', 'Cleo')
    """
    skip = set(skip)
    seat = game.order.index(after)
    for step in range(1, len(game.order) + 1):
        name = game.order[(seat + step) % len(game.order)]
        if game.players[name].in_game and name not in skip:
            return name
    return None


def team_of(game: Game, player: str) -> str | None:
    return game.players[player].team


def active_players(game: Game) -> list[str]:
    """The active player, or with shared team turns every member of the active team (805.4a)."""
    if game.active_player is None:
        return []
    team = team_of(game, game.active_player)
    if team is None:
        return [game.active_player]
    return [p for p in game.teams[team] if game.players[p].in_game]


def apnap_groups(game: Game) -> list[list[str]]:
    """Who puts triggers on the stack, in order: players (101.4, 603.3b) or teams (805.7).

    The first group starts at the active player; with no active player (800.4j)
    the count starts after the seat of the player whose turn it is.
    """
    players = in_game(game)
    if not players:
        return []
    start = game.active_player
    if start is None and game.turn_of is not None:
        start = next_in_turn_order(game, game.turn_of)
    if start is None:
        start = players[0]
    seat = players.index(start)
    ordered = players[seat:] + players[:seat]
    if not game.teams:
        return [[p] for p in ordered]
    groups: list[list[str]] = []
    for p in ordered:
        team = team_of(game, p)
        members = [m for m in game.teams[team] if m in players] if team is not None else [p]
        if members not in groups:
            groups.append(members)
    return groups


def opponents(game: Game, player: str) -> list[str]:
    """Players in the game who are not ``player`` nor on their team, in turn order."""
    team = team_of(game, player)
    return [p for p in in_game(game) if p != player and (team is None or team_of(game, p) != team)]


def life(game: Game, player: str) -> int:
    """A player's life total; in Two-Headed Giant the team's (810.9a)."""
    team = team_of(game, player)
    return game.team_life[team] if team is not None else game.players[player].life


def change_life(game: Game, player: str, delta: int) -> None:
    """Life is gained or lost by one player and, in Two-Headed Giant, applied to the team (810.9)."""
    if delta == 0:
        return
    team = team_of(game, player)
    if team is not None:
        game.team_life[team] += delta
    else:
        game.players[player].life += delta
    game.note(
        "gains_life" if delta > 0 else "loses_life",
        player=player,
        amount=abs(delta),
        life=life(game, player),
    )


def next_turn(game: Game) -> str | None:
    """Whose turn begins next: the next player (or team) in turn order still in the game (800.4k)."""
    if game.turn_of is None:
        players = in_game(game)
        return players[0] if players else None
    skip: list[str] = []
    team = team_of(game, game.turn_of)
    if team is not None:  # shared team turns: the whole active team has had its turn
        skip = list(game.teams[team])
    return next_in_turn_order(game, game.turn_of, skip=skip)
