"""The initiative where established engines go wrong, through the Game API directly."""

from __future__ import annotations

import pytest

from kb.core import Game, Refused, ScriptedChooser, first_option


def game(n=4, **kwargs) -> Game:
    names = ["Ann", "Bruno", "Cleo", "Dan", "Eve", "Fay"][:n]
    return Game(names, chooser=first_option, **kwargs)


def test_no_initiative_until_taken():
    g = game(active="Ann")
    g.begin_upkeep()
    assert g.initiative is None and g.pending == []


def test_controller_is_holder_at_trigger_time_not_first_holder():
    g = game(active="Bruno")
    g.take_initiative("Ann")
    g.resolve_all()
    g.combat_damage({"Bruno": 1}, to="Ann")
    g.resolve_all()
    g.combat_damage({"Cleo": 1}, to="Bruno")
    (steal,) = g.pending
    assert (steal.controller, steal.player) == ("Bruno", "Cleo")


def test_a_waiting_trigger_keeps_its_controller_when_the_holder_changes():
    g = game(active="Ann", initiative="Ann")
    g.begin_upkeep()
    g.take_initiative("Bruno")
    assert [t.label for t in g.pending] == ["upkeep:Ann@Ann", "taken:Bruno@Bruno"]


def test_one_steal_trigger_per_damaging_player_in_2hg():
    g = Game(
        ["Ann", "Abe", "Bea", "Bob"],
        teams={"A": ["Ann", "Abe"], "B": ["Bea", "Bob"]},
        active="Bea",
        initiative="Ann",
        chooser=first_option,
    )
    g.combat_damage({"Bea": 2, "Bob": 3}, to="Ann")
    assert sorted(t.label for t in g.pending) == ["steal:Bea@Ann", "steal:Bob@Ann"]


@pytest.mark.parametrize(
    "order, last",
    [
        (["steal:Bea@Ann", "steal:Bob@Ann"], "Bea"),
        (["steal:Bob@Ann", "steal:Bea@Ann"], "Bob"),
    ],
)
def test_the_holder_orders_the_steals_and_the_first_put_keeps_it(order, last):
    g = Game(
        ["Ann", "Abe", "Bea", "Bob"],
        teams={"A": ["Ann", "Abe"], "B": ["Bea", "Bob"]},
        active="Bea",
        initiative="Ann",
    )
    g.combat_damage({"Bea": 1, "Bob": 1}, to="Ann")
    chooser = ScriptedChooser([{"order_triggers": order}])
    g.resolve_all(chooser=chooser)
    assert chooser.asked[0].player == "Ann"
    assert g.initiative == last
    assert {p: g.players[p].room for p in ("Bea", "Bob")} == {
        "Bea": "Secret Entrance",
        "Bob": "Secret Entrance",
    }


def test_taking_it_again_ventures_again_without_a_second_designation():
    g = game(active="Ann", initiative="Ann")
    g.take_initiative("Ann")
    g.resolve_all()
    g.take_initiative("Ann")
    g.resolve_all()
    assert g.initiative == "Ann"
    assert g.players["Ann"].room in ("Forge", "Lost Well")
    assert [e["rule"] for e in g.log if e["kind"] == "takes_initiative"] == ["726.5", "726.5"]


def test_a_refused_event_changes_nothing():
    g = game(active="Ann")
    before = g.snapshot()
    with pytest.raises(Refused) as refusal:
        g.venture("Ann", chooser=ScriptedChooser([{"dungeon": "Undercity"}]))
    assert refusal.value.reason == "undercity_needs_venture_into_undercity"
    assert g.snapshot() == before
    assert g.log[-1]["kind"] == "refused"


def test_venture_into_undercity_never_asks_for_another_dungeon():
    g = game(active="Ann")
    chooser = ScriptedChooser([])
    g.venture_into("Ann", chooser=chooser)
    assert chooser.asked == [] and g.players["Ann"].dungeon == "Undercity"


def test_events_for_players_who_left_are_refused():
    g = game(active="Ann")
    g.concede("Cleo")
    for call in (
        lambda: g.take_initiative("Cleo"),
        lambda: g.venture("Cleo"),
        lambda: g.combat_damage({"Cleo": 1}, to="Ann"),
    ):
        with pytest.raises(Refused, match="player_not_in_game"):
            call()


def test_combat_damage_from_a_teammate_is_refused():
    g = Game(
        ["Ann", "Abe", "Bea", "Bob"],
        teams={"A": ["Ann", "Abe"], "B": ["Bea", "Bob"]},
        active="Ann",
        initiative="Ann",
    )
    with pytest.raises(Refused, match="not_an_opponent"):
        g.combat_damage({"Abe": 1}, to="Ann")
