"""Clustering scored units into groups, and the groups' stable ids."""

from __future__ import annotations

import numpy as np

from kb.align.scoring import (
    THRESHOLD,
    Scorer,
    candidate_pairs,
    score_pairs,
)
from kb.align.units import Aligned, Unit, fingerprint, link_votes, signature
from kb.core.rule_history import rule_key
from kb.reference.glossary import load as load_glossary


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


def cluster(
    units: list[Unit], scorer: Scorer
) -> tuple[list[list[int]], dict[int, dict[int, float]]]:
    """Average-linkage clustering under the one-unit-per-language constraint.

    Returns the clusters (lists of unit indexes, each sorted) and the pairwise scores
    ({i: {j: score}}, every pair up to :data:`~kb.align.scoring.ALL_PAIRS_LIMIT` units, else the proposed ones).
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
        clusters += link_component(units, component, scores, rank)
    return sorted(clusters), scores, found


def link_component(units, component, scores, rank) -> list[list[int]]:
    """Average linkage inside one component; cluster-to-cluster sums kept in numpy arrays."""
    n = len(component)
    matrix = np.zeros((n, n))
    for a, i in enumerate(component):
        for b, j in enumerate(component):
            matrix[a, b] = scores[i].get(j, 0.0)
    langs = sorted({units[i].lang for i in component})
    masks = np.array([1 << langs.index(units[i].lang) for i in component], dtype=np.int64)
    sums = matrix.copy()
    vetoed = matrix <= 0.0  # a contrast veto (or same language) between any two members
    sizes = np.ones(n)
    alive = np.ones(n, dtype=bool)
    first = np.array([float(rank[i]) for i in component])
    members = [[i] for i in component]
    while True:
        mean = sums / np.outer(sizes, sizes)
        ok = (
            alive[:, None]
            & alive[None, :]
            & ~vetoed
            & ((masks[:, None] & masks[None, :]) == 0)
            & (mean >= THRESHOLD)
        )
        np.fill_diagonal(ok, False)
        if not ok.any():
            break
        best = np.where(ok, mean, -1.0).max()
        ties = np.argwhere(ok & (mean == best))
        x, y = min(
            ties, key=lambda t: (min(first[t[0]], first[t[1]]), max(first[t[0]], first[t[1]]))
        )
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


def make_groups(
    clusters: list[list[Unit]], stored: dict[str, list[dict]] | None = None
) -> list[Aligned]:
    """Groups of these clusters of units, with their ids (``stored``: the first copies of the
    texts of units read back from the store, :func:`kb.align.units.link_votes`)."""
    groups = []
    for members in clusters:
        members = sorted(members, key=lambda u: u.sort_key)
        sig = signature(members)
        groups.append(Aligned(members, sig, fingerprint(sig)))
    assign_ids(groups, stored)
    return groups


def group_base(sig: tuple[str, ...], votes: dict[str, float], rules_of: dict | None = None) -> str:
    """``<primary rule or 'unlinked'>-<fingerprint>`` of a signature: the rule the linker puts
    first for the group's ``votes`` (:func:`kb.align.units.link_votes`)."""
    from kb import (
        link,  # link knows the rules; align only asks for a group's primary rule
    )

    rules_of = {} if rules_of is None else rules_of  # thousands of groups vote alike
    key = tuple(votes.items())
    if key not in rules_of:
        rules_of[key] = link.rules_for(votes)
    rules = rules_of[key]
    return f"{rules[0].rule if rules else 'unlinked'}-{fingerprint(sig)}"


def assign_ids(groups: list[Aligned], stored: dict[str, list[dict]] | None = None) -> None:
    """Ids ``<primary rule or 'unlinked'>-<fingerprint>``; see :func:`twin_ids`."""
    glossary = load_glossary()
    rules_of: dict = {}
    by_base: dict[str, list[Aligned]] = {}
    for group in groups:
        votes = link_votes(group.units, glossary, stored)
        by_base.setdefault(group_base(group.signature, votes, rules_of), []).append(group)
    for base, twins in by_base.items():
        ids = twin_ids(
            base,
            [min(u.key for u in g.units) for g in twins],
            [sum(len(u.rulings) for u in g.units) for g in twins],
        )
        for group, gid in zip(twins, ids):
            group.id = gid


def twin_ids(base: str, first_keys: list[str], sizes: list[int] | None = None) -> list[str]:
    """Ids of the groups sharing ``base``, given each one's smallest unit key and number of
    rulings (``sizes``).

    The largest group (ties: the smallest key) is ``base``; each other is ``base-<its smallest
    unit key>``: a group's id depends on its own content, not on how many twins sort before
    it, so adding or removing a card renames no other group. The largest, because a ruling
    printed on 2,000 cards and edited on one must keep its id (and its page's address on
    10,000 card pages), not give it to the edited copy. A base no group has any more (a gone
    group's texts now link otherwise, with the same signature) names none.
    """
    if not first_keys:
        return []
    sizes = sizes or [0] * len(first_keys)
    first = min(zip(first_keys, sizes), key=lambda pair: (-pair[1], pair[0]))[0]
    return [base if key == first else f"{base}-{key}" for key in first_keys]


def group_order(group: Aligned) -> tuple:
    return id_order(group.id)


def id_order(group_id: str) -> tuple:
    """A group's place in the usual order, from its id alone: by rule, then unlinked, by id."""
    prefix = group_id.split("-")[0]
    numbered = prefix[0].isdigit()
    return (not numbered, rule_key(prefix) if numbered else (), group_id)
