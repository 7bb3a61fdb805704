"""kb.search on a real whoosh index built from the seed corpus by `kb build`: queries, filters,
typos, bad queries and the `kb search` command. Its shortcuts: test_search_shortcuts.py."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.cli import cli
from kb.corpus.languages import LANGUAGES
from kb.search import Hit, index_dir_for, search
from kb.search.query import QueryError


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


def test_build_writes_the_index_next_to_the_store(search_build):
    assert index_dir_for(search_build / "rulings.db") == search_build / "index"
    assert (search_build / "index" / "glossary.json").is_file()


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


def test_printed_terms_find_the_seeds_words(index):
    # A German player who knows the printed cards' "Gewölbe" finds the rulings that say
    # "Verlies"; an Italian one typing "indicatore esplorazione", the "segnalino di avanzamento".
    hits = search(index, "Gewölbe lang:de", limit=3)
    assert hits and all("Verlies" in h.text and "Gewölbe" not in h.text for h in hits)
    hits = search(index, "indicatore esplorazione lang:it", limit=3)
    assert hits and any("segnalino" in h.text for h in hits)


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


def test_cli_json_contract(search_build):
    result = CliRunner().invoke(
        cli,
        [
            "search",
            "joueur quitte la partie",
            "--db",
            str(search_build / "rulings.db"),
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


def test_cli_text_and_errors(search_build, tmp_path):
    runner = CliRunner()
    db = str(search_build / "rulings.db")
    ok = runner.invoke(cli, ["search", "ultima stanza", "--db", db])
    assert ok.exit_code == 0 and ok.output.startswith("1. [it]")
    bad = runner.invoke(cli, ["search", "lang:xx", "--db", db])
    assert bad.exit_code == 2 and "unknown language" in bad.output
    assert "Traceback" not in bad.output
    missing = runner.invoke(cli, ["search", "initiative", "--db", str(tmp_path / "rulings.db")])
    assert missing.exit_code == 2 and "no search index" in missing.output


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
