"""The four dungeon graphs, checked against the printed cards (reference section 3)."""

from __future__ import annotations

import pytest

from kb.core import dungeons

EDGES = {
    "Undercity": {
        "Secret Entrance": ("Forge", "Lost Well"),
        "Forge": ("Trap!", "Arena"),
        "Lost Well": ("Arena", "Stash"),
        "Trap!": ("Archives",),
        "Arena": ("Archives", "Catacombs"),
        "Stash": ("Catacombs",),
        "Archives": ("Throne of the Dead Three",),
        "Catacombs": ("Throne of the Dead Three",),
        "Throne of the Dead Three": (),
    },
    "Lost Mine of Phandelver": {
        "Cave Entrance": ("Goblin Lair", "Mine Tunnels"),
        "Goblin Lair": ("Storeroom", "Dark Pool"),
        "Mine Tunnels": ("Dark Pool", "Fungi Cavern"),
        "Storeroom": ("Temple of Dumathoin",),
        "Dark Pool": ("Temple of Dumathoin",),
        "Fungi Cavern": ("Temple of Dumathoin",),
        "Temple of Dumathoin": (),
    },
    "Dungeon of the Mad Mage": {
        "Yawning Portal": ("Dungeon Level",),
        "Dungeon Level": ("Goblin Bazaar", "Twisted Caverns"),
        "Goblin Bazaar": ("Lost Level",),
        "Twisted Caverns": ("Lost Level",),
        "Lost Level": ("Runestone Caverns", "Muiral's Graveyard"),
        "Runestone Caverns": ("Deep Mines",),
        "Muiral's Graveyard": ("Deep Mines",),
        "Deep Mines": ("Mad Wizard's Lair",),
        "Mad Wizard's Lair": (),
    },
    "Tomb of Annihilation": {
        "Trapped Entry": ("Veils of Fear", "Oubliette"),
        "Veils of Fear": ("Sandfall Cell",),
        "Sandfall Cell": ("Cradle of the Death God",),
        "Oubliette": ("Cradle of the Death God",),
        "Cradle of the Death God": (),
    },
}


@pytest.mark.parametrize("name", list(EDGES))
def test_graph_is_exact(name):
    dungeon = dungeons.get(name)
    assert {room.name: room.leads_to for room in dungeon.rooms} == EDGES[name]
    assert dungeon.topmost == next(iter(EDGES[name]))


def test_path_counts_and_lengths():
    lengths = {name: sorted(len(p) for p in dungeons.get(name).paths()) for name in EDGES}
    assert lengths == {
        "Undercity": [5] * 6,
        "Lost Mine of Phandelver": [4] * 4,
        "Dungeon of the Mad Mage": [7] * 4,
        "Tomb of Annihilation": [3, 4],
    }


def test_only_undercity_has_a_dungeon_type():
    assert [d.name for d in dungeons.DUNGEONS.values() if d.subtypes] == ["Undercity"]
    assert "Undercity" not in dungeons.appropriate(None)
    assert dungeons.appropriate("Undercity") == ("Undercity",)


def test_targeted_rooms():
    targets = {
        (d.name, r.name): r.target for d in dungeons.DUNGEONS.values() for r in d.rooms if r.target
    }
    assert targets == {
        ("Undercity", "Forge"): "creature",
        ("Undercity", "Trap!"): "player",
        ("Undercity", "Arena"): "creature",
        ("Lost Mine of Phandelver", "Storeroom"): "creature",
        ("Lost Mine of Phandelver", "Fungi Cavern"): "creature",
        ("Dungeon of the Mad Mage", "Twisted Caverns"): "creature",
    }


def test_unknown_names_are_clear_errors():
    with pytest.raises(KeyError, match="unknown dungeon"):
        dungeons.get("Baldur's Gate Wilderness")
    with pytest.raises(KeyError, match="no room"):
        dungeons.UNDERCITY.room("Cave Entrance")
