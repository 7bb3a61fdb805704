"""Venturing into the dungeon (701.49, 309.2-309.7): start, advance, complete and start anew.

``quality`` is ``None`` for a plain "venture into the dungeon" and ``"Undercity"``
for "venture into Undercity" (701.49d). The quality only matters when a
dungeon is chosen from outside the game: once a player is in a dungeon, both
kinds of venture follow the same arrows (701.49d sends them to 701.49b-c).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.core import dungeons, outside
from kb.core.choices import Decision, Refused
from kb.core.state import Player

if TYPE_CHECKING:  # pragma: no cover
    from kb.core.game import Game


def venture(game: Game, player: str, quality: str | None) -> None:
    """Carry out one venture for ``player``, whichever case of 701.49 applies."""
    p = game.players[player]
    if p.dungeon is None:
        start(game, player, quality, rule="701.49d" if quality else "701.49a")
    elif p.room == dungeons.get(p.dungeon).bottommost:
        complete_and_restart(game, player, quality)
    else:
        advance(game, player)


def choose_dungeon(game: Game, player: str, quality: str | None, rule: str) -> str:
    """The player picks an appropriate dungeon they own from outside the game (205.3p, 701.49d).

    Every player is taken to own every dungeon card, outside the game unless it is in
    the command zone (309.2, :func:`kb.core.outside.cards`). A plain venture may not
    pick Undercity; a venture into Undercity may pick nothing else.
    """
    owned = outside.cards(game, player)
    options = tuple(name for name in dungeons.appropriate(quality) if name in owned)
    decision = Decision("dungeon", player, options, rule, {"quality": quality})
    if len(options) == 1:
        return options[0]
    answer = game.chooser(decision)
    if isinstance(answer, str) and answer in options:
        return answer
    if answer in dungeons.DUNGEONS and quality is None:
        raise Refused(
            "undercity_needs_venture_into_undercity", player=player, dungeon=answer, rule="701.49d"
        )
    if answer in dungeons.DUNGEONS:
        raise Refused(
            "venture_into_needs_quality",
            player=player,
            dungeon=answer,
            quality=quality,
            rule="701.49d",
        )
    raise Refused("illegal_choice", choice="dungeon", answer=answer, options=list(options))


def start(game: Game, player: str, quality: str | None, rule: str) -> None:
    """Bring a dungeon into the command zone, marker on its topmost room (309.2a, 309.3, 309.4a)."""
    p = game.players[player]
    if p.dungeon is not None:  # 309.3: one dungeon of theirs in the command zone at a time
        raise Refused("already_in_a_dungeon", player=player, dungeon=p.dungeon, rule="309.3")
    name = choose_dungeon(game, player, quality, rule)
    p.dungeon, p.dungeon_id, p.room = name, game.new_dungeon_id(), None
    game.note("starts_dungeon", player=player, dungeon=name, rule=rule)
    enter_room(game, player, dungeons.get(name).topmost, rule)


def advance(game: Game, player: str) -> None:
    """Follow an arrow from the current room; with two arrows the player picks one (701.49b, 309.5a)."""
    dungeon, current = marker(game.players[player])
    options = dungeons.get(dungeon).next_rooms(current)
    room = game.choose(
        Decision("room", player, options, "701.49b", {"dungeon": dungeon, "from": current})
    )
    enter_room(game, player, room, "701.49b")


def complete_and_restart(game: Game, player: str, quality: str | None) -> None:
    """From the bottommost room: complete the dungeon, then start an appropriate one (701.49c, 309.5b).

    This happens even while the last room's ability is still waiting or on the
    stack: the venture itself removes the dungeon, not the state-based action.
    """
    complete(game, player, rule="701.49c")
    start(game, player, quality, rule="701.49c")


def complete(game: Game, player: str, rule: str) -> None:
    """Remove the dungeon from the game; that is completing it (309.7)."""
    p = game.players[player]
    dungeon, _ = marker(p)
    game.note("completes_dungeon", player=player, dungeon=dungeon, rule=rule)
    p.completed.append(dungeon)
    p.dungeon = p.dungeon_id = p.room = None


def enter_room(game: Game, player: str, room: str, rule: str) -> None:
    """Move the venture marker into ``room``; its room ability triggers, controlled by the owner (309.4c)."""
    p = game.players[player]
    p.room = room
    game.note("ventures", player=player, dungeon=p.dungeon, room=room, rule=rule)
    game.new_trigger(
        "room",
        controller=player,
        player=player,
        dungeon=p.dungeon,
        dungeon_id=p.dungeon_id,
        room=room,
    )


def marker(p: Player) -> tuple[str, str]:
    """Where ``p``'s venture marker is: their dungeon and its room.

    Advancing and completing happen only inside a dungeon (:func:`venture` starts
    one first), so a player without one here is a mistake in the caller.
    """
    if p.dungeon is None or p.room is None:
        raise ValueError(f"{p.name} has no dungeon in the command zone")
    return p.dungeon, p.room
