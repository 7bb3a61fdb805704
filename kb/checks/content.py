"""Omitted or added content: a sentence or a concept that one translation lacks or adds.

Two signals, compared with the other translations of the same ruling:

- sentence counts (a dropped or merged sentence): a text whose count differs from a count the
  other translations agree on (all of them, or all but one when there are three or more);
- glossary concepts (a dropped clause, a swapped term): a concept the others agree on and this
  text lacks, or one this text has and none of the others has. English terms left in a
  translation count as the concept being there (they are reported as terminology instead).

Both are warnings (an extra concept is info): a translation may restructure sentences, and
the glossary's forms do not catch every inflection or paraphrase, so a person decides.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from kb.checks.findings import Corpus, Member, majority, per_text

CHECKS = {
    "sentence-count": "a translation has more or fewer sentences than the others",
    "missing-concept": "a concept the other translations mention is absent",
    "extra-concept": "a concept only this translation mentions",
}

# A sentence ends at . ! ? or … followed by closing marks, space, and a capital or an opening
# mark; "z. B." and initials are too rare in rulings to need an abbreviation list.
_END = re.compile(r"(?<=[.!?…])[»”“’\")\]]*\s+(?=[«„“‘\"(¿¡]*[^\W\d_])")


def sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans of ``text``.

    >>> len(sentences("Un joueur a l’initiative. Puis il la perd."))
    2
    """
    spans, start = [], 0
    for m in _END.finditer(text):
        nxt = text[m.end()] if m.end() < len(text) else ""
        if nxt.isupper() or not nxt.isalpha():
            spans.append((start, m.start()))
            start = m.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in spans if any(ch.isalpha() for ch in text[a:b])]


def check(corpus: Corpus):
    return per_text(corpus, lambda group, member: _member(corpus, group, member))


def _member(corpus: Corpus, group, member: Member):
    others = group.others(member)
    if len(others) >= 2:
        yield from _sentence_count(member, others)
        if corpus.glossary is not None:
            yield from _concepts(corpus, member, others)


@lru_cache(maxsize=200_000)
def _count(text: str) -> int:
    """How many sentences ``text`` has (a text shared by many cards is compared many times)."""
    return len(sentences(text))


def _sentence_count(member: Member, others: list[Member]):
    counts = Counter(_count(o.text) for o in others)
    agreed, count = counts.most_common(1)[0]
    own = _count(member.text)
    if own != agreed and majority(count, len(others)):
        fewer = own < agreed
        yield member.finding(
            "sentence-count", "warning",
            f"{own} sentence{'s' * (own != 1)} where the other translations have "
            f"{agreed}: a sentence may be {'missing' if fewer else 'added or split'}",
            0, len(member.text))


def _concepts(corpus: Corpus, member: Member, others: list[Member]):
    present = {m.concept for m in corpus.matches(member)}
    seen = Counter(c for o in others for c in {m.concept for m in corpus.matches(o)})
    for concept_id, count in sorted(seen.items()):
        if concept_id not in present and majority(count, len(others)):
            term = corpus.concept(concept_id).term(member.lang)
            where = ", ".join(sorted(o.lang for o in others if concept_id in
                                     {m.concept for m in corpus.matches(o)}))
            yield member.finding(
                "missing-concept", "warning",
                f"no “{term}” ({concept_id}) here, though the {where} translations have it",
                0, len(member.text))
    for match in corpus.matches(member):
        if seen[match.concept] == 0 and _first(corpus, member, match):
            yield member.finding(
                "extra-concept", "info",
                f"“{match.surface}” ({match.concept}) has no counterpart in the other "
                f"translations", match.start, match.end)


def _first(corpus: Corpus, member: Member, match) -> bool:
    """Report an extra concept once per text, at its first occurrence."""
    return next(m for m in corpus.matches(member) if m.concept == match.concept) is match
