"""The site's words for the checks' findings, the registry's rules and the examples' titles."""

from __future__ import annotations

import re
import sqlite3

import pytest

from kb.corpus.languages import LANGUAGES
from kb.site import texts

# A message of several shapes, as kb.checks writes them (test_findings_i18n.py meets every
# shape with a finding of a built corpus).
SAMPLES = [
    (
        "sentence-count",
        (
            "2 sentences where the de translation (as 3 of 4) has 3: its "
            "sentences 2 and 3 are one sentence here"
        ),
    ),
    (
        "sentence-count",
        (
            "1 sentence where the en source has 2: no counterpart of its sentence 2 "
            "“Once a player has been so instructed, that player…”, expected after "
            "this one"
        ),
    ),
    (
        "missing-concept",
        (
            "no “Zweiköpfiger Riese” (two_headed_giant) in this sentence, where "
            "the es, fr, it, ru translations have it"
        ),
    ),
    (
        "extra-concept",
        ("“Одновременно” (simultaneously) has no counterpart in the other translations"),
    ),
    ("missing-translation", "no de translation of this ruling (it exists in fr, it)"),
    ("duplicate-text", "the same text as the fr translation: copied, not translated?"),
    ("duplicate-text", "the same text appears twice for this card (also rulings/a.txt:7)"),
    (
        "untranslated-name",
        (
            "English name “Lost Well” in the Italian text, not in the glossary: "
            "translate it or list it as kept in English"
        ),
    ),
    ("untranslated-fragment", "English phrase “not venture into” left in the Italian text"),
    ("untranslated-fragment", "English word “holder” in the German text"),
    ("number-mismatch", "“tre” (3) where the en source has “both” (2)"),
    (
        "number-mismatch",
        ("“two” (2) once more than the other translations say it (they have: no number)"),
    ),
    (
        "number-mismatch",
        (
            "no last in this sentence, where the it translation has “ultima” (3 of "
            "4 translations too)"
        ),
    ),
    (
        "name-mismatch",
        (
            "“Undercity” is not in this sentence, where the en source and the es, fr "
            "translations keep it verbatim"
        ),
    ),
    ("quote-style", "quotation marks “ ”; the rest of the it corpus uses « »"),
    (
        "quote-style",
        (
            "quotation marks “ ”: the inner pair used at the top level; CLDR it: « », "
            "inside them “ ”"
        ),
    ),
    ("quote-style", 'quotation marks " ": straight quotes; CLDR de: „ “, inside them ‚ ‘'),
    (
        "quote-style",
        ("quotation marks ‹ ›: not quotation marks of this locale; CLDR es: « », inside them “ ”"),
    ),
    (
        "quote-punctuation",
        (
            "“.” inside the closing quotation mark, English style; in this "
            "language it goes after the mark"
        ),
    ),
    ("french-spacing", ("no space before “:”: French puts a narrow no-break space (U+202F) there")),
    ("french-spacing", "no space after “«”: French puts a narrow no-break space (U+202F) there"),
    (
        "french-spacing",
        (
            "breaking space before “»”: use a no-break space (U+202F or U+00A0) so "
            "the line cannot break there"
        ),
    ),
    (
        "french-spacing",
        (
            "breaking space after “«”: use a no-break space (U+202F or U+00A0) so "
            "the line cannot break there"
        ),
    ),
    ("punctuation-spacing", "space before “:”, French style"),
    ("apostrophe-mix", "apostrophe ' where this language mostly uses ’ (12 to 1)"),
    ("inverted-marks", "“?” without an opening “¿”"),
    (
        "english-term",
        (
            "English term “Two-Headed Giant” where the glossary has “Gigante a Due "
            "Teste”; translated in es, fr"
        ),
    ),
    (
        "english-term",
        ("English term “Two-Headed Giant” where the glossary has “Gigante a Due Teste”"),
    ),
    (
        "name-translated",
        ("“Entrée secrète” is a name the glossary keeps in English: “Secret Entrance”"),
    ),
    (
        "term-variant",
        (
            "“venture” is an alternative term; the glossary prefers “venture into the "
            "dungeon” (in this language: “venture into the dungeon” 3×, “venture” 1×)"
        ),
    ),
    ("stale-suppression", "suppressions.toml:4 accepts no finding of 'quote-style'; remove it"),
]


def finding(check: str, message: str, lang: str = "it") -> dict:
    return {"check": check, "message": message, "lang": lang, "severity": "warning"}


def plain(html) -> str:
    return re.sub(r"<[^>]+>", "", str(html))


@pytest.mark.parametrize(
    "check,message", SAMPLES, ids=[f"{c}-{i}" for i, (c, _) in enumerate(SAMPLES)]
)
def test_every_shape_is_read_and_written_again(check, message):
    english = texts.finding_message(finding(check, message), "en")
    assert 'lang="en">' + message not in str(english), "shape not recognised"
    assert plain(english).replace("\u00a0", " ") != "" and check in texts.CHECKS
    for ui in LANGUAGES:
        shown = texts.finding_message(finding(check, message), ui)
        assert 'lang="en">' + message not in str(shown)
        assert plain(shown) != message, (ui, message)


def test_parts_become_words_of_the_reader():
    shown = str(texts.finding_message(finding("missing-concept", SAMPLES[2][1], "de"), "ru"))
    assert "Двухголовый гигант" in shown and "two_headed_giant" not in shown
    assert "испанский, французский, итальянский и русский" in shown
    assert '<span lang="de" translate="no">Zweiköpfiger Riese</span>' in shown
    phrase = str(texts.finding_message(finding("untranslated-fragment", SAMPLES[8][1]), "fr"))
    assert "italien" in phrase
    assert '<span lang="en" translate="no">not venture into</span>' in phrase
    assert "Italian" not in phrase
    english = str(texts.finding_message(finding("missing-concept", SAMPLES[2][1], "de"), "en"))
    assert "(Two-Headed Giant)" in english and "Spanish, French, Italian and Russian" in english


def test_quoted_parts_stay_data():
    hostile = finding(
        "untranslated-fragment", "English phrase “<script>x()</script>” left in the Italian text"
    )
    shown = str(texts.finding_message(hostile, "de"))
    assert "<script>" not in shown and "&lt;script&gt;" in shown


def test_an_unknown_shape_is_shown_as_written_and_marked_english():
    shown = str(texts.finding_message(finding("new-check", "something <new>"), "es"))
    assert shown == '<span lang="en">something &lt;new&gt;</span>'
    assert texts.check_label("new-check", "es") == "new-check"


def test_every_finding_of_the_seed_build_has_a_known_shape(seed_site):
    db = sqlite3.connect(seed_site.parent / "rulings.db")
    try:
        rows = db.execute('SELECT "check", message, lang FROM findings').fetchall()
    finally:
        db.close()
    assert rows
    for check, message, lang in rows:
        assert check in texts.CHECKS, check
        shown = str(texts.finding_message(finding(check, message, lang), "ru"))
        assert not shown.startswith('<span lang="en">'), message


def test_rule_and_example_titles_translate_through_the_catalog():
    from kb.core.registry import RULES

    for ui in LANGUAGES:
        for rule in RULES.values():
            assert texts.translate(rule.title, ui) != rule.title, (ui, rule.number)
            assert texts.translate(rule.summary, ui) != rule.summary, (ui, rule.number)
    assert texts.translate("One holder", "it") == "Un solo detentore"
    assert texts.translate("", "it") == ""


def test_glossary_rows_follow_the_readers_terms():
    concepts = [
        {"id": "b", "terms": {"en": ["alpha"], "ru": ["я"]}},
        {"id": "a", "terms": {"en": ["beta"], "ru": ["а"]}},
        {"id": "c", "terms": {"en": ["Gamma"]}},
    ]
    assert [c["id"] for c in texts.glossary_rows(concepts, "en")] == ["b", "a", "c"]
    assert [c["id"] for c in texts.glossary_rows(concepts, "ru")] == ["c", "a", "b"]
