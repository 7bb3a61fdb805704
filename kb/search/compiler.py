"""From a parsed query (:mod:`kb.search.query`) to the whoosh queries run on the index.

A query is analysed for every language it may be in and compiled into one scored query per
language (a *run*) plus filters, which restrict the documents and never score.

Words missing from the index's vocabulary are taken as typos: they match the terms within
edit distance 1 (words up to 7 letters) or 2 (longer), found with whoosh's automaton over
the vocabulary, weighted lower than exact matches (:data:`TYPO_WEIGHT`). Glossary terms of
a concept named in the query, in English or any ruling language, add that concept's terms
in every language (:mod:`kb.search.glossary`).
"""

from __future__ import annotations

import re
from pathlib import Path

from whoosh import query as Q

from kb.corpus.languages import LANGUAGES
from kb.search import analysis, glossary
from kb.search.matchers import Term
from kb.search.query import Query, QueryError

TYPO_WEIGHT = {1: 0.7, 2: 0.5}  # a corrected word counts less than a word typed right
MAX_CORRECTIONS = 4
MAX_WORD = 40  # longer "words" are never in the vocabulary: no typo search for them


def compile_query(query: Query, searcher, index_dir: str | Path = "") -> tuple[dict, list]:
    """({language: the scored whoosh query run on that language's documents}, [filters]);
    no runs and no filters when no word can match anything."""
    reader = searcher.reader()
    method = searcher.schema[f"text_{LANGUAGES[0]}"].analyzer.method
    langs = query.langs or LANGUAGES
    weights: dict[tuple, float] = {}  # a term asked twice (word and glossary) counts once, more
    for word in query.words:
        per_lang = {lang: analysis.terms(word, lang, method, split=False) for lang in langs}
        for lang, terms, weight in _word_query(word, per_lang, reader):
            weights[lang, terms] = weights.get((lang, terms), 0.0) + weight
    for lang, terms, weight in glossary.expansions(query, langs, method, str(index_dir)):
        weights[lang, terms] = weights.get((lang, terms), 0.0) + weight
    words: dict[str, list] = {}
    for (lang, terms), weight in weights.items():
        words.setdefault(lang, []).append(_in_lang(lang, list(terms), weight))
    phrases = [_phrase_query(p, langs, method) for p in query.phrases]
    filters = _filters(query)
    if not (words or phrases or filters or query.langs):
        _explain_nothing(query.words, langs)
        return {}, []
    runs = {}
    for lang in langs:
        if phrases and not all(lang in p for p in phrases):
            continue  # a phrase with no words in this language: nothing here can match
        scored = ([Q.Or(words[lang])] if words.get(lang) else []) + [p[lang] for p in phrases]
        if not scored:
            continue  # the query's words mean nothing in this language
        run = scored[0] if len(scored) == 1 else Q.And(scored)
        excluded = [q for w in query.excluded if (q := _exact(w, [lang], reader, method))]
        runs[lang] = Q.AndNot(run, Q.Or(excluded)) if excluded else run
    if not runs and query.words and not phrases:
        return {}, []  # words that match nothing: no hits, whatever the filters
    if not runs and query.langs:  # filters alone: only the languages asked for
        filters = [Q.Or([Q.Term("lang", lang) for lang in query.langs])] + filters
    return runs, filters


def allowed_documents(filters: list, searcher) -> set[int]:
    """The documents passing every filter of :func:`compile_query` (filters restrict; they
    never score)."""
    allowed = None
    for query in filters:
        docs = set(query.docs(searcher))
        allowed = docs if allowed is None else allowed & docs
        if not allowed:
            break
    return allowed or set()


def _explain_nothing(words, langs) -> None:
    """Raise QueryError when the words could never match (no letters, only stop words)."""
    if not any(re.search(r"[^\W_]", w) for w in words):
        raise QueryError(
            'nothing to search for: type some words, a "phrase" or a filter such as lang:fr'
        )
    if all(
        any(analysis.fold(w, lang) in analysis.stopwords(lang) for lang in langs) for w in words
    ):
        raise QueryError(
            "only very common words ("
            + " ".join(words[:5])
            + "): add a word that says what the ruling is about"
        )


def _in_lang(lang: str, terms: list[str], boost: float = 1.0):
    """All ``terms`` in one language's ruling text or card name."""

    def one(term):
        return Q.Or(
            [Term(f"text_{lang}", term, boost=boost), Term(f"title_{lang}", term, boost=boost)]
        )

    return one(terms[0]) if len(terms) == 1 else Q.And([one(t) for t in terms])


def _known(reader, lang: str, term: str) -> int:
    return reader.doc_frequency(f"text_{lang}", term) + reader.doc_frequency(f"title_{lang}", term)


def _word_query(word: str, per_lang: dict[str, list[str]], reader) -> list[tuple]:
    """(language, terms, weight) of the word in every language whose vocabulary has it; else
    of its typo corrections."""
    known = [
        (lang, tuple(terms), 1.0)
        for lang, terms in per_lang.items()
        if terms and all(_known(reader, lang, t) for t in terms)
    ]
    return known or _corrections(word, per_lang, reader)


def _corrections(word: str, per_lang: dict[str, list[str]], reader) -> list[tuple]:
    """Terms within edit distance 1 (2 for words of 8+ letters) of the word's term."""
    letters = len(analysis.fold(word))
    if letters < 4 or letters > MAX_WORD:
        return []
    for distance in (1, 2) if letters >= 8 else (1,):
        found = []
        for lang, terms in per_lang.items():
            if len(terms) != 1:
                continue
            for candidate in reader.terms_within(f"text_{lang}", terms[0], distance, prefix=1):
                found.append((reader.doc_frequency(f"text_{lang}", candidate), lang, candidate))
        if found:
            return [
                (lang, (term,), TYPO_WEIGHT[distance])
                for _, lang, term in sorted(found, reverse=True)[:MAX_CORRECTIONS]
            ]
    return []


def _exact(word: str, langs, reader, method: str):
    per_lang = {lang: analysis.terms(word, lang, method, split=False) for lang in langs}
    parts = [_in_lang(lang, terms) for lang, terms in per_lang.items() if terms]
    return Q.Or(parts) if parts else None


def _phrase_query(phrase: str, langs, method: str) -> dict[str, object]:
    """{language: query} of a phrase's words in order, in each language it has words in."""
    parts = {}
    for lang in langs:
        terms = analysis.terms(phrase, lang, method, split=False)
        if len(terms) == 1:
            parts[lang] = Q.Term(f"text_{lang}", terms[0])
        elif terms:
            parts[lang] = Q.Phrase(f"text_{lang}", terms)
    if not parts:
        raise QueryError(f'the phrase "{phrase}" has only very common words')
    return parts


def _filters(query: Query) -> list:
    """Card, rule and date filters (the language filter picks which languages are run).

    A ``card:`` filter keeps documents whose card names have all its words; that the words
    come in order in one name is checked on the hits (:mod:`kb.search.results`).
    """
    out = []
    for card in query.cards:
        words = analysis.card_key(card)
        if not words:
            raise QueryError(f'card:"{card}" has no letters to match a card name')
        out.append(Q.And([Q.Term("cards", word) for word in dict.fromkeys(words)]))
    if query.rules:
        out.append(
            Q.Or(
                [
                    Q.Or([Q.Term("rules", rule), Q.Prefix("rules", rule + ".")])
                    for rule in query.rules
                ]
            )
        )
    for op, value in query.dates:
        out.append(_date_query(op, value))  # a group passes when one of its rulings does
    return out


def _date_query(op: str, value: str):
    # ISO prefixes sort like dates; "\uffff" closes a prefix: 2022 <= 2022-06-10 < 2022\uffff.
    end = value + "\uffff"
    if op == "=":
        return Q.Prefix("dates", value)
    if op == ">=":
        return Q.TermRange("dates", value, None)
    if op == ">":
        return Q.TermRange("dates", end, None, startexcl=True)
    if op == "<=":
        return Q.TermRange("dates", None, end)
    return Q.TermRange("dates", None, value, endexcl=True)
