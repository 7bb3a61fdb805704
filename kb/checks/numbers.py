"""Numbers and names that differ between translations.

- ``number-mismatch``: digits and number words (two to ten, and "both" as two) compared as sets
  of values with the other translations of the ruling. A value this text has and no other has,
  or one all the others have (all but one, from three on) and this text lacks, is reported.
  Digits are unambiguous, so a digit mismatch is an error; number words are warnings ("un",
  "ein", "one" are left out: they are also articles). Numbers inside glossary terms ("Gigante
  de dos cabezas") are part of a name, not a count, and are skipped.
- ``name-mismatch`` (warning): a capitalised word that the other translations all contain
  verbatim (a card, room or product name kept as is) and this one lacks. Names the glossary
  knows are left to the terminology checks.
"""

from __future__ import annotations

import re

from kb.checks.findings import Corpus, Member, majority, per_text

CHECKS = {
    "number-mismatch": "a number that differs from the other translations",
    "name-mismatch": "a name the other translations keep verbatim, missing here",
}

_WORDS: dict[str, dict[int, str]] = {
    "en": {2: "two|both", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
           9: "nine", 10: "ten"},
    "ru": {2: "два|две|двух|двум|двумя|оба|обе|обоих|обеих|обоим|обеим|обоими|обеими",
           3: "три|тр[её]х|тр[её]м|тремя", 4: "четыре|четыр[её]х|четыр[её]м|четырьмя",
           5: "пять|пяти|пятью", 6: "шесть|шести|шестью", 7: "семь|семи|семью",
           8: "восемь|восьми|восемью", 9: "девять|девяти|девятью", 10: "десять|десяти|десятью"},
    # "sei" (you are) and "nove" are common verbs/words too; only the unambiguous ones count.
    "it": {2: "due|entrambi|entrambe|ambedue", 3: "tre", 4: "quattro", 5: "cinque",
           7: "sette", 8: "otto", 10: "dieci"},
    # "neuf" is also "new".
    "fr": {2: "deux", 3: "trois", 4: "quatre", 5: "cinq", 6: "six", 7: "sept", 8: "huit",
           10: "dix"},
    "de": {2: "zwei|beide|beiden|beider|beides|beidem", 3: "drei", 4: "vier", 5: "fünf",
           6: "sechs", 7: "sieben", 8: "acht", 9: "neun", 10: "zehn"},
    "es": {2: "dos|ambos|ambas", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete",
           8: "ocho", 9: "nueve", 10: "diez"},
}
_REGEX = {lang: [(value, re.compile(rf"(?<!\w)(?:{words})(?!\w)", re.IGNORECASE))
                 for value, words in table.items()] for lang, table in _WORDS.items()}
_DIGITS = re.compile(r"(?<![\w/])\d+(?:[.,]\d+)*(?![\w/])")
_NAME = re.compile(r"(?<![\w-])[A-ZÀ-Þ][\w’'-]*[a-zß-ÿ][\w’'-]*")


def numbers(text: str, lang: str, skip=()) -> dict[str, tuple[int, int, bool]]:
    """Values found in ``text`` -> (start, end, is_digit) of their first occurrence.

    >>> sorted(numbers("La iniciativa tiene dos reglas y 3 pasos.", "es"))
    ['2', '3']
    """
    found: dict[str, tuple[int, int, bool]] = {}
    hits = [(m.start(), m.end(), _digits(m.group(0)), True) for m in _DIGITS.finditer(text)]
    for value, regex in _REGEX.get(lang, []):
        hits += [(m.start(), m.end(), str(value), False) for m in regex.finditer(text)]
    for start, end, value, digit in sorted(hits):
        if not any(a <= start and end <= b for a, b in skip):
            found.setdefault(value, (start, end, digit))
    return found


def _digits(raw: str) -> str:
    return raw.replace(",", ".").rstrip(".")


def check(corpus: Corpus):
    return per_text(corpus, lambda group, member: _member(corpus, group, member))


def _member(corpus: Corpus, group, member: Member):
    others = group.others(member)
    if len(others) >= 2:
        yield from _numbers(corpus, member, others)
        yield from _names(corpus, member, others)


def _numbers(corpus: Corpus, member: Member, others: list[Member]):
    own = _cached(corpus, "numbers", member, lambda: numbers(
        member.text, member.lang, _glossary_spans(corpus, member)))
    theirs = [_cached(corpus, "numbers", o, lambda o=o: numbers(
        o.text, o.lang, _glossary_spans(corpus, o))) for o in others]
    for value, (start, end, digit) in own.items():
        if not any(value in t for t in theirs):
            said = sorted({v for t in theirs for v in t}, key=_order)
            yield member.finding(
                "number-mismatch", "error" if digit else "warning",
                f"“{member.text[start:end]}” ({value}) is in no other translation "
                f"(they have: {', '.join(said) or 'no number'})", start, end)
    for value in sorted({v for t in theirs for v in t} - set(own), key=_order):
        holding = [t[value] for t in theirs if value in t]
        if majority(len(holding), len(others)):
            digit = any(h[2] for h in holding)
            yield member.finding(
                "number-mismatch", "error" if digit else "warning",
                f"the other translations have the number {value}; this one does not",
                0, len(member.text))


def _order(value: str):
    try:
        return (0, float(value), value)
    except ValueError:
        return (1, 0.0, value)


def _glossary_spans(corpus: Corpus, member: Member) -> list[tuple[int, int]]:
    return [(m.start, m.end) for m in corpus.matches(member)]


def _cached(corpus: Corpus, kind: str, member: Member, compute):
    """Per-text results: a ruling shared by many cards is analysed once."""
    key = (kind, member.lang, member.text)
    if key not in corpus.cache:
        corpus.cache[key] = compute()
    return corpus.cache[key]


def _names(corpus: Corpus, member: Member, others: list[Member]):
    sets = [_cached(corpus, "names", o, lambda o=o: _name_set(corpus, o)) for o in others]
    candidates = sorted({n for s in sets for n in s})
    for name in candidates:
        count = sum(name in s for s in sets)
        if majority(count, len(others)) and name not in member.text:
            where = ", ".join(o.lang for o, s in zip(others, sets) if name in s)
            yield member.finding(
                "name-mismatch", "warning",
                f"“{name}” appears verbatim in the {where} translations but not here",
                0, len(member.text))


def _name_set(corpus: Corpus, member: Member) -> set[str]:
    """Capitalised words not at a sentence start and outside glossary terms."""
    spans = _glossary_spans(corpus, member)
    names = set()
    for m in _NAME.finditer(member.text):
        before = member.text[:m.start()].rstrip(" «„“\"(")
        if not before or before[-1] in ".!?:…—":
            continue
        if not any(a <= m.start() and m.end() <= b for a, b in spans):
            names.add(m.group(0))
    return names
