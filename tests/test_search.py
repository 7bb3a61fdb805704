"""kb.search on a real whoosh index built from the seed corpus by `kb build`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.cli import cli
from kb.corpus.languages import LANGUAGES
from kb.pipeline.build import build
from kb.search import Hit, index_dir_for, open_index, search
from kb.search.query import QueryError

CORPUS = Path(__file__).resolve().parent.parent / "rulings"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("search") / "_build"
    build([str(CORPUS)], out)
    return out


@pytest.fixture(scope="module")
def index(built):
    return built / "index"


@pytest.fixture(scope="module")
def expected(index):
    """(language, position in the seed file) -> group id, from the store's alignment."""
    import sqlite3

    with sqlite3.connect(index.parent / "rulings.db") as conn:
        rows = conn.execute(
            "SELECT r.lang, r.position, m.group_id FROM rulings r "
            "JOIN memberships m ON m.ruling_id = r.id"
        ).fetchall()
    return {(lang, position): group for lang, position, group in rows}


def top_groups(index, query, k=3, **kw):
    return [h.group for h in search(index, query, limit=k, **kw)]


def test_build_writes_the_index_next_to_the_store(built):
    assert index_dir_for(built / "rulings.db") == built / "index"
    assert (built / "index" / "glossary.json").is_file()


@pytest.mark.parametrize(
    "lang, position, query",
    [
        ("fr", 2, "joueur quitte la partie"),
        ("it", 4, "ultima stanza del dungeon"),
        ("de", 5, "Kampfschaden Teammitglied"),
        ("es", 5, "gigante de dos cabezas"),
        ("ru", 4, "последняя комната подземелья"),
    ],
)
def test_player_queries_find_their_ruling(index, expected, lang, position, query):
    assert expected[(lang, position)] in top_groups(index, query)


@pytest.mark.parametrize(
    "lang, position, query",
    [
        ("fr", 1, "plusieurs desingations"),  # transposition
        ("de", 1, "mehrere Bezeichnugen"),  # deletion
        ("ru", 4, "последняя комната подзмелья"),  # deletion
        ("es", 4, "ultima sala mazmora"),
    ],
)
def test_one_edit_typos_still_find_the_ruling(index, expected, lang, position, query):
    assert expected[(lang, position)] in top_groups(index, query)


def test_unaccented_and_accented_queries_rank_alike(index):
    assert top_groups(index, "derniere salle donjon") == top_groups(index, "dernière salle donjon")


def test_german_parts_find_the_compound(index, expected):
    # "Kampfschaden" only occurs as a compound; its part "Schaden" finds it.
    assert expected[("de", 5)] in top_groups(index, "Schaden Team")


def test_english_glossary_terms_find_rulings_in_every_language(index):
    hits = search(index, "command zone venture marker", limit=3, lang="ru")
    assert hits and any("командную зону" in h.text for h in hits)


def test_one_hit_per_group(index):
    hits = search(index, "initiative joueur Spieler игрок giocatore jugador", limit=50)
    groups = [h.group for h in hits]
    assert len(groups) == len(set(groups)) > 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_display_language_shows_each_group_in_it(index, lang):
    hits = search(index, "joueur quitte la partie", lang=lang, limit=5)
    assert hits and all(h.lang == lang for h in hits)
    assert search(index, "joueur quitte la partie", limit=1)[0].group == hits[0].group


def test_lang_filter_keeps_only_that_language(index):
    hits = search(index, "initiative lang:de", limit=20)
    assert hits and {h.matched_lang for h in hits} == {"de"}


def test_card_filter(index):
    hits = search(index, 'initiative card:"Chasseur vengeur"', limit=20)
    assert hits and {h.card for h in hits} == {"Chasseur vengeur"}
    assert {h.card for h in search(index, "card:unterkellersaeuberung", limit=20)} == {
        "Unterkellersäuberung"
    }
    assert search(index, 'card:"No such card"') == []


def test_rule_filter_uses_the_groups_rules(index):
    numbers = {n for h in search(index, "initiative", limit=20) for n in h.rules}
    assert numbers, "the seed groups are linked to rules, so hits must carry them"
    number = min(numbers)
    hits = search(index, f"rule:{number}", limit=20)
    assert hits and all(number in h.rules for h in hits)
    section = number.split(".")[0]
    assert {h.group for h in hits} <= {h.group for h in search(index, f"rule:{section}", limit=50)}


def test_date_filters(index):
    # Every seed ruling is dated 2022-06-10.
    assert (
        len(search(index, "date:2022-06-10", limit=100))
        == len(search(index, "date:2022", limit=100))
        > 0
    )
    assert search(index, "initiative date>=2022-06-11") == []
    assert search(index, "initiative date<2022-06-10") == []
    assert search(index, "initiative date<=10/06/2022")


def test_phrase_requires_the_words_in_order(index):
    hits = search(index, '"quitte la partie" lang:fr', limit=20)
    assert hits and all("quitte la partie" in h.text for h in hits)
    assert search(index, '"partie la quitte" lang:fr') == []


def test_excluded_words(index):
    hits = search(index, "initiative -donjon lang:fr", limit=20)
    assert hits and not any("donjon" in h.text for h in hits)


@pytest.mark.parametrize("query", [":", "_", "le la les", '"', "x" * 10_000, "lang:xx"])
def test_bad_queries_raise_query_error(index, query):
    with pytest.raises(QueryError):
        search(index, query)


def test_unknown_words_give_no_results(index):
    assert search(index, "zzxqj wvvkq") == []


def test_missing_index_is_a_clear_error(tmp_path):
    from kb.errors import KbError

    with pytest.raises(KbError, match="no search index"):
        search(tmp_path / "index", "initiative")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.text(max_size=80)
    | st.lists(
        st.sampled_from(
            [
                '"',
                ":",
                "-",
                "lang:fr",
                "card:",
                "date>=",
                "rule:726",
                "инициатива",
                "Verlies",
                "’",
                "é",
                " ",
                "initiative",
                "*",
                "(",
                ")",
                "AND",
                "OR",
            ]
        ),
        max_size=12,
    ).map("".join)
)
def test_any_query_gives_hits_or_query_error(index, text):
    try:
        hits = search(index, text)
    except QueryError:
        return
    assert all(isinstance(h, Hit) for h in hits)


def test_cli_json_contract(built):
    result = CliRunner().invoke(
        cli,
        [
            "search",
            "joueur quitte la partie",
            "--db",
            str(built / "rulings.db"),
            "--format",
            "json",
            "--limit",
            "3",
            "--lang",
            "it",
        ],
    )
    assert result.exit_code == 0, result.output
    hits = json.loads(result.output)
    assert 0 < len(hits) <= 3
    assert all({"group", "lang", "card", "text", "score"} <= set(h) for h in hits)
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    assert {h["lang"] for h in hits} == {"it"}


def test_cli_text_and_errors(built, tmp_path):
    runner = CliRunner()
    db = str(built / "rulings.db")
    ok = runner.invoke(cli, ["search", "ultima stanza", "--db", db])
    assert ok.exit_code == 0 and ok.output.startswith("1. [it]")
    bad = runner.invoke(cli, ["search", "lang:xx", "--db", db])
    assert bad.exit_code == 2 and "unknown language" in bad.output
    assert "Traceback" not in bad.output
    missing = runner.invoke(cli, ["search", "initiative", "--db", str(tmp_path / "rulings.db")])
    assert missing.exit_code == 2 and "no search index" in missing.output


def stored_documents(index_dir: Path) -> list[str]:
    with open_index(index_dir).searcher() as searcher:
        return sorted(
            json.dumps(d, sort_keys=True, ensure_ascii=False) for d in searcher.all_stored_fields()
        )


def test_patching_an_index_gives_what_a_full_rewrite_gives(built, tmp_path, monkeypatch):
    """A reused build patches the previous index: one changed text, one ruling gone and one
    whole group gone give the documents, hits and (nearly) the scores of a full rewrite."""
    import shutil
    import sqlite3

    import sqlite_utils

    from kb.search import build_index

    work = tmp_path / "b"
    work.mkdir()
    shutil.copy(built / "rulings.db", work / "rulings.db")
    previous = built / "index"
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


def test_whoosh_modules_kb_search_does_not_use_are_loaded_only_when_called():
    """A fresh `kb search` process does not load urllib.request nor whoosh's English
    variations; whoosh's functions from them still work, from the real modules."""
    import subprocess
    import sys

    code = (
        "import sys, kb.search, whoosh.compat, whoosh.query.terms as t\n"
        "print(sorted(m for m in ('urllib.request', 'whoosh.lang.morph_en') "
        "if m in sys.modules))\n"
        "print('rendered' in t.variations('render'))\n"
        "import urllib.request\n"
        "print(hasattr(urllib.request, 'urlopen'), 'whoosh.lang.morph_en' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:3] == ["[]", "True", "True True"]


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
