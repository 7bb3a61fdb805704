"""Scoring every document a word query matches, a posting block at a time.

whoosh scores a query one document at a time through a tree of matcher objects: five or six
method calls per document and term, about 13 µs a document here. Its block skipping avoids
most of that when few documents can rank, but a corpus where thousands of card-specific
rulings say the same thing (and so score alike) leaves nothing to skip: at 100,000 rulings
a query naming a glossary term scored 2,000-6,000 documents that way (35-80 ms).

This module walks the same matcher tree whoosh builds for a segment, but reads each term's
postings whole (whoosh's own blocks, decoded once) and combines the trees' nodes as
{document: score} maps. Every score is the same expression in the same order as whoosh's
(BM25F per term, sums in the tree's order, boosts after), so the scores are equal to the bit
and the top documents are the ones whoosh's collector keeps, ties going to the earlier
document. A tree holding anything else (a phrase's positions, say) is left to whoosh:
:func:`top` then returns None.
"""

from __future__ import annotations

import heapq
import itertools
import math
import pickle
import re
import struct
import zlib
from array import array
from collections.abc import Iterator
from operator import add, mul, neg

from whoosh import query as Q
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher, _lenfield
from whoosh.matching import (
    AndMaybeMatcher,
    AndNotMatcher,
    FilterMatcher,
    IntersectionMatcher,
    ListMatcher,
    NullMatcherClass,
    UnionMatcher,
    WrappingMatcher,
)
from whoosh.scoring import BM25FScorer
from whoosh.util.numeric import byte_to_length

from kb.search import matchers

#: Field lengths are stored as one byte each; this is whoosh's decoding of every byte.
LENGTHS = tuple(byte_to_length(b) for b in range(256))


#: Matchers that only multiply their child's scores by their ``boost`` (whoosh's own
#: subclasses of it do more: a phrase's spans, say), whoosh's and kb.search's mended one.
SCALERS = {WrappingMatcher, matchers.Boosted}
#: Matchers that keep (or drop) their child's documents in a set ``_ids``.
FILTERS = {FilterMatcher, matchers.Live}


class Unsupported(Exception):
    """A matcher this module does not score (whoosh scores the query instead)."""


def whoosh_context(searcher):
    """The search context to build matchers in, here and in whoosh's collectors alike, so
    that both add a document's scores up in the same order: with ``needs_current`` whoosh
    builds an Or as a tree of unions (which this module walks) in every segment, not, in
    segments under 5,000 documents, an array of scores added in another order."""
    return searcher.context(needs_current=True)


def top(
    searcher, query, wanted: int, floor: float = 0.0, allowed: set[int] | None = None
) -> list[tuple[float, int]] | None:
    """The ``wanted`` best (-score, document number) pairs of ``query``, best first and ties
    by document number, among the documents scoring above ``floor`` (and in ``allowed`` when
    given); None when the query holds a matcher this module does not score."""
    context = whoosh_context(searcher).set(deleted_above=True)  # dropped here, not per term
    best: list[tuple[float, int]] = []
    try:
        for subsearcher, offset in searcher.leaf_searchers():
            reader = subsearcher.reader()
            scores = _Segment(reader).scores(query.matcher(subsearcher, context))
            deleted = getattr(reader, "deleted_docs_set", None)
            if deleted:
                scores = {docnum: scores[docnum] for docnum in scores.keys() - deleted}
            docnums = [offset + docnum for docnum in scores]
            pairs: Iterator[tuple[float, int]] = zip(map(neg, scores.values()), docnums)
            if allowed is not None:
                pairs = (pair for pair in pairs if pair[1] in allowed)
            best += heapq.nsmallest(wanted, pairs)
    except Unsupported:
        return None
    return [pair for pair in heapq.nsmallest(wanted, best) if -pair[0] > floor]


def bound(searcher, query) -> float:
    """The most any document can score on ``query``: whoosh's bound of each term (its best
    weight in its shortest field), summed as unions and intersections sum scores; infinite
    for what this module does not score (a phrase). Sums added in another order than a
    document's may differ in the last bit, which callers' ties allow for."""
    if isinstance(query, Q.Term):
        if (query.fieldname, query.text) not in searcher.reader():
            return 0.0
        scorer = searcher.weighting.scorer(searcher, query.fieldname, query.text)
        return scorer.max_quality() * query.boost if type(scorer) is BM25FScorer else math.inf
    if type(query) in (Q.And, Q.Or):
        return sum(bound(searcher, sub) for sub in query.subqueries) * query.boost
    if type(query) is Q.AndNot:
        return bound(searcher, query.a) * query.boost
    return math.inf


class _Segment:
    """Scores a segment's matcher trees: {document: score} maps combined with C-level
    set and map operations (a Python loop per document would cost what whoosh's does)."""

    def __init__(self, reader) -> None:
        self.reader = reader
        self.terms: dict[tuple, dict[int, float]] = {}  # a query may ask a term twice

    def scores(self, matcher) -> dict[int, float]:
        """{document: score} of every document ``matcher`` matches, as whoosh scores it."""
        kind = type(matcher)
        if kind is W3LeafMatcher or kind is ListMatcher:
            term = matcher.term()
            if term not in self.terms:  # (a word and its glossary term, say)
                self.terms[term] = self.leaf(matcher)
            return self.terms[term]
        if isinstance(matcher, NullMatcherClass):
            return {}
        # Neither a node's activity nor its position counts: whoosh's intersections and
        # exclusions move their sides on creation, and the leaves are read from the start.
        if kind is UnionMatcher:
            a, b = self.scores(matcher.a), self.scores(matcher.b)
            out = {**a, **b}
            out.update(_sums(a, b, a.keys() & b.keys()))
            return out
        if kind is IntersectionMatcher:
            a, b = self.scores(matcher.a), self.scores(matcher.b)
            return dict(_sums(a, b, a.keys() & b.keys()))
        if kind is AndNotMatcher:
            a, b = self.scores(matcher.a), self.scores(matcher.b)
            return {docnum: a[docnum] for docnum in a.keys() - b.keys()}
        if kind is AndMaybeMatcher:
            a, b = self.scores(matcher.a), self.scores(matcher.b)
            out = dict(a)
            out.update(_sums(a, b, a.keys() & b.keys()))
            return out
        if kind in FILTERS:
            child = self.scores(matcher.child)
            ids = matcher._ids
            kept = child.keys() - ids if matcher._exclude else child.keys() & ids
            return {docnum: child[docnum] for docnum in kept}
        if kind in SCALERS:
            child, boost = self.scores(matcher.child), itertools.repeat(matcher.boost)
            return dict(zip(child.keys(), map(mul, child.values(), boost)))
        raise Unsupported(kind.__name__)

    def leaf(self, matcher) -> dict[int, float]:
        """One term's postings, each scored by BM25F as whoosh's scorer does."""
        scorer = matcher.scorer if type(matcher) is W3LeafMatcher else matcher._scorer
        if type(scorer) is not BM25FScorer:
            raise Unsupported(type(scorer).__name__)
        lengths = self.lengths(matcher.term()[0])
        idf, avgfl, B, K1 = scorer.idf, scorer.avgfl, scorer.B, scorer.K1
        tables: dict[float, list[float]] = {}  # the score of each length byte, by weight

        def table(tf: float) -> list[float]:
            if tf not in tables:  # whoosh.scoring.bm25 written out: the same operations
                tables[tf] = [
                    idf * ((tf * (K1 + 1)) / (tf + K1 * ((1 - B) + B * fl / avgfl)))
                    for fl in LENGTHS
                ]
            return tables[tf]

        out: dict[int, float] = {}
        for ids, weights in _postings(matcher):
            if isinstance(weights, float):  # the block's postings all weigh the same
                out.update(zip(ids, map(table(weights).__getitem__, map(lengths.__getitem__, ids))))
            else:
                for docnum, tf in zip(ids, weights):
                    out[docnum] = table(tf)[lengths[docnum]]
        return out

    def lengths(self, fieldname: str) -> bytes:
        """The one-byte length of ``fieldname`` of every document of the segment, read at
        once (whoosh reads it a document at a time)."""
        column = self.reader._perdoc._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
        return column._dbfile.get(column._basepos, column._count)


def _postings(matcher):
    """(document numbers, weights) of all of a term matcher's postings, a block at a time,
    decoded as whoosh decodes them: the weights are 32-bit floats, one float when the
    block's postings all weigh the same."""
    matcher.reset()  # an intersection moves its sides to their first common document
    if type(matcher) is ListMatcher:
        weights = matcher._all_weights or 1.0 if not matcher._weights else matcher._weights
        yield matcher._ids, (float32(weights) if isinstance(weights, float) else weights)
        return
    while matcher.is_active():
        ids, weights = read_block(matcher)
        if weights is None or isinstance(weights, float):
            weights = float32(1.0 if weights is None else weights)
        yield (ids if matcher._byteids else list(itertools.accumulate(ids))), weights
        matcher._next_block()


def float32(value: float) -> float:
    """``value`` as whoosh stores a weight: a 32-bit float."""
    return array("f", [value])[0]


#: The start of a posting block as whoosh pickles it: (ids, weights, values) in protocol 2,
#: the ids a tuple of small ints, the weights None (all 1) or one float (all the same).
BLOCK_HEAD = re.compile(rb"(\x80\x02\((?:K.|M..|J....)*t)(?:q.|r....)?(?:(N)|G(.{8}))", re.DOTALL)


def read_block(matcher) -> tuple:
    """(ids, weights) of the matcher's current block as whoosh stores them. Unpickling the
    whole block also builds every posting's positions (a function call each) which scoring
    does not need; when the block starts as usual, only its ids and weights are read."""
    data = matcher._postfile.get(matcher._dataoffset, matcher._nextoffset - matcher._dataoffset)
    if matcher._compression:
        data = zlib.decompress(data)
    head = BLOCK_HEAD.match(data)
    if head is None:
        return pickle.loads(data)[:2]
    ids = pickle.loads(head.group(1) + b".")
    return ids, None if head.group(2) else struct.unpack(">d", head.group(3))[0]


def _sums(a: dict[int, float], b: dict[int, float], both) -> Iterator[tuple[int, float]]:
    """(document, a + b) of the documents in ``both``."""
    return zip(both, map(add, map(a.__getitem__, both), map(b.__getitem__, both)))
