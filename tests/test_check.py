"""Translator checks on the seeds, on a cleaned copy, on injected defects, and `kb check`.

A ruling printed on many cards: test_check_copies.py; the seeds' store (``checks_db``):
tests/conftest.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from check_helpers import store_of
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.checks import suppressions
from kb.checks.families import CHECKS
from kb.checks.findings import Corpus, Group, Member
from kb.checks.load import load_corpus
from kb.checks.run import check_corpus, run_checks
from kb.checks.table import findings as stored_findings
from kb.cli import cli
from kb.errors import KbError
from kb.reference.glossary import load as load_glossary

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "rulings"
IT = "it-cacciatore-vendicatore.txt"
# The Italian seed's English leftovers, and what a translator would write instead.
ITALIAN_FIXES = {
    "(the first room)": "(la prima stanza)",
    "(and ventures into Undercity)": "(e si avventura in Undercity)",
    "(not venture into Undercity)": "(non di avventurarti in Undercity)",
}


@pytest.fixture(scope="module")
def clean_db(tmp_path_factory):
    work = tmp_path_factory.mktemp("clean")
    corpus = work / "rulings"
    shutil.copytree(SEEDS, corpus, ignore=shutil.ignore_patterns("suppressions.toml"))
    text = (corpus / IT).read_text(encoding="utf-8")
    for wrong, right in ITALIAN_FIXES.items():
        assert wrong in text
        text = text.replace(wrong, right)
    (corpus / IT).write_text(text, encoding="utf-8")
    return store_of(corpus, work)


def _by(report, check_id, lang=None):
    return [f for f in report.findings if f.check == check_id and (lang is None or f.lang == lang)]


def test_seed_english_fragments_are_the_errors(checks_db):
    report = run_checks(checks_db)
    errors = [f for f in report.findings if f.severity == "error"]
    assert sorted(f.excerpt for f in errors) == [
        "and ventures into",
        "not venture into",
        "the first room",
    ]
    assert {(f.check, f.lang, f.card) for f in errors} == {
        ("untranslated-fragment", "it", "Cacciatore Vendicatore")
    }
    assert report.exit_status == 1


def test_seed_findings_a_translator_would_make(checks_db):
    report = run_checks(checks_db)
    assert [f.excerpt for f in _by(report, "name-translated", "fr")] == ["Entrée secrète"]
    assert {f.lang for f in _by(report, "english-term") if f.excerpt == "Two-Headed Giant"} == {
        "it",
        "ru",
    }
    missing = _by(report, "missing-concept", "de")
    assert any("two_headed_giant" in f.message for f in missing)
    italian_quote = _by(report, "quote-style", "it") + _by(report, "quote-punctuation", "it")
    assert {f.excerpt for f in italian_quote} == {"“ha l'iniziativa.”"}
    assert all(f.severity == "info" for f in _by(report, "french-spacing", "fr"))
    # Correct locale quotes are not reported: German „…“, Russian and French «…», Spanish “…”.
    assert not [f for f in _by(report, "quote-style") if f.lang != "it"]


def test_every_excerpt_is_its_offsets_in_the_ruling(checks_db):
    texts = {row["id"]: row["text"] for row in checks_db["rulings"].rows}
    findings = run_checks(checks_db).findings
    assert findings
    for f in findings:
        assert f.check in CHECKS and f.severity in ("error", "warning", "info")
        if f.ruling:
            assert texts[f.ruling][f.start : f.end] == f.excerpt


def test_clean_text_has_no_error(clean_db):
    report = run_checks(clean_db)
    assert not [f for f in report.findings if f.severity == "error"]
    assert report.exit_status == 0
    assert not _by(report, "untranslated-fragment")


def test_build_stage_stores_findings_without_failing(checks_db):
    rows = list(checks_db["findings"].rows)
    assert {r["severity"] for r in rows} >= {"error", "warning"}
    stored = stored_findings(checks_db)
    assert len(stored) == len(run_checks(checks_db).findings)
    assert {
        "check",
        "severity",
        "lang",
        "group",
        "card",
        "message",
        "excerpt",
        "start",
        "end",
        "ruling",
        "accepted",
    } <= set(stored[0])
    groups = {row["id"] for row in checks_db["groups"].rows}
    assert {r["group"] for r in rows} <= groups


# -- injected defects, one text changed in an aligned group of real seed texts ---------------


def _group(checks_db, needle: str) -> list[Member]:
    corpus = load_corpus(checks_db)
    group = next(g for g in corpus.groups if any(needle in m.text for m in g.members))
    return group.members


def _check_changed(checks_db, needle, lang, change) -> list:
    members = _group(checks_db, needle)
    changed = [
        Member(
            m.id, m.lang, m.card, change(m.text) if m.lang == lang else m.text, m.group, m.source
        )
        for m in members
    ]
    assert changed != members
    report = check_corpus(Corpus([Group("g", changed)], load_glossary()))
    return report.findings


def test_injected_english_phrase(checks_db):
    found = _check_changed(
        checks_db,
        "Zu jedem Zeitpunkt",
        "de",
        lambda t: t.replace(
            "Sobald ein Spieler", "As soon as a player takes it, Sobald ein Spieler"
        ),
    )
    assert any(
        f.check == "untranslated-fragment" and f.severity == "error" and f.lang == "de"
        for f in found
    )


def test_injected_number_change(checks_db):
    found = _check_changed(
        checks_db, "deux règles", "fr", lambda t: t.replace("deux règles", "trois règles")
    )
    assert any(f.check == "number-mismatch" and "trois" in f.message for f in found)
    found = _check_changed(
        checks_db, "deux règles", "fr", lambda t: t.replace("deux règles", "3 règles")
    )
    assert any(f.check == "number-mismatch" and f.severity == "error" for f in found)


def test_injected_dropped_sentence(checks_db):
    found = _check_changed(checks_db, "Zu jedem Zeitpunkt", "de", lambda t: t.split(". ")[0] + ".")
    assert any(f.check == "sentence-count" and f.lang == "de" for f in found)


def test_injected_swapped_term(checks_db):
    found = _check_changed(
        checks_db, "Entrée secrète", "es", lambda t: t.replace("mazmorra", "sala")
    )
    assert any(f.check == "missing-concept" and "dungeon" in f.message for f in found)


def test_printed_term_is_a_variant_not_a_missing_concept(checks_db):
    # The Adventures in the Forgotten Realms products print "Gewölbe" where the seeds say
    # "Verlies": a translator using it is told it is the glossary's alternative term, with
    # how the rest of the language renders the concept, and no concept is missing.
    found = _check_changed(
        checks_db,
        "dich in Undercity vorzuwagen, kannst du dementsprechend",
        "de",
        lambda t: t.replace("kein Verlies beginnen", "kein Gewölbe beginnen"),
    )
    variants = [f for f in found if f.check == "term-variant" and f.lang == "de"]
    assert [f.excerpt for f in variants] == ["Gewölbe"]
    assert "Verlies" in variants[0].message
    assert not [f for f in found if f.check == "missing-concept" and f.lang == "de"]


def test_injected_wrong_quotes_and_spacing(checks_db):
    found = _check_changed(
        checks_db,
        "„die Initiative hat“",
        "de",
        lambda t: t.replace("„die Initiative hat“", "«die Initiative hat»"),
    )
    assert any(f.check == "quote-style" and f.lang == "de" for f in found)
    found = _check_changed(
        checks_db,
        "« a l’initiative »",
        "fr",
        lambda t: t.replace("deux règles.", "deux règles: les voici."),
    )
    assert any(f.check == "french-spacing" and f.severity == "warning" for f in found)
    found = _check_changed(
        checks_db, "“tiene la iniciativa”", "es", lambda t: t + " Puede tomarla otra vez?"
    )
    assert any(f.check == "inverted-marks" for f in found)
    found = _check_changed(
        checks_db,
        "“tiene la iniciativa”",
        "es",
        lambda t: t.replace("iniciativa.", "iniciativa ; fin."),
    )
    assert any(f.check == "punctuation-spacing" for f in found)


def test_copied_text_and_missing_language(checks_db):
    members = _group(checks_db, "Zu jedem Zeitpunkt")
    de = next(m for m in members if m.lang == "de")
    copied = [
        m if m.lang != "es" else Member(m.id, "es", m.card, de.text, m.group) for m in members
    ]
    report = check_corpus(Corpus([Group("g", copied)], load_glossary()))
    assert any(f.check == "duplicate-text" and f.severity == "error" for f in report.findings)
    others = [m for m in members if m.lang != "ru"]
    full = Group("full", members)
    report = check_corpus(Corpus([full, Group("short", others)], load_glossary()))
    assert [(f.group, f.lang) for f in report.findings if f.check == "missing-translation"] == [
        ("short", "ru")
    ]


def test_apostrophes_mixed_within_a_language(checks_db):
    members = _group(checks_db, "Zu jedem Zeitpunkt")
    mixed = [
        m
        if m.lang != "it"
        else Member(m.id, "it", m.card, m.text.replace("l'iniziativa", "l’iniziativa", 1), m.group)
        for m in members
    ]
    report = check_corpus(Corpus([Group("g", mixed)], load_glossary()))
    assert [f.excerpt for f in report.findings if f.check == "apostrophe-mix"] == ["’"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(min_size=0, max_size=200), min_size=1, max_size=5))
def test_checks_never_raise_on_arbitrary_text(texts):
    langs = ["ru", "it", "fr", "de", "es"]
    members = [Member(f"r{i}", langs[i], "Card", text, "g") for i, text in enumerate(texts)]
    report = check_corpus(Corpus([Group("g", members)], load_glossary()))
    for f in (f for f in report.findings if f.ruling):
        assert members[int(f.ruling[1:])].text[f.start : f.end] == f.excerpt


# -- suppressions and the command -------------------------------------------------------------


def test_suppressions_accept_findings_and_report_stale_entries(checks_db, tmp_path):
    path = tmp_path / "suppressions.toml"
    path.write_text(
        '[[accept]]\ncheck = "untranslated-fragment"\nlang = "it"\n'
        'reason = "Known; the Italian team fixes it in the next release."\n\n'
        '[[accept]]\ncheck = "duplicate-text"\nreason = "nothing to accept"\n',
        encoding="utf-8",
    )
    report = run_checks(checks_db, suppressions.load(path))
    assert report.exit_status == 0
    assert len(report.accepted) == 3
    stale = _by(report, "stale-suppression")
    assert len(stale) == 1 and "#2" in stale[0].message


@pytest.mark.parametrize(
    "content, problem",
    [
        ('[[accept]]\ncheck = "nope"\nreason = "x"\n', "unknown check"),
        ('[[accept]]\ncheck = "quote-style"\n', "a reason is required"),
        ('[[accept]]\ncheck = "quote-style"\nreason = "x"\ncolour = "red"\n', "unknown key"),
        ("[[accept]\n", "not valid TOML"),
    ],
)
def test_bad_suppressions_file_is_one_clear_error(tmp_path, content, problem):
    path = tmp_path / "suppressions.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(KbError) as info:
        suppressions.load(path)
    assert problem in str(info.value) and str(path) in str(info.value)


def test_kb_check_command(checks_db, tmp_path):
    db = checks_db.conn.execute("PRAGMA database_list").fetchone()[2]
    runner = CliRunner()
    result = runner.invoke(cli, ["check", "--db", db, "--format", "json"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.output)
    keys = {"check", "severity", "lang", "group", "card", "message", "excerpt", "start", "end"}
    assert data["findings"] and all(keys <= set(f) for f in data["findings"])
    text = runner.invoke(cli, ["check", "--db", db]).output
    assert "rulings/it-cacciatore-vendicatore.txt" in text and "3 error(s)" in text
    accept = tmp_path / "accept.toml"
    accept.write_text(
        '[[accept]]\ncheck = "untranslated-fragment"\nreason = "on purpose"\n', encoding="utf-8"
    )
    assert runner.invoke(cli, ["check", "--db", db, "--suppressions", str(accept)]).exit_code == 0
    accept.write_text("[[accept]]\ncheck = 1\n", encoding="utf-8")
    bad = runner.invoke(cli, ["check", "--db", db, "--suppressions", str(accept)])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1
    missing = runner.invoke(cli, ["check", "--db", str(tmp_path / "none.db")])
    assert missing.exit_code == 2


def test_build_finds_the_corpus_suppressions(tmp_path):
    corpus = tmp_path / "rulings"
    shutil.copytree(SEEDS, corpus, ignore=shutil.ignore_patterns("suppressions.toml"))
    (corpus / "suppressions.toml").write_text(
        '[[accept]]\ncheck = "name-translated"\nlang = "fr"\nexcerpt = "Entrée"\n'
        'reason = "The French team chose the printed French name."\n',
        encoding="utf-8",
    )
    db = store_of(corpus, tmp_path)
    accepted = [r for r in stored_findings(db, accepted=True) if r["accepted"]]
    assert [(r["check"], r["excerpt"]) for r in accepted] == [("name-translated", "Entrée secrète")]
    assert not [r for r in stored_findings(db) if r["check"] == "name-translated"]
