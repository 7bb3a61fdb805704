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

from kb import cards, store
from kb.glossary import Glossary, load as load_glossary
from kb.languages import LANGUAGES
from kb.progress import say

#: Clusters whose mean cross-language similarity is below this are not merged.
THRESHOLD = 0.5
#: A membership scoring below this (or within MARGIN of another group) is reported as weak.
WEAK = 0.6
MARGIN = 0.1
#: Weights of the similarity's parts (they sum to 1).
WEIGHTS = {"concepts": 0.6, "length": 0.15, "sentences": 0.1, "numbers": 0.1, "position": 0.05}

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

    @property
    def sort_key(self) -> tuple:
        return (LANGUAGES.index(self.lang) if self.lang in LANGUAGES else 99, self.key)


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


def make_units(rows: list[dict], glossary: Glossary) -> list[Unit]:
    """Merge same-language identical texts into units; a card repeating a text stays apart."""
    by_file: dict[str, int] = {}
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
                          sentence_count(first["text"]), len(norm), first["date"], relpos))
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
        # Rare concepts say more about which ruling a text is than ever-present ones.
        self.weights = {c: math.log(1 + n / d) for c, d in df.items()}
        lengths: dict[str, list[int]] = {}
        for unit in self.units:
            lengths.setdefault(unit.lang, []).append(unit.length)
        overall = statistics.median(u.length for u in self.units) if self.units else 1
        self.lang_length = {lang: statistics.median(v) / overall for lang, v in lengths.items()}

    def score(self, a: Unit, b: Unit) -> tuple[float, dict]:
        """Similarity in [0, 1] of two units of different languages, and why."""
        if a.contrast and b.contrast and a.contrast != b.contrast:
            return 0.0, {"contrast": [sorted(a.contrast), sorted(b.contrast)]}
        parts = self._parts(a, b)
        return self._total(a, b, parts), {k: round(v, 3) for k, v in parts.items()}

    def value(self, a: Unit, b: Unit) -> float:
        """:meth:`score` without the explanation (the clustering's hot path)."""
        if a.contrast and b.contrast and a.contrast != b.contrast:
            return 0.0
        return self._total(a, b, self._parts(a, b))

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
        union = a.concepts | b.concepts
        if not union:
            return 0.0
        weight = self.weights.get
        return sum(weight(c, 0) for c in a.concepts & b.concepts) / sum(weight(c, 0) for c in union)

    def _length(self, a: Unit, b: Unit) -> float:
        la = a.length / self.lang_length.get(a.lang, 1)
        lb = b.length / self.lang_length.get(b.lang, 1)
        return min(la, lb) / max(la, lb) if max(la, lb) else 1.0


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
    postings: dict[str, list[int]] = {}
    for i, unit in enumerate(units):
        for key in _block_keys(unit):
            postings.setdefault(key, []).append(i)
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


def _block_keys(unit: Unit) -> list[str]:
    return [f"n:{n}" for n in unit.numbers] + [f"c:{c}" for c in unit.concepts]


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
    scores = score_pairs(units, scorer, candidate_pairs(units))
    # Ties go to content (unit keys), never to file order: rank units by key.
    order = sorted(range(len(units)), key=lambda i: units[i].key)
    rank = [0] * len(units)
    for position, i in enumerate(order):
        rank[i] = position
    clusters = []
    for component in components(len(units), scores):
        if len(component) == 1:
            clusters.append(component)
            continue
        for i in component:  # every pair inside a component is scored: linkage needs them all
            for j in component:
                if j > i and units[i].lang != units[j].lang and j not in scores[i]:
                    scores[i][j] = scores[j][i] = scorer.value(units[i], units[j])
        clusters += _link_component(units, component, scores, rank)
    return sorted(clusters), scores


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


def align(rows: list[dict], glossary: Glossary | None = None) -> list[Aligned]:
    """Group ruling rows (as :func:`kb.store.rulings` returns them) into aligned groups."""
    from kb import link  # link knows the rules; align only asks for a group's primary rule

    glossary = glossary or load_glossary()
    units = make_units(rows, glossary)
    scorer = Scorer(units)
    clusters, scores = cluster(units, scorer)
    groups = []
    for indexes in clusters:
        members = [units[i] for i in indexes]
        sig = signature(members)
        groups.append(Aligned(members, sig, fingerprint(sig)))
    _assign_ids(groups, link)
    context = _Context(units, scores, groups, every_pair=len(units) <= ALL_PAIRS_LIMIT)
    for group in groups:
        group.memberships = _memberships(group, context, scorer)
    return sorted(groups, key=group_order)


def _assign_ids(groups: list[Aligned], link) -> None:
    """``<primary rule or 'unlinked'>-<fingerprint>``; twins get -2, -3 by content order."""
    taken: dict[str, int] = {}
    rules_of: dict[tuple[str, ...], list] = {}  # thousands of groups share a few signatures
    for group in sorted(groups, key=lambda g: (g.fingerprint, min(u.key for u in g.units))):
        if group.signature not in rules_of:
            rules_of[group.signature] = link.rules_for(group.signature)
        rules = rules_of[group.signature]
        base = f"{rules[0].rule if rules else 'unlinked'}-{group.fingerprint}"
        taken[base] = taken.get(base, 0) + 1
        group.id = base if taken[base] == 1 else f"{base}-{taken[base]}"


def group_order(group: Aligned) -> tuple:
    prefix = group.id.split("-")[0]
    numbered = prefix[0].isdigit()
    return (not numbered, _rule_key(prefix) if numbered else (), group.id)


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
    units = ctx.units
    mine = [ctx.index_of[id(u)] for u in group.units]
    for i in mine:
        unit = units[i]
        others = [j for j in mine if j != i]
        score = round(sum(ctx.score(i, j) for j in others) / len(others), 4) if others else None
        rival = _best_rival(i, group, ctx)
        evidence = {
            "concepts": sorted(unit.concepts & set(group.signature)),
            "missing": sorted(set(group.signature) - unit.concepts),
            "extra": sorted(unit.concepts - set(group.signature)),
            "with": {units[j].lang: scorer.score(unit, units[j])[1] for j in others},
        }
        if len(unit.rulings) > 1:
            evidence["same_text_cards"] = len(unit.rulings)
        if rival:
            evidence["runner_up"] = rival
        weak = bool(
            (score is not None and score < WEAK)
            or (rival and score is not None and rival["score"] > score - MARGIN))
        if score is None:
            evidence["alone"] = True
            # Alone, but every concept it mentions is in a group that lacks its language: it
            # may be a partial translation of that ruling. Report it; do not force it in.
            partial = _partial_of(unit, ctx, group)
            if partial:
                evidence["partial_of"] = partial
                weak = True
        for row in unit.rulings:
            out.append(Membership(row, unit, score, weak, evidence))
    return out


def _partial_of(unit: Unit, ctx: _Context, own: Aligned) -> list[str]:
    """Ids of other groups without ``unit``'s language whose signature holds all its concepts."""
    if not unit.concepts:
        return []
    # Only groups whose signature names the unit's rarest concept can hold all of its concepts.
    rarest = min(unit.concepts, key=lambda c: (len(ctx.by_concept.get(c, ())), c))
    found = {}
    for other in ctx.by_concept.get(rarest, ()):
        if other is own or unit.lang in {u.lang for u in other.units}:
            continue
        contrast = {c for u in other.units for c in u.contrast}
        if unit.concepts <= set(other.signature) and not (unit.contrast and contrast
                                                          and unit.contrast != contrast):
            found[other.id] = True
    return sorted(found)


def _best_rival(i: int, own: Aligned, ctx: _Context) -> dict | None:
    """The other group this unit resembles most (mean similarity to its units), if any."""
    best = None
    lang = ctx.units[i].lang
    for other in ctx.rivals(i, own):
        scores = [ctx.score(i, ctx.index_of[id(u)]) for u in other.units if u.lang != lang]
        if not scores:
            continue
        mean = round(sum(scores) / len(scores), 4)
        if best is None or (mean, other.fingerprint) > (best["score"], best["fp"]):
            best = {"score": mean, "fp": other.fingerprint, "group": other.id}
    if best:
        best.pop("fp")
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
        db["card_identities"].insert_all(_identities(db), pk="card_id", replace=True)


def _dumped(evidence: dict, done: dict[int, str]) -> str:
    key = id(evidence)  # the evidence objects live as long as the groups: ids stay unique
    if key not in done:
        done[key] = json.dumps(evidence, ensure_ascii=False, sort_keys=True)
    return done[key]


def _identities(db: sqlite_utils.Database):
    for row in db["cards"].rows:
        ident = cards.identify(row["name"], row["lang"])
        yield {"card_id": row["id"], "identity": ident.identity,
               "english_name": ident.english_name, "known": ident.known}


def _lang_order(lang: str) -> int:
    return LANGUAGES.index(lang) if lang in LANGUAGES else len(LANGUAGES)


def build_stage(ctx) -> None:
    """Pipeline stage: align the stored rulings and report weak memberships."""
    glossary = load_glossary()
    for (text, lang), matches in ctx.extra.pop("previous_concepts", {}).items():
        glossary.remember(text, lang, ("en",), matches)  # an incremental build's unchanged texts
    groups = align(store.rulings(ctx.db), glossary)
    store_groups(ctx.db, groups, glossary)
    for line in weak_report(groups):
        say(line)


def weak_report(groups: list[Aligned]) -> list[str]:
    """One line per weak membership: where the ruling is, its group, score and rival."""
    lines = []
    for group in groups:
        for m in group.memberships:
            if m.weak:
                rival = m.evidence.get("runner_up") or {}
                where = f"{m.ruling['source']}:{m.ruling['line']}"
                if m.score is None:
                    lines.append(f"{where}: not aligned (alone in {group.id}); all its concepts "
                                 f"are in {', '.join(m.evidence['partial_of'])}, which lack "
                                 f"{m.ruling['lang']}: a partial translation?")
                else:
                    lines.append(f"{where}: weak alignment in {group.id} (score {m.score:.2f}; "
                                 f"nearest other {rival.get('group')} "
                                 f"{rival.get('score', 0):.2f})")
    return lines


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
    return sorted(out, key=lambda g: group_order(Aligned([], (), "", id=g["id"])))


def find_group(db: sqlite_utils.Database, key: str) -> dict | None:
    """The group whose id is ``key``, or whose fingerprint ends ``key`` (rule prefix ignored).

    Data that names a group (examples) keeps working when a group's primary rule changes.
    Only the matching groups' rows are read (the store may hold 100,000 rulings).
    """
    if "groups" not in db.table_names():
        return None
    fp = key.rsplit("-", 1)[-1] if "-" in key else key
    exact = [row["id"] for row in db.query("SELECT id FROM groups WHERE id = ?", [key])]
    if exact:
        return groups(db, exact)[0]
    same_fp = [row["id"] for row in db.query("SELECT id FROM groups WHERE fingerprint = ?", [fp])]
    found = groups(db, same_fp)
    return found[0] if found else None
