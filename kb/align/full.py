"""The full alignment of a set of ruling rows: prefetch glossary matches, units, scores,
clusters, groups with memberships (:func:`align_all`). :mod:`kb.align.update` is its
incremental counterpart.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from kb.align import scoring
from kb.align.clustering import cluster_components, group_order, make_groups
from kb.align.memberships import Context, memberships_of
from kb.align.scoring import Scorer
from kb.align.units import Aligned, Unit, make_units
from kb.pipeline import forking
from kb.reference.glossary import Glossary
from kb.reference.glossary import load as load_glossary

PARALLEL_TEXTS = 2000
_SEARCH: list = []  # (glossary, texts) for the forked workers: inherited, never pickled


def prefetch_matches(
    texts: list[tuple[str, str]],
    glossary: Glossary,
    known: Collection[tuple[str, str]] = frozenset(),
) -> None:
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
    return [glossary.find(text, lang, ("en",)) for text, lang in todo[span[0] : span[1]]]


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


def align_all(
    rows: list[dict],
    glossary: Glossary | None = None,
    known: Collection[tuple[str, str]] = frozenset(),
) -> Alignment:
    """:func:`align`, keeping the units, scorer and components.

    ``known``: the (text, language) pairs whose glossary matches the glossary already holds.
    """
    glossary = glossary or load_glossary()
    prefetch_matches([(r["text"], r["lang"]) for r in rows], glossary, known)
    units = make_units(rows, glossary)
    scorer = Scorer(units)
    clusters, scores, found = cluster_components(units, scorer)
    groups = make_groups([[units[i] for i in indexes] for indexes in clusters])
    context = Context(units, scores, groups, every_pair=len(units) <= scoring.ALL_PAIRS_LIMIT)
    for group in groups:
        group.memberships = memberships_of(group, context, scorer)
    return Alignment(sorted(groups, key=group_order), units, scorer, found)
