"""Outside the game: what a player owns there, and what an effect may bring in from there.

Dungeon cards start the game outside it and belong to no deck or sideboard (309.2): the
model's players each own every dungeon card, and a sideboard is the list of a player's
other cards outside the game, by name (the main deck is the library, a count). A dungeon
card named in a sideboard is refused as the game is set up. Only venturing brings a
dungeon card in (:mod:`kb.core.venture`); an effect that would bring one in otherwise
leaves it where it is (309.2d), while the other cards it brings go to the player's hand.

>>> from kb.core.game import Game
>>> g = Game(["Ann", "Bruno"], sideboards={"Ann": ["Lightning Bolt"]})
>>> cards(g, "Ann")[0], cards(g, "Ann")[-1], len(cards(g, "Bruno"))
('Undercity', 'Lightning Bolt', 4)
>>> g.bring_from_outside("Ann", "Tomb of Annihilation")
>>> g.log[-1]["kind"], g.players["Ann"].dungeon
('stays_outside_game', None)
>>> Game(["Ann"], sideboards={"Ann": ["Undercity"]})  # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: Ann's sideboard names the dungeon card Undercity: ... (309.2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from kb.core import dungeons
from kb.core.choices import Refused

if TYPE_CHECKING:  # pragma: no cover
    from kb.core.game import Game


def give_sideboards(game: Game, sideboards: Mapping[str, Sequence[str]]) -> None:
    """Set each named player's sideboard, refusing a dungeon card in one (309.2)."""
    for name, sideboard in sideboards.items():
        if name not in game.players:
            raise ValueError(f"unknown player {name!r}")
        named = [card for card in sideboard if card in dungeons.DUNGEONS]
        if named:
            raise ValueError(
                f"{name}'s sideboard names the dungeon card {', '.join(named)}: dungeon cards "
                "are no part of a deck or sideboard, they start outside the game (309.2)"
            )
        game.players[name].sideboard = list(sideboard)


def cards(game: Game, player: str) -> list[str]:
    """The cards ``player`` owns outside the game: each dungeon card not in the command zone
    (all of them as the game starts, 309.2), then their sideboard.

    A completed dungeon has been removed from the game, so it is outside it again.
    """
    p = game.players[player]
    return [name for name in dungeons.DUNGEONS if name != p.dungeon] + list(p.sideboard)


def bring_in(game: Game, player: str, card: str) -> None:
    """An effect other than a venture would bring ``card``, which ``player`` owns outside the
    game, into the game (into their hand). A dungeon card stays outside the game (309.2d).
    """
    if card not in cards(game, player):
        raise Refused("not_outside_the_game", player=player, card=card)
    if card in dungeons.DUNGEONS:
        game.note("stays_outside_game", player=player, card=card, rule="309.2d")
        return
    p = game.players[player]
    p.sideboard.remove(card)
    p.hand += 1
    game.note("brings_into_hand", player=player, card=card)
