"""The four dungeon cards as data: rooms, arrows and what each room's ability does.

A dungeon is a small directed graph. The first room listed is the topmost room
(309.4a), the room with no exits is the bottommost room. Each room names an
*effect key* that :mod:`kb.core.rooms` carries out, and whether its ability
targets (a creature or a player), because targets are chosen as the ability is
put on the stack.

Undercity is the one dungeon with a dungeon type (205.3p) and carries the
printed restriction "you can't enter this dungeon unless you venture into
Undercity"; :func:`appropriate` applies both.

>>> UNDERCITY.topmost, UNDERCITY.bottommost
('Secret Entrance', 'Throne of the Dead Three')
>>> len(UNDERCITY.rooms), len(LOST_MINE.rooms), len(MAD_MAGE.rooms), len(TOMB.rooms)
(9, 7, 9, 5)
>>> sorted(len(p) for p in TOMB.paths())
[3, 4]
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Room:
    """One room: its name, the effect key of its room ability, the rooms its arrows lead to."""

    name: str
    effect: str
    leads_to: tuple[str, ...] = ()
    target: str | None = None  # "creature", "player" or None


@dataclass(frozen=True)
class Dungeon:
    """A dungeon card: rooms in printed order (topmost first), its subtypes and entry rule."""

    name: str
    rooms: tuple[Room, ...]
    subtypes: tuple[str, ...] = ()
    # Undercity's printed rule: only "venture into Undercity" may bring it in.
    only_by_venture_into: str | None = None
    _by_name: dict[str, Room] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {room.name: room for room in self.rooms})

    @property
    def topmost(self) -> str:
        return self.rooms[0].name

    @property
    def bottommost(self) -> str:
        (last,) = [room.name for room in self.rooms if not room.leads_to]
        return last

    def room(self, name: str) -> Room:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"{self.name} has no room named {name!r}") from None

    def next_rooms(self, name: str) -> tuple[str, ...]:
        """The rooms the arrows from ``name`` point to, in printed left-to-right order."""
        return self.room(name).leads_to

    def paths(self) -> list[tuple[str, ...]]:
        """Every path from the topmost to the bottommost room (rooms in visiting order)."""

        def walk(name: str) -> list[tuple[str, ...]]:
            nexts = self.next_rooms(name)
            if not nexts:
                return [(name,)]
            return [(name, *rest) for nxt in nexts for rest in walk(nxt)]

        return walk(self.topmost)


UNDERCITY = Dungeon(
    "Undercity",
    (
        Room("Secret Entrance", "search_basic_land", ("Forge", "Lost Well")),
        Room("Forge", "two_counters", ("Trap!", "Arena"), target="creature"),
        Room("Lost Well", "scry_2", ("Arena", "Stash")),
        Room("Trap!", "target_loses_5", ("Archives",), target="player"),
        Room("Arena", "goad", ("Archives", "Catacombs"), target="creature"),
        Room("Stash", "treasure", ("Catacombs",)),
        Room("Archives", "draw_1", ("Throne of the Dead Three",)),
        Room("Catacombs", "skeleton_4_1", ("Throne of the Dead Three",)),
        Room("Throne of the Dead Three", "throne", ()),
    ),
    subtypes=("Undercity",),
    only_by_venture_into="Undercity",
)

LOST_MINE = Dungeon(
    "Lost Mine of Phandelver",
    (
        Room("Cave Entrance", "scry_1", ("Goblin Lair", "Mine Tunnels")),
        Room("Goblin Lair", "goblin", ("Storeroom", "Dark Pool")),
        Room("Mine Tunnels", "treasure", ("Dark Pool", "Fungi Cavern")),
        Room("Storeroom", "one_counter", ("Temple of Dumathoin",), target="creature"),
        Room("Dark Pool", "drain_1", ("Temple of Dumathoin",)),
        Room("Fungi Cavern", "minus_four", ("Temple of Dumathoin",), target="creature"),
        Room("Temple of Dumathoin", "draw_1", ()),
    ),
)

MAD_MAGE = Dungeon(
    "Dungeon of the Mad Mage",
    (
        Room("Yawning Portal", "gain_1", ("Dungeon Level",)),
        Room("Dungeon Level", "scry_1", ("Goblin Bazaar", "Twisted Caverns")),
        Room("Goblin Bazaar", "treasure", ("Lost Level",)),
        Room("Twisted Caverns", "cant_attack", ("Lost Level",), target="creature"),
        Room("Lost Level", "scry_2", ("Runestone Caverns", "Muiral's Graveyard")),
        Room("Runestone Caverns", "exile_top_2", ("Deep Mines",)),
        Room("Muiral's Graveyard", "two_skeletons", ("Deep Mines",)),
        Room("Deep Mines", "scry_3", ("Mad Wizard's Lair",)),
        Room("Mad Wizard's Lair", "mad_wizard", ()),
    ),
)

TOMB = Dungeon(
    "Tomb of Annihilation",
    (
        Room("Trapped Entry", "each_loses_1", ("Veils of Fear", "Oubliette")),
        Room("Veils of Fear", "veils_of_fear", ("Sandfall Cell",)),
        Room("Sandfall Cell", "sandfall_cell", ("Cradle of the Death God",)),
        Room("Oubliette", "oubliette", ("Cradle of the Death God",)),
        Room("Cradle of the Death God", "atropal", ()),
    ),
)

DUNGEONS: dict[str, Dungeon] = {d.name: d for d in (UNDERCITY, LOST_MINE, MAD_MAGE, TOMB)}


def get(name: str) -> Dungeon:
    """The dungeon called ``name`` (KeyError naming the known ones otherwise)."""
    try:
        return DUNGEONS[name]
    except KeyError:
        raise KeyError(f"unknown dungeon {name!r}; known: {', '.join(DUNGEONS)}") from None


def appropriate(quality: str | None) -> tuple[str, ...]:
    """Dungeons a venture may bring in: 701.49a/c for a plain venture, 701.49d with a quality.

    A plain venture may choose any dungeon whose printed text does not forbid it,
    so never Undercity; "venture into [quality]" may choose only dungeons with that
    quality, which for "Undercity" is the Undercity card alone (205.3p).

    >>> appropriate(None)
    ('Lost Mine of Phandelver', 'Dungeon of the Mad Mage', 'Tomb of Annihilation')
    >>> appropriate("Undercity")
    ('Undercity',)
    """
    if quality is None:
        return tuple(d.name for d in DUNGEONS.values() if d.only_by_venture_into is None)
    return tuple(
        d.name
        for d in DUNGEONS.values()
        if quality in d.subtypes and d.only_by_venture_into in (None, quality)
    )
