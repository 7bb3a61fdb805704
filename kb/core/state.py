"""The pieces of game state: a player's small board and a triggered ability.

Kept apart from :mod:`kb.core.game` so the rule modules can share them without
importing the game object. Plain dataclasses; no behaviour beyond labels and their
plain-data views (a player's part of a snapshot, a trigger's log entry).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Player:
    """What the model knows of one player.

    ``life`` is a personal total; in Two-Headed Giant the team total is used
    instead (810.4, 810.9) and this field is ignored. ``sideboard`` names the cards
    the player owns outside the game besides their dungeon cards, which are never
    part of it (309.2, :mod:`kb.core.outside`).
    """

    name: str
    team: str | None = None
    in_game: bool = True
    life: int = 20
    library: int = 60
    hand: int = 7
    lands: int = 0
    dungeon: str | None = None
    dungeon_id: int | None = None  # a new object each time a dungeon enters the command zone
    room: str | None = None
    completed: list[str] = field(default_factory=list)
    creatures: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    noted: list[str] = field(default_factory=list)  # scry, goad and other recorded effects
    drew_from_empty: bool = False
    sideboard: list[str] = field(default_factory=list)

    def as_state(self, life: int, outside: list[str]) -> dict[str, Any]:
        """This player's part of a snapshot; ``life`` and ``outside`` are the game's to say
        (the team's total in Two-Headed Giant; the cards they own outside the game, their
        dungeon cards first)."""
        return {
            "in_game": self.in_game,
            "team": self.team,
            "life": life,
            "library": self.library,
            "hand": self.hand,
            "lands": self.lands,
            "dungeon": self.dungeon,
            "room": self.room,
            "completed": list(self.completed),
            "creatures": list(self.creatures),
            "tokens": list(self.tokens),
            "counters": dict(self.counters),
            "noted": list(self.noted),
            "outside": outside,
        }


# The triggered abilities the model knows, with the rule that creates each.
ABILITY_RULES = {
    "upkeep": "726.2",  # at the beginning of the holder's upkeep, venture into Undercity
    "steal": "726.2",  # creatures of a player dealt combat damage to the holder
    "taken": "726.2",  # whenever a player takes the initiative (also 726.5)
    "room": "309.4c",  # a dungeon room's ability
    "venture": "701.49",  # a card's ability "... venture into the dungeon"
    "monarch_draw": "725.2",  # at the beginning of the monarch's end step, that player draws
    "monarch_steal": "725.2",  # one per creature that deals combat damage to the monarch
}


@dataclass
class Trigger:
    """A triggered ability, from the moment it triggers until it leaves the stack.

    ``player`` is the player the ability acts for: the one who takes the
    initiative, becomes the monarch, draws or ventures. ``controller`` is fixed
    when it triggers. ``creature`` names the creature whose combat damage made
    the monarch's trigger trigger (one trigger per creature, 725.2).
    """

    id: int
    ability: str
    controller: str
    player: str
    dungeon: str | None = None
    dungeon_id: int | None = None
    room: str | None = None
    quality: str | None = None
    targets: tuple[str, ...] = ()
    creature: str | None = None

    @property
    def rule(self) -> str:
        return ABILITY_RULES[self.ability]

    @property
    def label(self) -> str:
        """``ability:subject@controller``, e.g. ``steal:Cleo@Ann``.

        Rooms name the room, and the monarch's combat damage trigger names its
        creature (``monarch_steal:Wolf@Ann``), so two creatures make two labels.
        """
        subject = self.room if self.ability == "room" else (self.creature or self.player)
        return f"{self.ability}:{subject}@{self.controller}"

    def describe(self) -> str:
        """The label plus chosen targets, as shown in snapshots: ``room:Trap!@Ann->Cleo``."""
        return self.label + "".join(f"->{t}" for t in self.targets)

    def as_log(self) -> dict[str, str | None]:
        entry: dict[str, str | None] = {
            "label": self.label,
            "ability": self.ability,
            "rule": self.rule,
            "controller": self.controller,
            "player": self.player,
        }
        if self.room:
            entry.update(dungeon=self.dungeon, room=self.room)
        if self.quality:
            entry["quality"] = self.quality
        if self.creature:
            entry["creature"] = self.creature
        return entry
