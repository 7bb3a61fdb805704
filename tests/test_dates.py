"""Date lines: babel parsing in each locale, and the guards around it."""

from __future__ import annotations

import datetime as dt

import pytest

from kb.corpus import dates


@pytest.mark.parametrize(
    "line, lang",
    [
        ("10/06/2022", "fr"),
        ("10/06/2022", "it"),
        ("10.06.2022", "de"),
        ("10.06.2022", "ru"),
        ("10/06/2022", "es"),
        ("10/6/22", "es"),
        ("10. Juni 2022", "de"),
        ("10 июня 2022 г.", "ru"),
        ("10 de junio de 2022", "es"),
        ("10 giugno 2022", "it"),
        ("10 juin 2022", "fr"),
    ],
)
def test_locale_dates(line, lang):
    assert dates.parse(line, lang) == dt.date(2022, 6, 10)


@pytest.mark.parametrize(
    "line", ["13/13/2022", "06/13/2022", "30/02/2023", "00/01/2022", "10/06/1990", "10/06/2999"]
)
def test_impossible_dates_are_refused(line):
    with pytest.raises(dates.DateError, match="impossible date"):
        dates.parse(line, "fr")


def test_month_name_in_wrong_language_is_refused():
    with pytest.raises(dates.DateError, match="unknown month name"):
        dates.parse("10 juin 2022", "de")


@pytest.mark.parametrize(
    "line, expected",
    [
        ("10/06/2022", True),
        ("10 juin 2022", True),
        ("Un joueur", False),
        ("2022", False),
        ("", False),
    ],
)
def test_looks_like_date(line, expected):
    assert dates.looks_like_date(line) is expected
