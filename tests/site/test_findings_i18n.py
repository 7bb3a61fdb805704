"""Translator findings of every check kind, in the reader's language on every tree.

A corpus holding a mistake of every kind (tests/site/mistakes.py: the seeds, English originals
of half their rulings, rulings of our own, a team checklist) is built into a site; the check
kinds come from kb.checks, so a new kind that no mistake here finds, or whose messages the
site cannot translate, fails these tests. The site's English judge (tests/site/english.py)
reads every page of the ru, it, fr, de and es trees.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import yaml
from english import Judge
from mistakes import write_corpus
from site_helpers import build_site

from kb.checks.families import CHECKS as CHECK_KINDS
from kb.checks.load import load_corpus
from kb.checks.run import check_corpus
from kb.corpus.languages import LANGUAGES
from kb.reference import glossary
from kb.site import texts
from kb.site.shapes import MESSAGES
from kb.store import open_existing

#: Every check kind: the families' and the one kb.checks.run writes itself.
KINDS = {*CHECK_KINDS, "stale-suppression"}
#: Kinds the project's own data cannot give, each with the data that gives it here.
#: term-variant needs a translation's alternative glossary term, and the glossary has none:
#: the findings of the built store are checked again with an Italian alternative added.
OWN_GLOSSARY = {"term-variant": ("dungeon", "it", "sotterraneo")}


@pytest.fixture(scope="module")
def mistakes_site(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("mistakes")
    return build_site(write_corpus(base / "rulings"), base / "_build")


@pytest.fixture(scope="module")
def findings(mistakes_site, tmp_path_factory) -> list[dict]:
    """The build's findings, and those only the test glossary gives."""
    db = sqlite3.connect(mistakes_site.parent / "rulings.db")
    db.row_factory = sqlite3.Row
    try:
        stored = [dict(row) for row in db.execute("SELECT * FROM findings")]
    finally:
        db.close()
    data = yaml.safe_load(glossary.GLOSSARY_FILE.read_text(encoding="utf-8"))
    for concept_id, lang, term in OWN_GLOSSARY.values():
        concept = next(c for c in data["concepts"] if c["id"] == concept_id)
        concept["terms"][lang].append(term)
        concept.setdefault("forms", {}).setdefault(lang, list(concept["terms"][lang]))
        concept["forms"][lang].append(term)
    path = tmp_path_factory.mktemp("glossary") / "glossary.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    corpus = load_corpus(open_existing(mistakes_site.parent / "rulings.db"))
    corpus.glossary = glossary.load(path)
    extra = [f.to_dict() for f in check_corpus(corpus).findings if f.check in OWN_GLOSSARY]
    return stored + extra


def test_the_corpus_has_a_finding_of_every_check_kind(findings):
    found = {f["check"] for f in findings}
    missing = sorted(KINDS - found)
    assert not missing, f"add a mistake of these kinds to tests/site/mistakes.py: {missing}"
    assert set(texts.CHECKS) >= KINDS, "give the new check a label in kb/site/texts.py"


def test_every_message_has_a_shape_and_every_shape_is_met(findings):
    """Every finding's message is read back by a shape of kb.site.shapes (a team checklist's
    is the team's own text), and every shape meets a message (none is left behind when a
    check's wording changes)."""
    unknown = sorted(
        {
            f["message"]
            for f in findings
            if f["check"] != "checklist" and texts.shape(f["message"]) is None
        }
    )
    assert not unknown, "add these shapes to kb/site/shapes.py:\n" + "\n".join(unknown)
    met = {texts.shape(f["message"]) for f in findings}
    singulars = [m[0] if isinstance(m, tuple) else m for m in MESSAGES]
    assert [m for m in singulars if m not in met] == []


@pytest.mark.parametrize("ui", LANGUAGES)
def test_every_message_is_written_in_the_readers_language(findings, ui, mistakes_site, tmp_path):
    """Every message rendered for ``ui`` passes the site's English judge (the same one that
    reads the built trees), the term-variant ones of the test glossary included."""
    tree = tmp_path / "site" / ui
    tree.mkdir(parents=True)
    (tmp_path / "rulings.db").symlink_to(mistakes_site.parent / "rulings.db")
    items = "".join(f"<li>{texts.finding_message(f, ui)}</li>" for f in findings)
    (tree / "findings.html").write_text(
        f'<!doctype html><html lang="{ui}"><meta charset="utf-8">'
        f"<body><ul>{items}</ul></body></html>",
        encoding="utf-8",
    )
    found = Judge(tmp_path / "site").judge(tmp_path / "site", trees=(ui,))
    assert not found, "\n".join(sorted({f"{f.how}: {f.text}" for f in found}))


def test_no_english_finding_on_the_non_english_trees(mistakes_site):
    """Every finding shown on a page of the ru, it, fr, de and es trees (a ruling's findings,
    the consistency report's rows: the elements with data-check) passes the judge."""
    found = Judge(mistakes_site).judge(mistakes_site, inside="data-check")
    lines = sorted({f"{f.tree} {f.how}: {f.text[:100]!r} ({f.page})" for f in found})
    assert not lines, f"{len(lines)} English strings:\n" + "\n".join(lines[:40])


def test_the_consistency_report_shows_every_kind(mistakes_site, findings):
    """The findings are on the pages the judge read (it would pass on pages without them)."""
    page = "".join(
        p.read_text(encoding="utf-8")
        for p in sorted((mistakes_site / "de").glob("consistency*.html"))
    )
    shown = {kind for kind in KINDS if f'data-check="{kind}"' in page}
    assert shown == {f["check"] for f in findings} - set(OWN_GLOSSARY)


def test_parts_are_written_for_the_reader(findings):
    def message(start: str) -> dict:
        return next(f for f in findings if f["message"].startswith(start))

    date = texts.finding_message(message("dated 2022-10-06 where the en source"), "de")
    assert "6. Oktober 2022" in date and "10. Juni 2022" in date and "Englisch" in date
    ordinal = str(texts.finding_message(message("“первой” (1st)"), "fr"))
    assert "(premier)" in ordinal and "(dernier)" in ordinal and "1st" not in ordinal
    both = str(
        texts.finding_message(
            message("a negation missing: this sentence has 0 where the en source has 2"), "fr"
        )
    )
    assert (
        '« <span lang="en" translate="no">no</span> », « '
        '<span lang="en" translate="no">until</span> »'
    ) in both
    merged = str(
        texts.finding_message(
            message("1 sentence where the en source has 2: its sentences 1 and 2"), "ru"
        )
    )
    assert merged.startswith("1 предложение,") and "1 и 2" in merged
    many = str(texts.finding_message(message("4 sentences where"), "ru"))
    assert many.startswith("4 предложения,")


def test_a_checklist_message_is_the_teams_text_in_its_language(findings):
    english, french = (
        next(f for f in findings if f["message"].startswith(start))
        for start in ("[de-verlies]", "[fr-aventurer]")
    )
    assert str(texts.finding_message(english, "ru")) == (
        '<span lang="en" translate="no">[de-verlies] check the dungeon&#39;s name against the '
        "printed card</span>"
    )
    assert str(texts.finding_message(french, "de")).startswith('<span lang="fr" translate="no">')
    unknown = dict(english, message="[x] ok")
    assert str(texts.finding_message(unknown, "it")) == '<span lang="" translate="no">[x] ok</span>'
