"""The words the checks count per language, read from ``words.toml`` beside this module.

Negations, the clause openers after which a negator is expletive, conditions, and each
language's usual length relative to English. The file's header says what each list holds and
why; a language without a table counts nothing (its sentences are still aligned).
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path

from kb.reference.patterns import COORDINATORS

WORDS_FILE = Path(__file__).with_name("words.toml")
KINDS = ("negations", "conditions", "times")
#: What ends a clause: a negator's clause starts after the last of these before it.
_CLAUSE_MARKS = ",;:()—–.!?"


@lru_cache(maxsize=1)
def words() -> dict[str, dict]:
    """{lang: {"length": float, "negations": [...], "expletive": [...], "concord": [...],
    "conditions": [...], "times": [...]}}."""
    with open(WORDS_FILE, "rb") as handle:
        return tomllib.load(handle)


def length_factor(lang: str) -> float:
    """How long a text of ``lang`` usually is relative to English (1.0 when unknown)."""
    return float(words().get(lang, {}).get("length", 1.0))


@lru_cache(maxsize=64)
def _regex(lang: str, kind: str) -> re.Pattern | None:
    return _alternation(words().get(lang, {}).get(kind) or [])


@lru_cache(maxsize=16)
def _coordinators(lang: str) -> re.Pattern | None:
    """The language's "and", "or", "but" (kb.reference.patterns.COORDINATORS, which the
    glossary's clause gap stops at too)."""
    return _alternation(COORDINATORS.get(lang, ()))


def _alternation(patterns) -> re.Pattern | None:
    """Any of ``patterns`` as a whole word (None for none)."""
    if not patterns:
        return None
    # Longest first, so "außer wenn" is one condition, not "wenn" inside it.
    body = "|".join(f"(?:{p})" for p in sorted(patterns, key=len, reverse=True))
    # A word ends where no letter follows, or at its elision mark ("n’", "lorsqu’").
    return re.compile(rf"(?<!\w)(?:{body})(?:(?<=[’'])|(?!\w))", re.IGNORECASE)


@lru_cache(maxsize=200_000)
def occurrences(text: str, lang: str, kind: str) -> tuple[tuple[int, int], ...]:
    """Spans of the ``kind`` words ("negations", "conditions", "times") of ``lang`` in
    ``text``.

    A negator whose clause opens with an expletive word ("finché ... non") is left out. In a
    translation, English words count too (English left in it still says what it says).

    >>> occurrences("Non puoi, a meno che non ti venga richiesto.", "it", "negations")
    ((0, 3), (10, 20))
    >>> occurrences("You can’t unless you’re told, and not otherwise.", "en", "negations")
    ((4, 9), (10, 16), (34, 37))
    >>> occurrences("se non ti trovi nel dungeon (not venture)", "it", "negations")
    ((3, 6), (29, 32))
    """
    found = set(_own(text, lang, kind))
    if lang != "en":
        found |= set(_own(text, "en", kind))
    return tuple(sorted(found))


def _own(text: str, lang: str, kind: str):
    regex = _regex(lang, kind)
    expletive = _regex(lang, "expletive") if kind == "negations" else None
    for m in regex.finditer(text) if regex is not None else ():
        if expletive is not None and expletive.search(_clause_before(text, m.start())):
            continue
        yield m.start(), m.end()
    # A negative word that agrees with a negator before it in its clause ("non ... nessun")
    # says the same negation again; before the verb it negates alone ("nessun effetto può").
    # After "and", "or", "but" a new clause begins ("no elige a nadie y nadie gana").
    concord = _regex(lang, "concord") if kind == "negations" else None
    if concord is None:
        return
    coordinators = _coordinators(lang)
    for m in concord.finditer(text):
        clause = _clause_before(text, m.start())
        opened = [c.end() for c in coordinators.finditer(clause)] if coordinators else []
        if regex is None or not regex.search(clause, opened[-1] if opened else 0):
            yield m.start(), m.end()


def _clause_before(text: str, at: int) -> str:
    """The text of the clause ``at`` is in, up to ``at``: since the last clause mark."""
    start = max(text.rfind(mark, 0, at) for mark in _CLAUSE_MARKS) + 1
    return text[start:at]
