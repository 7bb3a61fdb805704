"""Leaving the game with 3 to 6 players: the initiative never goes to someone gone or going."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.core import Game, first_option, turns

NAMES = ["Ann", "Bruno", "Cleo", "Dan", "Eve", "Fay"]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_holder_then_active_player_concede_in_one_turn(n):
    names = NAMES[:n]
    g = Game(names, active="Ann", initiative=names[-1], chooser=first_option)
    g.concede(names[-1])
    assert g.initiative == "Ann"
    g.concede("Ann")
    if n == 3:
        assert g.game_over and g.winners == ["Bruno"]
        return
    assert g.initiative == "Bruno" and g.active_player is None and g.turn_of == "Ann"
    assert "taken:Ann@Ann" not in g.snapshot()["stack"]
    g.resolve_all()
    assert g.players["Bruno"].dungeon == "Undercity"
    assert g.players["Ann"].dungeon is None


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_active_holder_concedes_next_in_turn_order(n):
    names = NAMES[:n]
    g = Game(names, active=names[1], initiative=names[1], chooser=first_option)
    g.concede(names[1])
    assert g.initiative == names[2]


def test_simultaneous_leavers_are_skipped():
    g = Game(NAMES, active="Cleo", initiative="Dan", chooser=first_option)
    g.leave_game("Cleo", "Dan", "Eve")
    assert g.initiative == "Fay"
    assert g.active_player is None


def test_no_active_player_counts_from_the_turn_owner_seat():
    g = Game(NAMES[:5], active="Ann", initiative="Dan", chooser=first_option)
    g.concede("Ann")
    g.concede("Bruno")
    g.concede("Dan")  # holder leaves with no active player: next after Ann's seat still here
    assert g.initiative == "Cleo"


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 6), data=st.data())
def test_leaving_sequences_keep_the_initiative_with_a_player_in_the_game(n, data):
    names = NAMES[:n]
    active = data.draw(st.sampled_from(names))
    holder = data.draw(st.sampled_from(names))
    g = Game(names, active=active, initiative=holder, chooser=first_option)
    order = data.draw(st.permutations(names))
    for leaver in order[:-1]:
        active_before = g.active_player
        holder_before = g.initiative
        g.concede(leaver)
        if g.initiative is not None:
            assert g.players[g.initiative].in_game
        if holder_before == leaver:
            if active_before not in (None, leaver):
                assert g.initiative == active_before  # 726.4, the active player
            else:
                seat = active_before or g.turn_of
                assert g.initiative == turns.next_in_turn_order(g, seat)
        else:
            assert g.initiative == holder_before
        if not g.game_over:
            g.resolve_all()
    assert g.game_over and g.winners == [order[-1]]
    assert g.initiative == order[-1]
