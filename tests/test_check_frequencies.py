"""kb.checks.frequencies gives wordfreq's own Zipf values, without wordfreq's dict of every word."""

from __future__ import annotations

import random

import pytest
import wordfreq

from kb.checks import frequencies
from kb.checks.frequencies import Lookup

# Words that take wordfreq's other paths: hyphens and apostrophes split or join tokens, digits
# are smashed and weighed, case folds (ß, İ), punctuation alone has no token, and unknown words.
ODD = [
    "",
    " ",
    "-",
    "’",
    "…",
    "«",
    "e.g.",
    "l’initiative",
    "l'initiative",
    "dungeon’s",
    "don’t",
    "Two-Headed",
    "co-op",
    "x2",
    "abc123",
    "1999",
    "12,5",
    "Straße",
    "STRASSE",
    "İstanbul",
    "naïve",
    "ﬁnd",
    "Ⅻ",
    "hello world",
    "Undercity",
    "Undrcity",
    "Подгород",
    "qwxzv",
]


def _words(lang: str, seed: int) -> list[str]:
    """Words of the language's list from every part of it (frequent and rare), and ODD."""
    rng = random.Random(seed)
    buckets = wordfreq.get_frequency_list(lang)
    listed = [w for bucket in buckets[::5] for w in bucket[:2]]
    return rng.sample(listed, min(400, len(listed))) + ODD


@pytest.mark.parametrize("lang", ["en", "fr", "de", "ru"])
def test_words_named_first_get_wordfreqs_value(lang):
    words = _words(lang, 1)
    lookup = Lookup()
    lookup.want(words, lang)
    assert [lookup.zipf(w, lang) for w in words] == [
        wordfreq.zipf_frequency(w, lang) for w in words
    ]
    assert lookup._passes == {lang: 1}  # one pass over the list found them all


def test_words_not_named_first_are_found_too(monkeypatch):
    """Each unnamed word costs a pass over the list, until wordfreq answers after PASSES."""
    monkeypatch.setattr(frequencies, "PASSES", 3)
    words = _words("it", 2)
    lookup = Lookup()
    lookup.want(words[:100], "it")
    got = [lookup.zipf(w, "it") for w in words]
    assert got == [wordfreq.zipf_frequency(w, "it") for w in words]
    assert lookup._passes == {"it": 3}


def test_nothing_is_read_before_a_question():
    lookup = Lookup()
    lookup.want(["room"], "en")
    assert lookup._passes == {}
    assert lookup.zipf("room", "en") == wordfreq.zipf_frequency("room", "en") > 4
