"""Clauses that change what a ruling says: a negation lost or added, a condition missing.

Each translation's sentences are aligned with those of its source (the English original) and
of the other translations (:mod:`kb.checks.sentences`); in each aligned pair of sentences the
negations and the conditions are counted with the words of :mod:`kb.checks.lexicon` (per
language, in ``words.toml``). A translation's sentence with fewer of them than the source's
(seconded by at least half of the other translations), or, without a source, than the other
translations agree on (:func:`kb.checks.findings.expected`), has lost one; with more, it has
added one.

- ``negation`` (error): a negation lost ("vous pouvez" for "vous ne pouvez pas") or added:
  the ruling says the opposite. The excerpt is the sentence (lost) or the negating word
  (added).
- ``condition`` (error): a sentence without a condition where the others have one: the
  ruling now applies always. Conditions are compared by presence, not count ("if A or if B"
  is "wenn A oder B" in German), and one more than the others is not reported (German
  "wenn" and "sobald" say "as" and "once" too).

A verb of ceasing ("stops being", "deja de", "cesse d'") may count as a negation or not: "you
no longer have it" is "dejas de tenerla" and "tu ne l'as plus", and "ceases to have it" is
"verliert sie" in the official German. A sentence's count is therefore (negators, verbs of
ceasing); two sentences' verbs of ceasing pair off first (the same words on both sides), and
those left over may count as negations or not: the sentences differ only when what they may
count never meets. A negation dropped beside a verb of ceasing both sides have is found.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

from kb.checks.findings import Corpus, Member, expected, per_text
from kb.checks.lexicon import occurrences
from kb.checks.sentences import alignment_spans, pairing

CHECKS = {
    "negation": "a negation lost or added against the source or the other translations",
    "condition": "a condition or clause missing against the source or the other translations",
}
#: (words, verbs of ceasing) in a sentence or an aligned run of them.
_Count = tuple[int, int]
# "times" ("when" clauses) are conditions in time: reported as conditions, compared apart.
_WHAT = {
    "negations": ("negation", "a negation"),
    "conditions": ("condition", "a condition"),
    "times": ("condition", "a condition"),
}


def check(corpus: Corpus):
    return per_text(corpus, lambda group, member: _member(corpus, group, member))


def _member(corpus: Corpus, group, member: Member):
    others = group.others(member)
    source = group.source
    if source is None and len(others) < 2:
        return
    witnesses = ([source] if source is not None else []) + others
    for kind in _WHAT:
        # No text of the group has a word of this kind: every count is 0, nothing differs
        # (most texts have no condition); the sentence pairings are not even needed.
        if not any(occurrences(m.text, m.lang, kind) for m in (member, *witnesses)):
            continue
        # A finding needs the source to differ, or without one at least two translations
        # (:func:`kb.checks.findings.majority` of two or more): else nothing is reported.
        if (
            _differing(corpus, kind, member, [source]) == 1
            if source is not None
            else _differing(corpus, kind, member, witnesses) == 2
        ):
            pairs = [pairing(corpus, member, w) for w in witnesses]
            yield from _compare(kind, member, source, witnesses, pairs)


def _differing(corpus: Corpus, kind: str, member: Member, witnesses: list[Member]) -> int:
    """How many of ``witnesses`` :func:`_agrees` says differ, counted up to two (the most
    :func:`_member` asks about)."""
    count = 0
    for witness in witnesses:
        count += not _agrees(corpus, kind, member, witness)
        if count == 2:
            break
    return count


def _agrees(corpus: Corpus, kind: str, member: Member, witness: Member) -> bool:
    """Whether each of my sentences counts as many ``kind`` words (by presence but for
    negations) as its counterpart in ``witness``: then :func:`_compare` finds nothing."""
    my_spans, their_spans = alignment_spans(member.text), alignment_spans(witness.text)
    mine = _tally(member.text, member.lang, kind, my_spans)
    theirs = _tally(witness.text, witness.lang, kind, their_spans)
    if len(my_spans) == len(their_spans):  # paired one with one, no alignment to look up
        return all(_meet(a, b) for a, b in zip(mine, theirs))
    pair = pairing(corpus, member, witness)
    for bead in pair.beads:
        if bead.mine and bead.theirs:
            a = _sum(mine[i] for i in set(bead.mine))
            b = _sum(theirs[j] for j in set(bead.theirs))
            if kind != "negations":
                a, b = _present(a), _present(b)
            if not _meet(a, b):
                return False
    return True


def _ranges(a: _Count, b: _Count) -> tuple[tuple[int, int], tuple[int, int]]:
    """(low, high) of two counts (negators, verbs of ceasing), once the verbs of ceasing both
    have are paired off: those left may be negations or not.

    >>> _ranges((1, 0), (0, 1))  # "no longer" / "dejar de"
    ((1, 1), (0, 1))
    >>> _ranges((1, 1), (0, 1))  # "ceases to exist and won't" / "cessa ... e si risolverà"
    ((1, 1), (0, 0))
    """
    both = min(a[1], b[1])
    return (a[0], a[0] + a[1] - both), (b[0], b[0] + b[1] - both)


def _meet(a: _Count, b: _Count) -> bool:
    """Whether two counts may be the same."""
    (a_low, a_high), (b_low, b_high) = _ranges(a, b)
    return a_low <= b_high and b_low <= a_high


def _sum(counts) -> _Count:
    pairs = list(counts)
    return sum(n for n, _ in pairs), sum(c for _, c in pairs)


def _present(count: _Count) -> _Count:
    return min(count[0], 1), 0


@lru_cache(maxsize=100_000)
def _tally(text: str, lang: str, kind: str, spans) -> tuple[_Count, ...]:
    """How many ``kind`` words each sentence has, as (words, verbs of ceasing) (whether it has
    any, but for negations)."""
    counts = tuple(_count(found) for found in _by_sentence(text, lang, kind, spans))
    return counts if kind == "negations" else tuple(_present(n) for n in counts)


def _count(found) -> _Count:
    """(words, verbs of ceasing) among these: a verb of ceasing may or may not be a negation."""
    ceasing = sum(1 for _, _, verb in found if verb)
    return len(found) - ceasing, ceasing


def _counts(text: str, lang: str, kind: str, spans, indexes) -> tuple[_Count, list]:
    """How many ``kind`` words the sentences ``indexes`` of ``text`` hold, and where."""
    per_sentence = _by_sentence(text, lang, kind, spans)
    found = [span for i in sorted(set(indexes)) for span in per_sentence[i]]
    return _count(found), [(a, b) for a, b, _ in found]


@lru_cache(maxsize=100_000)
def _by_sentence(text: str, lang: str, kind: str, spans) -> tuple[tuple, ...]:
    """The ``kind`` words of ``text`` in each of its sentences ``spans`` (in order, apart), as
    (start, end, whether a verb of ceasing), found once per text: a sentence is counted
    against every other text of its group."""
    found: list[list] = [[] for _ in spans]
    starts = [a for a, _ in spans]
    words = [(a, b, False) for a, b in occurrences(text, lang, kind)]
    if kind == "negations":
        words += [(a, b, True) for a, b in occurrences(text, lang, "ceasing")]
    for a, b, ceasing in sorted(words):
        i = bisect_right(starts, a) - 1
        if i >= 0 and a < spans[i][1]:
            found[i].append((a, b, ceasing))
    return tuple(tuple(f) for f in found)


def _compare(
    kind: str, member: Member, source: Member | None, witnesses: list[Member], pairs: list
):
    reported: set[tuple[int, int]] = set()
    for i in range(len(pairs[0].mine.spans)):
        # Per witness: (my count, theirs, their words, my span, my words, the witness) over the
        # bead my sentence i is in; None where the witness has no counterpart.
        seen: list[tuple[_Count, _Count, list, tuple[int, int], list, Member] | None] = []
        for witness, pair in zip(witnesses, pairs):
            bead = pair.bead_of(i)
            if bead is None or not bead.theirs:
                seen.append(None)
                continue
            mine, at = _counts(member.text, member.lang, kind, pair.mine.spans, bead.mine)
            theirs, words = _counts(
                witness.text, witness.lang, kind, pair.theirs.spans, bead.theirs
            )
            seen.append((mine, theirs, words, pair.span(bead.mine), at, witness))
        from_source = seen[0] if source is not None else None
        rest = [s for s in (seen[1:] if source is not None else seen) if s is not None]
        if source is not None and from_source is None:
            continue  # the source has no counterpart of this sentence: sentence-count says so
        for fewer in (True, False) if kind == "negations" else (True,):
            if not expected(
                _differs(from_source, fewer, kind) if source is not None else None,
                sum(_differs(s, fewer, kind) for s in rest),
                len(rest),
            ):
                continue
            seen_here = from_source or _agreed(rest, fewer, kind)
            if seen_here[3] in reported:
                continue
            reported.add(seen_here[3])
            agree = sum(_differs(s, fewer, kind) for s in rest)
            yield _finding(kind, fewer, member, seen_here, agree, len(rest))


def _differs(seen, fewer: bool, kind: str) -> bool:
    """Whether the witness's sentence has more (``fewer``: mine has fewer) or fewer."""
    if seen is None:
        return False
    mine, theirs = seen[0], seen[1]
    if kind != "negations":  # by presence
        mine, theirs = _present(mine), _present(theirs)
    mine, theirs = _ranges(mine, theirs)
    return theirs[0] > mine[1] if fewer else theirs[1] < mine[0]


def _agreed(rest, fewer: bool, kind: str):
    return next(s for s in rest if _differs(s, fewer, kind))


def _finding(kind: str, fewer: bool, member: Member, seen, agree: int, total: int):
    """The finding for my sentence(s) ``seen[3]`` against the witness ``seen[5]``, ``agree``
    of the ``total`` other translations seconding it.

    Against a source, a count that differs is an error. Without one, the translations may
    each negate their own way ("diverso da" for "qui n'est pas"): only a sentence left with
    no negation at all is an error, fewer is a warning."""
    check, what = _WHAT[kind]
    mine_count, their_count, words, span, at, witness = seen
    (mine_low, mine_high), (their_low, their_high) = _ranges(mine_count, their_count)
    # The closest the two counts come: mine at most, theirs at least (fewer), or the reverse.
    mine, theirs = (mine_high, their_low) if fewer else (mine_low, their_high)
    more_or_fewer = "more" if fewer else "fewer"
    who = (
        f"the {witness.lang} source has {theirs}"
        if witness.is_source
        else f"{agree} of the {total} other translations have {more_or_fewer} (the "
        f"{witness.lang} one: {theirs})"
    )
    if fewer:
        said = "”, “".join(witness.text[a:b] for a, b in words)
        severity = "error" if witness.is_source or mine == 0 else "warning"
        return member.finding(
            check,
            severity,
            f"{what} missing: this sentence has {mine} where {who}: expected as “{said}”",
            *span,
        )
    added = "”, “".join(member.text[a:b] for a, b in at)
    start, end = at[-1] if mine - theirs == 1 and len(at) == 1 else span
    severity = "error" if witness.is_source or theirs == 0 else "warning"
    return member.finding(
        check,
        severity,
        f"{what} added: this sentence has {mine} (“{added}”) where {who}",
        start,
        end,
    )
