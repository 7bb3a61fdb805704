"""Alignment: group the rulings of the store into ruling groups, one group per ruling.

A ruling group holds the translations of one ruling, across languages and cards, with at most
one text per language per card. The aligner only uses what is language-independent and can be
explained to a translator:

- the glossary concepts a text mentions (and English left in it), weighted by rarity;
- a *contrast* between concepts: a text about the initiative is never aligned with its twin
  about the monarch, however alike the rest is;
- numbers, the date, the number of sentences, the length (relative to the language's usual
  length), and the ruling's position in its file as a weak hint only.

Steps: (1) texts that are the same in one language (same words, same quotes, any card) are one
*unit*, so a ruling repeated on many cards is one group; a card repeating a text keeps the
repeat apart. (2) Units of different languages are scored pairwise. (3) Average-linkage
clustering merges the best-scoring clusters first, never two clusters sharing a language, and
stops below :data:`THRESHOLD`: a ruling without a partner stays a group of its own. (4) Each
membership gets a score (mean similarity to the rest of its group) and evidence; memberships
below :data:`WEAK` or close to another group are marked weak and reported, not forced.

The result is independent of file order: ties are broken by content, never by position.
Group ids are stable: the group's primary rule (from :mod:`kb.link`) and a fingerprint of its
concept signature (the concepts most of its languages mention), e.g. ``726.3-0c5e1a``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import statistics
import unicodedata
from dataclasses import dataclass, field

import numpy as np
import sqlite_utils

from kb import store
from kb.reference import cards
from kb.pipeline import forking
from kb.reference.glossary import Glossary, load as load_glossary
from kb.corpus.languages import LANGUAGES
from kb.pipeline.progress import say

#: Clusters whose mean cross-language similarity is below this are not merged.
THRESHOLD = 0.5
#: A membership scoring below this (or within MARGIN of another group) is reported as weak.
WEAK = 0.6
MARGIN = 0.1
#: Weights of the similarity's parts (they sum to 1).
WEIGHTS = {"concepts": 0.6, "length": 0.15, "sentences": 0.1, "numbers": 0.1, "position": 0.05}

_W_CONCEPTS, _W_LENGTH, _W_SENTENCES, _W_NUMBERS, _W_POSITION = (
    WEIGHTS["concepts"], WEIGHTS["length"], WEIGHTS["sentences"], WEIGHTS["numbers"],
    WEIGHTS["position"])

_SENTENCE_END = re.compile(r"[.!?…]+[»”“\"')\]]*(?=\s|$)")
_NUMBER = re.compile(r"\d+")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "«": '"', "»": '"', "„": '"', "“": '"', "”": '"',
                         "\u00a0": " ", "\u202f": " "})


@dataclass
class Unit:
    """One text of one language, as it appears on one or more cards."""

    lang: str
    key: str
    rulings: list[dict]
    concepts: frozenset[str]
    contrast: frozenset[str]
    numbers: frozenset[str]
    sentences: int
    length: int
    date: str
    relpos: float
    bucket: str = ""  # digest of (language, normalized text): units a text edit can touch

    @property
    def sort_key(self) -> tuple:
        return (LANGUAGES.index(self.lang) if self.lang in LANGUAGES else 99, self.key)

    def features(self) -> str:
        """Everything :class:`Scorer` reads of this unit, as JSON: two units with the same
        features score the same against any unit, under the same corpus statistics."""
        return json.dumps([sorted(self.concepts), sorted(self.contrast), sorted(self.numbers),
                           self.sentences, self.length, self.date, self.relpos],
                          ensure_ascii=False)

    @classmethod
    def from_features(cls, lang: str, key: str, features: str, bucket: str = "") -> "Unit":
        concepts, contrast, numbers, sentences, length, date, relpos = json.loads(features)
        return cls(lang, key, [], frozenset(concepts), frozenset(contrast), frozenset(numbers),
                   sentences, length, date, relpos, bucket)


@dataclass
class Membership:
    ruling: dict
    unit: Unit
    score: float | None
    weak: bool
    evidence: dict


@dataclass
class Aligned:
    """One ruling group before it is stored."""

    units: list[Unit]
    signature: tuple[str, ...]
    fingerprint: str
    memberships: list[Membership] = field(default_factory=list)
    id: str = ""


# ---------------------------------------------------------------------------------------------
# Units and their features

def normalize(text: str) -> str:
    """The text as compared within one language: NFC, quotes and spaces unified, casefolded."""
    text = unicodedata.normalize("NFC", text).translate(_QUOTES)
    return " ".join(text.casefold().split())


def sentence_count(text: str) -> int:
    return max(1, len(_SENTENCE_END.findall(text.strip())))


def make_units(rows: list[dict], glossary: Glossary,
               by_file: dict[str, int] | None = None) -> list[Unit]:
    """Merge same-language identical texts into units; a card repeating a text stays apart.

    ``by_file`` ({source: last position}) is needed when ``rows`` are not whole files.
    """
    if by_file is None:
        by_file = {}
        for row in rows:
            by_file[row["source"]] = max(by_file.get(row["source"], 0), row["position"])
    buckets: dict[tuple[str, str, int], list[dict]] = {}
    cards_in: dict[tuple[str, str, int], set[str]] = {}
    keyed = [(row["lang"], normalize(row["text"]), row["source"], row["position"], row)
             for row in rows]
    keyed.sort(key=lambda k: k[:4])
    for lang, norm, _, _, row in keyed:
        copy = 0
        while row["card_id"] in cards_in.get((lang, norm, copy), ()):
            copy += 1
        buckets.setdefault((lang, norm, copy), []).append(row)
        cards_in.setdefault((lang, norm, copy), set()).add(row["card_id"])
    units = []
    for (lang, norm, copy), members in buckets.items():
        first = members[0]
        concepts = frozenset(glossary.concept_ids(first["text"], lang, also=("en",)))
        contrast = frozenset(c for c in concepts if glossary.get(c).contrast)
        relpos = statistics.mean((r["position"] - 1) / max(1, by_file[r["source"]] - 1)
                                 for r in members)
        units.append(Unit(lang, _digest(f"{lang}\n{norm}\n{copy}"), members, concepts, contrast,
                          frozenset(_NUMBER.findall(first["text"])),
                          sentence_count(first["text"]), len(norm), first["date"], relpos,
                          _digest(f"{lang}\n{norm}")))
    return sorted(units, key=lambda u: u.sort_key)


def _digest(text: str, size: int = 12) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:size]


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
    def with_statistics(cls, weights: dict[str, float],
                        lang_length: dict[str, float]) -> "Scorer":
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
        total = (_W_CONCEPTS * (common / whole if whole else 0.0)
                 + _W_LENGTH * (min(len_a, len_b) / max(len_a, len_b) if max(len_a, len_b)
                                else 1.0)
                 + _W_SENTENCES * (1.0 if gap == 0 else 0.5 if gap == 1 else 0.0)
                 + _W_NUMBERS * (1.0 if a.numbers == b.numbers else 0.0)
                 + _W_POSITION * (1.0 - abs(a.relpos - b.relpos)))
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
                unit.length / self.lang_length.get(unit.lang, 1))
        return found

    def _parts(self, a: Unit, b: Unit) -> dict[str, float]:
        return {
            "concepts": self._concepts(a, b),
            "length": self._length(a, b),
            "sentences": 1.0 if a.sentences == b.sentences else
            0.5 if abs(a.sentences - b.sentences) == 1 else 0.0,
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
    for a, i in enumerate(members):
        for j in members[a + 1:]:
            if units[i].lang != units[j].lang:
                yield (i, j) if i < j else (j, i)


def score_pairs(units: list[Unit], scorer: Scorer,
                pairs: list[tuple[int, int]] | None) -> dict[int, dict[int, float]]:
    """{i: {j: similarity}} for the given pairs (both directions); every pair when None."""
    scores: dict[int, dict[int, float]] = {i: {} for i in range(len(units))}
    if pairs is None:
        pairs = list(_cross_pairs(units, list(range(len(units)))))
    for i, j in pairs:
        scores[i][j] = scores[j][i] = scorer.value(units[i], units[j])
    return scores


def components(n: int, scores: dict[int, dict[int, float]]) -> list[list[int]]:
    """Units joined by a pair scoring at least :data:`THRESHOLD` (union-find).

    Any merge needs one such pair across the two clusters, so clusters never span components:
    clustering each component alone gives the same clusters as clustering the whole corpus.
    """
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, row in scores.items():
        for j, value in row.items():
            if j > i and value >= THRESHOLD:
                parent[root(i)] = root(j)
    found: dict[int, list[int]] = {}
    for i in range(n):
        found.setdefault(root(i), []).append(i)
    return list(found.values())


def cluster(units: list[Unit], scorer: Scorer) -> tuple[list[list[int]], dict[int, dict[int, float]]]:
    """Average-linkage clustering under the one-unit-per-language constraint.

    Returns the clusters (lists of unit indexes, each sorted) and the pairwise scores
    ({i: {j: score}}, every pair up to :data:`ALL_PAIRS_LIMIT` units, else the proposed ones).
    Each component of the pairs scoring above the threshold is clustered on its own.
    """
    clusters, scores, _ = cluster_components(units, scorer)
    return clusters, scores


def cluster_components(units: list[Unit], scorer: Scorer, pairs=False):
    """:func:`cluster`, also returning the components (lists of unit indexes).

    ``pairs``: the pairs to score (None: every pair); by default :func:`candidate_pairs`.
    """
    scores = score_pairs(units, scorer, candidate_pairs(units) if pairs is False else pairs)
    # Ties go to content (unit keys), never to file order: rank units by key.
    order = sorted(range(len(units)), key=lambda i: units[i].key)
    rank = [0] * len(units)
    for position, i in enumerate(order):
        rank[i] = position
    clusters = []
    found = components(len(units), scores)
    for component in found:
        if len(component) == 1:
            clusters.append(component)
            continue
        for i in component:  # every pair inside a component is scored: linkage needs them all
            for j in component:
                if j > i and units[i].lang != units[j].lang and j not in scores[i]:
                    scores[i][j] = scores[j][i] = scorer.value(units[i], units[j])
        clusters += _link_component(units, component, scores, rank)
    return sorted(clusters), scores, found


def _link_component(units, component, scores, rank) -> list[list[int]]:
    """Average linkage inside one component; cluster-to-cluster sums kept in numpy arrays."""
    n = len(component)
    matrix = np.zeros((n, n))
    for a, i in enumerate(component):
        for b, j in enumerate(component):
            matrix[a, b] = scores[i].get(j, 0.0)
    langs = sorted({units[i].lang for i in component})
    masks = np.array([1 << langs.index(units[i].lang) for i in component], dtype=np.int64)
    sums = matrix.copy()
    vetoed = (matrix <= 0.0)  # a contrast veto (or same language) between any two members
    sizes = np.ones(n)
    alive = np.ones(n, dtype=bool)
    first = np.array([float(rank[i]) for i in component])
    members = [[i] for i in component]
    while True:
        mean = sums / np.outer(sizes, sizes)
        ok = (alive[:, None] & alive[None, :] & ~vetoed
              & ((masks[:, None] & masks[None, :]) == 0) & (mean >= THRESHOLD))
        np.fill_diagonal(ok, False)
        if not ok.any():
            break
        best = np.where(ok, mean, -1.0).max()
        ties = np.argwhere(ok & (mean == best))
        x, y = min(ties, key=lambda t: (min(first[t[0]], first[t[1]]), max(first[t[0]], first[t[1]])))
        x, y = int(min(x, y)), int(max(x, y))
        sums[x, :] += sums[y, :]
        sums[:, x] += sums[:, y]
        vetoed[x, :] |= vetoed[y, :]
        vetoed[:, x] |= vetoed[:, y]
        masks[x] |= masks[y]
        sizes[x] += sizes[y]
        first[x] = min(first[x], first[y])
        alive[y] = False
        members[x] = sorted(members[x] + members[y])
        members[y] = []
    return [members[a] for a in range(n) if alive[a]]


def signature(units: list[Unit]) -> tuple[str, ...]:
    """Concepts mentioned by at least half of the group's languages (language-independent)."""
    per_lang: dict[str, set[str]] = {}
    for unit in units:
        per_lang.setdefault(unit.lang, set()).update(unit.concepts)
    counts: dict[str, int] = {}
    for concepts in per_lang.values():
        for concept in concepts:
            counts[concept] = counts.get(concept, 0) + 1
    need = len(per_lang) / 2
    return tuple(sorted(c for c, k in counts.items() if k >= need))


def fingerprint(sig: tuple[str, ...]) -> str:
    return _digest(",".join(sig), 6)


#: From this many texts on, the glossary is searched for them in forked workers, one per core.
PARALLEL_TEXTS = 2000
_SEARCH: list = []  # (glossary, texts) for the forked workers: inherited, never pickled


def prefetch_matches(texts: list[tuple[str, str]], glossary: Glossary,
                     known: set[tuple[str, str]] = frozenset()) -> None:
    """Search the glossary (``also=("en",)``, as the alignment and the checks do) for every
    distinct (text, language) not ``known``, on every core; the glossary then has them."""
    import os

    todo = sorted(set(texts) - set(known))
    workers = min(os.cpu_count() or 1, 8)
    if len(todo) < PARALLEL_TEXTS or not forking.available():
        return  # searched on demand, in this process
    _SEARCH[:] = [glossary, todo]
    try:
        with forking.pool(workers) as pool:
            spans = [(i, min(i + 500, len(todo))) for i in range(0, len(todo), 500)]
            for (start, end), found in zip(spans, pool.imap(_search, spans)):
                for (text, lang), matches in zip(todo[start:end], found):
                    glossary.remember(text, lang, ("en",), matches)
    finally:
        _SEARCH.clear()


def _search(span: tuple[int, int]) -> list[list]:
    glossary, todo = _SEARCH
    return [glossary.find(text, lang, ("en",)) for text, lang in todo[span[0]:span[1]]]


@dataclass
class Alignment:
    """A whole alignment: the groups, and what an incremental build needs to update it."""

    groups: list[Aligned]
    units: list[Unit]
    scorer: Scorer
    components: list[list[int]]


def align(rows: list[dict], glossary: Glossary | None = None) -> list[Aligned]:
    """Group ruling rows (as :func:`kb.store.rulings` returns them) into aligned groups."""
    return align_all(rows, glossary).groups


def align_all(rows: list[dict], glossary: Glossary | None = None,
              known: set[tuple[str, str]] = frozenset()) -> Alignment:
    """:func:`align`, keeping the units, scorer and components.

    ``known``: the (text, language) pairs whose glossary matches the glossary already holds.
    """
    glossary = glossary or load_glossary()
    prefetch_matches([(r["text"], r["lang"]) for r in rows], glossary, known)
    units = make_units(rows, glossary)
    scorer = Scorer(units)
    clusters, scores, found = cluster_components(units, scorer)
    groups = make_groups([[units[i] for i in indexes] for indexes in clusters])
    context = _Context(units, scores, groups, every_pair=len(units) <= ALL_PAIRS_LIMIT)
    for group in groups:
        group.memberships = _memberships(group, context, scorer)
    return Alignment(sorted(groups, key=group_order), units, scorer, found)


def make_groups(clusters: list[list[Unit]]) -> list[Aligned]:
    """Groups of these clusters of units, with their ids."""
    groups = []
    for members in clusters:
        members = sorted(members, key=lambda u: u.sort_key)
        sig = signature(members)
        groups.append(Aligned(members, sig, fingerprint(sig)))
    assign_ids(groups)
    return groups


def group_base(sig: tuple[str, ...], rules_of: dict | None = None) -> str:
    """``<primary rule or 'unlinked'>-<fingerprint>`` of a signature."""
    from kb import link  # link knows the rules; align only asks for a group's primary rule

    rules_of = {} if rules_of is None else rules_of  # thousands of groups share a signature
    if sig not in rules_of:
        rules_of[sig] = link.rules_for(sig)
    rules = rules_of[sig]
    return f"{rules[0].rule if rules else 'unlinked'}-{fingerprint(sig)}"


def assign_ids(groups: list[Aligned]) -> None:
    """Ids ``<primary rule or 'unlinked'>-<fingerprint>``; see :func:`twin_ids`."""
    rules_of: dict = {}
    by_base: dict[str, list[Aligned]] = {}
    for group in groups:
        by_base.setdefault(group_base(group.signature, rules_of), []).append(group)
    for base, twins in by_base.items():
        ids = twin_ids(base, [min(u.key for u in g.units) for g in twins],
                       [sum(len(u.rulings) for u in g.units) for g in twins])
        for group, gid in zip(twins, ids):
            group.id = gid


def twin_ids(base: str, first_keys: list[str], sizes: list[int] | None = None) -> list[str]:
    """Ids of the groups sharing ``base``, given each one's smallest unit key and number of
    rulings (``sizes``).

    The largest group (ties: the smallest key) is ``base``; each other is ``base-<its smallest
    unit key>``: a group's id depends on its own content, not on how many twins sort before
    it, so adding or removing a card renames no other group. The largest, because a ruling
    printed on 2,000 cards and edited on one must keep its id (and its page's address on
    10,000 card pages), not give it to the edited copy.
    """
    sizes = sizes or [0] * len(first_keys)
    first = min(zip(first_keys, sizes), key=lambda pair: (-pair[1], pair[0]))[0]
    return [base if key == first else f"{base}-{key}" for key in first_keys]


def group_order(group: Aligned) -> tuple:
    return id_order(group.id)


def id_order(group_id: str) -> tuple:
    """A group's place in the usual order, from its id alone: by rule, then unlinked, by id."""
    prefix = group_id.split("-")[0]
    numbered = prefix[0].isdigit()
    return (not numbered, _rule_key(prefix) if numbered else (), group_id)


def _rule_key(number: str) -> tuple:
    """726.3 < 726.10, 701.49 < 701.49d."""
    return tuple((int(p), "") if p.isdigit() else (int(re.match(r"\d+", p).group()),
                                                    p.lstrip("0123456789"))
                 for p in number.split(".") if p and p[0].isdigit())


class _Context:
    """What memberships are judged against: the scores, the groups, who is in which."""

    def __init__(self, units: list[Unit], scores, groups: list[Aligned], every_pair: bool):
        self.units, self.scores, self.groups, self.every_pair = units, scores, groups, every_pair
        self.index_of = {id(u): i for i, u in enumerate(units)}
        self.group_of = {self.index_of[id(u)]: g for g in groups for u in g.units}
        self.by_concept: dict[str, list[Aligned]] = {}
        for group in groups:
            for concept in group.signature:
                self.by_concept.setdefault(concept, []).append(group)

    def score(self, i: int, j: int) -> float:
        return self.scores[i].get(j, 0.0)

    def rivals(self, i: int, own: Aligned) -> list[Aligned]:
        """Groups to compare unit ``i`` with: all of them, or those it was scored against."""
        if self.every_pair:
            candidates = {id(g): g for g in self.group_of.values()}
        else:
            candidates = {id(self.group_of[j]): self.group_of[j] for j in self.scores[i]}
        candidates.pop(id(own), None)
        return list(candidates.values())


def _memberships(group: Aligned, ctx: _Context, scorer: Scorer) -> list[Membership]:
    out = []
    for unit in group.units:
        i = ctx.index_of[id(unit)]
        out += unit_memberships(unit, group, scorer, lambda u, i=i: ctx.score(i, ctx.index_of[id(u)]),
                                ctx.rivals(i, group), lambda u: _partial_of(u, ctx, group))
    return out


def unit_memberships(unit: Unit, group: Aligned, scorer: Scorer, score, rivals: list[Aligned],
                     partial) -> list[Membership]:
    """The memberships of ``unit``'s rulings in ``group``.

    ``score(other_unit)`` is the pair's similarity (0 when it was not scored), ``rivals`` the
    other groups it was compared with, ``partial(unit)`` the groups it may partially translate.
    """
    others = [u for u in group.units if u is not unit]
    value = round(sum(score(u) for u in others) / len(others), 4) if others else None
    rival = best_rival(unit, rivals, score)
    signature_set = set(group.signature)
    evidence = {
        "concepts": sorted(unit.concepts & signature_set),
        "missing": sorted(signature_set - unit.concepts),
        "extra": sorted(unit.concepts - signature_set),
        "with": {u.lang: scorer.score(unit, u)[1] for u in others},
    }
    if len(unit.rulings) > 1:
        evidence["same_text_cards"] = len(unit.rulings)
    if rival:
        evidence["runner_up"] = rival
    weak = bool(
        (value is not None and value < WEAK)
        or (rival and value is not None and rival["score"] > value - MARGIN))
    if value is None:
        evidence["alone"] = True
        # Alone, but every concept it mentions is in a group that lacks its language: it
        # may be a partial translation of that ruling. Report it; do not force it in.
        found = partial(unit)
        if found:
            evidence["partial_of"] = found
            weak = True
    return [Membership(row, unit, value, weak, evidence) for row in unit.rulings]


def _partial_of(unit: Unit, ctx: _Context, own: Aligned) -> list[str]:
    """Ids of other groups without ``unit``'s language whose signature holds all its concepts."""
    if not unit.concepts:
        return []
    # Only groups whose signature names the unit's rarest concept can hold all of its concepts.
    rarest = min(unit.concepts, key=lambda c: (len(ctx.by_concept.get(c, ())), c))
    return partial_of(unit, own, ctx.by_concept.get(rarest, ()))


def partial_of(unit: Unit, own: Aligned, candidates) -> list[str]:
    """Ids of the ``candidates`` groups that ``unit`` may be a partial translation of."""
    found = {}
    for other in candidates:
        if other is own or other.id == own.id or unit.lang in {u.lang for u in other.units}:
            continue
        contrast = {c for u in other.units for c in u.contrast}
        if unit.concepts and unit.concepts <= set(other.signature) and not (
                unit.contrast and contrast and unit.contrast != contrast):
            found[other.id] = True
    return sorted(found)


def best_rival(unit: Unit, rivals: list[Aligned], score) -> dict | None:
    """The other group this unit resembles most (mean similarity to its units), if any.

    Ties go to the larger (fingerprint, id): content, never the order groups were met in.
    """
    best, best_key = None, None
    for other in rivals:
        scores = [score(u) for u in other.units if u.lang != unit.lang]
        if not scores:
            continue
        mean = round(sum(scores) / len(scores), 4)
        key = (mean, other.fingerprint, other.id)
        if best_key is None or key > best_key:
            best, best_key = {"score": mean, "group": other.id}, key
    return best


# ---------------------------------------------------------------------------------------------
# Store

def create_schema(db: sqlite_utils.Database) -> None:
    """Tables of alignment: groups, memberships, ruling_concepts, card_identities."""
    tables = set(db.table_names())
    if "groups" not in tables:
        db["groups"].create({"id": str, "fingerprint": str, "signature": str, "languages": str,
                             "size": int}, pk="id")
    if "memberships" not in tables:
        db["memberships"].create(
            {"ruling_id": str, "group_id": str, "score": float, "evidence": str, "weak": bool},
            pk="ruling_id", foreign_keys=[("ruling_id", "rulings", "id"),
                                          ("group_id", "groups", "id")])
        db["memberships"].create_index(["group_id"])
    if "ruling_concepts" not in tables:
        db["ruling_concepts"].create(
            {"ruling_id": str, "concept": str, "start": int, "end": int, "surface": str,
             "lang": str},
            pk=("ruling_id", "concept", "start"), foreign_keys=[("ruling_id", "rulings", "id")])
        db["ruling_concepts"].create_index(["concept"])
    if "card_identities" not in tables:
        db["card_identities"].create(
            {"card_id": str, "identity": str, "english_name": str, "known": bool},
            pk="card_id", foreign_keys=[("card_id", "cards", "id")])
        db["card_identities"].create_index(["identity"])


def store_groups(db: sqlite_utils.Database, groups: list[Aligned], glossary: Glossary) -> None:
    """Replace the alignment tables' rows with these groups."""
    create_schema(db)
    with db.conn:
        for table in ("memberships", "ruling_concepts", "card_identities"):
            db[table].delete_where()
        if "group_rules" in db.table_names():
            db["group_rules"].delete_where()
        db["groups"].delete_where()
        db["groups"].insert_all(
            {"id": g.id, "fingerprint": g.fingerprint, "signature": json.dumps(list(g.signature)),
             "languages": ",".join(sorted({u.lang for u in g.units}, key=_lang_order)),
             "size": len(g.memberships)} for g in groups)
        # Plain executemany: 100,000 memberships and a million concept rows are too many for
        # sqlite-utils' per-row dict handling. A unit's rulings share one evidence object.
        dumped: dict[int, str] = {}
        db.conn.executemany(
            "INSERT INTO memberships (ruling_id, group_id, score, evidence, weak) "
            "VALUES (?, ?, ?, ?, ?)",
            ((m.ruling["id"], g.id, m.score, _dumped(m.evidence, dumped), int(m.weak))
             for g in groups for m in g.memberships))
        db.conn.executemany(
            'INSERT INTO ruling_concepts (ruling_id, concept, start, "end", surface, lang) '
            "VALUES (?, ?, ?, ?, ?, ?)",
            ((m.ruling["id"], c.concept, c.start, c.end, c.surface, c.lang)
             for g in groups for m in g.memberships
             for c in glossary.find(m.ruling["text"], m.ruling["lang"], also=("en",))))
        db["card_identities"].insert_all(identities(db), pk="card_id", replace=True)


def _dumped(evidence: dict, done: dict[int, str]) -> str:
    key = id(evidence)  # the evidence objects live as long as the groups: ids stay unique
    if key not in done:
        done[key] = json.dumps(evidence, ensure_ascii=False, sort_keys=True)
    return done[key]


def identities(db: sqlite_utils.Database, sql: str = "SELECT * FROM cards"):
    """card_identities rows of the cards ``sql`` selects."""
    for row in db.query(sql):
        ident = cards.identify(row["name"], row["lang"])
        yield {"card_id": row["id"], "identity": ident.identity,
               "english_name": ident.english_name, "known": ident.known}


def _lang_order(lang: str) -> int:
    return LANGUAGES.index(lang) if lang in LANGUAGES else len(LANGUAGES)


def build_stage(ctx) -> None:
    """Pipeline stage: align the stored rulings and report weak memberships.

    On a reused store (an incremental build) only what the changed files touch is redone
    (:mod:`kb.align.update`); ``ctx.extra["changed_groups"]`` then names the groups whose rows
    changed or went, for the later stages; None means every group is new.
    """
    from kb.pipeline import incremental
    from kb.align import update as realign

    glossary = load_glossary()
    changed = ctx.extra.get("changed_sources")
    ctx.extra["changed_groups"] = None
    if ctx.extra.get("reused") and changed is not None:
        done = realign.update(ctx.db, changed, glossary, ctx.extra["previous"] / "rulings.db")
        if done is not None:
            ctx.extra["changed_groups"] = done
            for line in weak_lines(ctx.db):
                say(line)
            return
        # Not provably exact: align everything, as a full build, keeping the concept matches
        # of the unchanged texts; the later stages' tables go too.
        known = incremental.concept_matches(ctx.db, changed)
        for (text, lang), matches in known.items():
            glossary.remember(text, lang, ("en",), matches)
        store.drop_derived(ctx.db)
    else:
        known = {}
    alignment = align_all(store.rulings(ctx.db), glossary, set(known))
    store_groups(ctx.db, alignment.groups, glossary)
    realign.store_state(ctx.db, alignment)
    for line in weak_report(alignment.groups):
        say(line)


def weak_report(groups: list[Aligned]) -> list[str]:
    """One line per weak membership: where the ruling is, its group, score and rival."""
    return [_weak_line(f"{m.ruling['source']}:{m.ruling['line']}", m.ruling["lang"], group.id,
                       m.score, m.evidence)
            for group in groups for m in group.memberships if m.weak]


def weak_lines(db: sqlite_utils.Database) -> list[str]:
    """:func:`weak_report` of the stored memberships."""
    rows = db.query("SELECT r.source, r.line, r.lang, m.group_id, m.score, m.evidence "
                    "FROM memberships m JOIN rulings r ON r.id = m.ruling_id WHERE m.weak = 1 "
                    "ORDER BY m.group_id, r.lang, r.source, r.position")
    return [_weak_line(f"{r['source']}:{r['line']}", r["lang"], r["group_id"], r["score"],
                       json.loads(r["evidence"])) for r in rows]


def _weak_line(where: str, lang: str, group_id: str, score, evidence: dict) -> str:
    if score is None:
        return (f"{where}: not aligned (alone in {group_id}); all its concepts are in "
                f"{', '.join(evidence['partial_of'])}, which lack {lang}: a partial "
                f"translation?")
    rival = evidence.get("runner_up") or {}
    return (f"{where}: weak alignment in {group_id} (score {score:.2f}; nearest other "
            f"{rival.get('group')} {rival.get('score', 0):.2f})")


# ---------------------------------------------------------------------------------------------
# Reading

def groups(db: sqlite_utils.Database, ids: list[str] | None = None) -> list[dict]:
    """The stored groups, in a stable order, each {id, rules, fingerprint, signature, members}.

    ``members`` are ruling rows (lang, card, card_identity, english_name, text, date, source,
    line, score, weak, evidence), ordered by language then card. ``rules`` lists the linked
    Comprehensive Rules numbers, most specific first (empty before the link stage ran).
    ``ids`` restricts the answer to those groups (and the reading to their rows).
    """
    if "groups" not in db.table_names():
        return []
    where, params = "", []
    if ids is not None:
        if not ids:
            return []
        where, params = f" IN ({', '.join('?' * len(ids))})", list(ids)
    rules: dict[str, list[str]] = {}
    if "group_rules" in db.table_names():
        sql = "SELECT group_id, rule FROM group_rules"
        sql += f" WHERE group_id{where}" if where else ""
        for row in db.query(sql + " ORDER BY group_id, rank", params):
            rules.setdefault(row["group_id"], []).append(row["rule"])
    members: dict[str, list[dict]] = {}
    sql = """
        SELECT r.*, c.name AS card, m.group_id, m.score, m.weak, m.evidence,
               ci.identity AS card_identity, ci.english_name, ci.known AS card_known
        FROM memberships m JOIN rulings r ON r.id = m.ruling_id
        JOIN cards c ON c.id = r.card_id LEFT JOIN card_identities ci ON ci.card_id = c.id
    """ + (f" WHERE m.group_id{where}" if where else "")
    for row in db.query(sql, params):
        row = dict(row)
        row["evidence"] = json.loads(row["evidence"] or "{}")
        row["weak"] = bool(row["weak"])
        members.setdefault(row.pop("group_id"), []).append(row)
    out = []
    for g in db.query("SELECT * FROM groups" + (f" WHERE id{where}" if where else ""), params):
        mine = sorted(members.get(g["id"], []),
                      key=lambda r: (_lang_order(r["lang"]), r["card"], r["source"], r["position"]))
        out.append({"id": g["id"], "fingerprint": g["fingerprint"],
                    "signature": json.loads(g["signature"]), "rules": rules.get(g["id"], []),
                    "members": mine})
    return sorted(out, key=lambda g: id_order(g["id"]))


def find_group(db: sqlite_utils.Database, key: str) -> dict | None:
    """The group whose id is ``key``, or whose fingerprint ends ``key`` (rule prefix ignored).

    Data that names a group (examples) keeps working when a group's primary rule changes.
    Only the matching group's rows are read (the store may hold 100,000 rulings).
    """
    found = find_group_id(db, key)
    return groups(db, [found])[0] if found is not None else None


def find_group_id(db: sqlite_utils.Database, key: str) -> str | None:
    """The id of the group :func:`find_group` finds, without reading its rulings (a ruling
    printed on every card makes a group of 10,000): by id, else the first group in the usual
    order with the key's fingerprint."""
    if "groups" not in db.table_names():
        return None
    if db.execute("SELECT 1 FROM groups WHERE id = ?", [key]).fetchone():
        return key
    fp = key.rsplit("-", 1)[-1] if "-" in key else key
    same = [gid for (gid,) in db.execute("SELECT id FROM groups WHERE fingerprint = ?", [fp])]
    return min(same, key=id_order, default=None)
