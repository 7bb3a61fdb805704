"""The site's interface languages: gettext catalogs, dates and language names from CLDR.

Catalogs live as ``kb/locale/<lang>/LC_MESSAGES/site.po`` (extracted from the templates with
``pybabel extract -F babel.cfg``) and are compiled in memory at build time, so no ``.mo`` file
is ever stale or checked in. Dates and language names come from babel's CLDR data, so each
locale writes them its own way (``10 June 2022``, ``10 июня 2022 г.``).
"""

from __future__ import annotations

import datetime as dt
import gettext
from functools import cache, lru_cache
from pathlib import Path

from babel import Locale
from babel.dates import format_date
from babel.numbers import format_decimal

from kb.reference import catalogs

LOCALE_DIR = catalogs.LOCALE_DIR
DOMAIN = "site"

# English dates the way the issue writes them (10 June 2022): the en_GB pattern, not en_US.
_CLDR_LOCALE = {"en": "en_GB"}


def cldr_locale(lang: str) -> str:
    """The CLDR locale that writes ``lang``'s dates, numbers and lists on the site."""
    return _CLDR_LOCALE.get(lang, lang)


def po_path(lang: str) -> Path:
    return catalogs.po_path(DOMAIN, lang)


def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog for ``lang`` (English is the source language: no catalog needed)."""
    return catalogs.translations(DOMAIN, lang)


@lru_cache(maxsize=4096)
def date(iso: str, lang: str) -> str:
    """An ISO date written as ``lang`` writes it in running text (CLDR "long" format)."""
    try:
        value = dt.date.fromisoformat(iso)
    except (TypeError, ValueError):
        return iso or ""
    return format_date(value, "long", locale=cldr_locale(lang))


def number(value: int | float, lang: str) -> str:
    """``value`` as ``lang`` writes numbers. Remembered: babel takes 50 µs, and a
    tree shows the same few scores and counts thousands of times. Keyed by the value's type and
    repr, which tell apart what ``==`` does not (1 and 1.0, 0.0 and -0.0)."""
    key = (lang, type(value), repr(value))
    known = _NUMBERS.get(key)
    if known is None:
        known = _NUMBERS[key] = format_decimal(value, locale=cldr_locale(lang))
    return known


_NUMBERS: dict[tuple, str] = {}


@cache
def language_name(code: str, in_lang: str) -> str:
    """The CLDR name of language ``code`` written in ``in_lang`` (``fr`` in ru: французский)."""
    name = Locale.parse(in_lang).languages.get(code, code)
    return name[:1].upper() + name[1:]


def autonym(code: str) -> str:
    """A language's own name (Deutsch, русский), for the language switcher."""
    return language_name(code, code)
