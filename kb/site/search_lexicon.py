"""The browser index's lexicon: every word form of the corpus, keyed as ``search-engine.js``
keys what is typed, with what ``kb search`` would make of it.

A lexicon file (``search/l/<n>.js``) holds the forms beginning with one letter (split by the
next letter when large) with their terms (:func:`kb.search.analysis.terms` of the word alone,
as a query word is analysed: German compounds whole), the terms' document frequencies (typo
corrections prefer frequent ones), the languages in which a form is a stop word (English's
included: a reader may type English), and the glossary terms that begin there, by concept
(a concept's expansion is a file of its own, ``g/<n>.js``, loaded when a query names it). So
a word's exact match, the corpus forms of its stem and its typos come with one small file.
The manifest adds, per language, the endings its stems take (:func:`endings`): a word never
seen whose start is a stem of the language and whose end is such an ending is taken as that
stem (``командной`` -> ``командн``, as ``командную``).
"""

from __future__ import annotations

import importlib
import json
import re
import unicodedata
from collections import Counter, defaultdict
from functools import lru_cache

from kb.corpus.languages import LANGUAGES

LEX_BYTES = 16_000  # a lexicon file above this is split by the next letter
MAX_ENDING = 6  # longest stem ending kept per language
#: What English words add to their stem (the glossary's English terms have no corpus forms).
EN_ENDINGS = (
    "",
    "s",
    "es",
    "e",
    "ed",
    "d",
    "ing",
    "er",
    "ers",
    "ion",
    "ions",
    "y",
    "ies",
    "ied",
    "ly",
    "ment",
    "ments",
)
SOURCES = ("en",) + LANGUAGES  # languages a glossary term may be typed in
_WORD = re.compile(r"[^\W_]+")
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
_BREVE = "\u0306"


def forms(text: str) -> list[str]:
    """Surface forms as the browser splits them (``tokens`` in search-engine.js, in step)."""
    return _WORD.findall(unicodedata.normalize("NFC", text).lower())


def key(form: str) -> str:
    """The folded form the index is keyed by, so a reader may type without accents or umlauts
    (``fold`` in search-engine.js, in step): umlauts spelled out, other marks dropped except
    the breve, which makes й a letter of its own. Not :func:`kb.search.analysis.fold`: that one
    case-folds (ß -> ss), which JavaScript cannot repeat; this key only has to match the
    browser's, the terms behind it come from the analysis itself."""
    spelled = form.translate(_UMLAUTS)
    decomposed = unicodedata.normalize("NFD", spelled)
    kept = "".join(ch for ch in decomposed if ch == _BREVE or unicodedata.category(ch) != "Mn")
    return unicodedata.normalize("NFC", kept)


def analysis():
    """:mod:`kb.search.analysis` (imported when first needed: a site without search needs none)."""
    return importlib.import_module("kb.search.analysis")


def lexicon(form_map: dict[str, list[str]], df: dict[str, int]) -> list[tuple[str, dict]]:
    """(prefix, file body) of every lexicon file, prefixes sorted."""
    stops = {lang: analysis().stopwords(lang) for lang in SOURCES}
    table = {form: terms_ for form, terms_ in form_map.items() if form}
    for word in stops["en"]:  # typed in English queries, known nowhere in the corpus
        table.setdefault(key(word), [])
    concepts = _concepts()
    files: list[tuple[str, dict]] = []

    def cut(prefix: str, names: list[str]) -> None:
        body = _lexicon_file(prefix, names, table, df, stops, concepts)
        longer = [n for n in names if len(n) > len(prefix)]
        if len(json.dumps(body, ensure_ascii=False)) <= LEX_BYTES or not longer:
            files.append((prefix, body))
            return
        by_next = defaultdict(list)
        for name in longer:
            by_next[name[: len(prefix) + 1]].append(name)
        short = [n for n in names if len(n) == len(prefix)]
        if short:  # forms no longer than the prefix: a file of their own under it
            files.append((prefix, _lexicon_file(prefix, short, table, df, stops, concepts)))
        for sub in sorted(by_next):
            cut(sub, by_next[sub])

    by_first = defaultdict(list)
    for name in sorted(table):
        by_first[name[0]].append(name)
    for first in sorted(by_first):
        cut(first, by_first[first])
    return sorted(files, key=lambda f: f[0])


def _lexicon_file(prefix: str, names: list[str], table, df, stops, concepts) -> dict:
    used = sorted({t for name in names for t in table[name] if t in df})
    index = {t: i for i, t in enumerate(used)}
    body = {
        "t": used,
        "n": [df[t] for t in used],
        "f": {name: [index[t] for t in table[name] if t in index] for name in names},
    }
    masks = {}
    for name in names:
        mask = sum(
            1 << i for i, lang in enumerate(SOURCES) if analysis().fold(name, lang) in stops[lang]
        )
        if mask:
            masks[name] = mask
    body["s"] = masks
    # The concepts a word of this file may begin to name, with those of their terms only: the
    # rest of a term is matched on the next words, its expansion comes with the concept's file.
    found = []
    for number, (_, by_lang) in enumerate(concepts):
        here = {
            lang: [seq for seq in seqs if _compatible(prefix, seq[0])]
            for lang, seqs in by_lang.items()
        }
        if any(here.values()):
            found.append([number, {lang: seqs for lang, seqs in here.items() if seqs}])
    body["g"] = found
    return body


def _compatible(prefix: str, stem: str) -> bool:
    """Whether a word beginning with ``stem`` may be in the lexicon file of ``prefix``."""
    return stem.startswith(prefix) or prefix.startswith(stem)


def concept_files() -> list[dict]:
    """Each glossary concept's terms in every ruling language (``g/<n>.js``, loaded when a
    query names the concept: its expansion)."""
    return [
        {lang: seqs for lang, seqs in by_lang.items() if lang in LANGUAGES}
        for _, by_lang in _concepts()
    ]


@lru_cache(maxsize=1)
def _concepts() -> list:
    """[[concept id, {language: [its terms as stem sequences]}]] of the glossary, analysed per
    language as :func:`kb.search.glossary.write_glossary` does (English included: a reader
    may type the rules' English words)."""
    from kb.reference import glossary

    out = []
    for concept in glossary.load().concepts:
        by_lang = {
            lang: [
                seq
                for seq in (
                    analysis().terms(term, lang, split=False)
                    for term in concept.terms.get(lang, ())
                )
                if seq
            ]
            for lang in SOURCES
        }
        out.append([concept.id, {lang: seqs for lang, seqs in by_lang.items() if seqs}])
    return out


def endings(texts, df: dict[str, int]) -> dict[str, list[str]]:
    """Per language, the endings its words add to their stems in the corpus and in the
    glossary's terms (``fr``: ``e``, ``es``, ``ent``, and ``ant`` of géant...), and English's
    (:data:`EN_ENDINGS`)."""
    seen: dict[str, Counter] = {lang: Counter() for lang in LANGUAGES}

    def count(form: str, term: str, times: int) -> None:
        lang, _, stem = term.partition(":")
        if lang in seen and form.startswith(stem) and len(form) - len(stem) <= MAX_ENDING:
            seen[lang][form[len(stem) :]] += times

    for pair in texts.pairs.words:
        form, _, term = pair.partition("\t")
        if term in df:
            count(form, term, 1)
    for form, term in _glossary_pairs():  # curated words: each as good as two in the corpus
        count(form, term, 2)
    out = {
        lang: sorted(e for e, n in counts.items() if n >= 2 or not e)
        for lang, counts in seen.items()
    }
    out["en"] = list(EN_ENDINGS)
    return out


@lru_cache(maxsize=1)
def _glossary_pairs() -> frozenset[tuple[str, str]]:
    """(folded word, "lang:stem") of every word of the glossary's terms in the ruling
    languages: how the glossary's own words end (a query may use them though no ruling does)."""
    from kb.reference import glossary

    out = set()
    for concept in glossary.load().concepts:
        for lang in LANGUAGES:
            for term in concept.terms.get(lang, ()):
                for form in forms(term):
                    stems = analysis().terms(form, lang, split=False)
                    if len(stems) == 1:
                        out.add((key(form), f"{lang}:{stems[0]}"))
    return frozenset(out)
