"""Every rule the core carries out, as a table: number, history, title, summary, code.

Each row is a :class:`~kb.core.rule_history.Rule` (numbers of the edition in force from
2026-04-17, with the history of the numbers each rule had; how a row is written is
:mod:`kb.core.rule_history`). The dungeon and venturing rows are
:mod:`kb.core.dungeon_rules`; ``TABLE`` holds them all, in the order the registry and the
docs list them. :mod:`kb.core.registry` looks the table up.
"""

from __future__ import annotations

from kb.core.dungeon_rules import DUNGEON_RULES
from kb.core.rule_history import TRACKED_SINCE, Rule, rule

__all__ = ["TABLE", "TRACKED_SINCE", "Rule"]

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


def _initiative(sub: str) -> tuple[tuple[str, str], ...]:
    return tuple((date, f"{section}.{sub}") for date, section in _INITIATIVE_SECTIONS)


def _monarch(sub: str) -> tuple[tuple[str, str], ...]:
    return tuple((date, f"{section}.{sub}") for date, section in _MONARCH_SECTIONS)


TABLE: tuple[Rule, ...] = (
    # The initiative.
    rule(
        "726.1",
        "The initiative",
        "A designation a player can have; a game has none until "
        "an effect tells someone to take it.",
        "game.Game.take_initiative",
        _initiative("1"),
    ),
    rule(
        "726.2",
        "The initiative's three triggers",
        "Three sourceless triggers (holder's "
        "upkeep: venture into Undercity; combat damage to the holder: that player takes it; "
        "taking it: venture into Undercity), each controlled by whoever holds it when it "
        "triggers.",
        "initiative.trigger",
        _initiative("2"),
    ),
    rule(
        "726.3",
        "One holder",
        "Only one player has the initiative; as someone takes it, the previous holder loses it.",
        "initiative.take",
        _initiative("3"),
    ),
    rule(
        "726.4",
        "Holder leaves the game",
        "When the holder leaves, the active player takes "
        "the initiative at that moment, or the next player in turn order if the active player "
        "is leaving too or there is none.",
        "initiative.recipient_on_leave",
        _initiative("4"),
    ),
    rule(
        "726.5",
        "Taking it again",
        "A holder told to take the initiative ventures again but gets no second designation.",
        "initiative.retake",
        _initiative("5"),
    ),
    # The monarch: the initiative's sibling designation.
    rule(
        "725.1",
        "The monarch",
        "A designation a player can have; a game has none until an "
        "effect tells someone to become the monarch.",
        "game.Game.become_monarch",
        _monarch("1"),
    ),
    rule(
        "725.2",
        "The monarch's two triggers",
        "Two sourceless triggers, each controlled by "
        "whoever is the monarch when it triggers: the monarch's end step: that player draws; "
        "each creature dealing combat damage to the monarch: its controller becomes the "
        "monarch.",
        "monarch.steal_triggers",
        _monarch("2"),
    ),
    rule(
        "725.3",
        "One monarch",
        "Only one player is the monarch; as someone becomes it, the "
        "previous monarch stops being it.",
        "monarch.become",
        _monarch("3"),
    ),
    rule(
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
    rule(
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
    # Dungeons, the dungeon type and venturing (kb.core.dungeon_rules).
    *DUNGEON_RULES,
    # State-based actions.
    rule(
        "704.5t",
        "Dungeon SBA",
        "The state-based action form of 309.6: a finished dungeon "
        "waits for its last room's ability to leave the stack.",
        "sba.dungeons_to_complete",
    ),
    rule(
        "704.5a",
        "Zero life",
        "A player with 0 or less life loses the game.",
        "sba.players_who_lose",
    ),
    rule(
        "704.5b",
        "Empty library",
        "A player who drew from an empty library loses the game.",
        "sba.players_who_lose",
    ),
    # Triggers and their order.
    rule(
        "101.4",
        "APNAP order",
        "Simultaneous choices go in turn order starting from the active player.",
        "turns.apnap_groups",
    ),
    rule(
        "603.3",
        "Triggers wait for priority",
        "A triggered ability goes on the stack the next time a player would receive priority, "
        "not as it triggers.",
        "stack.put_pending_on_stack",
    ),
    rule(
        "603.3b",
        "Triggers onto the stack",
        "Waiting triggers go on the stack player by "
        "player in APNAP order, each player ordering their own.",
        "stack.put_pending_on_stack",
    ),
    rule(
        "603.3d",
        "No legal target",
        "A trigger that needs a target and has none is removed as it would go on the stack.",
        "stack.put_on_stack",
    ),
    # Multiplayer.
    rule(
        "800.4a",
        "Leaving the game",
        "A leaver's dungeon and other objects leave with them; "
        "abilities they control on the stack cease to exist.",
        "leaving.remove_player",
    ),
    rule(
        "800.4d",
        "Leaver's triggers",
        "A trigger that a player who has left would control is not put on the stack.",
        "stack.put_pending_on_stack",
    ),
    rule(
        "800.4j",
        "No active player",
        "If the active player leaves, the turn goes on with no active player.",
        "leaving.leave",
    ),
    rule(
        "800.4k",
        "A leaver's turn",
        "A turn of a player who has left does not begin.",
        "turns.next_turn",
    ),
    # Two-Headed Giant.
    rule(
        "805.7",
        "Team trigger order",
        "With shared team turns, the active team puts all its "
        "players' triggers on the stack first, then each other team.",
        "turns.apnap_groups",
    ),
    rule(
        "810.8b",
        "Team concedes",
        "In Two-Headed Giant a conceding player's whole team leaves the game.",
        "leaving.with_teammates",
    ),
    rule("810.8c", "Team life", "A team at 0 or less life loses the game.", "sba.players_who_lose"),
    rule(
        "810.9",
        "Shared life",
        "Damage, life loss and life gain happen to one player and change the team's shared total.",
        "turns.change_life",
    ),
)
