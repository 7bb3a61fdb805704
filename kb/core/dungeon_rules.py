"""The dungeon and venturing rows of the rule table: rule 309, the dungeon type (205.3p)
and the keyword action "venture into the dungeon" (701.49).

Kept apart from :mod:`kb.core.rule_table`, which puts them in its ``TABLE`` in this
order, so that each module stays small; how a row is written is :mod:`kb.core.rule_history`.
"""

from __future__ import annotations

from kb.core.rule_history import TRACKED_SINCE, Rule, rule, unchanged

# 701.46 "Venture into the Dungeon" became 701.49 on 2025-06-06.
_VENTURE_SECTIONS = ((TRACKED_SINCE, "701.46"), ("2025-06-06", "701.49"))


def _venture(letter: str, since: str = TRACKED_SINCE) -> tuple[tuple[str, str], ...]:
    history = [(max(date, since), f"{section}{letter}") for date, section in _VENTURE_SECTIONS]
    return tuple(history)


DUNGEON_RULES: tuple[Rule, ...] = (
    # Dungeons.
    rule(
        "309.2",
        "Dungeons start outside the game",
        "Dungeon cards start outside the game, are no part of a deck or sideboard, and "
        "come in only by venturing.",
        "outside.cards",
        note="The June 2022 edition read the same but for its cross-reference to the "
        "keyword action, then numbered 701.46.",
    ),
    rule(
        "309.2a",
        "Bringing a dungeon in",
        "Venturing with no dungeon in the command zone brings one in from outside the game.",
        "venture.start",
    ),
    rule(
        "309.2b",
        "Command zone",
        "A dungeon brought into the game stays in the command zone until it leaves the game.",
        "venture.start",
    ),
    rule(
        "309.2c",
        "Not a permanent",
        "Dungeons are not permanents, can't be targeted as "
        "creatures, and leave the command zone only by leaving the game.",
        "rooms.target_options",
    ),
    rule(
        "309.2d",
        "Only venturing brings a dungeon in",
        "An effect other than a venture that would bring a dungeon card in from outside the "
        "game leaves it outside.",
        "outside.bring_in",
    ),
    rule(
        "309.3",
        "One dungeon each",
        "A player has at most one dungeon in the command zone "
        "and brings in no other while it is there.",
        "venture.start",
    ),
    rule(
        "309.4a",
        "Topmost room",
        "A dungeon entering the command zone gets its owner's venture marker on its topmost room.",
        "venture.start",
    ),
    rule(
        "309.4c",
        "Room abilities",
        "Moving the marker into a room triggers that room's "
        "ability, controlled by the dungeon's owner.",
        "venture.enter_room",
    ),
    rule(
        "309.5a",
        "Following an arrow",
        "Venturing from a room other than the last moves the "
        "marker along an arrow of the player's choice.",
        "venture.advance",
    ),
    rule(
        "309.5b",
        "Venturing from the last room",
        "Venturing from the bottommost room "
        "removes that dungeon and brings in a new one at its topmost room.",
        "venture.complete_and_restart",
    ),
    rule(
        "309.6",
        "Dungeon removal",
        "A dungeon whose marker is on its last room is removed "
        "once none of its room abilities is waiting or on the stack.",
        "sba.dungeons_to_complete",
    ),
    rule(
        "309.7",
        "Completing",
        "Removing a dungeon from the game is completing it.",
        "venture.complete",
    ),
    rule(
        "205.3p",
        "Dungeon type Undercity",
        "Undercity is the one dungeon with a dungeon "
        'type, Undercity; only it answers "venture into Undercity", and its printed rule '
        "keeps plain ventures out.",
        "dungeons.appropriate",
        unchanged("205.3p", "2022-06-10"),
    ),
    # Venture into the dungeon.
    rule(
        "701.49a",
        "Venture: starting",
        "With no dungeon, venturing brings in a dungeon of "
        "the player's choice with the marker on its first room.",
        "venture.venture",
        _venture("a"),
    ),
    rule(
        "701.49b",
        "Venture: advancing",
        "Otherwise the marker moves to an adjacent room along an arrow the player picks.",
        "venture.advance",
        _venture("b"),
    ),
    rule(
        "701.49c",
        "Venture: from the last room",
        "From the last room, the player completes "
        "the dungeon and starts an appropriate one, even if the last room's ability is still "
        "pending.",
        "venture.complete_and_restart",
        _venture("c"),
    ),
    rule(
        "701.49d",
        "Venture into [quality]",
        '"Venture into Undercity" starts only a '
        "dungeon with that quality; inside a dungeon it advances or completes like any "
        "venture.",
        "venture.choose_dungeon",
        _venture("d", since="2022-06-10"),
    ),
)
