"""kb.search.query: the query language, its errors, and that odd strings never raise anything else."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.errors import KbError
from kb.search.query import MAX_CHARS, Query, QueryError, iso_date, parse


def test_words_phrases_and_filters():
    q = parse(
        'initiative "prend l’initiative" lang:fr,IT card:"Chasseur vengeur" '
        "rule:726.3 date>=2022-01-01 -donjon"
    )
    assert q == Query(
        words=("initiative",),
        phrases=("prend l’initiative",),
        excluded=("donjon",),
        langs=("fr", "it"),
        cards=("Chasseur vengeur",),
        rules=("726.3",),
        dates=((">=", "2022-01-01"),),
    )


def test_filter_names_are_case_insensitive_and_values_may_be_bare():
    q = parse("LANG:de Card:Unterkellersäuberung RULE:726")
    assert (q.langs, q.cards, q.rules) == (("de",), ("Unterkellersäuberung",), ("726",))


@pytest.mark.parametrize(
    "text, dates",
    [
        ("date>=2022", ((">=", "2022"),)),
        ("date<2023-01", (("<", "2023-01"),)),
        ("date:2022-06-10", (("=", "2022-06-10"),)),
        ("date=10/06/2022", (("=", "2022-06-10"),)),
        ("date>1.6.2022 date<=2022-12-31", ((">", "2022-06-01"), ("<=", "2022-12-31"))),
    ],
)
def test_dates(text, dates):
    assert parse(text).dates == dates


def test_unbalanced_quote_runs_to_the_end():
    assert parse('initiative "prend l’init').phrases == ("prend l’init",)
    assert parse('card:"Chasseur ven').cards == ("Chasseur ven",)


def test_a_word_ending_in_a_colon_is_a_word():
    assert parse("remarque: initiative").words == ("remarque", "initiative")


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "nothing to search for"),
        ("   ", "nothing to search for"),
        ('""', "nothing to search for"),
        ("-initiative", "nothing to search for"),
        ("foo:bar", "unknown filter foo:"),
        ("lang:xx", "unknown language 'xx'"),
        ("lang:", "lang: needs a value"),
        ("card:", "card: needs a value"),
        ("lang>fr", "use lang:VALUE"),
        ("rule:abc", "not a rule number"),
        ("date>=2022-13-01", "is not a date"),
        ("date:31/02/2022", "is not a date"),
        ("x" * 10_000, "too long (10000 characters"),
        (" ".join(["mot"] * 40), "too many words"),
    ],
)
def test_bad_queries_give_one_clear_message(text, message):
    with pytest.raises(QueryError) as caught:
        parse(text)
    assert isinstance(caught.value, KbError)
    (line,) = caught.value.lines()
    assert line.startswith("query: ") and message in line


def test_limits_are_inclusive():
    assert parse("a" * MAX_CHARS).words == ("a" * MAX_CHARS,)


def test_iso_date_refuses_impossible_dates():
    assert iso_date("2024-02-29") == "2024-02-29"
    with pytest.raises(QueryError):
        iso_date("2023-02-29")


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200)
    | st.lists(
        st.sampled_from(
            [
                '"',
                ":",
                "-",
                "lang",
                "card",
                "date",
                ">=",
                "<",
                "=",
                "rule",
                "fr",
                "726.3",
                " ",
                "’",
                "é",
                "2022",
            ]
        ),
        max_size=20,
    ).map("".join)
)
def test_any_text_parses_or_raises_query_error(text):
    try:
        parsed = parse(text)
    except QueryError:
        return
    assert parsed.words or parsed.phrases or parsed.has_filters
