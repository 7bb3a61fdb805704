"""Ranking one language's run: the best documents, skipping what cannot rank.

A query is run once per language (:mod:`kb.search.compiler`); a group's score is its best
language's, so the searcher runs the languages best bound first and each later run only
has to beat the bar the earlier ones set (:func:`bar`). A run is scored either whole, every
posting at once (:mod:`kb.search.exhaustive`, about 1 µs a posting), or by whoosh's
collector (:class:`TopGroups`), which skips the blocks that cannot beat the bar but costs
about 15 µs a document it scores: :func:`rank` picks, and switches when the collector has
nothing to skip.
"""

from __future__ import annotations

import math

from whoosh.collectors import FilterCollector, TopCollector

from kb.search import exhaustive
from kb.search.matchers import Live

#: Scoring a document in whoosh's collector costs about as much as reading and scoring this
#: many postings at once (:mod:`kb.search.exhaustive`): about 15 µs against 1 µs here (100k
#: rulings).
POSTINGS_PER_DOC = 15
#: Scores within this share of each other count as ties: a block's bound is the same sum as a
#: score, added up in another order.
TIE = 1e-9


def rank(
    searcher, compiled, wanted: int, floor: float, allowed: set[int] | None, bound: float
) -> list[tuple[float, int]]:
    """The ``wanted`` best (-score, document number) pairs of one language's run, above
    ``floor`` (``bound``: the most a document can score on it).

    Runs go best bound first, so the first sets a bar the others must clear. The first has
    no bar to skip by: :mod:`kb.search.exhaustive` scores its every posting at once (about 1 µs
    each). The others go to whoosh's collector, which skips the blocks under the bar, until
    it has scored as many documents as scoring everything at once would cost
    (:data:`POSTINGS_PER_DOC`); thousands of card-specific rulings scoring alike leave it
    nothing to skip, at 15 µs a document. A phrase is the collector's to the end.
    """
    scorable = bound != math.inf
    if not floor and scorable:
        ranked = exhaustive.top(searcher, compiled, wanted, floor, allowed)
        if ranked is not None:
            return ranked
    postings = sum(searcher.doc_frequency(*term) for term in compiled.iter_all_terms())
    budget = postings // POSTINGS_PER_DOC if scorable else None
    top = TopGroups(limit=wanted, floor=floor, budget=budget)
    collector = top if allowed is None else FilterCollector(top, allow=allowed)
    context = exhaustive.whoosh_context(searcher)  # the same sums as kb.search.exhaustive's
    try:
        searcher.search_with_collector(compiled, collector, context)
    except OverBudget:
        ranked = exhaustive.top(searcher, compiled, wanted, floor, allowed)
        if ranked is not None:
            return ranked
        top.budget = None
        searcher.search_with_collector(compiled, collector, context)
    return [(-score, -negated) for score, negated in top.items]


def bar(ranked: list[tuple[float, int]], wanted: int) -> float:
    """A score the next language's runs must beat: a little under the ``wanted``-th best of
    one run's ``ranked`` (-score, docnum) pairs. A run's documents are distinct groups, so
    ``wanted`` groups already score at least this much and a document below it cannot rank;
    ties and sums added in another order stay in (:data:`TIE`). (Pairs from several runs
    would not do: a group found in two languages would count twice.)"""
    if len(ranked) < wanted:
        return 0.0
    return -max(ranked)[0] * (1 - TIE)


class OverBudget(Exception):
    """The collector has scored as many documents as scoring everything at once costs."""


class TopGroups(TopCollector):
    """whoosh's top-N collector, but skipping from the moment the top N is full.

    whoosh raises its skipping bar only when a document beats the N-th best, so when thousands
    of groups score alike (a ruling made card-specific by a number) it scores every one.
    Setting the bar once the heap is full skips whole blocks that cannot beat it: a tie never
    enters the top N (the earlier document wins it), so the results are the same. A block's
    bound is the same sum as a score added up in another order, so scores within
    :data:`TIE` of each other count as ties.
    """

    def __init__(self, limit: int = 10, floor: float = 0.0, budget: int | None = None, **kwargs):
        super().__init__(limit=limit, **kwargs)
        self.floor = floor  # no document at or under it can rank (an earlier run's bar)
        self.budget = budget  # documents it may score before giving up (OverBudget)

    def prepare(self, top_searcher, q, context):
        super().prepare(top_searcher, q, context)
        self.minscore = self.floor

    def set_subsearcher(self, subsearcher, offset):
        """A segment's deleted documents (a patched index has a few) are stepped over once,
        above the whole query, not under each of its terms: a wrapper per term cost every
        document one more call per term (at 100k rulings, p95 50 -> 80 ms once patched)."""
        deleted = getattr(subsearcher.reader(), "deleted_docs_set", None)
        if not deleted:
            return super().set_subsearcher(subsearcher, offset)
        self.subsearcher, self.offset = subsearcher, offset
        tree = self.q.matcher(subsearcher, self.context.set(deleted_above=True))
        self.matcher = Live(tree, deleted, exclude=True)

    def _collect(self, global_docnum, score):
        if self.budget is not None:
            self.budget -= 1
            if self.budget < 0:
                raise OverBudget
        if score <= self.floor:
            return 0
        key = super()._collect(global_docnum, score)
        if len(self.items) == self.limit:
            self.minscore = max(self.floor, self.items[0][0] * (1 + TIE))
        return key
