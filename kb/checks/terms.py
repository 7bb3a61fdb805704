"""Terminology: the glossary's terms, used the same way in every translation.

- ``english-term`` (warning): the English term of a concept left in a translation whose
  glossary term differs ("Two-Headed Giant" in Italian, where the glossary has "Gigante a Due
  Teste"); the message says which translations use a translated term, so a name translated in
  some languages and kept in English in others shows up on the English side.
- ``name-translated`` (warning): a name the glossary keeps in English, translated here
  ("Entrée secrète" where the other translations keep "Secret Entrance").
- ``term-variant`` (info): a term the glossary lists as an alternative, not the preferred one;
  the message counts how the rest of that language's corpus renders the concept, which shows
  a language using different terms for one concept across rulings.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from kb.checks.findings import Corpus, Member, per_text, texts

CHECKS = {
    "english-term": "a concept's English term kept where the glossary has a translation",
    "name-translated": "a name the glossary keeps in English, translated",
    "term-variant": "a term other than the glossary's preferred one",
}


def check(corpus: Corpus):
    if corpus.glossary is None:
        return
    usage = corpus.total("term-usage", lambda: term_usage(corpus, corpus.members))
    yield from per_text(corpus, lambda group, member: _member(corpus, group, member, usage))


def _member(corpus: Corpus, group, member: Member, usage: Counter):
    for match in corpus.matches(member):
        concept = corpus.concept(match.concept)
        finding = (_english(corpus, group.others(member), member, match, concept)
                   or _variant(member, match, concept, usage))
        if finding is not None:
            yield finding


def _english(corpus, others, member: Member, match, concept):
    if member.lang == "en" or match.lang != "en" or concept.keep_english:
        return None
    local = concept.term(member.lang)
    if _is_term(match.surface, local) or _own_match(corpus, member, match):
        return None
    translated = sorted(o.lang for o in others if any(
        m.concept == concept.id and m.lang == o.lang for m in corpus.matches(o)))
    also = f"; translated in {', '.join(translated)}" if translated else ""
    return member.finding(
        "english-term", "warning",
        f"English term “{match.surface}” where the glossary has “{local}”{also}",
        match.start, match.end)


def _variant(member: Member, match, concept, usage: Counter):
    terms = concept.terms.get(member.lang) or []
    index = _term_index(match.surface, terms)
    if index is None or index == 0 or match.lang not in ("", member.lang):
        return None
    preferred = terms[0]
    if concept.keep_english:
        return member.finding(
            "name-translated", "warning",
            f"“{match.surface}” is a name the glossary keeps in English: “{preferred}”",
            match.start, match.end)
    counts = ", ".join(f"“{terms[i]}” {n}×" for i, n in sorted(
        (i, n) for (lang, cid, i), n in usage.items() if lang == member.lang and cid == concept.id))
    return member.finding(
        "term-variant", "info",
        f"“{match.surface}” is an alternative term; the glossary prefers “{preferred}” "
        f"(in this language: {counts})", match.start, match.end)


def term_usage(corpus: Corpus, members) -> Counter:
    """How often each language renders each concept with each of its glossary terms:
    {(lang, concept, index of the term): count}."""
    usage: Counter = Counter()
    for (lang, text), copies in texts(members).items():  # a shared ruling is matched once
        for match in corpus.text_matches(lang, text):
            terms = corpus.concept(match.concept).terms.get(lang) or []
            index = _term_index(match.surface, terms)
            if index is not None and match.lang in ("", lang):
                usage[(lang, match.concept, index)] += copies
    return usage


def _own_match(corpus: Corpus, member: Member, match) -> bool:
    """The English surface is also the language's own term here (Italian "dungeon")."""
    return any(m.concept == match.concept and m.lang == member.lang and
               m.start <= match.start and match.end <= m.end for m in corpus.matches(member))


def _term_index(surface: str, terms: list[str]) -> int | None:
    for index, term in enumerate(terms):
        if _is_term(surface, term):
            return index
    return None


def _is_term(surface: str, term: str) -> bool:
    return bool(_term_regex(term).fullmatch(surface))


@lru_cache(maxsize=4096)
def _term_regex(term: str) -> re.Pattern:
    from kb.reference.glossary import compile_pattern

    return re.compile(compile_pattern(term), re.IGNORECASE)
