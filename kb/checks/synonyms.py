"""Synonyms: words standing where the glossary's term belongs, as ``term-synonym`` findings.

Part of the terminology family (:mod:`kb.checks.terms` registers the check ids and runs it):

- the glossary's ``forbidden`` terms for a concept, anywhere in a text (:func:`forbidden`);
- where a concept is missing, the word group of the sentence that most resembles its term (a
  shared word or compound part of four letters or more, or a near spelling): :func:`near`.

Also the ``term-synonym`` finding itself (:func:`synonym`), which :mod:`kb.checks.names` gives
for a misspelt name, and the glossary term's pattern (:func:`term_regex`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from kb.checks.findings import Corpus, Member

#: Words shared with a term that say nothing about it (a synonym must share a content word).
_MIN_SHARED = 4
#: How alike a word group must be to the glossary's term to be taken as a misspelling of it.
NEAR = 0.8


@lru_cache(maxsize=4096)
def term_regex(term: str) -> re.Pattern:
    """A glossary term's pattern (its inflections, case aside)."""
    from kb.reference.patterns import compile_pattern

    return re.compile(compile_pattern(term), re.IGNORECASE)


def forbidden(corpus: Corpus, member: Member, start: int = 0, end: int | None = None):
    """``term-synonym`` findings for the glossary's forbidden terms in ``member``'s text (in
    ``start:end``)."""
    end = len(member.text) if end is None else end
    for concept, regex in _forbidden_terms(corpus, member.lang):
        for m in regex.finditer(member.text, start, end):
            yield synonym(
                member, concept, m.start(), m.end(), "a term the glossary forbids for this concept"
            )


def _forbidden_terms(corpus: Corpus, lang: str) -> list[tuple]:
    """(concept, regex) of each term the glossary forbids in ``lang``, in glossary order:
    gathered once per language, not once per text from every concept."""
    key = ("forbidden-terms", lang)
    found = corpus.cache.get(key)
    if found is None:
        concepts = corpus.glossary.concepts if corpus.glossary is not None else []
        found = corpus.cache[key] = [
            (concept, term_regex(pattern))
            for concept in concepts
            for pattern in concept.forbidden.get(lang, ())
        ]
    return found


def synonym(member: Member, concept, start: int, end: int, why: str):
    """The ``term-synonym`` finding for ``member.text[start:end]`` in place of ``concept``'s
    term, ``why`` saying how it was recognised."""
    return member.finding(
        "term-synonym",
        "warning",
        f"“{member.text[start:end]}” where the glossary has “{concept.term(member.lang)}” "
        f"({concept.id}): {why}",
        start,
        end,
    )


def who(witness: Member) -> str:
    """The text a finding compares with, as its message names it ("de source")."""
    return f"{witness.lang} {'source' if witness.is_source else 'translation'}"


def near(member: Member, corpus: Corpus, concept, start: int, end: int) -> tuple[int, int] | None:
    """The word group of ``start:end`` most like one of the concept's terms in the member's
    language (a shared long word or compound part, or a near spelling), outside other
    glossary matches and the card's own name (Wizards prints it); (start, end) or None."""
    taken = [(m.start, m.end) for m in corpus.matches(member)]
    named = corpus.name_spans(member)
    words = [
        w
        for w in member.words
        if start <= w.start() and w.end() <= end and not any(a <= w.start() < b for a, b in taken)
    ]
    best: tuple[int, int] | None = None
    best_score = 0.0
    for term in concept.terms.get(member.lang) or concept.terms["en"]:
        size = len(term.split())
        for i in range(len(words)):
            for j in range(i, min(len(words), i + size + 1)):
                a, b = words[i].start(), words[j].end()
                if any(ch in '.,;:!?()«»“”„"' for ch in member.text[a:b]) or any(
                    x < b and a < y for x, y in named
                ):
                    break
                candidate = member.text[a:b]
                # A word more than the term has (an article) must earn its place.
                penalty = 0.1 * max(0, j - i + 1 - size)
                # The ratio's upper bounds (from the lengths, then from the letters) first:
                # a group that cannot beat the best so far is not matched letter by letter.
                mine, theirs = candidate.lower(), term.lower()
                if (
                    2.0 * min(len(mine), len(theirs)) / (len(mine) + len(theirs)) - penalty
                    <= best_score
                ):
                    continue
                ratio = _ratio(mine, theirs)
                score = ratio - penalty
                if (ratio >= NEAR or _shares_part(candidate, term)) and score > best_score:
                    best, best_score = (a, b), score
    return best


@lru_cache(maxsize=100_000)
def _ratio(a: str, b: str) -> float:
    """difflib's similarity of two word groups, once per pair (sentences recur in groups)."""
    from difflib import SequenceMatcher

    return SequenceMatcher(None, a, b).ratio()


def _shares_part(candidate: str, term: str) -> bool:
    """A long word, or the head of a compound (its last letters), in both."""
    a, b = candidate.lower(), term.lower()
    if {w for w in a.split() if len(w) >= _MIN_SHARED} & {
        w for w in b.split() if len(w) >= _MIN_SHARED
    }:
        return True
    head = next(
        (b[-k:] for k in range(min(len(a), len(b)), _MIN_SHARED - 1, -1) if a.endswith(b[-k:])),
        None,
    )
    return head is not None and " " not in head
