"""kb.search.exhaustive against whoosh itself: the same documents and the very same scores as
whoosh's collector scoring everything, on the synthetic corpus's index and on one patched by
an incremental build (deleted documents in its first segment)."""

from __future__ import annotations

import itertools
import math
import shutil
import sqlite3

import pytest
import sqlite_utils
from whoosh import query as Q
from whoosh.collectors import FilterCollector, TopCollector

from kb.search import build_index, compile_query, exhaustive, handles
from kb.search.query import parse

QUERIES = [
    "initiative",
    "рука ход инициатива",
    "géant à deux têtes",
    "gigante de dos cabezas",
    "Kommandozone",
    "initiatve",
    "Undercity",
    "initiative -dungeon",
    "zona di comando",
    "dungeon card",
]


@pytest.fixture(scope="module")
def patched(synthetic, tmp_path_factory):
    """The synthetic index patched after three groups' French texts changed."""
    work = tmp_path_factory.mktemp("patched")
    shutil.copy(synthetic.parent / "rulings.db", work / "rulings.db")
    with sqlite3.connect(work / "rulings.db") as conn:
        conn.execute(
            "UPDATE rulings SET text = text || ' Encore.' WHERE lang = 'fr' AND id IN "
            "(SELECT ruling_id FROM memberships WHERE group_id IN (SELECT DISTINCT "
            "group_id FROM memberships ORDER BY group_id LIMIT 3))"
        )
    written = build_index(
        sqlite_utils.Database(work / "rulings.db"), work / "index", previous=synthetic
    )
    assert written["written"] == 3
    return work / "index"


def runs(index_dir, query: str) -> tuple:
    searcher = handles.opened(index_dir).searcher
    return searcher, compile_query(parse(query), searcher, index_dir)[0]


def whoosh_top(searcher, compiled, wanted: int, allowed=None) -> list[tuple[float, int]]:
    """whoosh's collector scoring every document (no skipping), as (-score, docnum) pairs."""
    top = TopCollector(limit=wanted, usequality=False)
    collector = top if allowed is None else FilterCollector(top, allow=allowed)
    searcher.search_with_collector(compiled, collector, exhaustive.whoosh_context(searcher))
    return sorted((-score, -negated) for score, negated in top.items)


@pytest.mark.parametrize("which", ["synthetic", "patched"])
def test_the_top_documents_and_their_scores_are_whooshs_to_the_bit(request, which):
    index_dir = request.getfixturevalue(which)
    compared = 0
    for query in QUERIES:
        searcher, compiled_runs = runs(index_dir, query)
        for compiled in compiled_runs.values():
            for wanted in (1, 10, 5000):
                ours = exhaustive.top(searcher, compiled, wanted)
                assert ours == whoosh_top(searcher, compiled, wanted), (query, wanted)
                compared += len(ours)
    assert compared > 3_000


def test_a_floor_and_allowed_documents_restrict_the_top_as_whoosh_filters_them(synthetic):
    searcher, compiled_runs = runs(synthetic, "initiative")
    compiled = compiled_runs["fr"]
    everything = whoosh_top(searcher, compiled, 5000)
    allowed = {docnum for _, docnum in everything[::3]}
    assert exhaustive.top(searcher, compiled, 10, allowed=allowed) == whoosh_top(
        searcher, compiled, 10, allowed
    )
    floor = -everything[len(everything) // 2][0]
    above = exhaustive.top(searcher, compiled, 5000, floor=floor)
    assert above == [pair for pair in everything if -pair[0] > floor]
    assert 0 < len(above) < len(everything)


def test_a_patched_segments_deleted_documents_are_never_scored(patched):
    searcher, compiled_runs = runs(patched, "initiative")
    reader = searcher.reader()
    deleted = {
        offset + docnum
        for sub, offset in searcher.leaf_searchers()
        for docnum in sub.reader().deleted_docs_set
    }
    assert len(deleted) == 3 and reader.doc_count() < reader.doc_count_all()
    found = {
        docnum
        for compiled in compiled_runs.values()
        for _, docnum in exhaustive.top(searcher, compiled, 10_000)
    }
    assert found and not found & deleted


def test_a_phrase_is_left_to_whoosh(synthetic):
    searcher, compiled_runs = runs(synthetic, '"secret entrance"')
    tops = [exhaustive.top(searcher, compiled, 10) for compiled in compiled_runs.values()]
    assert tops.count(None) >= 3  # phrases; [] where a word is not in the language at all
    assert all(top is None or top == [] for top in tops)
    assert all(
        exhaustive.bound(searcher, compiled) == math.inf for compiled in compiled_runs.values()
    )


def test_the_bound_is_never_under_a_score_and_unknown_terms_bound_nothing(synthetic):
    checked = 0
    for query in QUERIES:
        searcher, compiled_runs = runs(synthetic, query)
        for compiled in compiled_runs.values():
            best = exhaustive.top(searcher, compiled, 1)
            if best:
                assert exhaustive.bound(searcher, compiled) >= -best[0][0]
                checked += 1
    assert checked > 20
    assert exhaustive.bound(searcher, Q.Term("text_fr", "zzzzqqq")) == 0.0


def test_blocks_read_without_their_positions_hold_whooshs_ids_and_weights(synthetic):
    """Every block of every term of two fields, read the short way where it can be, against
    whoosh reading the whole block."""
    from whoosh.codec.whoosh3 import W3LeafMatcher

    reader = handles.opened(synthetic).searcher.reader()
    blocks = short = 0
    for field in ("text_fr", "text_ru"):
        for term in reader.lexicon(field):
            matcher = reader.postings(field, term)
            if type(matcher) is not W3LeafMatcher:
                continue
            while matcher.is_active():
                ids, weights = exhaustive.read_block(matcher)
                matcher._read_ids()
                matcher._read_weights()
                decoded = list(ids if matcher._byteids else itertools.accumulate(ids))
                assert decoded == list(matcher._ids)
                expected = list(matcher._weights)
                assert (
                    expected == [exhaustive.float32(weights or 1.0)] * len(expected)
                    if weights is None or isinstance(weights, float)
                    else list(weights) == expected
                )
                short += exhaustive.BLOCK_HEAD.match(_raw(matcher)) is not None
                blocks += 1
                matcher._next_block()
    assert blocks > 200 and short > blocks // 2


def _raw(matcher) -> bytes:
    import zlib

    data = matcher._postfile.get(matcher._dataoffset, matcher._nextoffset - matcher._dataoffset)
    return zlib.decompress(data) if matcher._compression else data
