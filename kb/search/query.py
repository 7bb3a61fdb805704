"""The query language of `kb search`: free words, quoted phrases and filters.

Written the way players search card sites::

    initiative quitter partie            free words (any language, any inflection, typos ok)
    "prend l'initiative"                 a phrase: these words in this order (required)
    -donjon                              leave out rulings with this word
    lang:fr   lang:fr,it                 only rulings in these languages
    card:"Chasseur vengeur"  card:chasseur   only rulings of a card (words of its name)
    rule:726.3   rule:726                only groups explaining that rule (or its subrules)
    date>=2022-01-01  date<2023  date:2022-06  date=10/06/2022   ruling dates

Filter names are case-insensitive; a filter value with spaces needs quotes. A quote left open
runs to the end of the query. Anything else (``:`` alone, punctuation) is simply not a word.

:func:`parse` never raises anything but :class:`QueryError` (a :class:`kb.errors.KbError`, so
the CLI prints it as one line and exits 2): for an unknown filter, a bad value, an empty or a
too long query. Whether the words mean anything is decided by :mod:`kb.search.compiler`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from kb.corpus.languages import LANGUAGES
from kb.errors import KbError

MAX_CHARS = 1000
MAX_WORDS = 32
FILTERS = ("lang", "card", "rule", "date")

_TOKEN = re.compile(
    r"""
    (?P<neg>-)?
    (?: (?P<key>[^\W\d_]+)(?P<op>>=|<=|:|=|>|<)(?:"(?P<qval>[^"]*)"?|(?P<val>[^\s"]*))
      | "(?P<phrase>[^"]*)"?
      | (?P<word>[^\s"]+) )
""",
    re.VERBOSE,
)
_RULE = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")
_ISO = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
_LOCAL_DATE = re.compile(r"(\d{1,2})[./](\d{1,2})[./](\d{4})")


class QueryError(KbError):
    """A query that cannot be run, with a message saying how to fix it."""

    def __init__(self, message: str):
        super().__init__(f"query: {message}")


@dataclass(frozen=True)
class Query:
    """A parsed query. Dates are ``(op, iso_prefix)`` with op one of ``= >= > <= <``."""

    words: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    langs: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    dates: tuple[tuple[str, str], ...] = ()

    @property
    def has_filters(self) -> bool:
        return bool(self.langs or self.cards or self.rules or self.dates)


def parse(text: str) -> Query:
    """Parse a query string; raise :class:`QueryError` if it cannot be run.

    >>> parse('Initiative "prend l’initiative" lang:fr card:"Chasseur vengeur" date>=2022')
    ... # doctest: +NORMALIZE_WHITESPACE
    Query(words=('Initiative',), phrases=('prend l’initiative',), excluded=(), langs=('fr',),
          cards=('Chasseur vengeur',), rules=(), dates=(('>=', '2022'),))
    """
    if not isinstance(text, str):
        raise QueryError("the query must be text")
    if len(text) > MAX_CHARS:
        raise QueryError(f"too long ({len(text)} characters; at most {MAX_CHARS})")
    parts: dict[str, list] = {name: [] for name in Query.__dataclass_fields__}
    for match in _TOKEN.finditer(text):
        _add(match, parts)
    if len(parts["words"]) + len(parts["excluded"]) > MAX_WORDS:
        raise QueryError(f"too many words (at most {MAX_WORDS})")
    query = Query(**{name: tuple(dict.fromkeys(values)) for name, values in parts.items()})
    if not (query.words or query.phrases or query.has_filters):
        raise QueryError(
            'nothing to search for: type some words, a "phrase" or a filter such as lang:fr'
        )
    return query


def _add(match: re.Match, parts: dict[str, list]) -> None:
    negated = bool(match["neg"])
    if match["key"] is not None:
        key, op = match["key"].casefold(), match["op"]
        value = match["qval"] if match["qval"] is not None else match["val"]
        if key in FILTERS:
            _add_filter(key, op, value.strip(), parts)
            return
        if value or op != ":":
            raise QueryError(
                f"unknown filter {match['key']}{op} "
                f"(use {', '.join(f + ':' for f in FILTERS)} or date>=)"
            )
        word = match["key"]  # "word:" with nothing after is just the word
    elif match["phrase"] is not None:
        if match["phrase"].strip():
            parts["excluded" if negated else "phrases"].append(match["phrase"].strip())
        return
    else:
        word = match["word"]
    parts["excluded" if negated else "words"].append(word)


def _add_filter(key: str, op: str, value: str, parts: dict[str, list]) -> None:
    if key != "date" and op not in (":", "="):
        raise QueryError(f"{key}{op} is not a filter: use {key}:VALUE")
    if not value:
        raise QueryError(f"{key}: needs a value, e.g. {_EXAMPLES[key]}")
    if key == "lang":
        for code in filter(None, (c.strip().casefold() for c in value.split(","))):
            if code not in LANGUAGES:
                raise QueryError(f"unknown language {code!r} in lang: (use {', '.join(LANGUAGES)})")
            parts["langs"].append(code)
    elif key == "card":
        parts["cards"].append(value)
    elif key == "rule":
        if not _RULE.fullmatch(value):
            raise QueryError(f"rule:{value} is not a rule number (e.g. rule:726.3 or rule:726)")
        parts["rules"].append(value)
    else:
        parts["dates"].append(("=" if op == ":" else op, iso_date(value)))


_EXAMPLES = {
    "lang": "lang:fr",
    "card": 'card:"Chasseur vengeur"',
    "rule": "rule:726.3",
    "date": "date>=2022-01-01",
}


def iso_date(value: str) -> str:
    """A date as an ISO prefix (YYYY, YYYY-MM or YYYY-MM-DD); also reads 10/06/2022.

    >>> iso_date("2022"), iso_date("2022-06"), iso_date("10/06/2022"), iso_date("1.6.2022")
    ('2022', '2022-06', '2022-06-10', '2022-06-01')
    """
    local = _LOCAL_DATE.fullmatch(value)
    if local:
        day, month, year = local.groups()
        value = f"{year}-{int(month):02d}-{int(day):02d}"
    iso = _ISO.fullmatch(value)
    if iso:
        year, month, day = iso.groups()
        try:
            dt.date(int(year), int(month or 1), int(day or 1))
            return value
        except ValueError:
            pass
    raise QueryError(f"{value!r} is not a date (use YYYY-MM-DD, YYYY-MM, YYYY or DD/MM/YYYY)")
