"""English originals as the source: detected, aligned with their translations and marked the
group's source, never checked as translations, and what every check compares with."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

from kb.checks.load import load_corpus
from kb.checks.run import check_corpus
from kb.corpus import languages
from kb.corpus.files import corpus_files
from kb.corpus.parse import parse_file
from kb.pipeline import build
from kb.pipeline.context import BuildContext

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "rulings"
ENGLISH = ROOT / "tests" / "data" / "english"


def corpus_with_english(tmp: Path, edit=None) -> Path:
    """The seeds (without their suppressions) and the English originals; ``edit(folder)``
    may change a copy first."""
    corpus = tmp / "rulings"
    shutil.copytree(SEEDS, corpus, ignore=shutil.ignore_patterns("suppressions.toml"))
    for path in ENGLISH.glob("*.txt"):
        shutil.copy(path, corpus / path.name)
    if edit:
        edit(corpus)
    return corpus


def store_of(corpus: Path, work: Path):
    return build.run_through(
        BuildContext(corpus=corpus_files([str(corpus)]), work=work), "align"
    ).db


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    work = tmp_path_factory.mktemp("sources")
    return store_of(corpus_with_english(work), work)


def test_english_is_a_corpus_language_that_is_a_source_not_a_translation():
    assert "en" in languages.CORPUS_LANGUAGES and "en" not in languages.LANGUAGES
    assert languages.is_source("en") and not languages.is_source("fr")
    assert languages.check_stated("EN") == "en"
    assert languages.lang_order("en") < languages.lang_order("ru")


def test_an_english_file_is_detected_and_its_iso_dates_read():
    parsed = parse_file(ENGLISH / "en-avenging-hunter.txt")
    assert parsed.lang == "en" and parsed.card == "Avenging Hunter"
    assert len(parsed.rulings) == 10 and {r.date for r in parsed.rulings} == {"2022-06-10"}


def test_alignment_groups_each_original_with_its_translations(db):
    """Pairwise F1 against the gold pairs: the files list the same ten rulings in the same
    order, so the k-th ruling of every file (English or not) is one ruling."""
    rows = list(
        db.query(
            "SELECT r.id, r.position, m.group_id FROM rulings r "
            "JOIN memberships m ON m.ruling_id = r.id"
        )
    )
    assert {r["id"].rsplit("/", 1)[-1].split("#")[0][:3] for r in rows} >= {"en-"}

    def pairs(key):
        return {
            frozenset((a["id"], b["id"]))
            for a, b in itertools.combinations(rows, 2)
            if key(a) == key(b)
        }

    gold, found = pairs(lambda r: r["position"]), pairs(lambda r: r["group_id"])
    precision = len(gold & found) / len(found)
    recall = len(gold & found) / len(gold)
    assert 2 * precision * recall / (precision + recall) == 1.0


def test_each_group_marks_its_english_original_the_source(db):
    groups = list(db.query("SELECT id, source, languages FROM groups"))
    assert len(groups) == 10
    assert all(g["source"] == "en" and g["languages"].startswith("en,") for g in groups)
    marked = {
        (r["lang"], r["source"])
        for r in db.query(
            "SELECT r.lang, m.source FROM memberships m JOIN rulings r ON r.id = m.ruling_id"
        )
    }
    assert marked == {("en", 1), ("ru", 0), ("it", 0), ("fr", 0), ("de", 0), ("es", 0)}


def test_the_source_is_never_checked_as_a_translation(db):
    report = check_corpus(load_corpus(db))
    assert not [f for f in report.findings if f.lang == "en"]
    # Its English is not untranslated English in the others: the seeds' own three Italian
    # phrases are still the only errors.
    errors = [(f.check, f.excerpt) for f in report.findings if f.severity == "error"]
    assert sorted(errors) == [
        ("untranslated-fragment", "and ventures into"),
        ("untranslated-fragment", "not venture into"),
        ("untranslated-fragment", "the first room"),
    ]


def test_a_missing_translation_is_not_reported_for_the_source_language(tmp_path):
    def drop_two(corpus: Path) -> None:
        for name in (
            "en-passageway-seer.txt",
            "en-undercellar-sweep.txt",
            "en-underdark-explorer.txt",
        ):
            (corpus / name).unlink()
        path = corpus / "en-avenging-hunter.txt"
        head, *rulings = path.read_text(encoding="utf-8").split("\n\n2022-06-10\n\n")
        path.write_text("\n\n2022-06-10\n\n".join([head] + rulings[:5]), encoding="utf-8")

    db = store_of(corpus_with_english(tmp_path, drop_two), tmp_path)
    assert {g["source"] for g in db.query("SELECT source FROM groups")} == {"en", None}
    report = check_corpus(load_corpus(db))
    assert not [f for f in report.findings if f.check == "missing-translation"]


def _edited(tmp_path: Path, name: str, old: str, new: str):
    def edit(corpus: Path) -> None:
        path = corpus / name
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    db = store_of(corpus_with_english(tmp_path, edit), tmp_path)
    report = check_corpus(load_corpus(db))
    return [
        f
        for f in report.findings
        if f.severity in ("error", "warning") and f.check != "untranslated-fragment"
    ]


def test_a_negation_dropped_is_an_error_at_its_sentence_against_the_source(tmp_path):
    # One negation of two gone ("unless" is "if not"): without a source only a warning would
    # be fair (translations negate their own ways); the English original says how many.
    found = _edited(
        tmp_path,
        "es-vidente-del-pasaje.txt",
        "No puedes adentrarte en Undercity a menos que",
        "Puedes adentrarte en Undercity a menos que",
    )
    negation = [f for f in found if f.check == "negation"]
    assert [(f.lang, f.severity) for f in negation] == [("es", "error")]
    assert negation[0].excerpt.startswith("Puedes adentrarte en Undercity a menos que")
    assert negation[0].excerpt.endswith("o porque tomas la iniciativa.")
    assert "the en source has 2" in negation[0].message and "“can’t”" in negation[0].message


def test_a_date_with_day_and_month_swapped_is_an_error_naming_the_expected_date(tmp_path):
    found = _edited(
        tmp_path,
        "it-cacciatore-vendicatore.txt",
        "10/06/2022\n\nSolo un giocatore",
        "06/10/2022\n\nSolo un giocatore",
    )
    dates = [f for f in found if f.check == "date-mismatch"]
    assert [(f.severity, f.lang) for f in dates] == [("error", "it")]
    assert "2022-10-06 where the en source has 2022-06-10" in dates[0].message


def test_translations_older_than_their_source_are_listed_by_kb_changes(tmp_path):
    from kb.checks.changes import changes

    def newer_original(corpus: Path) -> None:
        for path in corpus.glob("en-*.txt"):
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace("2022-06-10", "2023-01-20", 1), encoding="utf-8")

    db = store_of(corpus_with_english(tmp_path, newer_original), tmp_path)
    report = changes(db, since="2023-01-01")
    assert (
        list(report["languages"]) == ["en"] and len(report["languages"]["en"]["new or edited"]) == 4
    )
    outdated = report["outdated"]
    assert sorted(o["lang"] for o in outdated) == ["de", "es", "fr", "it", "ru"]
    assert all(o["reason"] == "dated 2022-06-10, its source 2023-01-20" for o in outdated)
