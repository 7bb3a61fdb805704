"""Locale punctuation (warnings and info): quotation marks, spacing, apostrophes.

- ``quote-style`` (warning): a quotation whose marks are not the locale's outer pair (CLDR, see
  ``kb/quotes.toml``): the inner pair used at the top level, another locale's marks, or straight
  quotes; or marks that differ from what the rest of that language's corpus uses.
- ``quote-punctuation`` (warning): a period or comma inside the closing mark of a quotation that
  is part of a sentence ("… “ha l'iniziativa.”"): English style; these locales put it after.
- ``french-spacing``: French wants a no-break space before ; : ! ? » and after «. None at all is
  a warning; a breaking space (U+0020, the line may break there) is info.
- ``punctuation-spacing`` (warning): a space before ; : ! ? in a language other than French.
- ``apostrophe-mix`` (warning): straight (') and typographic (’) apostrophes both used in one
  language's corpus; the rarer style is reported.
- ``inverted-marks`` (warning): a Spanish question or exclamation without its opening ¿ or ¡.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kb.checks.findings import Corpus, Member, per_text, texts

CHECKS = {
    "quote-style": "quotation marks other than the locale's (CLDR) or the corpus's",
    "quote-punctuation": "period or comma inside the closing quotation mark (English style)",
    "french-spacing": "missing or breaking space before ; : ! ? » or after « in French",
    "punctuation-spacing": "a space before ; : ! ? outside French",
    "apostrophe-mix": "straight and typographic apostrophes mixed within a language",
    "inverted-marks": "Spanish question or exclamation without ¿ or ¡",
}

QUOTES_FILE = Path(__file__).resolve().parent.parent / "reference" / "quotes.toml"
_PAIRS = [
    ("«", "»"),
    ("„", "“"),
    ("„", "”"),
    ("“", "”"),
    ("”", "”"),
    ("‚", "‘"),
    ("‘", "’"),
    ("‹", "›"),
    ("»", "«"),
    ('"', '"'),
]
_OPENER = re.compile("[" + re.escape("".join(sorted({o for o, _ in _PAIRS}))) + "]")
_APOSTROPHE = re.compile(r"(?<=[^\W\d_])(['’])(?=[^\W\d_])")
_NO_BREAK = "\u00a0\u202f"


@dataclass(frozen=True)
class Quote:
    start: int  # index of the opening mark
    end: int  # index after the closing mark
    pair: tuple[str, str]
    depth: int  # 0: top level


@lru_cache(maxsize=1)
def locale_quotes() -> dict[str, dict[str, tuple[str, str]]]:
    """{lang: {"primary": (open, close), "alternate": (open, close)}} from kb/quotes.toml."""
    with open(QUOTES_FILE, "rb") as handle:
        data = tomllib.load(handle)
    return {
        lang: {kind: tuple(pair) for kind, pair in pairs.items()} for lang, pairs in data.items()
    }


@lru_cache(maxsize=8192)
def quotes(text: str) -> tuple[Quote, ...]:
    """Quotations in ``text``: each opening mark paired with the nearest fitting closing mark.

    >>> [q.pair for q in quotes("Er sagt, dass er „die Initiative hat“.")]
    [('„', '“')]
    """
    found: list[Quote] = []
    _scan(text, 0, len(text), 0, found)
    return tuple(found)


def _scan(text: str, start: int, stop: int, depth: int, found: list[Quote]) -> None:
    i = start
    while True:
        hit = _OPENER.search(text, i, stop)
        if hit is None:
            return
        i = hit.start()
        if _opens(text, i):
            close = _closing(text, i, stop)
            if close is not None:
                end, pair = close
                found.append(Quote(i, end + 1, pair, depth))
                _scan(text, i + 1, end, depth + 1, found)
                i = end + 1
                continue
        i += 1


def _opens(text: str, i: int) -> bool:
    before = text[i - 1] if i else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    # An opening mark follows a space or an opening bracket and is followed by a non-space,
    # or by one space and a word (French spacing, "„ a l’initiative “" set the French way).
    spaced = after in " \u00a0\u202f" and text[i + 2 : i + 3].isalnum()
    return (not before.isalnum()) and (spaced or not after.isspace()) and after != ""


def _closing(text: str, i: int, stop: int):
    best = None
    for opener, closer in _PAIRS:
        if opener != text[i]:
            continue
        j = i + 1
        while True:
            j = text.find(closer, j, stop)
            if j < 0:
                break
            after = text[j + 1] if j + 1 < len(text) else " "
            if closer in "’‘" and after.isalpha():  # an apostrophe, not a closing mark
                j += 1
                continue
            if best is None or j < best[0]:
                best = (j, (opener, closer))
            break
    return best


def check(corpus: Corpus):
    style = corpus_style(corpus.total("quote-pairs", lambda: quote_pairs(corpus.members)))
    apostrophes = apostrophes_by_lang(
        corpus.total("apostrophes", lambda: apostrophe_counts(corpus.members))
    )
    # A text's marks do not depend on its group: each text is looked at once in the corpus.
    yield from per_text(
        corpus, lambda group, member: _member(member, style, apostrophes), across_groups=True
    )


def _member(member: Member, style: dict, apostrophes: dict):
    if member.lang == "en":
        return
    yield from _quote_style(member, style.get(member.lang))
    yield from _quote_punctuation(member)
    yield from (_french_spacing(member) if member.lang == "fr" else _spacing(member))
    yield from _apostrophes(member, apostrophes.get(member.lang, Counter()))
    if member.lang == "es":
        yield from _inverted(member)


def quote_pairs(members) -> Counter:
    """{(lang, opening, closing): how many top-level quotations use that pair}."""
    counts: Counter = Counter()
    for (lang, text), copies in texts(members).items():
        for q in quotes(text):
            if q.depth == 0:
                counts[(lang, *q.pair)] += copies
    return counts


def corpus_style(pairs: Counter) -> dict[str, tuple[str, str]]:
    """Each language's usual top-level pair, when one pair is used by a clear majority."""
    per_lang: dict[str, Counter] = {}
    for (lang, opening, closing), n in pairs.items():
        if n > 0:
            per_lang.setdefault(lang, Counter())[(opening, closing)] += n
    style = {}
    for lang, counts in per_lang.items():
        # A two-thirds majority has no tie: which pair came first does not matter.
        ((pair, n),) = counts.most_common(1)
        if sum(counts.values()) >= 3 and n * 3 >= sum(counts.values()) * 2:
            style[lang] = pair
    return style


def _quote_style(member: Member, usual: tuple[str, str] | None):
    marks = locale_quotes().get(member.lang)
    if marks is None:
        return
    primary, alternate = marks["primary"], marks["alternate"]
    cldr = f"{primary[0]} {primary[1]}, inside them {alternate[0]} {alternate[1]}"
    for q in quotes(member.text):
        shown = f"{q.pair[0]} {q.pair[1]}"
        expected = primary if q.depth == 0 else alternate
        if q.pair == expected or q.pair in (primary, alternate) and q.depth > 0:
            if usual and q.depth == 0 and q.pair != usual:
                yield member.finding(
                    "quote-style",
                    "warning",
                    f"quotation marks {shown}; the rest of the {member.lang} corpus uses "
                    f"{usual[0]} {usual[1]}",
                    q.start,
                    q.end,
                )
            continue
        if q.pair == ('"', '"'):
            why = "straight quotes"
        elif q.pair == alternate:
            why = "the inner pair used at the top level"
        else:
            why = "not quotation marks of this locale"
        yield member.finding(
            "quote-style",
            "warning",
            f"quotation marks {shown}: {why}; CLDR {member.lang}: {cldr}",
            q.start,
            q.end,
        )


def _quote_punctuation(member: Member):
    for q in quotes(member.text):
        inside = member.text[q.end - 2]
        before = member.text[: q.start].rstrip()
        if inside in ".," and before and before[-1].isalpha():
            yield member.finding(
                "quote-punctuation",
                "warning",
                f"“{inside}” inside the closing quotation mark, English style; in this "
                f"language it goes after the mark",
                q.start,
                q.end,
            )


_FR_BEFORE = re.compile(r"(?P<space>[ \u00a0\u202f]?)(?P<mark>[;:!?»])")
_FR_AFTER = re.compile(r"«(?P<space>[ \u00a0\u202f]?)")


def _french_spacing(member: Member):
    text = member.text
    for m in _FR_BEFORE.finditer(text):
        start = m.start("mark")
        if start == 0 or (m.group("mark") == ":" and _between_digits(text, start)):
            continue
        if m.group("mark") in "!?" and text[start - 1] in "!?":
            continue
        yield from _fr_space(
            member, m.group("space"), m.start(), m.end(), f"before “{m.group('mark')}”"
        )
    for m in _FR_AFTER.finditer(text):
        yield from _fr_space(member, m.group("space"), m.start(), m.end(), "after “«”")


def _fr_space(member: Member, space: str, start: int, end: int, where: str):
    if space in _NO_BREAK and space:
        return
    if not space:
        yield member.finding(
            "french-spacing",
            "warning",
            f"no space {where}: French puts a narrow no-break space (U+202F) there",
            start,
            end,
        )
    else:
        yield member.finding(
            "french-spacing",
            "info",
            f"breaking space {where}: use a no-break space (U+202F or U+00A0) "
            f"so the line cannot break there",
            start,
            end,
        )


def _between_digits(text: str, i: int) -> bool:
    return 0 < i < len(text) - 1 and text[i - 1].isdigit() and text[i + 1].isdigit()


_SPACE_BEFORE = re.compile(r"[ \u00a0\u202f]+[;:!?]")


def _spacing(member: Member):
    for m in _SPACE_BEFORE.finditer(member.text):
        if m.start() == 0 or member.text[m.start() - 1] in "¿¡\n":
            continue
        yield member.finding(
            "punctuation-spacing",
            "warning",
            f"space before “{member.text[m.end() - 1]}”, French style",
            m.start(),
            m.end(),
        )


def apostrophe_counts(members) -> Counter:
    """{(lang, apostrophe): how often the language's texts use it}."""
    counts: Counter = Counter()
    for (lang, text), copies in texts(members).items():
        for m in _APOSTROPHE.finditer(text):
            counts[(lang, m.group(1))] += copies
    return counts


def apostrophes_by_lang(counts: Counter) -> dict[str, Counter]:
    out: dict[str, Counter] = {}
    for (lang, mark), n in counts.items():
        if n > 0:
            out.setdefault(lang, Counter())[mark] += n
    return out


def _apostrophes(member: Member, counts: Counter):
    if len(counts) < 2:
        return
    usual = "’" if counts["’"] >= counts["'"] else "'"
    for m in _APOSTROPHE.finditer(member.text):
        if m.group(1) != usual:
            yield member.finding(
                "apostrophe-mix",
                "warning",
                f"apostrophe {m.group(1)!s} where this language mostly uses {usual} "
                f"({counts[usual]} to {counts[m.group(1)]})",
                m.start(),
                m.end(),
            )
            return  # one per text is enough to point at it


_SPANISH_SENTENCE = re.compile(r"[^.!?]*[?!]")


def _inverted(member: Member):
    if "?" not in member.text and "!" not in member.text:
        return
    for m in _SPANISH_SENTENCE.finditer(member.text):
        mark = m.group(0)[-1]
        opening = "¿" if mark == "?" else "¡"
        if opening not in m.group(0):
            start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
            yield member.finding(
                "inverted-marks",
                "warning",
                f"“{mark}” without an opening “{opening}”",
                start,
                m.end(),
            )
