"""Omitted or added content: a sentence or a concept that one translation lacks or adds.

Two signals, compared with the group's source (its English original) when it has one, and
with the other translations of the same ruling:

- sentences: a text whose count differs from the count the rest agrees on (the source's,
  seconded by the translations, or the translations' consensus). The sentences are then
  aligned with the reference text's (:mod:`kb.checks.sentences`): a sentence of the reference
  with no counterpart here is missing (error, pointing at the sentence before the gap), one of
  this text with none there is added (error); sentences only split or merged are a warning;
- glossary concepts (a dropped clause, a swapped term): a concept the other translations agree
  on and this text lacks (warning, pointing at the sentence where the others have it; when a
  word there is a synonym of the glossary's term or another concept's term,
  :func:`kb.checks.terms.replacement` says so instead), or one this text has and none of the
  others has (info). English terms left in a translation count as the concept being there
  (they are reported as terminology instead).
"""

from __future__ import annotations

from collections import Counter

from kb.checks import terms
from kb.checks.findings import Corpus, Member, expected, majority, per_text
from kb.checks.sentences import index_at, pairing, sentences

CHECKS = {
    "sentence-count": "a sentence missing or added, or sentences split or merged, against the "
    "source or the other translations",
    "missing-concept": "a concept the other translations mention is absent",
    "extra-concept": "a concept only this translation mentions",
}


def check(corpus: Corpus):
    return per_text(corpus, lambda group, member: _member(corpus, group, member))


def _member(corpus: Corpus, group, member: Member):
    others = group.others(member)
    if len(others) >= 2 or group.source is not None:
        yield from _sentence_count(corpus, group.source, member, others)
    if len(others) >= 2 and corpus.glossary is not None:
        yield from _concepts(corpus, group.source, member, others)


def _count(text: str) -> int:
    return len(sentences(text))


def _sentence_count(corpus: Corpus, source: Member | None, member: Member, others: list[Member]):
    own = _count(member.text)
    counts = Counter(_count(o.text) for o in others)
    if source is not None:
        agreed, reference, name = _count(source.text), source, f"the {source.lang} source"
        if not expected(True, counts[agreed], len(others)):
            return
    else:
        agreed, count = counts.most_common(1)[0]
        if not majority(count, len(others)):
            return
        reference = next(o for o in others if _count(o.text) == agreed)
        name = f"the {reference.lang} translation (as {count} of {len(others)})"
    if own == agreed:
        return
    pair = pairing(corpus, member, reference)
    theirs = pair.theirs.spans
    found = False
    for bead in pair.beads:
        if not bead.mine:
            a, b = theirs[bead.theirs[0]]
            start, end = pair.span((_before(pair.beads, bead),))
            yield member.finding(
                "sentence-count",
                "error",
                f"{own} sentence{'s' * (own != 1)} where {name} has {agreed}: no counterpart "
                f"of its sentence {bead.theirs[0] + 1} “{_short(reference.text[a:b])}”, "
                f"expected {'before' if bead is pair.beads[0] else 'after'} this one",
                start,
                end,
            )
            found = True
        elif not bead.theirs:
            start, end = pair.span(bead.mine)
            yield member.finding(
                "sentence-count",
                "error",
                f"{own} sentences where {name} has {agreed}: this sentence has no "
                f"counterpart there (added, or moved from another ruling?)",
                start,
                end,
            )
            found = True
    if not found:
        bead = next((b for b in pair.beads if len(b.mine) != len(b.theirs)), pair.beads[0])
        start, end = pair.span(bead.mine)
        if len(bead.mine) > len(bead.theirs):
            what = f"its sentence {bead.theirs[0] + 1} is split in two here"
        else:
            what = (
                f"its sentences {' and '.join(str(i + 1) for i in bead.theirs)} are one "
                f"sentence here"
            )
        yield member.finding(
            "sentence-count",
            "warning",
            f"{own} sentence{'s' * (own != 1)} where {name} has {agreed}: {what}",
            start,
            end,
        )


def _before(beads, gap) -> int:
    """My sentence just before the bead ``gap`` (the first after it at the start)."""
    mine = [i for bead in beads[: beads.index(gap)] for i in bead.mine]
    if mine:
        return mine[-1]
    return next(i for bead in beads for i in bead.mine)


def _short(text: str, size: int = 50) -> str:
    return text if len(text) <= size else text[:size].rsplit(" ", 1)[0] + "…"


def _concepts(corpus: Corpus, source: Member | None, member: Member, others: list[Member]):
    present = _concept_counts(corpus, member)
    seen = Counter(c for o in others for c in _concept_counts(corpus, o))
    for concept_id, count in sorted(seen.items()):
        if concept_id not in present and majority(count, len(others)):
            holders = [o for o in others if concept_id in _concept_counts(corpus, o)]
            witness = _witness(corpus, source, concept_id) or holders[0]
            at = next(m for m in corpus.said(witness) if m.concept == concept_id)
            start, end = pairing(corpus, member, witness).where(at.start)
            replaced = terms.replacement(corpus, member, witness, others, concept_id, start, end)
            if replaced is not None:
                yield replaced
                continue
            term = corpus.concept(concept_id).term(member.lang)
            where = ", ".join(sorted(o.lang for o in holders))
            yield member.finding(
                "missing-concept",
                "warning",
                f"no “{term}” ({concept_id}) in this sentence, where the {where} translations "
                f"have it{_said(witness, at)}",
                start,
                end,
            )
    yield from _names(corpus, source, member, others, present)
    for match in corpus.said(member):
        if seen[match.concept] == 0 and _first(corpus, member, match):
            yield member.finding(
                "extra-concept",
                "info",
                f"“{match.surface}” ({match.concept}) has no counterpart in the other translations",
                match.start,
                match.end,
            )


def _concept_counts(corpus: Corpus, member: Member) -> Counter:
    """How many times the member's text names each concept (its keys: the concepts it names),
    once per text (each text is one of its group's others four times or more)."""
    key: tuple = ("concept-counts", member.lang, member.text)
    if corpus.names_card(member):  # what it names outside its card's name
        key += (member.card,)
    found = corpus.cache.get(key)
    if found is None:
        found = corpus.cache[key] = Counter(m.concept for m in corpus.said(member))
    return found


def _names(
    corpus: Corpus,
    source: Member | None,
    member: Member,
    others: list[Member],
    present: Counter,
):
    """Names kept in English (Undercity) said fewer times than the rest says them: the one
    missing, at the sentence where the others have it ("Подгород" for "Undercity" in one
    sentence, though another sentence keeps the name)."""

    def count(m: Member, concept_id: str) -> int:
        return _concept_counts(corpus, m)[concept_id]

    for concept_id in sorted(present):
        if not corpus.concept(concept_id).keep_english:
            continue
        own = count(member, concept_id)
        more = [o for o in others if count(o, concept_id) > own]
        if not expected(
            count(source, concept_id) > own if source is not None else None, len(more), len(others)
        ):
            continue
        witness = source if source is not None else more[0]
        pair = pairing(corpus, member, witness)
        spans = pair.theirs.spans
        for at in (x for x in corpus.said(witness) if x.concept == concept_id):
            start, end = pair.where(at.start)
            a, b = spans[index_at(spans, at.start)]
            theirs = sum(a <= x.start < b and x.concept == concept_id for x in corpus.said(witness))
            if (
                sum(start <= x.start < end and x.concept == concept_id for x in corpus.said(member))
                >= theirs
            ):
                continue
            found = terms.replacement(corpus, member, witness, others, concept_id, start, end)
            yield found or member.finding(
                "missing-concept",
                "warning",
                f"no “{at.surface}” ({concept_id}) in this sentence, where "
                f"{_who_has(witness, more)}",
                start,
                end,
            )
            break


def _who_has(witness: Member, more: list[Member]) -> str:
    if witness.is_source:
        return f"the {witness.lang} source keeps it"
    return f"the {', '.join(sorted(o.lang for o in more))} translations keep it"


def _witness(corpus: Corpus, source: Member | None, concept_id: str) -> Member | None:
    """The source, when it names the concept: where the sentence is looked for."""
    if source is not None and any(m.concept == concept_id for m in corpus.said(source)):
        return source
    return None


def _said(witness: Member, at) -> str:
    return f" (the {witness.lang} source: “{at.surface}”)" if witness.is_source else ""


def _first(corpus: Corpus, member: Member, match) -> bool:
    """Report an extra concept once per text, at its first occurrence."""
    return next(m for m in corpus.said(member) if m.concept == match.concept) is match
