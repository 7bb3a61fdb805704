"""Links of built corpora: each seed and example ruling links the rules it explains, never the
monarch's for the initiative's, and the store, the JSON export, `kb links`, search hits and the
site say why. Each corpus is built once for the module."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from link_corpus import build
from link_examples import EXAMPLES, write_examples

from kb import align, link
from kb.core import registry
from kb.reference.glossary import load as load_glossary

ROOT = Path(__file__).parent.parent


#: What each seed ruling explains (position in the seed files -> current rule numbers): the
#: links the seed groups had before the linker derived its evidence from the rules
#: (benchmarks/links_corpus/seeds_gold.yaml), the first one naming the group.
EXPECTED = {
    1: ["726.5"],
    2: ["726.4"],
    3: ["701.49d"],
    4: ["701.49b", "701.49c", "701.49d"],
    5: ["726.2", "603.3b"],
    6: ["726.3"],
    7: ["701.49d"],
    8: ["726.1", "726.2"],
    9: ["726.1"],
    10: ["205.3p", "726.2"],
}


@pytest.fixture(scope="module")
def seeds_db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("link")
    return build(folder, [str(p) for p in sorted((ROOT / "rulings").glob("*.txt"))])


@pytest.fixture(scope="module")
def examples_db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("examples")
    return build(folder, write_examples(folder, EXAMPLES["rulings"]))


def test_every_seed_group_keeps_its_links_and_its_id(seeds_db):
    db, unlinked = seeds_db
    assert unlinked == []
    for group in align.groups(db):
        position = group["members"][0]["position"]
        assert sorted(group["rules"]) == sorted(EXPECTED[position]), group["id"]
        assert group["rules"][0] == EXPECTED[position][0]
        assert group["id"].startswith(group["rules"][0] + "-")


def test_links_carry_the_number_then_the_score_and_each_language_s_words(seeds_db):
    db, _ = seeds_db
    (row,) = db["group_rules"].rows_where("rule = ?", ["726.4"])
    assert row["number_then"] == "721.4" and 0.9 < row["score"] <= 1
    found = json.loads(row["evidence"])
    assert set(found["concepts"]) >= {"initiative", "leave_game", "active_player"}
    assert found["concepts"]["leave_game"]["fr"] == "quitte la partie"
    assert found["concepts"]["leave_game"]["ru"] == "покидает игру"
    assert found["votes"]["leave_game"] == 1.0 and found["strength"] > 0
    assert [fk.other_table for fk in db["group_rules"].foreign_keys] == ["groups"]


def test_each_example_ruling_links_exactly_the_rules_it_explains(examples_db):
    db, _ = examples_db
    for group in align.groups(db):
        position = group["members"][0]["position"]
        assert len(group["members"]) == 5, group["id"]
        assert sorted(group["rules"]) == EXAMPLES["rulings"][position - 1]["rules"], position


def test_the_monarch_never_links_the_initiative_and_back(examples_db, seeds_db):
    """However alike their words, a group about one designation never gets the other's rules."""
    for db, _ in (examples_db, seeds_db):
        for group in align.groups(db):
            named = set(group["signature"])
            if "monarch" in named and "initiative" not in named:
                assert not [r for r in group["rules"] if r.startswith("726.")], group["id"]
            if "initiative" in named and "monarch" not in named:
                assert not [r for r in group["rules"] if r.startswith("725.")], group["id"]
    for holder, taking, rule in (
        ("monarch", "become_monarch", "725.4"),
        ("initiative", "take_initiative", "726.4"),
    ):
        signature = {holder, taking, "leave_game", "active_player", "turn_order", "simultaneously"}
        assert [l.rule for l in link.rules_for(signature)] == [rule]
        # Without the designation's rules the group is about something the core lacks.
        section = rule.split(".")[0] + "."
        assert (
            link.rules_for(
                signature, carried={r for r in registry.RULES if not r.startswith(section)}
            )
            == []
        )


def test_unlinked_groups_say_why(examples_db):
    db, lines = examples_db
    reasons = {g["id"]: g["reason"] for g in link.unlinked(db)}
    assert len(reasons) == 3 and len(lines) == 3
    assert all(f"link: {gid}: no rule ({reason})" in lines for gid, reason in reasons.items())
    # The emblem names the command zone and permanents, as dungeons do: not enough.
    assert any("closest: 309.2b, which names no concept of dungeons" in r for r in reasons.values())
    # Monstrous is a designation the core carries no rule of: the group is about it.
    about = [r for r in reasons.values() if r.startswith("about ")]
    assert about == ["about monstrous, which the core does not carry"]
    others = [r for r in reasons.values() if r not in about]
    assert len(others) == 2
    assert all("which is not enough for any carried rule" in r for r in others)


def test_export_json_says_why_each_rule_and_why_none(examples_db):
    from kb.export import json as json_export

    db, _ = examples_db
    groups = json.loads(json_export.to_json(db))["groups"]
    linked = {g["rules"][0]: g for g in groups if g["rules"]}
    (leaves,) = linked["725.4"]["links"]
    assert leaves["rule"] == "725.4" and leaves["number_then"] == "722.4"  # on 2024-02-09
    assert 0.5 < leaves["score"] <= 1 and "leave_game" in leaves["concepts"]
    assert "quitte la partie" in leaves["words"]["fr"] and "покидает игру" in leaves["words"]["ru"]
    assert all(g["unlinked"] is None for g in linked.values())
    reasons = [g["unlinked"] for g in groups if not g["rules"]]
    assert len(reasons) == 3 and all(reasons)


def test_search_hits_and_kb_links_say_why(seeds_db, tmp_path):
    from click.testing import CliRunner

    from kb.cli import cli
    from kb.search.results import Hit, with_links

    db, _ = seeds_db
    path = Path(db.conn.execute("PRAGMA database_list").fetchone()[2])
    hit = Hit(group="726.4-f90a33", lang="fr", card="Chasseur vengeur", text="...", score=1.0)
    (found,) = with_links([hit], path.parent / "index")[0].as_dict()["links"]
    assert found["rule"] == "726.4" and found["words"]["de"][0] == "aktive Spieler"
    lone = Hit(group="726.4-f90a33", lang="fr", card="Chasseur vengeur", text="...", score=1.0)
    assert with_links([lone], tmp_path / "index")[0].links == []  # no store beside the index

    out = CliRunner().invoke(cli, ["links", "--db", str(path), "--format", "json"])
    rows = json.loads(out.output)
    assert [row["group"] for row in rows] == sorted(row["group"] for row in rows)
    assert {found["rule"] for row in rows for found in row["links"]} >= {"726.4", "603.3b"}
    text = CliRunner().invoke(cli, ["links", "--db", str(path)]).output
    assert "726.4-f90a33  726.4  1.00  active_player, initiative, leave_game" in text
    # Under each link, the words each language matched: the German of 726.4's active player.
    under = text.split("726.4-f90a33  726.4  1.00")[1].split("\n")
    assert under[1].startswith("    de: aktive Spieler · ")
    assert (
        CliRunner().invoke(cli, ["links", "--unlinked", "--db", str(path)]).output
        == "no unlinked groups\n"
    )


def test_kb_links_unlinked_lists_the_reasons(examples_db):
    from click.testing import CliRunner

    from kb.cli import cli

    db, lines = examples_db
    path = db.conn.execute("PRAGMA database_list").fetchone()[2]
    rows = json.loads(
        CliRunner().invoke(cli, ["links", "--unlinked", "--format", "json", "--db", path]).output
    )
    assert [f"link: {r['group']}: no rule ({r['reason']})" for r in rows] == sorted(lines)
    assert all(r["concepts"] for r in rows)


def test_the_site_says_why_in_the_reader_s_language(examples_db, tmp_path):
    """The ruling page's "why this rule", a rule with no number yet on the rulings' date
    (725.5 on 2024-02-09), and the maintainers' page of unlinked groups, in French."""
    from kb.site import data, pages
    from kb.site.paths import slug

    db, _ = examples_db
    site = data.load(db)
    by_rule = {g["rules"][0]: g["id"] for g in site.groups if g["rules"]}
    keys = {f"ruling/{slug(by_rule[r])}.html" for r in ("725.4", "725.5")} | {"unlinked.html"}
    pages.render_tree(site, "fr", tmp_path, site.summary.counts, only=keys)
    leaves = (tmp_path / "fr" / f"ruling/{slug(by_rule['725.4'])}.html").read_text("utf-8")
    assert "Pourquoi cette règle" in leaves and "numérotée 722.4 le 9 février 2024" in leaves
    assert "quitter la partie" in leaves  # the concept, by its French term
    assert '<span lang="de">' in leaves and "Spiel verlässt" in leaves  # the German words
    static = (tmp_path / "fr" / f"ruling/{slug(by_rule['725.5'])}.html").read_text("utf-8")
    assert "pas encore de numéro le 9 février 2024" in static and "725.5" in static
    unlinked = (tmp_path / "fr" / "unlinked.html").read_text("utf-8")
    assert "Précisions sans règle liée" in unlinked and unlinked.count('class="reason"') == 3
    assert "La règle la plus proche, <a href" in unlinked and "Monstrueux est une" in unlinked


@pytest.fixture(scope="module")
def copies_db(tmp_path_factory):
    """The seeds with each file's rulings printed on two more cards, the first copies (by
    id, the first of all) with other surfaces of a concept."""
    folder = tmp_path_factory.mktemp("copies")
    seeds = sorted((ROOT / "rulings").glob("*.txt"))
    paths = [str(p) for p in seeds]
    for seed in seeds:
        name, rest = seed.read_text(encoding="utf-8").split("\n", 1)
        for k, tail in ((2, rest.replace("initiative", "Initiative")), (3, rest)):
            copy = folder / f"{seed.stem}-{k}.txt"
            copy.write_text(f"{name} {k}\n{tail}", encoding="utf-8")
            paths.append(str(copy))
    return build(folder, paths)[0]


def test_evidence_surfaces_are_each_languages_first_ruling_s(copies_db):
    """The surfaces read per text are those of the first ruling (by id) of each language,
    first occurrence, as reading every ruling's concept rows gives (shown as the glossary
    shows a match); votes are those of the rulings' languages."""
    shown = load_glossary().shown
    every: dict = {}
    for group_id, concept, lang, surface in copies_db.execute(
        "SELECT m.group_id, rc.concept, r.lang, rc.surface FROM ruling_concepts rc JOIN "
        "memberships m ON m.ruling_id = rc.ruling_id JOIN rulings r ON r.id = rc.ruling_id "
        "ORDER BY m.group_id, r.lang, r.id, rc.start"
    ):
        every.setdefault(group_id, {}).setdefault(concept, {}).setdefault(
            lang, shown(concept, lang, surface)
        )
    sizes = [n for (n,) in copies_db.execute("SELECT COUNT(*) FROM memberships GROUP BY group_id")]
    assert max(sizes) >= 15  # copies share groups
    rows = list(copies_db.query("SELECT * FROM group_rules"))
    assert rows
    votes = link.group_votes(copies_db)
    for row in rows:
        found = json.loads(row["evidence"])
        assert found["concepts"] == {
            c: every[row["group_id"]].get(c, {}) for c in found["concepts"]
        }
        assert found["votes"] == {c: votes[row["group_id"]][c] for c in found["concepts"]}
    # Relinking some groups writes the same rows.
    ids = sorted({row["group_id"] for row in rows})[:3]
    link.link_groups(copies_db, ids=ids)
    assert sorted(map(repr, copies_db.query("SELECT * FROM group_rules"))) == sorted(
        map(repr, rows)
    )
