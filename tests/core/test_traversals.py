"""Whole traversals of each dungeon along every path, through the public Game API."""

from __future__ import annotations

import pytest
from core_helpers import PlanChooser

from kb.core import Game, dungeons

PATHS = [(d.name, path) for d in dungeons.DUNGEONS.values() for path in d.paths()]


def new_game(chooser) -> Game:
    game = Game(["Ann", "Bruno"], active="Ann", chooser=chooser)
    game.players["Ann"].creatures = ["Ann's Knight"]
    game.players["Bruno"].creatures = ["Bruno's Bear"]
    return game


@pytest.mark.parametrize("name, path", PATHS, ids=[" > ".join(p) for _, p in PATHS])
def test_every_path(name, path):
    game = new_game(PlanChooser(name, path))
    visited = []
    for index, _room in enumerate(path):
        if name == "Undercity":
            game.venture_into("Ann")
        else:
            game.venture("Ann")
        visited.append(game.players["Ann"].room)
        game.run_until_priority()
        if index < len(path) - 1:
            game.resolve_all()
    # The marker is in the last room and its ability is on the stack: not completed yet.
    assert visited == list(path)
    assert game.players["Ann"].dungeon == name and game.players["Ann"].completed == []
    assert game.snapshot()["stack"] == [f"room:{path[-1]}@Ann"]
    game.resolve_all()
    assert game.players["Ann"].dungeon is None
    assert game.players["Ann"].completed == [name]
    ventures = [e for e in game.log if e["kind"] == "ventures"]
    assert [e["room"] for e in ventures] == list(path)
    assert [e["kind"] for e in game.log].count("completes_dungeon") == 1


@pytest.mark.parametrize("name", list(dungeons.DUNGEONS))
def test_venturing_again_from_the_last_room_restarts(name):
    path = dungeons.get(name).paths()[0]
    quality = "Undercity" if name == "Undercity" else None
    game = new_game(PlanChooser(name, path + path))
    for _ in path:
        game.venture_into("Ann", quality) if quality else game.venture("Ann")
        game.run_until_priority()
    # One more venture while the last room's ability is on the stack (701.49c).
    game.venture_into("Ann", quality) if quality else game.venture("Ann")
    assert game.players["Ann"].completed == [name]
    assert game.players["Ann"].dungeon == name and game.players["Ann"].room == path[0]
