"""Similarity of units: weights, corpus statistics, and which pairs are scored at all."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

from kb.align.units import Unit

THRESHOLD = 0.5
#: A membership scoring below this (or within MARGIN of another group) is reported as weak.
WEAK = 0.6
MARGIN = 0.1
#: Weights of the similarity's parts (they sum to 1).
WEIGHTS = {"concepts": 0.6, "length": 0.15, "sentences": 0.1, "numbers": 0.1, "position": 0.05}

_W_CONCEPTS, _W_LENGTH, _W_SENTENCES, _W_NUMBERS, _W_POSITION = (
    WEIGHTS["concepts"],
    WEIGHTS["length"],
    WEIGHTS["sentences"],
    WEIGHTS["numbers"],
    WEIGHTS["position"],
)

# ---------------------------------------------------------------------------------------------
# Similarity


@dataclass
class Scorer:
    """Pairwise similarity of units, with corpus-level statistics (concept rarity, lengths)."""

    units: list[Unit]
    weights: dict[str, float] = field(default_factory=dict)
    lang_length: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.units)
        df: dict[str, int] = {}
        for unit in self.units:
            for concept in unit.concepts:
                df[concept] = df.get(concept, 0) + 1
        self.weights = self.corpus_weights(n, df)
        lengths: dict[str, list[int]] = {}
        for unit in self.units:
            lengths.setdefault(unit.lang, []).append(unit.length)
        self.lang_length = usual_lengths(lengths)
        self._unit_cache: dict[str, tuple[int, float]] = {}

    @classmethod
    def with_statistics(cls, weights: dict[str, float], lang_length: dict[str, float]) -> Scorer:
        """A scorer with given corpus statistics (an incremental build's, kept in the store)."""
        scorer = cls([])
        scorer.weights, scorer.lang_length = weights, lang_length
        return scorer

    @staticmethod
    def corpus_weights(n: int, df: dict[str, int]) -> dict[str, float]:
        """Concept weights from the number of units and each concept's document frequency.

        Rounded to a tenth: adding or removing a few units then rarely changes any weight,
        so an incremental build can keep the other units' scores (:mod:`kb.align.update`).
        """
        # Rare concepts say more about which ruling a text is than ever-present ones.
        return {c: round(math.log(1 + n / d), 1) for c, d in df.items()}

    def score(self, a: Unit, b: Unit) -> tuple[float, dict]:
        """Similarity in [0, 1] of two units of different languages, and why."""
        if a.contrast and b.contrast and a.contrast != b.contrast:
            return 0.0, {"contrast": [sorted(a.contrast), sorted(b.contrast)]}
        parts = self._parts(a, b)
        return self._total(a, b, parts), {k: round(v, 3) for k, v in parts.items()}

    def value(self, a: Unit, b: Unit) -> float:
        """:meth:`score` without the explanation (the clustering's hot path: the parts are
        inlined, in :meth:`_parts`' order, so the sum is the same)."""
        if a.contrast and b.contrast and a.contrast != b.contrast:
            return 0.0
        mass_a, len_a = self._unit(a)
        mass_b, len_b = self._unit(b)
        tenths = self._tenths
        common = sum(tenths.get(c, 0) for c in a.concepts & b.concepts)
        whole = mass_a + mass_b - common
        gap = abs(a.sentences - b.sentences)
        total = (
            _W_CONCEPTS * (common / whole if whole else 0.0)
            + _W_LENGTH * (min(len_a, len_b) / max(len_a, len_b) if max(len_a, len_b) else 1.0)
            + _W_SENTENCES * (1.0 if gap == 0 else 0.5 if gap == 1 else 0.0)
            + _W_NUMBERS * (1.0 if a.numbers == b.numbers else 0.0)
            + _W_POSITION * (1.0 - abs(a.relpos - b.relpos))
        )
        if a.date != b.date:
            total *= 0.8
        if bool(a.contrast) != bool(b.contrast):
            total *= 0.7
        return round(total, 4)

    @property
    def _tenths(self) -> dict[str, int]:
        """The concept weights in tenths: integer sums are exact in any order."""
        if getattr(self, "_tenths_of", None) is not self.weights:
            self._tenths_cache = {c: round(w * 10) for c, w in self.weights.items()}
            self._tenths_of = self.weights
            self._unit_cache = {}
        return self._tenths_cache

    def _unit(self, unit: Unit) -> tuple[int, float]:
        """(concept mass in tenths, length relative to the language's usual length)."""
        found = self._unit_cache.get(unit.key) if self._tenths is not None else None
        if found is None:
            tenths = self._tenths
            found = self._unit_cache[unit.key] = (
                sum(tenths.get(c, 0) for c in unit.concepts),
                unit.length / self.lang_length.get(unit.lang, 1),
            )
        return found

    def _parts(self, a: Unit, b: Unit) -> dict[str, float]:
        return {
            "concepts": self._concepts(a, b),
            "length": self._length(a, b),
            "sentences": 1.0
            if a.sentences == b.sentences
            else 0.5
            if abs(a.sentences - b.sentences) == 1
            else 0.0,
            "numbers": 1.0 if a.numbers == b.numbers else 0.0,
            "position": 1.0 - abs(a.relpos - b.relpos),
        }

    def _total(self, a: Unit, b: Unit, parts: dict[str, float]) -> float:
        total = sum(WEIGHTS[k] * v for k, v in parts.items())
        if a.date != b.date:
            total *= 0.8  # an updated ruling may carry a new date; a hint, not a veto
        if bool(a.contrast) != bool(b.contrast):
            total *= 0.7  # one names a designation and the other none
        return round(total, 4)

    def _concepts(self, a: Unit, b: Unit) -> float:
        # Sums in tenths (integers): the same whatever order the sets iterate in (units
        # rebuilt from the store by an incremental build hold equal sets built in another order).
        tenths = self._tenths
        common = sum(tenths.get(c, 0) for c in a.concepts & b.concepts)
        whole = self._unit(a)[0] + self._unit(b)[0] - common
        return common / whole if whole else 0.0

    def _length(self, a: Unit, b: Unit) -> float:
        la, lb = self._unit(a)[1], self._unit(b)[1]
        return min(la, lb) / max(la, lb) if max(la, lb) else 1.0


def usual_lengths(lengths: dict[str, list[int]]) -> dict[str, float]:
    """Each language's median unit length over the corpus's, to a hundredth (a few more or
    fewer units rarely change it; see :meth:`Scorer.corpus_weights`)."""
    every = [x for values in lengths.values() for x in values]
    overall = statistics.median(every) if every else 1
    return {lang: round(statistics.median(v) / overall, 2) for lang, v in lengths.items()}


# ---------------------------------------------------------------------------------------------
# Clustering

#: Up to this many units every pair is scored: average linkage over the whole corpus, exactly.
ALL_PAIRS_LIMIT = 1000
#: Above it, pairs are proposed by blocking keys (a number, a rare concept); a key shared by
#: more units than this says too little about which ruling a text is and proposes nothing.
KEY_LIMIT = 64


def candidate_pairs(units: list[Unit]) -> list[tuple[int, int]] | None:
    """Pairs of units (of different languages) worth scoring; None means every pair.

    Translations keep their digits and name the same rare concepts, so two units sharing a
    number or a rare concept are proposed. Units with no such key (no digits, only common
    concepts: rulings printed on many cards) are few at any scale and are paired with each
    other. A pair proposed by no key scores below :data:`THRESHOLD` in practice: with no concept
    in common it cannot reach it at all.
    """
    if len(units) <= ALL_PAIRS_LIMIT:
        return None
    postings = block_postings(units)
    pairs: set[tuple[int, int]] = set()
    keyed = set()
    for members in postings.values():
        if len(members) > KEY_LIMIT:
            continue
        keyed.update(members)
        pairs.update(_cross_pairs(units, members))
    residual = [i for i in range(len(units)) if i not in keyed]
    pairs.update(_cross_pairs(units, residual))
    return sorted(pairs)


def block_postings(units: list[Unit]) -> dict[str, list[int]]:
    """{blocking key: indexes of the units that have it}."""
    postings: dict[str, list[int]] = {}
    for i, unit in enumerate(units):
        for key in block_keys(unit):
            postings.setdefault(key, []).append(i)
    return postings


def block_keys(unit: Unit) -> list[str]:
    return sorted(f"n:{n}" for n in unit.numbers) + sorted(f"c:{c}" for c in unit.concepts)


def _cross_pairs(units: list[Unit], members: list[int]):
    """The pairs of ``members`` of different languages, each as (smaller, larger) index.

    Taken language by language: units of one language are never paired, and a file of
    20,000 texts of one language must not cost 200 million comparisons to find that out."""
    by_lang: dict[str, list[int]] = {}
    for i in members:
        by_lang.setdefault(units[i].lang, []).append(i)
    langs = sorted(by_lang)
    for a, lang in enumerate(langs):
        for other in langs[a + 1 :]:
            for i in by_lang[lang]:
                for j in by_lang[other]:
                    yield (i, j) if i < j else (j, i)


def score_pairs(
    units: list[Unit], scorer: Scorer, pairs: list[tuple[int, int]] | None
) -> dict[int, dict[int, float]]:
    """{i: {j: similarity}} for the given pairs (both directions); every pair when None."""
    scores: dict[int, dict[int, float]] = {i: {} for i in range(len(units))}
    if pairs is None:
        pairs = list(_cross_pairs(units, list(range(len(units)))))
    for i, j in pairs:
        scores[i][j] = scores[j][i] = scorer.value(units[i], units[j])
    return scores
