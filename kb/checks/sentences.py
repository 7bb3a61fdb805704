"""Sentences of a ruling and how they pair with a translation's: where a finding points.

A check that finds something missing ("the others have the number 2", "the source says *not*")
points at the sentence of this translation where the others have it, not at the whole text.
To know which sentence that is, the sentences of two translations of one ruling are aligned
(:func:`align`): a dynamic programme over *beads* (one sentence with one, one with two, two
with one, or a sentence with none), in the manner of Gale and Church's length-based sentence
alignment, scored by

- length: each side's share of its text, this side's corrected by the usual length ratio of
  the two languages in the corpus (a dropped sentence leaves the rest of the text shorter,
  not the other sentences longer);
- anchors: glossary concepts and digits each sentence holds (language-independent);
- a small penalty for anything but one-with-one, larger for a sentence with no counterpart.

Texts are a few sentences long, so the programme is cheap; its results are cached per pair
of texts in the corpus' cache.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from kb.checks.lexicon import length_factor

# A sentence ends at . ! ? or … followed by closing marks, space, and a capital or an opening
# mark; "z. B." and initials are too rare in rulings to need an abbreviation list.
_END = re.compile(r"(?<=[.!?…])[»”“’\")\]]*\s+(?=[«„“‘\"(¿¡]*[^\W\d_])")
_DIGITS = re.compile(r"\d+")

#: Bead shapes (sentences of this text, of the other) and their penalty.
SHAPES = {(1, 1): 0.0, (1, 2): 0.3, (2, 1): 0.3, (1, 0): 0.15, (0, 1): 0.15}
#: Weight of the length difference (in shares of the texts' mean length).
LENGTH_WEIGHT = 2.0
#: A sentence without counterpart costs this part of its length.
ORPHAN_LENGTH = 0.25
#: Weight of the anchors' disagreement (Jaccard distance of concepts and digits).
ANCHOR_WEIGHT = 0.4


@lru_cache(maxsize=100_000)
def sentences(text: str) -> tuple[tuple[int, int], ...]:
    """Sentence spans of ``text`` (end punctuation in, closing marks and spaces out).

    >>> sentences("Un joueur a l’initiative. Puis il la perd.")
    ((0, 25), (26, 42))
    """
    spans, start = [], 0
    for m in _END.finditer(text):
        nxt = text[m.end()] if m.end() < len(text) else ""
        if nxt.isupper() or not nxt.isalpha():
            spans.append((start, m.start()))
            start = m.end()
    spans.append((start, len(text)))
    return tuple((a, b) for a, b in spans if any(ch.isalpha() for ch in text[a:b]))


def alignment_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The sentence spans the alignment works on: :func:`sentences`, or the whole text when
    it has none. Two texts with as many are paired one with one (:func:`align`)."""
    return sentences(text) or ((0, len(text)),)


@dataclass(frozen=True)
class Bead:
    """Sentences of this text (``mine``) paired with sentences of the other (``theirs``),
    by index; either may be empty (a sentence without counterpart)."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]


@dataclass(frozen=True)
class Side:
    """A text as the alignment sees it: its sentence spans, the glossary matches that anchor
    them, and ``scale``, what one of its characters weighs in English characters."""

    text: str
    spans: tuple[tuple[int, int], ...]
    matches: tuple = ()
    scale: float = 1.0

    @classmethod
    def of(cls, text: str, matches=(), scale: float = 1.0) -> Side:
        """``matches``: the glossary matches in ``text`` (anything with concept and start)."""
        return cls(text, alignment_spans(text), tuple(matches), scale)

    @cached_property
    def anchors(self) -> tuple[frozenset, ...]:
        """Each sentence's anchors: its glossary concepts and digits. Only the programme of
        :func:`align` reads them, for texts whose sentence counts differ: the few."""
        anchors = []
        for start, end in self.spans:
            found = {m.concept for m in self.matches if start <= m.start < end}
            found |= {f"#{d}" for d in _DIGITS.findall(self.text[start:end])}
            anchors.append(frozenset(found))
        return tuple(anchors)

    def size(self, indexes=None) -> float:
        """The length of the sentences ``indexes`` (all: the text) in English characters."""
        if indexes is None:
            return len(self.text) * self.scale
        return sum(b - a for a, b in (self.spans[i] for i in indexes)) * self.scale


def align(mine: Side, theirs: Side) -> tuple[Bead, ...]:
    """The cheapest pairing of ``mine``'s sentences with ``theirs``', in order.

    >>> a = Side.of("One. Two two two two. Three three three.")
    >>> b = Side.of("Uno. Tres tres tres tres.")
    >>> [(x.mine, x.theirs) for x in align(a, b)]
    [((0,), (0,)), ((1,), ()), ((2,), (1,))]
    """
    n, m = len(mine.spans), len(theirs.spans)
    if n == m:
        # As many sentences on both sides: one with one (the programme finds nothing else on
        # the translations of a ruling, and a clause cut out of a sentence is still its
        # counterpart, see _paired); the checks align every text with five others.
        return _one_with_one(n)
    # Shares of one common length, so a text missing a sentence is shorter, not its other
    # sentences longer.
    unit = max(1.0, mine.size(), theirs.size())
    inf = float("inf")
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    back: list[list[tuple[int, int] | None]] = [[None] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            if cost[i][j] == inf:
                continue
            for (di, dj), penalty in SHAPES.items():
                if i + di > n or j + dj > m:
                    continue
                step = (
                    cost[i][j]
                    + penalty
                    + _bead_cost(mine, theirs, range(i, i + di), range(j, j + dj), unit)
                )
                if step < cost[i + di][j + dj]:
                    cost[i + di][j + dj], back[i + di][j + dj] = step, (di, dj)
    beads, i, j = [], n, m
    while (i, j) != (0, 0):
        shape = back[i][j]
        assert shape is not None  # the cheapest path reaches (n, m) by steps: each is noted
        di, dj = shape
        beads.append(Bead(tuple(range(i - di, i)), tuple(range(j - dj, j))))
        i, j = i - di, j - dj
    return _paired(list(reversed(beads)))


@lru_cache(maxsize=256)
def _one_with_one(n: int) -> tuple[Bead, ...]:
    """Sentence i with sentence i, for i < n (beads are immutable: one tuple per n serves
    every pairing)."""
    return tuple(Bead((i,), (i,)) for i in range(n))


def _paired(beads: list[Bead]) -> tuple[Bead, ...]:
    """A sentence without counterpart next to a counterpart without sentence is one sentence
    much changed (a clause cut out of it), not one dropped and another added: paired."""
    out: list[Bead] = []
    for bead in beads:
        last = out[-1] if out else None
        if (
            last is not None
            and len(last.mine) + len(bead.mine) == 1
            and len(last.theirs) + len(bead.theirs) == 1
            and not (last.mine and last.theirs)
        ):
            out[-1] = Bead(last.mine + bead.mine, last.theirs + bead.theirs)
        else:
            out.append(bead)
    return tuple(out)


def _bead_cost(mine: Side, theirs: Side, a: range, b: range, unit: float) -> float:
    la, lb = mine.size(a) / unit, theirs.size(b) / unit
    if not a or not b:
        # A sentence without counterpart: what it costs is mostly that it is alone (its
        # length is no evidence against the pairing of the others).
        return (la + lb) * LENGTH_WEIGHT * ORPHAN_LENGTH
    length = abs(la - lb) * LENGTH_WEIGHT
    anchors_a = frozenset().union(*(mine.anchors[i] for i in a))
    anchors_b = frozenset().union(*(theirs.anchors[j] for j in b))
    union = anchors_a | anchors_b
    if not union:
        return length
    return length + ANCHOR_WEIGHT * (1 - len(anchors_a & anchors_b) / len(union))


def counterpart(beads: tuple[Bead, ...], theirs: int) -> tuple[int, ...]:
    """My sentences paired with their sentence ``theirs`` (empty when it has none)."""
    return next((b.mine for b in beads if theirs in b.theirs), ())


def nearest(beads: tuple[Bead, ...], theirs: int) -> int:
    """My sentence nearest to where their sentence ``theirs`` is: its counterpart, else the
    sentence before the gap (the first one when the gap is at the start)."""
    before = 0
    for bead in beads:
        if theirs in bead.theirs:
            return bead.mine[0] if bead.mine else before
        if bead.mine:
            before = bead.mine[-1]
    return before


def index_at(spans: tuple[tuple[int, int], ...], offset: int) -> int:
    """The index of the sentence holding character ``offset`` (the last one before it)."""
    found = 0
    for i, (start, _) in enumerate(spans):
        if start <= offset:
            found = i
    return found


@dataclass(frozen=True)
class Pairing:
    """A translation (``mine``) and another text of its group (``theirs``), sentence by
    sentence."""

    mine: Side
    theirs: Side
    beads: tuple[Bead, ...]

    def span(self, indexes) -> tuple[int, int]:
        """The span in my text from my sentence ``indexes``' first to its last."""
        indexes = sorted(indexes)
        return self.mine.spans[indexes[0]][0], self.mine.spans[indexes[-1]][1]

    def where(self, their_offset: int) -> tuple[int, int]:
        """The span of my sentence(s) where their text has character ``their_offset``: its
        counterpart, or the sentence before the gap when it has none."""
        theirs = index_at(self.theirs.spans, their_offset)
        mine = counterpart(self.beads, theirs)
        return self.span(mine or (nearest(self.beads, theirs),))

    def bead_of(self, mine: int) -> Bead | None:
        """The bead my sentence ``mine`` is in."""
        return next((b for b in self.beads if mine in b.mine), None)


def pairing(corpus, member, other) -> Pairing:
    """The sentence pairing of ``member``'s text with ``other``'s (cached per pair of texts;
    ``corpus`` gives the glossary matches the sentences are anchored by)."""
    # The checks go group by group: a pairing is asked for again within its group only, so
    # a bounded cache keeps memory flat on a corpus of 100,000 rulings.
    cache = corpus.cache.setdefault("pairings", {})
    key = (member.lang, member.text, other.lang, other.text)
    found = cache.get(key)
    if found is None:
        if len(cache) >= PAIRINGS_KEPT:
            cache.clear()
        mine, theirs = _side(corpus, member), _side(corpus, other)
        found = cache[key] = Pairing(mine, theirs, align(mine, theirs))
    return found


def _side(corpus, member) -> Side:
    """A member's text as a Side, scaled to English (a French sentence is expected 15%
    longer); one per text, as the pairings are."""
    cache = corpus.cache.setdefault("sides", {})
    key = (member.lang, member.text)
    found = cache.get(key)
    if found is None:
        if len(cache) >= PAIRINGS_KEPT:
            cache.clear()
        found = cache[key] = Side.of(
            member.text, corpus.matches(member), 1 / length_factor(member.lang)
        )
    return found


#: How many pairings :func:`pairing` keeps (a group asks for at most a few dozen).
PAIRINGS_KEPT = 20_000
