"""Where kb.search takes a shortcut, it gives what the long way gives: an index patched by an
incremental build, a rewritten one's documents and hits; skipping what cannot beat the bar,
what whoosh scoring every document finds; an index read instead of mapped, the same hits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.search import open_index, search


def stored_documents(index_dir: Path) -> list[str]:
    with open_index(index_dir).searcher() as searcher:
        return sorted(
            json.dumps(d, sort_keys=True, ensure_ascii=False) for d in searcher.all_stored_fields()
        )


def test_patching_an_index_gives_what_a_full_rewrite_gives(search_build, tmp_path, monkeypatch):
    """A reused build patches the previous index: one changed text, one ruling gone and one
    whole group gone give the documents, hits and (nearly) the scores of a full rewrite."""
    import shutil
    import sqlite3

    import sqlite_utils

    from kb.search import build_index

    work = tmp_path / "b"
    work.mkdir()
    shutil.copy(search_build / "rulings.db", work / "rulings.db")
    previous = search_build / "index"
    with sqlite3.connect(work / "rulings.db") as conn:
        conn.execute("PRAGMA foreign_keys = OFF")
        groups = [
            g
            for (g,) in conn.execute("SELECT DISTINCT group_id FROM memberships ORDER BY group_id")
        ]
        conn.execute(
            "UPDATE rulings SET text = text || ' Encore.' WHERE id IN (SELECT ruling_id"
            " FROM memberships WHERE group_id = ?) AND lang = 'fr'",
            (groups[0],),
        )
        conn.execute(
            "DELETE FROM rulings WHERE lang = 'es' AND id IN (SELECT ruling_id FROM "
            "memberships WHERE group_id = ?)",
            (groups[1],),
        )
        for table in ("rulings", "memberships"):
            column = "id" if table == "rulings" else "ruling_id"
            conn.execute(
                f"DELETE FROM {table} WHERE {column} IN (SELECT ruling_id FROM "
                "memberships WHERE group_id = ?)",
                (groups[2],),
            )
    db = sqlite_utils.Database(work / "rulings.db")
    patched = build_index(db, work / "patched", previous=previous)
    full = build_index(db, work / "index")
    documents = 5 * len(groups) - 6  # a group is gone, and one group's Spanish ruling
    assert patched == {"documents": documents, "written": 1}  # only the changed French text
    assert full == {"documents": documents, "written": documents}
    assert stored_documents(work / "patched") == stored_documents(work / "index")
    assert len(list((work / "patched").glob("*.seg"))) == 2  # patched, not rewritten
    # Told which groups changed (as the alignment tells an incremental build), only they are
    # read from the store, and the result is the same.
    narrow = build_index(db, work / "narrow", previous=previous, changed=set(groups[:3]))
    assert narrow == patched
    # ... and the other groups are not read at all: told that nothing changed, it trusts that.
    assert build_index(db, work / "blind", previous=previous, changed=set())["written"] == 0
    assert stored_documents(work / "narrow") == stored_documents(work / "index")
    for name in ("documents.json", "cards.json"):
        assert (work / "narrow" / name).read_bytes() == (work / "index" / name).read_bytes()
    for query in [
        "initiative",
        "encore",
        "dungeon",
        "gigante",
        "card:vengeur",
        "initiative lang:es",
        "rule:726",
        "date:2022",
    ]:
        ours, theirs = (
            search(work / "patched", query, limit=20),
            search(work / "index", query, limit=20),
        )
        assert [h.group for h in ours] == [h.group for h in theirs], query
        # whoosh keeps counting replaced documents in its statistics until the index is
        # rewritten: scores drift by about the share of changed documents (7 of 50 here).
        assert [h.score for h in ours] == pytest.approx([h.score for h in theirs], rel=0.15)
    assert groups[2] not in {h.group for h in search(work / "patched", "rule:726", limit=50)}
    # The replaced documents are stepped over once above each scored query; filtered under
    # every term instead (whoosh's way), the hits and scores are the very same.
    from whoosh.collectors import TopCollector

    from kb.search import ranking

    assert any(s.deleted_count() for s in open_index(work / "patched")._segments())
    queries = [
        "initiative",
        "encore",
        "dungeon",
        "gigante de dos cabezas",
        "initiative lang:es",
        '"secret entrance"',
        "initiatve",
        "géant à deux têtes",
    ]
    above = [search(work / "patched", query, limit=20) for query in queries]
    monkeypatch.setattr(ranking.TopGroups, "set_subsearcher", TopCollector.set_subsearcher)
    assert [search(work / "patched", query, limit=20) for query in queries] == above
    # Nothing changed: the previous index file for file (a killed build's rerun relies on it).
    again = build_index(db, work / "again", previous=work / "patched")
    assert again == {"documents": documents, "written": 0}
    assert {p.name: p.read_bytes() for p in (work / "again").iterdir()} == {
        p.name: p.read_bytes() for p in (work / "patched").iterdir()
    }


def scored_everything(index_dir: Path, query: str, limit: int) -> list[tuple[str, float]]:
    """(group, score) of the ``limit`` best groups by whoosh scoring every document of every
    language's run, with no skipping and no bar: each group by its best document (ties: the
    lower document number), best first, ties by group."""
    from whoosh.collectors import TopCollector

    from kb.search import compiler, exhaustive, handles
    from kb.search.query import parse

    searcher = handles.opened(index_dir).searcher
    runs, filters = compiler.compile_query(parse(query), searcher, index_dir)
    allowed = compiler.allowed_documents(filters, searcher) if filters else None
    best: dict[str, tuple[float, int]] = {}
    for compiled in runs.values():
        everything = TopCollector(limit=searcher.doc_count_all(), usequality=False)
        searcher.search_with_collector(compiled, everything, exhaustive.whoosh_context(searcher))
        for score, negated in everything.items:
            if allowed is None or -negated in allowed:
                group = searcher.stored_fields(-negated)["group"]
                best[group] = max(best.get(group, (score, negated)), (score, negated))
    ranked = sorted(best.items(), key=lambda item: (-item[1][0], item[0]))[:limit]
    return [(group, round(score, 4)) for group, (score, _) in ranked]


SKIPPING_QUERIES = [
    "initiative",
    "рука ход инициатива",
    "géant à deux têtes",
    "gigante de dos cabezas",
    "Kommandozone",
    "initiatve",
    "initiative date:2022",
    "initiative card:chasseur",
    '"secret entrance"',
    "Undercity lang:fr",
    "initiative -dungeon",
    "zona di comando",
]


@pytest.mark.parametrize("corpus", ["synthetic", "index"])
@pytest.mark.parametrize(
    "way", ["as it runs", "whoosh's collector only", "kb.search.exhaustive only"]
)
def test_every_way_of_skipping_finds_what_scoring_everything_finds(
    request, monkeypatch, way, corpus
):
    """The best groups, whichever way each language's run is scored: runs best bound first,
    the first scored whole and the others by whoosh's collector skipping what cannot beat
    the bar (as it runs); the collector for every run; every run scored whole. A bar set
    from several runs' documents together would count a group found in two languages twice
    and drop hits (the patched-index test caught that)."""
    from kb.search import exhaustive, ranking

    if way == "whoosh's collector only":
        monkeypatch.setattr(exhaustive, "top", lambda *args: None)
    elif way == "kb.search.exhaustive only":  # the collector gives up at its first document
        monkeypatch.setattr(ranking, "POSTINGS_PER_DOC", 10**9)
    index = request.getfixturevalue(corpus)  # the synthetic corpus or the seeds
    queries = SKIPPING_QUERIES + ["dungeon", "gigante", "encore"]
    answered = 0
    for query in queries:
        for limit in (10, 25):
            found = [(h.group, h.score) for h in search(index, query, limit=limit)]
            assert found == scored_everything(index, query, limit), (query, limit)
            answered += bool(found)
    assert answered >= 2 * (len(queries) - 3)


def test_an_index_read_without_mapping_it_gives_the_same_hits(synthetic, tmp_path):
    """`kb search` (one query) reads the index's files instead of mapping them."""
    import shutil

    queries = ("initiative", "géant à deux têtes", "Undercity lang:fr")
    mapped = [search(synthetic, query) for query in queries]
    assert open_index(synthetic).storage.supports_mmap is True
    copy = tmp_path / "index"
    shutil.copytree(synthetic, copy)
    assert [search(copy, query, mapped=False) for query in queries] == mapped and mapped[0]
    assert open_index(copy).storage.supports_mmap is False
