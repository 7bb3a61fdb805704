"""Date lines of ruling files: recognise them and turn them into ISO 8601 dates with babel.

Babel's ``parse_date`` is lenient in two ways we must not be: it swaps day and month when the
"month" is over 12, and it raises IndexError on month names. Both are guarded here, and every
date is checked against the calendar and the life span of the game.
"""

from __future__ import annotations

import datetime as dt
import re

from babel import Locale
from babel.dates import get_date_format, get_month_names, parse_date

# An ISO 8601 date (2022-06-10): the same in every locale, as the English originals give it.
ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
# A numeric date such as 10/06/2022, 10.06.2022 or 10-06-22.
NUMERIC_DATE = re.compile(r"^(\d{1,4})[./-](\d{1,2})[./-](\d{1,4})\.?$")
# A spelled-out date such as "10 juin 2022", "10. Juni 2022", "10 июня 2022 г.", "10 de junio de 2022".
WORD_DATE = re.compile(r"^(\d{1,2})\.?\s+(?:de\s+)?([^\W\d_]+)\.?\s+(?:de\s+)?(\d{4})(?:\s*г\.?)?$")

# Magic: The Gathering was first published in August 1993.
FIRST_YEAR = 1993


class DateError(ValueError):
    """A line that is meant as a date but is not a real one."""


def looks_like_date(line: str) -> bool:
    """True when ``line`` has the shape of a date line (numeric, or day month-name year)."""
    text = line.strip()
    return bool(NUMERIC_DATE.match(text) or WORD_DATE.match(text))


def parse(line: str, lang: str, today: dt.date | None = None) -> dt.date:
    """Parse a date line written in ``lang``'s locale.

    >>> parse("10/06/2022", "fr")
    datetime.date(2022, 6, 10)
    >>> parse("10 июня 2022 г.", "ru")
    datetime.date(2022, 6, 10)
    >>> parse("2022-06-10", "en"), parse("6/10/2022", "en")
    (datetime.date(2022, 6, 10), datetime.date(2022, 6, 10))
    >>> parse("06/13/2022", "it")
    Traceback (most recent call last):
    ...
    kb.corpus.dates.DateError: impossible date '06/13/2022': there is no month 13
    """
    text = line.strip()
    words = WORD_DATE.match(text)
    if iso := ISO_DATE.match(text):
        date = _parse_iso(text, iso)
    elif words:
        date = _parse_words(text, words, lang)
    else:
        date = _parse_numeric(text, lang)
    return _check_range(text, date, today or dt.date.today())


def _parse_numeric(text: str, lang: str) -> dt.date:
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    order = _field_order(lang)
    fields = dict(zip(order, numbers))
    if not 1 <= fields["M"] <= 12:
        raise DateError(f"impossible date {text!r}: there is no month {fields['M']}")
    try:
        parsed = parse_date(text, locale=lang, format="short")
    except (ValueError, IndexError) as exc:
        raise DateError(f"impossible date {text!r}: {_reason(fields, exc)}") from None
    # Babel silently swaps day and month when it thinks that helps: insist on the locale's order.
    if (parsed.day, parsed.month) != (fields["d"], fields["M"]):
        raise DateError(f"impossible date {text!r}: day and month do not fit {lang} order")
    return parsed


def _parse_iso(text: str, match: re.Match) -> dt.date:
    try:
        return dt.date(*(int(part) for part in match.groups()))
    except ValueError as exc:
        raise DateError(f"impossible date {text!r}: {exc}") from None


def _parse_words(text: str, match: re.Match, lang: str) -> dt.date:
    day, name, year = int(match.group(1)), match.group(2).casefold(), int(match.group(3))
    month = _month_numbers(lang).get(name.rstrip("."))
    if month is None:
        raise DateError(
            f"unknown month name {match.group(2)!r} in date {text!r} for language {lang}"
        )
    try:
        return dt.date(year, month, day)
    except ValueError as exc:
        raise DateError(f"impossible date {text!r}: {exc}") from None


def _check_range(text: str, date: dt.date, today: dt.date) -> dt.date:
    if date.year < FIRST_YEAR or date > today.replace(year=today.year + 1):
        raise DateError(
            f"impossible date {text!r}: {date.isoformat()} is outside {FIRST_YEAR}..next year"
        )
    return date


def _field_order(lang: str) -> str:
    """The order of day, month and year in the locale's short pattern, e.g. 'dMy'."""
    pattern = get_date_format("short", locale=lang).pattern
    seen = [ch for ch in pattern if ch in "dMy"]
    return "".join(dict.fromkeys(seen))


def _reason(fields: dict[str, int], exc: Exception) -> str:
    try:
        dt.date(fields["y"], fields["M"], fields["d"])
    except ValueError as calendar:
        return str(calendar)
    return str(exc)


_MONTHS: dict[str, dict[str, int]] = {}


def _month_numbers(lang: str) -> dict[str, int]:
    """Every month name babel knows for the locale (wide and abbreviated, both contexts)."""
    if lang not in _MONTHS:
        locale = Locale.parse(lang)
        names: dict[str, int] = {}
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                for number, name in get_month_names(width, context, locale).items():
                    names[name.casefold().rstrip(".")] = number
        _MONTHS[lang] = names
    return _MONTHS[lang]
