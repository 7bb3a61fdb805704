"""Links: seed groups -> the rules they explain; never a guess."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb import align, link, store
from kb.corpus import parse
from kb.core import registry
from kb.errors import KbError
from kb.reference.glossary import load as load_glossary

#: What each seed ruling explains (position in the seed files -> current rule numbers), read
#: off the Comprehensive Rules and the notes on the rulings in the reference.
EXPECTED = {
    1: ["726.5"], 2: ["726.4"], 3: ["701.49d"], 4: ["701.49b", "701.49c", "701.49d"],
    5: ["726.2", "603.3b"], 6: ["726.3"], 7: ["701.49d"], 8: ["726.1", "726.2"],
    9: ["726.1"], 10: ["726.2", "205.3p"],
}


@pytest.fixture(scope="module")
def linked_db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("link")
    db = store.open_db(folder / "rulings.db")
    seeds = sorted((Path(__file__).parent.parent / "rulings").glob("*.txt"))
    store.store_files(db, parse.parse_files([str(p) for p in seeds]))
    glossary = load_glossary()
    align.store_groups(db, align.align(store.rulings(db), glossary), glossary)
    unlinked = link.link_groups(db)
    return db, unlinked


def test_every_seed_group_is_linked_to_the_rules_it_explains(linked_db):
    db, unlinked = linked_db
    assert unlinked == []
    for group in align.groups(db):
        position = group["members"][0]["position"]
        assert sorted(group["rules"]) == sorted(EXPECTED[position]), group["id"]
        assert group["id"].startswith(group["rules"][0] + "-")


def test_rules_are_carried_by_the_core_and_show_their_number_on_the_ruling_date(linked_db):
    db, _ = linked_db
    for row in db["group_rules"].rows:
        assert row["rule"] in registry.RULES
        assert row["number_then"] == registry.number_on(row["rule"], "2022-06-10")
    then = {r["rule"]: r["number_then"] for r in db["group_rules"].rows}
    assert then["726.3"] == "721.3" and then["701.49d"] == "701.46d"


def test_evidence_names_the_concepts_and_their_words_in_each_language(linked_db):
    db, _ = linked_db
    (row,) = db["group_rules"].rows_where("rule = ?", ["726.4"])
    evidence = json.loads(row["evidence"])
    assert set(evidence["concepts"]) >= {"initiative", "leave_game"}
    assert evidence["concepts"]["leave_game"]["fr"] == "quitte la partie"
    assert evidence["concepts"]["leave_game"]["de"] in {"das Spiel verlässt", "Spiel verlässt"}
    assert [fk.other_table for fk in db["group_rules"].foreign_keys] == ["groups"]


def test_most_specific_rule_comes_first():
    signature = ("initiative", "take_initiative", "venture_into_undercity", "upkeep",
                 "designation", "rule", "combat_damage", "creature", "triggered_ability")
    links = link.rules_for(signature, carried=set(registry.RULES))
    assert [l.specificity for l in links] == sorted((l.specificity for l in links), reverse=True)
    assert {"726.1", "726.2"} <= {l.rule for l in links}


def test_a_monarch_group_gets_no_link_and_says_why(tmp_path):
    db = store.open_db(tmp_path / "rulings.db")
    path = tmp_path / "monarch.txt"
    path.write_text("Chasseur vengeur\n\n10/06/2022\n\nSi le joueur qui est le monarque quitte "
                    "la partie, le joueur actif devient le monarque au même moment.\n",
                    encoding="utf-8")
    store.store_files(db, parse.parse_files([str(path)]))
    glossary = load_glossary()
    align.store_groups(db, align.align(store.rulings(db), glossary), glossary)
    lines = link.link_groups(db)
    (group,) = align.groups(db)
    assert group["rules"] == [] and group["id"].startswith("unlinked-")
    assert len(lines) == 1 and "monarch (rule 725), which the core does not carry" in lines[0]
    assert link.unlinked(db) == [{"id": group["id"], "reason": lines[0].split("(", 1)[1][:-1]}]


def test_a_rule_the_core_does_not_carry_is_never_linked():
    signature = ("initiative", "leave_game", "active_player", "turn_order")
    assert [l.rule for l in link.rules_for(signature, carried=set(registry.RULES))] == ["726.4"]
    assert link.rules_for(signature, carried=set(registry.RULES) - {"726.4"}) == []
    assert link.why_unlinked(signature, carried=set()) == \
        "the core's rule registry is not available"


def test_excluded_concepts_stop_a_link():
    # "No initiative until an effect says so" (726.1) is not a ruling about dungeons.
    base = ("initiative", "effect", "instruct", "take_initiative")
    carried = set(registry.RULES)
    assert "726.1" in [l.rule for l in link.rules_for(base, carried)]
    assert "726.1" not in [l.rule for l in link.rules_for(base + ("dungeon",), carried)]


def test_every_rule_of_the_evidence_is_in_the_registry():
    # Evidence for a rule the core does not carry would silently never link.
    assert set(link.evidence_table()) <= set(registry.RULES)


def test_evidence_naming_an_unknown_concept_is_a_clear_error(tmp_path):
    bad = tmp_path / "links.yaml"
    bad.write_text('rules:\n  - rule: "726.3"\n    alternatives:\n      - all: [initiativ]\n',
                   encoding="utf-8")
    with pytest.raises(KbError, match="rule 726.3: unknown concept 'initiativ'"):
        link.evidence_table(bad)


@pytest.fixture(scope="module")
def copies_db(tmp_path_factory):
    """The seeds with each file's rulings printed on two more cards, the first copies (by
    id, the first of all) with other surfaces of a concept."""
    folder = tmp_path_factory.mktemp("copies")
    seeds = sorted((Path(__file__).parent.parent / "rulings").glob("*.txt"))
    paths = [str(p) for p in seeds]
    for seed in seeds:
        name, rest = seed.read_text(encoding="utf-8").split("\n", 1)
        for k, tail in ((2, rest.replace("initiative", "Initiative")), (3, rest)):
            copy = folder / f"{seed.stem}-{k}.txt"
            copy.write_text(f"{name} {k}\n{tail}", encoding="utf-8")
            paths.append(str(copy))
    db = store.open_db(folder / "rulings.db")
    store.store_files(db, parse.parse_files(paths))
    glossary = load_glossary()
    align.store_groups(db, align.align(store.rulings(db), glossary), glossary)
    link.link_groups(db)
    return db


def test_evidence_surfaces_are_each_languages_first_ruling_s(copies_db):
    """The surfaces read per text are those of the first ruling (by id) of each language,
    first occurrence, as reading every ruling's concept rows gives."""
    every: dict = {}
    for group_id, concept, lang, surface in copies_db.execute(
            "SELECT m.group_id, rc.concept, r.lang, rc.surface FROM ruling_concepts rc JOIN "
            "memberships m ON m.ruling_id = rc.ruling_id JOIN rulings r ON r.id = rc.ruling_id "
            "ORDER BY m.group_id, r.lang, r.id, rc.start"):
        every.setdefault(group_id, {}).setdefault(concept, {}).setdefault(lang, surface)
    sizes = [n for (n,) in copies_db.execute("SELECT COUNT(*) FROM memberships GROUP BY group_id")]
    assert max(sizes) >= 15  # copies share groups
    rows = list(copies_db.query("SELECT * FROM group_rules"))
    assert rows
    for row in rows:
        evidence = json.loads(row["evidence"])
        assert evidence["concepts"] == {c: every[row["group_id"]].get(c, {})
                                        for c in evidence["concepts"]}
    # Relinking some groups writes the same rows.
    ids = sorted({row["group_id"] for row in rows})[:3]
    link.link_groups(copies_db, ids=ids)
    assert sorted(map(repr, copies_db.query("SELECT * FROM group_rules"))) == sorted(
        map(repr, rows))
