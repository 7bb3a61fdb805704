"""The monarch (725) through the Game API: where it differs from the initiative, and 725.4's walk."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.core import Game, Refused, ScriptedChooser, first_option, turns

NAMES = ["Ann", "Bruno", "Cleo", "Dan", "Eve", "Fay"]


def game(n=3, **kwargs) -> Game:
    return Game(NAMES[:n], chooser=first_option, **kwargs)


def test_no_monarch_until_an_effect_and_becoming_it_triggers_nothing():
    g = game(active="Ann")
    g.begin_end_step()
    assert g.monarch is None and g.pending == []
    g.become_monarch("Bruno")
    assert g.monarch == "Bruno" and g.pending == [] and g.snapshot()["monarch"] == "Bruno"


def test_one_trigger_per_creature_against_one_per_player_for_the_initiative():
    g = game(active="Bruno", monarch="Ann", initiative="Ann")
    g.players["Bruno"].creatures = ["Wolf", "Bear", "Ogre"]
    g.combat_damage({"Bruno": ["Wolf", "Bear", "Ogre"]}, to="Ann")
    labels = [t.label for t in g.pending]
    assert labels.count("steal:Bruno@Ann") == 1
    assert [t.creature for t in g.pending if t.ability == "monarch_steal"] == [
        "Wolf",
        "Bear",
        "Ogre",
    ]
    assert {(t.controller, t.player) for t in g.pending} == {("Ann", "Bruno")}


def test_damage_to_someone_else_makes_no_monarch_trigger():
    g = game(active="Bruno", monarch="Ann")
    g.players["Bruno"].creatures = ["Wolf"]
    g.combat_damage({"Bruno": ["Wolf"]}, to="Cleo")
    assert g.pending == []


def test_damage_to_the_monarch_needs_creature_names_and_changes_nothing_without_them():
    g = game(active="Bruno", monarch="Ann")
    before = g.snapshot()
    with pytest.raises(ValueError, match="one per creature"):
        g.combat_damage({"Bruno": 2}, to="Ann", damage={"Bruno": 4})
    assert g.snapshot() == before
    g.combat_damage({"Bruno": 2}, to="Cleo")  # a count is fine for anyone else
    assert g.pending == []


def test_a_waiting_draw_keeps_its_controller_and_player_when_the_title_moves():
    g = game(active="Ann", monarch="Ann")
    g.begin_end_step()
    g.become_monarch("Cleo")
    (draw,) = g.pending
    assert (draw.label, draw.controller, draw.player) == ("monarch_draw:Ann@Ann", "Ann", "Ann")
    g.resolve_all()
    assert (g.players["Ann"].hand, g.players["Cleo"].hand) == (8, 7)


def test_the_monarch_orders_its_triggers_and_the_first_put_keeps_the_title():
    g = Game(
        ["Ann", "Abe", "Bea", "Bob"],
        teams={"A": ["Ann", "Abe"], "B": ["Bea", "Bob"]},
        active="Bea",
        monarch="Ann",
    )
    g.players["Bea"].creatures, g.players["Bob"].creatures = ["Bear"], ["Wolf"]
    g.combat_damage({"Bea": ["Bear"], "Bob": ["Wolf"]}, to="Ann")
    chooser = ScriptedChooser(
        [{"order_triggers": ["monarch_steal:Wolf@Ann", "monarch_steal:Bear@Ann"]}]
    )
    g.resolve_all(chooser=chooser)
    assert chooser.asked[0].player == "Ann" and g.monarch == "Bob"


def test_two_headed_giant_end_step_is_the_monarchs_when_the_team_is_active():
    g = Game(
        ["Ann", "Abe", "Bea", "Bob"],
        teams={"A": ["Ann", "Abe"], "B": ["Bea", "Bob"]},
        active="Ann",
        monarch="Abe",
    )
    g.begin_end_step()
    assert [t.label for t in g.pending] == ["monarch_draw:Abe@Abe"]
    g.resolve_all()
    g.begin_turn()
    g.begin_end_step()
    assert g.pending == [] and g.active_player == "Bea"


def test_the_monarch_leaving_with_shared_team_turns_asks_which_active_player_becomes_it():
    teams = {"A": ["Ann", "Abe"], "B": ["Bea", "Bob"], "C": ["Cal", "Cid"]}
    g = Game([p for ps in teams.values() for p in ps], teams=teams, active="Bea", monarch="Ann")
    chooser = ScriptedChooser([{"monarch_recipient": "Bob"}])
    g.concede("Ann", chooser=chooser)  # Ann's team leaves with her (810.8b)
    (asked,) = chooser.asked
    assert (asked.player, asked.options, asked.rule) == ("Bea", ("Bea", "Bob"), "725.4")
    assert g.monarch == "Bob" and not g.game_over


def test_designations_are_handed_on_independently():
    # Ann holds both; Bruno (active) can't become the monarch but takes the initiative.
    g = game(4, active="Bruno", monarch="Ann", initiative="Ann", cant_become_monarch=["Bruno"])
    g.concede("Ann")
    assert (g.initiative, g.monarch) == ("Bruno", "Cleo")
    assert [t.label for t in g.pending] == ["taken:Bruno@Bruno"]


def test_a_player_who_cant_become_the_monarch_never_does_by_combat():
    g = game(active="Bruno", monarch="Ann", cant_become_monarch=["Bruno"])
    g.players["Bruno"].creatures = ["Wolf"]
    g.combat_damage({"Bruno": ["Wolf"]}, to="Ann")
    g.resolve_all()
    assert g.monarch == "Ann"
    assert g.log[-1] == {
        "kind": "cannot_become_monarch",
        "player": "Bruno",
        "monarch": "Ann",
        "rule": "101.2",
    }


def test_events_for_players_who_left_are_refused_and_change_nothing():
    g = game(active="Ann", monarch="Ann")
    g.concede("Cleo")
    before = g.snapshot()
    with pytest.raises(Refused, match="player_not_in_game"):
        g.become_monarch("Cleo")
    assert g.snapshot() == before


def test_monarch_effects_in_the_snapshot_only_when_there_are_some():
    g = game(active="Ann")
    assert "monarch_effects" not in g.snapshot() and "cant_become_monarch" not in g.snapshot()
    with pytest.raises(ValueError):
        g.monarch_effect("Odd", concerns="teammates")
    g.monarch_effect("Banner", concerns="opponents")
    assert g.snapshot()["monarch_effects"] == {"Banner": None}
    g.become_monarch("Ann")
    assert g.snapshot()["monarch_effects"] == {"Banner": ["Bruno", "Cleo"]}


@settings(max_examples=150, deadline=None)
@given(n=st.integers(3, 6), data=st.data())
def test_after_any_departures_the_monarch_is_someone_who_can_be_it(n, data):
    names = NAMES[:n]
    holder = data.draw(st.sampled_from(names))
    active = data.draw(st.sampled_from(names))
    cant = data.draw(st.lists(st.sampled_from([p for p in names if p != holder]), unique=True))
    g = Game(names, active=active, monarch=holder, cant_become_monarch=cant, chooser=first_option)
    for leaver in data.draw(st.permutations(names))[: n - 1]:
        if g.game_over:
            break
        had = g.monarch
        g.concede(leaver)
        able = [p for p in turns.in_game(g) if p not in cant]
        if g.monarch is not None:
            assert g.players[g.monarch].in_game and g.monarch not in cant
        elif had is not None and not g.game_over:
            assert able == [], "the game went on with no monarch while someone could be it"
        if had == leaver and g.active_player not in (None, leaver) and g.active_player in able:
            assert g.monarch == g.active_player
