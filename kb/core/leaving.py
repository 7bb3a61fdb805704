"""Leaving a multiplayer game (800.4): what goes with the player, and who keeps playing.

When players leave, at the same moment: the initiative passes on if its
holder is among them (726.4), so does the monarch, or the game goes on with no
monarch (725.4), the dungeons they own leave the game (800.4a,
not a completion), their creatures and tokens leave, and abilities they control
on the stack cease to exist (800.4a). Their waiting triggers are dropped when
they would be put on the stack (800.4d, in :mod:`kb.core.stack`). If the
active player leaves, the turn goes on with no active player (800.4j). In
Two-Headed Giant a player who concedes or loses takes the team along (810.8a-b).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.core import initiative, monarch, turns

if TYPE_CHECKING:  # pragma: no cover
    from kb.core.game import Game


def with_teammates(game: Game, players: list[str]) -> list[str]:
    """Players plus their teammates still in the game: teams leave and lose together (810.8a-b)."""
    result = []
    for name in turns.in_game(game):
        team = game.players[name].team
        if name in players or (
            team is not None and any(game.players[p].team == team for p in players)
        ):
            result.append(name)
    return result


def leave(game: Game, players: list[str], reason: str) -> None:
    """The players leave the game simultaneously."""
    leaving = with_teammates(game, players)
    initiative.pass_on_leave(game, leaving)
    monarch.pass_on_leave(game, leaving)
    for name in leaving:
        remove_player(game, name, reason)
    if game.active_player in leaving:
        game.active_player = None
        game.note("no_active_player", rule="800.4j")
    check_game_over(game)


def remove_player(game: Game, name: str, reason: str) -> None:
    """One player's objects leave with them (800.4a)."""
    p = game.players[name]
    p.in_game = False
    game.note("leaves_game", player=name, reason=reason)
    if p.dungeon is not None:
        game.note("dungeon_leaves_game", player=name, dungeon=p.dungeon, rule="800.4a")
        p.dungeon = p.dungeon_id = p.room = None
    p.creatures, p.tokens, p.counters = [], [], {}
    for ability in [a for a in game.stack if a.controller == name]:
        game.stack.remove(ability)
        game.note("ceases_to_exist", label=ability.label, controller=name, rule="800.4a")


def check_game_over(game: Game) -> None:
    """The game ends when only one player, or one team, is left (104.2a)."""
    players = turns.in_game(game)
    sides = {game.players[p].team or p for p in players}
    if len(sides) <= 1 and not game.game_over:
        game.game_over = True
        game.winners = players
        game.note("game_over", winners=players)
