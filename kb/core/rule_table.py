"""Every rule the core carries out, as a table: number, history, title, summary, code.

Numbers are those of the Comprehensive Rules in force from 2026-04-17. Rule numbers moved
over the years (the initiative was 721 when it was printed, the monarch 720), so each rule
keeps its ``history``: (effective date, number) pairs, oldest first, from the first edition
the project tracks (2021-07-23, the first with dungeons) or from the edition that introduced
the rule; a rule whose first edition is not known starts at the first edition known to have
it. ``note`` says what the history alone does not (a rule that was worded differently, an
unknown start). :mod:`kb.core.registry` looks the table up.
"""

from __future__ import annotations

from dataclasses import dataclass

TRACKED_SINCE = "2021-07-23"

# Effective dates at which rule 726 (the initiative) got a new number (reference 1.1).
_INITIATIVE_SECTIONS = (
    ("2022-06-10", "721"),
    ("2022-10-07", "722"),
    ("2022-11-18", "723"),
    ("2023-04-14", "722"),
    ("2024-02-02", "723"),
    ("2025-04-04", "724"),
    ("2025-07-25", "725"),
    ("2026-04-17", "726"),
)
# Rule 725 (the monarch) over the same editions, one number below the initiative from
# 2022-06-10 on; before the initiative existed it was 720 as well (reference 1.1).
_MONARCH_SECTIONS = (
    (TRACKED_SINCE, "720"),
    ("2022-10-07", "721"),
    ("2022-11-18", "722"),
    ("2023-04-14", "721"),
    ("2024-02-02", "722"),
    ("2025-04-04", "723"),
    ("2025-07-25", "724"),
    ("2026-04-17", "725"),
)
# 701.46 "Venture into the Dungeon" became 701.49 on 2025-06-06.
_VENTURE_SECTIONS = ((TRACKED_SINCE, "701.46"), ("2025-06-06", "701.49"))


def _initiative(sub: str) -> tuple[tuple[str, str], ...]:
    return tuple((date, f"{section}.{sub}") for date, section in _INITIATIVE_SECTIONS)


def _monarch(sub: str) -> tuple[tuple[str, str], ...]:
    return tuple((date, f"{section}.{sub}") for date, section in _MONARCH_SECTIONS)


def _venture(letter: str, since: str = TRACKED_SINCE) -> tuple[tuple[str, str], ...]:
    history = [(max(date, since), f"{section}{letter}") for date, section in _VENTURE_SECTIONS]
    return tuple(history)


def _unchanged(number: str, since: str = TRACKED_SINCE) -> tuple[tuple[str, str], ...]:
    return ((since, number),)


@dataclass(frozen=True)
class Rule:
    """One registered rule. ``carried_by`` is the dotted name of the code that carries it out."""

    number: str
    history: tuple[tuple[str, str], ...]
    title: str
    summary: str
    carried_by: str
    note: str = ""


def _rule(
    number: str,
    title: str,
    summary: str,
    carried_by: str,
    history: tuple[tuple[str, str], ...] | None = None,
    note: str = "",
) -> Rule:
    return Rule(
        number, history or _unchanged(number), title, summary, "kb.core." + carried_by, note
    )


TABLE: tuple[Rule, ...] = (
    # The initiative.
    _rule(
        "726.1",
        "The initiative",
        "A designation a player can have; a game has none until "
        "an effect tells someone to take it.",
        "game.Game.take_initiative",
        _initiative("1"),
    ),
    _rule(
        "726.2",
        "The initiative's three triggers",
        "Three sourceless triggers (holder's "
        "upkeep: venture into Undercity; combat damage to the holder: that player takes it; "
        "taking it: venture into Undercity), each controlled by whoever holds it when it "
        "triggers.",
        "initiative.trigger",
        _initiative("2"),
    ),
    _rule(
        "726.3",
        "One holder",
        "Only one player has the initiative; as someone takes it, the previous holder loses it.",
        "initiative.take",
        _initiative("3"),
    ),
    _rule(
        "726.4",
        "Holder leaves the game",
        "When the holder leaves, the active player takes "
        "the initiative at that moment, or the next player in turn order if the active player "
        "is leaving too or there is none.",
        "initiative.recipient_on_leave",
        _initiative("4"),
    ),
    _rule(
        "726.5",
        "Taking it again",
        "A holder told to take the initiative ventures again but gets no second designation.",
        "initiative.retake",
        _initiative("5"),
    ),
    # The monarch: the initiative's sibling designation.
    _rule(
        "725.1",
        "The monarch",
        "A designation a player can have; a game has none until an "
        "effect tells someone to become the monarch.",
        "game.Game.become_monarch",
        _monarch("1"),
    ),
    _rule(
        "725.2",
        "The monarch's two triggers",
        "Two sourceless triggers, each controlled by "
        "whoever is the monarch when it triggers: the monarch's end step: that player draws; "
        "each creature dealing combat damage to the monarch: its controller becomes the "
        "monarch.",
        "monarch.steal_triggers",
        _monarch("2"),
    ),
    _rule(
        "725.3",
        "One monarch",
        "Only one player is the monarch; as someone becomes it, the "
        "previous monarch stops being it.",
        "monarch.become",
        _monarch("3"),
    ),
    _rule(
        "725.4",
        "Monarch leaves the game",
        "When the monarch leaves, the active player "
        "becomes the monarch at that moment, else the next player in turn order who can; if "
        "nobody can, the game goes on with no monarch.",
        "monarch.recipient_on_leave",
        _monarch("4"),
        note="In the June 2022 edition (720.4) the next player in turn order "
        "became the monarch, with no words on who can become it; those came in a later "
        "edition the project does not pin down.",
    ),
    _rule(
        "725.5",
        "No monarch, no effect",
        "A continuous effect from a static ability that "
        "depends on who the monarch is does nothing while there is no monarch.",
        "monarch.affected",
        (("2026-04-17", "725.5"),),
        note="Not in the June 2022 edition "
        "(there was no 720.5). It was added in an edition between then and April 2026 "
        "that the project does not pin down, so no earlier number is given.",
    ),
    # Dungeons.
    _rule(
        "309.2a",
        "Bringing a dungeon in",
        "Venturing with no dungeon in the command zone brings one in from outside the game.",
        "venture.start",
    ),
    _rule(
        "309.2b",
        "Command zone",
        "A dungeon brought into the game stays in the command zone until it leaves the game.",
        "venture.start",
    ),
    _rule(
        "309.2c",
        "Not a permanent",
        "Dungeons are not permanents, can't be targeted as "
        "creatures, and leave the command zone only by leaving the game.",
        "rooms.target_options",
    ),
    _rule(
        "309.3",
        "One dungeon each",
        "A player has at most one dungeon in the command zone "
        "and brings in no other while it is there.",
        "venture.start",
    ),
    _rule(
        "309.4a",
        "Topmost room",
        "A dungeon entering the command zone gets its owner's venture marker on its topmost room.",
        "venture.start",
    ),
    _rule(
        "309.4c",
        "Room abilities",
        "Moving the marker into a room triggers that room's "
        "ability, controlled by the dungeon's owner.",
        "venture.enter_room",
    ),
    _rule(
        "309.5a",
        "Following an arrow",
        "Venturing from a room other than the last moves the "
        "marker along an arrow of the player's choice.",
        "venture.advance",
    ),
    _rule(
        "309.5b",
        "Venturing from the last room",
        "Venturing from the bottommost room "
        "removes that dungeon and brings in a new one at its topmost room.",
        "venture.complete_and_restart",
    ),
    _rule(
        "309.6",
        "Dungeon removal",
        "A dungeon whose marker is on its last room is removed "
        "once none of its room abilities is waiting or on the stack.",
        "sba.dungeons_to_complete",
    ),
    _rule(
        "309.7",
        "Completing",
        "Removing a dungeon from the game is completing it.",
        "venture.complete",
    ),
    _rule(
        "205.3p",
        "Dungeon type Undercity",
        "Undercity is the one dungeon with a dungeon "
        'type, Undercity; only it answers "venture into Undercity", and its printed rule '
        "keeps plain ventures out.",
        "dungeons.appropriate",
        _unchanged("205.3p", "2022-06-10"),
    ),
    # Venture into the dungeon.
    _rule(
        "701.49a",
        "Venture: starting",
        "With no dungeon, venturing brings in a dungeon of "
        "the player's choice with the marker on its first room.",
        "venture.venture",
        _venture("a"),
    ),
    _rule(
        "701.49b",
        "Venture: advancing",
        "Otherwise the marker moves to an adjacent room along an arrow the player picks.",
        "venture.advance",
        _venture("b"),
    ),
    _rule(
        "701.49c",
        "Venture: from the last room",
        "From the last room, the player completes "
        "the dungeon and starts an appropriate one, even if the last room's ability is still "
        "pending.",
        "venture.complete_and_restart",
        _venture("c"),
    ),
    _rule(
        "701.49d",
        "Venture into [quality]",
        '"Venture into Undercity" starts only a '
        "dungeon with that quality; inside a dungeon it advances or completes like any "
        "venture.",
        "venture.choose_dungeon",
        _venture("d", since="2022-06-10"),
    ),
    # State-based actions.
    _rule(
        "704.5t",
        "Dungeon SBA",
        "The state-based action form of 309.6: a finished dungeon "
        "waits for its last room's ability to leave the stack.",
        "sba.dungeons_to_complete",
    ),
    _rule(
        "704.5a",
        "Zero life",
        "A player with 0 or less life loses the game.",
        "sba.players_who_lose",
    ),
    _rule(
        "704.5b",
        "Empty library",
        "A player who drew from an empty library loses the game.",
        "sba.players_who_lose",
    ),
    # Triggers and their order.
    _rule(
        "101.4",
        "APNAP order",
        "Simultaneous choices go in turn order starting from the active player.",
        "turns.apnap_groups",
    ),
    _rule(
        "603.3b",
        "Triggers onto the stack",
        "Waiting triggers go on the stack player by "
        "player in APNAP order, each player ordering their own.",
        "stack.put_pending_on_stack",
    ),
    _rule(
        "603.3d",
        "No legal target",
        "A trigger that needs a target and has none is removed as it would go on the stack.",
        "stack.put_on_stack",
    ),
    # Multiplayer.
    _rule(
        "800.4a",
        "Leaving the game",
        "A leaver's dungeon and other objects leave with them; "
        "abilities they control on the stack cease to exist.",
        "leaving.remove_player",
    ),
    _rule(
        "800.4d",
        "Leaver's triggers",
        "A trigger that a player who has left would control is not put on the stack.",
        "stack.put_pending_on_stack",
    ),
    _rule(
        "800.4j",
        "No active player",
        "If the active player leaves, the turn goes on with no active player.",
        "leaving.leave",
    ),
    _rule(
        "800.4k",
        "A leaver's turn",
        "A turn of a player who has left does not begin.",
        "turns.next_turn",
    ),
    # Two-Headed Giant.
    _rule(
        "805.7",
        "Team trigger order",
        "With shared team turns, the active team puts all its "
        "players' triggers on the stack first, then each other team.",
        "turns.apnap_groups",
    ),
    _rule(
        "810.8b",
        "Team concedes",
        "In Two-Headed Giant a conceding player's whole team leaves the game.",
        "leaving.with_teammates",
    ),
    _rule(
        "810.8c", "Team life", "A team at 0 or less life loses the game.", "sba.players_who_lose"
    ),
    _rule(
        "810.9",
        "Shared life",
        "Damage, life loss and life gain happen to one player and change the team's shared total.",
        "turns.change_life",
    ),
)
