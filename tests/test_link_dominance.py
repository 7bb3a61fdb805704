"""Dominance and support: of the rules a group names, the one explaining more or lacking least
is linked; a rule its description refers to stays beside it, a thin rule gives way to one of
its family named by several concepts, and a hint's `also` brings in the rule saying the same;
links are ordered most specific first."""

from __future__ import annotations

import kb.link.dominance
from kb import link
from kb.link import evidence, scoring


def test_a_rule_named_by_one_word_of_its_own_gives_way_to_one_of_its_family_named_by_several():
    # Creatures dealing combat damage to the monarch, and "you draw only one card": 725.3's
    # only one (monarch) is named, but 725.2 is named by four of its own concepts.
    found = ["monarch", "become_monarch", "combat_damage", "creature", "draw_card", "end_step"]
    found += ["only_one", "control", "ability"]
    table = link.evidence_table()
    thin = {l.rule: l for l in scoring.candidates(scoring.votes_of(found), table)}
    assert thin["725.3"].distinctive == ("only_one",) and thin["725.3"].score >= scoring.WEAKEST
    assert [l.rule for l in link.rules_for(found)] == ["725.2"]
    # Another family's rule named by one word is not its to drop: the initiative's upkeep
    # trigger ordered among others is 726.2's and 603.3b's.
    found = ["initiative", "take_initiative", "upkeep", "combat_damage", "undercity"]
    found += ["venture_into_undercity", "choose_order", "triggered_ability", "stack"]
    linked = {l.rule: l for l in link.rules_for(found)}
    assert sorted(linked) == ["603.3b", "726.2"] and linked["603.3b"].distinctive == (
        "choose_order",
    )


def _without_reference(rule: str, reference: str) -> evidence.EvidenceTable:
    """The carried rules' evidence with ``reference`` (" (309.7)") cut from ``rule``'s
    description."""
    descriptions = evidence.read_descriptions()
    descriptions[rule] = descriptions[rule].replace(reference, "")
    plain = evidence.table_for(set(link.evidence_table().rules), descriptions)
    assert plain.rules[rule].refers == frozenset()
    return plain


def test_a_rule_keeps_a_thin_rule_its_description_refers_to():
    # 701.49d's description sends a venture into a dungeon already started to 701.49b: a
    # ruling on venturing into Undercity (chosen from outside the game, or else on from a
    # room with an arrow onward) explains both.
    found = ["dungeon", "venture_into_undercity", "undercity", "room", "venture_marker"]
    found += ["next_room", "outside_game", "choose_dungeon"]
    table = link.evidence_table()
    assert table.rules["701.49d"].refers == {"701.49b", "701.49c"}
    # (Both restate or touch by their scores: the order is not the point.)
    assert sorted(l.rule for l in link.rules_for(found)) == ["701.49b", "701.49d"]
    # Without the reference, 701.49b (named by next_room alone) gives way to 701.49d.
    plain = _without_reference("701.49d", " (701.49b, 701.49c)")
    assert [l.rule for l in link.rules_for(found, table=plain)] == ["701.49d"]


def test_a_restated_rule_keeps_the_rule_its_description_refers_to_beside_it():
    # 701.49c refers completing the dungeon to 309.7, as the CR does ("see rule 309.7"): a
    # group restating the venture from the last room that says the dungeon is completed
    # explains 309.7 as well, though 701.49c names all 309.7 names.
    found = ["dungeon", "venture", "venture_marker", "last_room", "room", "complete_dungeon"]
    found += ["remove_from_game", "first_room", "start_dungeon", "outside_game", "command_zone"]
    table = link.evidence_table()
    assert "309.7" in table.rules["701.49c"].refers
    assert [l.rule for l in link.rules_for(found)] == ["309.7", "701.49c"]
    # Without the reference, 701.49c takes 309.7's place.
    fates = {
        f.rule: f for f in scoring.decide(found, table=_without_reference("701.49c", " (309.7)"))
    }
    assert (fates["309.7"].kind, fates["309.7"].by) == ("dominated", "701.49c")
    # A group that only touches 701.49c (covers under half of it) does not keep 309.7 by it.
    touched = ["dungeon", "venture", "last_room", "room", "complete_dungeon", "start_dungeon"]
    touched += ["instruct", "undercity", "venture_into_undercity", "next_room"]
    assert "309.7" not in [l.rule for l in link.rules_for(touched)]


def test_a_rule_restated_wholly_is_not_set_aside_for_one_only_touched():
    # When is a dungeon completed? When its card is removed from the game, whether by a
    # venture from its last room or by the state-based action. The group names all 309.7
    # names; 701.49c names it all and more, but the group covers under half of 701.49c.
    completing = ["complete_dungeon", "dungeon", "remove_from_game", "venture", "last_room"]
    completing += ["room", "room_ability", "ability", "stack"]
    fates = {f.rule: f for f in scoring.decide(completing)}
    assert fates["309.7"].link.whole and not fates["701.49c"].link.restates
    assert fates["309.7"].linked and fates["701.49c"].linked
    # Completing named by one language only, the group no longer says all 309.7 says: a
    # rule naming all the group names of 309.7 and more takes its place.
    stray = {c: 1.0 for c in completing} | {"complete_dungeon": 1 / 6}
    fates = {f.rule: f for f in scoring.decide(stray)}
    assert not fates["309.7"].linked and fates["309.7"].kind == "dominated"


def test_undercity_s_dungeon_type_keeps_the_venture_into_undercity_it_names():
    # 205.3p's description says what Undercity's dungeon type is for, naming 701.49d: a group
    # on a venture into Undercity that must start Undercity explains both, though 205.3p's
    # concepts hold all 701.49d's the group names.
    found = ["dungeon", "venture_into_undercity", "undercity", "dungeon_type", "instruct"]
    found += ["start_dungeon"]
    table = link.evidence_table()
    assert table.rules["205.3p"].refers == {"701.49d"}
    assert [l.rule for l in link.rules_for(found)] == ["205.3p", "701.49d"]
    fates = {
        f.rule: f for f in scoring.decide(found, table=_without_reference("205.3p", " (701.49d)"))
    }
    assert (fates["701.49d"].kind, fates["701.49d"].by) == ("dominated", "205.3p")


def test_a_ruling_on_the_dungeon_a_player_starts_explains_the_keyword_action_too():
    # Starting a dungeon from outside the game is 309.2a from the card's side and 701.49a from
    # the keyword action's, whether or not the ruling says "venture" (the hint's `when`).
    found = ["dungeon", "start_dungeon", "outside_game"]
    assert [l.rule for l in link.rules_for(found)] == ["309.2a", "701.49a"]
    # Without a start or a venture, a dungeon outside the game is no keyword action.
    assert "701.49a" not in [l.rule for l in link.rules_for(["dungeon", "outside_game", "deck"])]


def test_of_rules_naming_the_same_the_one_lacking_least_wins():
    # Starting a dungeon and its first room: 701.49a, not 309.5b or 701.49c (which also
    # start one, after removing the last one from the game).
    found = ["dungeon", "start_dungeon", "first_room", "room", "venture_marker", "venture"]
    assert [l.rule for l in link.rules_for(found)] == ["701.49a"]
    # The first room is one of the ways its hint names 701.49a's point: a group naming it does
    # not lack the others (the dungeon from outside the game, not being in a dungeon, the
    # choice of a dungeon), while
    # 309.5b lacks its removal from the game.
    table = link.evidence_table()
    ways = {"first_room", "outside_game", "not_in_dungeon", "choose_dungeon"}
    assert ways in table.hints["701.49a"].requires
    assert scoring.link_to("701.49a", scoring.votes_of(found), table).lacking == 0
    assert scoring.link_to("309.5b", scoring.votes_of(found), table).lacking > 0
    # A group naming none of them lacks them all (and its gate refuses it).
    assert scoring.link_to("701.49a", scoring.votes_of(["dungeon", "venture"]), table).lacking > 0


def test_the_order_of_choices_brings_in_the_order_of_triggered_abilities_that_follows_it():
    # Each player ventures: the active player chooses first, then the others in turn order,
    # and the markers move at once (101.4). The room abilities then go on the stack in that
    # same order, which is 603.3b's (hints.yaml: 101.4's `also`, when triggered abilities).
    choosing = ["venture", "dungeon", "active_player", "turn_order", "simultaneously"]
    assert [l.rule for l in link.rules_for(choosing)] == ["101.4"]
    triggering = ["room_ability", "triggered_ability", "ability", "stack", "resolve"]
    fates = {f.rule: f for f in scoring.decide(choosing + triggering)}
    assert (fates["603.3b"].kind, fates["603.3b"].by) == ("restated", "101.4")
    assert fates["101.4"].linked


def test_a_rule_explaining_more_drops_one_explaining_less_even_unlinked():
    # 800.4a names leaving the game with one's dungeon, the stack and abilities; 309.2b only
    # the dungeon leaving the game. 800.4a has nothing distinctive here, 309.2b gives way.
    found = ["leave_game", "dungeon", "stack", "ability"]
    assert "309.2b" not in [l.rule for l in link.rules_for(found)]
    assert "309.2b" in [l.rule for l in link.rules_for(["leave_game", "dungeon"])]


def test_a_card_rule_brings_in_the_keyword_action_saying_the_same_when_the_group_ventures():
    # 309.5a (the dungeon card's side) and 701.49b (the keyword action) state one step; the
    # hint's `also` links the action's rule too, but only for a group that ventures.
    moving = ["dungeon", "arrow", "command_zone", "room", "venture_marker"]
    assert [l.rule for l in link.rules_for(moving + ["venture"])] == ["309.5a", "701.49b"]
    assert [l.rule for l in link.rules_for(moving)] == ["309.5a"]
    table = evidence.evidence_table()
    plain = evidence.EvidenceTable(
        table.rules,
        table.weight,
        table.families,
        {r: h for r, h in table.hints.items() if not h.also},
        table.contrasts,
        table.sections,
    )
    assert [l.rule for l in link.rules_for(moving + ["venture"], table=plain)] == ["309.5a"]
    # 701.49d refers a venture into Undercity from a dungeon's last room to 701.49c, which
    # 309.5b states from the card's side (its hint needs the last room, which the group names).
    into = ["dungeon", "venture_into_undercity", "undercity", "room", "venture_marker"]
    from_last = [l.rule for l in link.rules_for(into + ["last_room"])]
    assert from_last == ["309.5b", "701.49c", "701.49d"]
    assert [l.rule for l in link.rules_for(into + ["first_room"])] == ["701.49d"]


def test_most_specific_first_restated_rules_before_touched_ones():
    links = link.rules_for(
        {
            "initiative",
            "take_initiative",
            "combat_damage",
            "team",
            "triggered_ability",
            "ability",
            "choose_order",
            "venture_into_undercity",
            "undercity",
            "two_headed_giant",
        }
    )
    assert [(l.rule, l.restates) for l in links] == [("726.2", True), ("603.3b", False)]


def test_a_dungeon_that_no_effect_can_exile_is_not_a_player_leaving_the_game():
    # 309.2c: a dungeon card leaves the command zone only as it leaves the game, so no effect
    # exiles it. A ruling saying so names exile and leaving the game, as 800.4a does (a player
    # who leaves takes their objects along; what they control is exiled), but it is 309.2c's.
    found = ["dungeon", "permanent", "cast", "command_zone", "leave_game", "exile", "ability"]
    fates = {f.rule: f for f in scoring.decide(found)}
    assert fates["309.2c"].linked and "exile" in fates["309.2c"].link.concepts
    assert not fates["800.4a"].linked and fates["800.4a"].by == "309.2c"
    # A player who leaves the game with their dungeon is still 800.4a's.
    leaving = ["dungeon", "command_zone", "leave_game", "room_ability", "stack", "ability"]
    leaving += ["triggered_ability", "cease_to_exist"]
    assert "800.4a" in [l.rule for l in link.rules_for(leaving)]


def test_the_cases_of_one_rule_do_not_outweigh_each_other(monkeypatch):
    """A ruling that walks through the whole venture (not in a dungeon: start one; in any
    other room: on to the next; in the last: complete it and start anew) restates each case of
    701.49. The next room alone names 701.49b, but it gives way to no other case of its rule,
    as a rule named by one word of its own gives way to one of its family named by several."""
    walk = ["venture", "venture_marker", "dungeon", "room", "not_in_dungeon", "first_room"]
    walk += ["choose_dungeon", "next_room", "move_on", "last_room", "complete_dungeon"]
    assert {"701.49a", "701.49b", "701.49c"} <= {l.rule for l in link.rules_for(walk)}
    monkeypatch.setattr(kb.link.dominance, "cases_of_one_rule", lambda first, second: False)
    fates = {f.rule: f for f in scoring.decide(sorted(walk))}
    assert (fates["701.49b"].kind, fates["701.49b"].by) == ("outweighed", "701.49a")


def test_a_rule_of_one_designation_never_drops_a_rule_of_the_other(monkeypatch):
    """Combat damage to a player who is the monarch and has the initiative triggers both
    designations' abilities: the initiative's 726.2 names all that the monarch's 725.2 names
    and more, but it explains nothing about the monarch, so both are linked."""
    both = ["monarch", "become_monarch", "initiative", "take_initiative", "combat_damage"]
    both += ["creature", "control", "triggered_ability", "undercity", "venture_into_undercity"]
    assert [l.rule for l in link.rules_for(both)] == ["725.2", "726.2"]
    monkeypatch.setattr(kb.link.dominance, "other_designation", lambda *rules: False)
    fates = {f.rule: f for f in scoring.decide(sorted(both))}
    assert (fates["725.2"].kind, fates["725.2"].by) == ("dominated", "726.2")
