"""What became of each rule a group names (``kb links --group``): linked, refused by a gate,
or dropped for a rule that explains more, each with the step of the linker that settled it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from link_corpus import build

from kb import link
from kb.cli import cli
from kb.link import gates, scoring

ROOT = Path(__file__).parent.parent


def fates(found) -> dict[str, scoring.Fate]:
    return {fate.rule: fate for fate in scoring.decide(found)}


def test_every_rule_naming_a_mentioned_concept_has_a_fate_and_the_linked_ones_are_the_links():
    found = ["monarch", "become_monarch", "leave_game", "active_player", "turn_order"]
    table = link.evidence_table()
    decided = scoring.decide(found)
    naming = {r for r, e in table.rules.items() if e.concepts & set(found)}
    assert {fate.rule for fate in decided} == naming
    assert [f.link for f in decided if f.linked] == link.rules_for(found)
    # Linked ones first, then the rest by score, highest first.
    kinds = [fate.linked for fate in decided]
    assert kinds == sorted(kinds, reverse=True)
    rest = [fate.link.score for fate in decided if not fate.linked]
    assert rest == sorted(rest, reverse=True)
    by_rule = {fate.rule: fate for fate in decided}
    # The initiative's sibling is refused by its family's gate: the group names no initiative.
    assert by_rule["726.4"].kind == "refused" and by_rule["726.4"].gate["kind"] == "family"
    assert by_rule["800.4k"].kind == "dominated" and by_rule["800.4k"].by == "725.4"


def test_each_step_that_drops_a_rule_names_the_rule_that_took_its_place():
    # The support step: "only one" beside the monarch's combat-damage trigger.
    found = ["monarch", "become_monarch", "combat_damage", "creature", "draw_card", "end_step"]
    thin = fates(found + ["only_one", "control", "ability"])["725.3"]
    assert (thin.kind, thin.by) == ("outweighed", "725.2")
    # A rule explaining more, itself without a distinctive concept here: contained.
    contained = fates(["leave_game", "dungeon", "stack", "ability"])["309.2b"]
    assert contained.kind == "contained" and contained.by not in (None, "309.2b")
    # A restatement from another side is linked by the rule that brings it.
    moving = ["dungeon", "arrow", "command_zone", "room", "venture_marker", "venture"]
    assert (fates(moving)["701.49b"].kind, fates(moving)["701.49b"].by) == ("restated", "309.5a")
    # A group that names a rule's words in passing: every candidate is weak, none linked.
    weak = fates(["monarch", "end_step"])
    assert weak["725.2"].kind == "weak" and not any(f.linked for f in weak.values())
    # A designation the core does not carry: the group is about something else.
    table = link.evidence_table({"726.4"})
    (other,) = scoring.decide({"monarch": 1.0, "leave_game": 1.0}, table=table)
    assert other.kind == "untracked"


def test_a_rule_is_dropped_only_for_a_rule_that_is_linked():
    # How a ruling on the whole venture reads: start a dungeon when in none, else move the
    # marker on. 309.5a names all 701.49b names and the command zone, and then gives way to
    # 701.49a (one word of its own, next_room): 701.49b was said to be dropped for it.
    venture = ["command_zone", "dungeon", "first_room", "move_on", "next_room"]
    venture += ["not_in_dungeon", "outside_game", "room", "venture", "venture_marker"]
    decided = fates(venture)
    assert decided["309.5a"].kind == "outweighed" and not decided["309.5a"].linked
    # Still one that names less than a rule passing the gates, which need not be linked.
    assert (decided["701.49b"].kind, decided["701.49b"].by) == ("contained", "309.5a")


def test_a_rule_barely_touched_beside_one_of_its_family_restated_gives_way():
    # A ruling on the initiative's holder leaving (726.4) says the next player takes it and
    # ventures into Undercity: 726.2's venture, on the way to 726.4's point.
    leaving = ["initiative", "take_initiative", "leave_game", "venture_into_undercity"]
    leaving += ["undercity", "turn_continues", "turn_order"]
    decided = fates(leaving)
    assert decided["726.4"].linked and decided["726.4"].link.restates
    assert (decided["726.2"].kind, decided["726.2"].by) == ("overshadowed", "726.4")
    assert decided["726.2"].link.score < scoring.GLANCED
    votes, table = scoring.votes_of(leaving), link.evidence_table()
    why = link.reasons.fate_phrase(decided["726.2"], votes, table)
    assert why.startswith("not linked: covered only 0.3") and "beside 726.4" in why
    # Beside a rule of its family the group only touches too, it stays.
    touched = fates([c for c in leaving if c != "turn_order"])
    assert not touched["726.4"].link.restates
    assert touched["726.2"].linked and touched["726.4"].linked


CONCEPTS = sorted({c for e in link.evidence_table().rules.values() for c in e.concepts})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CONCEPTS), min_size=2, max_size=12, unique=True))
def test_every_rule_said_to_take_another_s_place_is_linked(found):
    decided = scoring.decide(found)
    linked = {f.rule for f in decided if f.linked}
    table = link.evidence_table()
    passing = gates.passing(table.imply(scoring.votes_of(found)), table)
    for fate in decided:
        if fate.kind in ("dominated", "outweighed", "overshadowed"):
            assert fate.by in linked, (fate.rule, fate.kind, fate.by, sorted(linked))
        if fate.kind == "contained":
            assert fate.by in passing


def test_each_fate_reads_as_a_line_a_maintainer_can_act_on():
    found = ["monarch", "become_monarch", "combat_damage", "creature", "draw_card", "end_step"]
    found += ["only_one", "control", "ability"]
    table = link.evidence_table()
    votes = scoring.votes_of(found)
    lines = {f.rule: link.reasons.fate_phrase(f, votes, table) for f in scoring.decide(found)}
    assert lines["725.2"].startswith("linked: restates it (covers ")
    assert lines["725.3"] == (
        "not linked: named by one concept of its own (only_one); 725.2, of its family, "
        "is named by more and covered more"
    )
    assert (
        lines["726.2"] == "refused: it names no concept of initiative (initiative, take_initiative)"
    )


@pytest.fixture(scope="module")
def seeds_store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("trace")
    db, _ = build(folder, [str(p) for p in sorted((ROOT / "rulings").glob("*.txt"))])
    return db, db.conn.execute("PRAGMA database_list").fetchone()[2]


def test_kb_links_group_traces_a_stored_group(seeds_store):
    db, path = seeds_store
    stored = {row["group"]: row for row in link.listing(db)}
    for group, row in stored.items():
        out = CliRunner().invoke(cli, ["links", "--group", group, "--format", "json", "--db", path])
        assert out.exit_code == 0, out.output
        found = json.loads(out.output)
        assert found["group"] == group and found["concepts"]
        linked = [r["rule"] for r in found["rules"] if r["fate"] in ("linked", "restated")]
        assert linked == [found_link["rule"] for found_link in row["links"]]
        assert all(r["why"] for r in found["rules"])
    text = CliRunner().invoke(cli, ["links", "--group", "726.4-f90a33", "--db", path]).output
    first, top = text.splitlines()[:2]
    assert first.startswith("726.4-f90a33  mentions (share of its languages): ")
    assert top.split()[:2] == ["726.4", "1.00"] and "linked: restates it" in top


def test_kb_links_group_refuses_an_unknown_group_in_one_line(seeds_store):
    _, path = seeds_store
    out = CliRunner().invoke(cli, ["links", "--group", "726.4-nothere", "--db", path])
    assert out.exit_code != 0 and "Traceback" not in out.output
    assert "no group '726.4-nothere' in the store" in out.output
    both = CliRunner().invoke(cli, ["links", "--group", "x", "--unlinked", "--db", path])
    assert both.exit_code == 2 and "cannot be used together" in both.output


def test_the_reason_for_no_link_shows_the_linker_s_own_score():
    # A group linked to nothing because its closest rule is named in passing: the reason shows
    # that rule's score as the linker computed it, rounded down to two decimals.
    import random

    table = link.evidence_table()
    concepts, rng, seen = sorted(table.weight), random.Random(5), 0
    for _ in range(3000):
        found = {c: rng.choice([0.5, 0.6667, 1.0]) for c in rng.sample(concepts, 3)}
        why = link.explain(found, table=table)
        lacks = why.get("lacks", {})
        if lacks.get("kind") != "weak":
            continue
        seen += 1
        score = scoring.link_to(why["rule"], table.imply(found), table).score
        assert link.rules_for(found, table=table) == [] and lacks["score"] < scoring.WEAKEST
        assert 0 <= round(score - lacks["score"], 6) < 0.01, (found, score, lacks)
    assert seen >= 20
