"""Outside the game (309.2, 309.2d): dungeon cards start there and only venturing brings them in."""

from __future__ import annotations

import pytest

from kb.core import DUNGEONS, Game, Refused, ScriptedChooser, outside, scenario

ALL_DUNGEONS = list(DUNGEONS)


def test_dungeon_cards_start_outside_the_game_and_the_sideboard_follows():
    g = Game(["Ann", "Bruno"], sideboards={"Ann": ["Lightning Bolt"]})
    assert outside.cards(g, "Ann") == [*ALL_DUNGEONS, "Lightning Bolt"]
    assert g.snapshot()["players"]["Bruno"]["outside"] == ALL_DUNGEONS
    assert g.players["Ann"].library == 60 and g.players["Ann"].hand == 7


@pytest.mark.parametrize("where", ["Game", "scenario"])
def test_a_dungeon_card_in_a_sideboard_is_refused(where):
    if where == "Game":
        with pytest.raises(ValueError, match=r"dungeon card Undercity: .*\(309\.2\)"):
            Game(["Ann", "Bruno"], sideboards={"Ann": ["Lightning Bolt", "Undercity"]})
        return
    run = scenario.run(
        {
            "id": "dungeon-in-sideboard",
            "title": "t",
            "rules": ["309.2"],
            "players": ["Ann", "Bruno"],
            "start": {"players": {"Ann": {"sideboard": ["Tomb of Annihilation"]}}},
            "steps": [{"run_until_priority": None}],
        }
    )
    assert not run.passed and "bad starting state" in run.failure and "309.2" in run.failure


def test_a_sideboard_of_an_unknown_player_is_an_error():
    with pytest.raises(ValueError, match="unknown player 'Cleo'"):
        Game(["Ann", "Bruno"], sideboards={"Cleo": []})


def test_the_dungeon_in_the_command_zone_is_not_outside_until_completed():
    g = Game(["Ann", "Bruno"], chooser=ScriptedChooser([{"dungeon": "Lost Mine of Phandelver"}]))
    g.venture("Ann")
    assert "Lost Mine of Phandelver" not in outside.cards(g, "Ann")
    g.players["Ann"].room = "Temple of Dumathoin"
    g.pending.clear()
    g.run_until_priority()  # 309.6: removed from the game, so outside it again
    assert g.players["Ann"].completed == ["Lost Mine of Phandelver"]
    assert outside.cards(g, "Ann") == ALL_DUNGEONS


def test_an_effect_leaves_a_dungeon_card_outside_the_game():
    g = Game(["Ann", "Bruno"], sideboards={"Ann": ["Lightning Bolt"]})
    before = g.snapshot()
    g.bring_from_outside("Ann", "Undercity")
    assert g.snapshot() == before and g.pending == []
    assert g.log[-1] == {
        "kind": "stays_outside_game",
        "player": "Ann",
        "card": "Undercity",
        "rule": "309.2d",
    }


def test_an_effect_brings_another_card_into_the_hand():
    g = Game(["Ann", "Bruno"], sideboards={"Ann": ["Lightning Bolt"]})
    g.bring_from_outside("Ann", "Lightning Bolt")
    assert g.players["Ann"].hand == 8 and outside.cards(g, "Ann") == ALL_DUNGEONS
    assert g.log[-1]["kind"] == "brings_into_hand"


@pytest.mark.parametrize("card", ["Lightning Bolt", "Tomb of Annihilation"])
def test_only_a_card_outside_the_game_can_be_brought_in(card):
    g = Game(["Ann", "Bruno"], chooser=ScriptedChooser([{"dungeon": "Tomb of Annihilation"}]))
    g.venture("Ann")  # Tomb of Annihilation is now in the command zone
    before = g.snapshot()
    with pytest.raises(Refused) as refusal:
        g.bring_from_outside("Ann", card)
    assert refusal.value.reason == "not_outside_the_game"
    assert g.snapshot() == before
