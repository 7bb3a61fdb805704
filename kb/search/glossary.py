"""Glossary expansion: a query naming a rules concept also finds its terms in every language.

The glossary (:mod:`kb.reference.glossary`) gives each concept its terms in English and in
the ruling languages. The build saves them, analysed per language as the index analyses
text, in ``index/glossary.json`` (:func:`write_glossary`), so a query parses no YAML and
compiles no regex. A concept is named when one of its terms, in English or in any ruling
language, appears in the query's words; its terms in every language searched are then added
to the query, weighted lower than the words typed (:data:`WEIGHT`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from kb.corpus.languages import LANGUAGES
from kb.search import analysis, folder
from kb.search.query import Query

#: A glossary term counts less than a word of the query.
WEIGHT = 0.6
#: The languages a concept may be named in: the rules' English and every ruling language.
SOURCES = ("en",) + tuple(LANGUAGES)


def write_glossary(index_dir: Path, method: str) -> None:
    """Save the glossary's terms, analysed per language, as ``glossary.json`` in the index."""
    from kb.reference import glossary  # YAML: only the build reads it

    table = {
        c.id: {
            lang: [
                t
                for t in (
                    analysis.terms(term, lang, method, split=False)
                    for term in c.terms.get(lang, ())
                )
                if t
            ]
            for lang in SOURCES
        }
        for c in glossary.load().concepts
    }
    folder.write_json(index_dir / folder.GLOSSARY, table)


@lru_cache(maxsize=8)
def _table(index_dir: str) -> dict:
    path = Path(index_dir) / folder.GLOSSARY
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def forget() -> None:
    """Drop the tables read so far: an index has been written again."""
    _table.cache_clear()


def expansions(query: Query, langs, method: str, index_dir: str) -> list[tuple]:
    """(language, terms, weight) of the terms, in every language of ``langs``, of the
    glossary concepts the query's words name (none when the index has no glossary)."""
    concepts = _table(index_dir)
    text = " ".join(query.words)
    if not concepts or not text:
        return []
    named = set()
    for source in SOURCES:
        words = analysis.terms(text, source, method, split=False)
        named |= {
            cid
            for cid, by_lang in concepts.items()
            if any(_contains(words, term) for term in by_lang.get(source, ()))
        }
    return [
        (lang, tuple(term), WEIGHT)
        for cid in sorted(named)
        for lang in langs
        for term in concepts[cid].get(lang, ())
    ]


def _contains(words: list[str], term: list[str]) -> bool:
    n = len(term)
    return n > 0 and any(words[i : i + n] == term for i in range(len(words) - n + 1))
