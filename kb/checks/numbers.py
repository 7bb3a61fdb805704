"""Numbers and names that differ from the source or between translations.

- ``number-mismatch``: digits, number words (two to ten, and "both" as two) and ordinals
  (first, second, third, last) compared as sets of values with the group's source (its English
  original) and the other translations (:func:`kb.checks.findings.expected`). A value the
  others say and this text lacks is reported at the sentence where they say it; one this text
  has and the others do not, at its words. A value replaced by another in the same sentence
  ("tre" where the source says "both") is an error, as are digits (unambiguous); a number
  word or ordinal only missing or only added is a warning ("un", "ein", "one" are left out:
  they are also articles). Numbers inside glossary terms ("Gigante de dos cabezas") are part
  of a name, not a count, and are skipped; ordinals are not ("first room" still says first).
- ``name-mismatch`` (warning): a capitalised word that the source and the other translations
  contain verbatim (a card, room or product name kept as is) and this one lacks, reported at
  the sentence where they have it. Names the glossary knows are left to the terminology checks.
"""

from __future__ import annotations

import re

from kb.checks.findings import Corpus, Member, Spans, char_before, expected, per_text
from kb.checks.sentences import pairing

CHECKS = {
    "number-mismatch": "a number or ordinal that differs from the source or the translations",
    "name-mismatch": "a name the other translations keep verbatim, missing here",
}

_WORDS: dict[str, dict[int | str, str]] = {
    "en": {
        2: "two|both",
        3: "three",
        4: "four",
        5: "five",
        6: "six",
        7: "seven",
        8: "eight",
        9: "nine",
        10: "ten",
    },
    "ru": {
        2: "два|две|двух|двум|двумя|оба|обе|обоих|обеих|обоим|обеим|обоими|обеими",
        3: "три|тр[её]х|тр[её]м|тремя",
        4: "четыре|четыр[её]х|четыр[её]м|четырьмя",
        5: "пять|пяти|пятью",
        6: "шесть|шести|шестью",
        7: "семь|семи|семью",
        8: "восемь|восьми|восемью",
        9: "девять|девяти|девятью",
        10: "десять|десяти|десятью",
    },
    # "sei" (you are) and "nove" are common verbs/words too; only the unambiguous ones count.
    "it": {
        2: "due|entrambi|entrambe|ambedue",
        3: "tre",
        4: "quattro",
        5: "cinque",
        7: "sette",
        8: "otto",
        10: "dieci",
    },
    # "neuf" is also "new".
    "fr": {
        2: "deux",
        3: "trois",
        4: "quatre",
        5: "cinq",
        6: "six",
        7: "sept",
        8: "huit",
        10: "dix",
    },
    "de": {
        2: "zwei|beide|beiden|beider|beides|beidem",
        3: "drei",
        4: "vier",
        5: "fünf",
        6: "sechs",
        7: "sieben",
        8: "acht",
        9: "neun",
        10: "zehn",
    },
    "es": {
        2: "dos|ambos|ambas",
        3: "tres",
        4: "cuatro",
        5: "cinco",
        6: "seis",
        7: "siete",
        8: "ocho",
        9: "nueve",
        10: "diez",
    },
}
# Ordinals: first, second, third and last, in their inflected forms. Italian "prima di"
# (before) and "secondo" (according to) are not ordinals; nor is German "erst" (only).
_ORDINALS: dict[str, dict[str, str]] = {
    "en": {
        "1st": "first|firstly",
        "2nd": "second|secondly",
        "3rd": "third|thirdly",
        "last": "last|lastly",
    },
    "ru": {
        "1st": "перв(?:ый|ая|ое|ую|ого|ой|ом|ым|ыми|ых)|во-первых",
        "2nd": "втор(?:ой|ая|ое|ую|ого|ом|ым|ыми|ых)|во-вторых",
        "3rd": "трет(?:ий|ья|ье|ью|ьего|ьей|ьем|ьим|ьих)|в-третьих",
        "last": "последн(?:ий|яя|ее|юю|его|ей|ем|им|ими|их)",
    },
    "it": {
        "1st": r"prim(?:o|a|i|e)(?!\s+(?:di|che|del|della|dello|dei|delle|d')\b)",
        "2nd": r"second(?:o|a|i|e)(?!\s+(?:le|il|la|i|gli|lo|l'|quanto)\b)",
        "3rd": "terz(?:o|a|i|e)",
        "last": "ultim(?:o|a|i|e)",
    },
    "fr": {
        "1st": "premi(?:er|ère|ers|ères)|premièrement",
        "2nd": "deuxième|deuxièmes|second|seconde|deuxièmement",
        "3rd": "troisième|troisièmes|troisièmement",
        "last": "derni(?:er|ère|ers|ères)",
    },
    "de": {
        "1st": "erst(?:e|er|es|en|em|ens)",
        "2nd": "zweit(?:e|er|es|en|em|ens)",
        "3rd": "dritt(?:e|er|es|en|em|ens)",
        "last": "letzt(?:e|er|es|en|em)|zuletzt",
    },
    "es": {
        "1st": "primer|primer(?:o|a|os|as)",
        "2nd": "segund(?:o|a|os|as)",
        "3rd": "tercer|tercer(?:o|a|os|as)",
        "last": "últim(?:o|a|os|as)",
    },
}
_REGEX = {
    lang: [
        (str(value), re.compile(rf"(?<![\w-])(?:{words})(?![\w-])", re.IGNORECASE))
        for value, words in (_WORDS.get(lang, {}) | _ORDINALS.get(lang, {})).items()
    ]
    for lang in {*_WORDS, *_ORDINALS}
}
# Every value's words of a language in one pattern, so a text is scanned once per language,
# not once per value. A match is a whole word (no letter, digit or hyphen on either side), so
# where any value's pattern matches the combined one does too, at the same word;
# :func:`numbers` then asks each value's pattern about that word alone.
_ANY = {
    lang: re.compile(
        r"(?<![\w-])(?:"
        + "|".join(
            f"(?:{words})" for words in (_WORDS.get(lang, {}) | _ORDINALS.get(lang, {})).values()
        )
        + r")(?![\w-])",
        re.IGNORECASE,
    )
    for lang in _REGEX
}
_ORDINAL_VALUES = frozenset(_ORDINALS["en"])
_DIGITS = re.compile(r"(?<![\w/])\d+(?:[.,]\d+)*(?![\w/])")
_NAME = re.compile(r"(?<![\w-])[A-ZÀ-Þ][\w’'-]*[a-zß-ÿ][\w’'-]*")


def numbers(text: str, lang: str, skip=()) -> dict[str, list[tuple[int, int, bool]]]:
    """Values found in ``text`` -> (start, end, is_digit) of each occurrence, in text order.

    >>> sorted(numbers("La iniciativa tiene dos reglas y 3 pasos.", "es"))
    ['2', '3']
    >>> found = numbers("Premièrement, deux joueurs et la dernière salle des deux.", "fr")
    >>> sorted(found), len(found["2"])
    (['1st', '2', 'last'], 2)
    """
    found: dict[str, list[tuple[int, int, bool]]] = {}
    hits = {(m.start(), m.end(), _digits(m.group(0)), True) for m in _DIGITS.finditer(text)}
    # English left in a translation still says its number ("(the first room)").
    for code in (lang, "en") if lang != "en" else (lang,):
        if code not in _ANY:
            continue
        for word in _ANY[code].finditer(text):
            for value, regex in _REGEX[code]:
                m = regex.match(text, word.start())
                if m is not None:
                    hits.add((m.start(), m.end(), value, False))
    inside = Spans(skip)
    for start, end, value, digit in sorted(hits):
        if value not in _ORDINAL_VALUES and inside.holds(start, end):
            continue
        found.setdefault(value, []).append((start, end, digit))
    return found


def _digits(raw: str) -> str:
    return raw.replace(",", ".").rstrip(".")


def check(corpus: Corpus):
    return per_text(corpus, lambda group, member: _member(corpus, group, member))


def _member(corpus: Corpus, group, member: Member):
    others = group.others(member)
    if len(others) >= 2 or group.source is not None:
        yield from _numbers(corpus, group.source, member, others)
        yield from _names(corpus, group.source, member, others)


def _values(corpus: Corpus, member: Member):
    return _cached(
        corpus,
        "numbers",
        member,
        lambda: numbers(member.text, member.lang, _glossary_spans(corpus, member)),
    )


def _numbers(corpus: Corpus, source: Member | None, member: Member, others: list[Member]):
    """Values counted (a text saying "two" twice where the others say it once has one too
    many): fewer than the rest is a value missing, more is one added; a value missing where
    another is added in the same sentence is a value replaced."""
    own = _values(corpus, member)
    theirs = [_values(corpus, o) for o in others]
    said = _values(corpus, source) if source is not None else None

    def rest(value: str, compare) -> bool:
        return expected(
            compare(len(said.get(value, ()))) if said is not None else None,
            sum(compare(len(t.get(value, ()))) for t in theirs),
            len(others),
        )

    values = sorted({*own, *(said or ()), *(v for t in theirs for v in t)}, key=_order)
    missing = [v for v in values if rest(v, lambda n, v=v: n > len(own.get(v, ())))]
    extra = {
        v: _added(corpus, member, source, others, v)
        for v in values
        if own.get(v) and rest(v, lambda n, v=v: n < len(own[v]))
    }
    replaced: set[str] = set()
    for value in missing:
        witness = (
            source
            if source is not None and said is not None and value in said
            else next(o for o, t in zip(others, theirs) if value in t)
        )
        occurrences = _values(corpus, witness)[value]
        at, digit, (start, end) = _missing_at(corpus, member, witness, value)
        instead = [v for v, (a, _, _) in extra.items() if start <= a < end and v not in replaced]
        who = f"the {witness.lang} {'source' if witness.is_source else 'translation'}"
        if instead:
            replaced.add(instead[0])
            a, b, _ = extra[instead[0]]
            yield member.finding(
                "number-mismatch",
                "error",
                f"“{member.text[a:b]}” ({instead[0]}) where {who} has "
                f"“{_said(witness, occurrences, at)}” ({value})",
                a,
                b,
            )
            continue
        yield member.finding(
            "number-mismatch",
            "error" if digit else "warning",
            f"no {value} in this sentence, where {who} has “{_said(witness, occurrences, at)}”"
            f"{_also(value, theirs)}",
            start,
            end,
        )
    for value, (start, end, digit) in extra.items():
        if value in replaced:
            continue
        listed = sorted({*(said or ()), *(v for t in theirs for v in t)}, key=_order)
        whom = (
            "the source or the other translations" if said is not None else "the other translations"
        )
        yield member.finding(
            "number-mismatch",
            "error" if digit else "warning",
            f"“{member.text[start:end]}” ({value}) once more than {whom} say it "
            f"(they have: {', '.join(listed) or 'no number'})",
            start,
            end,
        )


def _added(
    corpus: Corpus, member: Member, source: Member | None, others: list[Member], value: str
) -> tuple[int, int, bool]:
    """Which occurrence of ``value`` is the one too many: the first whose sentence's
    counterpart (in the source, else the first translation) does not say it."""
    mine = _values(corpus, member)[value]
    witness = source if source is not None else others[0]
    pair = pairing(corpus, member, witness)
    theirs = _values(corpus, witness).get(value, [])
    for start, end, digit in mine:
        index = next(
            i
            for i, (a, b) in enumerate(pair.mine.spans)
            if a <= start < b or i == len(pair.mine.spans) - 1
        )
        bead = pair.bead_of(index)
        spans = [pair.theirs.spans[j] for j in (bead.theirs if bead else ())]
        if not any(a <= t[0] < b for t in theirs for a, b in spans):
            return start, end, digit
    return mine[-1]


def _missing_at(corpus: Corpus, member: Member, witness: Member, value: str):
    """(where in ``witness``, is it digits, my sentence's span) of the first occurrence of
    ``value`` in ``witness`` whose counterpart sentence here does not say it."""
    pair = pairing(corpus, member, witness)
    mine = _values(corpus, member).get(value, [])
    occurrences = _values(corpus, witness)[value]
    for at, _, digit in occurrences:
        start, end = pair.where(at)
        if not any(start <= a < end for a, _, _ in mine):
            return at, digit, (start, end)
    at, _, digit = occurrences[-1]
    return at, digit, pair.where(at)


def _said(member: Member, occurrences, at: int) -> str:
    """The words that say a value at ``at`` in ``member``'s text."""
    start, end, _ = next(o for o in occurrences if o[0] == at)
    return member.text[start:end]


def _also(value: str, theirs) -> str:
    count = sum(value in t for t in theirs)
    return f" ({count} of {len(theirs)} translations too)" if theirs else ""


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


def _names(corpus: Corpus, source: Member | None, member: Member, others: list[Member]):
    sets = [_cached(corpus, "names", o, lambda o=o: _name_set(corpus, o)) for o in others]
    said = (
        _cached(corpus, "names", source, lambda: _name_set(corpus, source))
        if source is not None
        else None
    )
    candidates = sorted({*(said or ()), *(n for s in sets for n in s)})
    for name in candidates:
        count = sum(name in s for s in sets)
        if name in member.text or not expected(
            name in said if said is not None else None, count, len(others)
        ):
            continue
        witness = (
            source if source is not None else next(o for o, s in zip(others, sets) if name in s)
        )
        start, end = pairing(corpus, member, witness).where(witness.text.index(name))
        where = ", ".join(o.lang for o, s in zip(others, sets) if name in s)
        who = " and ".join(
            ([f"the {source.lang} source"] if source is not None else [])
            + ([f"the {where} translations"] if where else [])
        )
        yield member.finding(
            "name-mismatch",
            "warning",
            f"“{name}” is not in this sentence, where {who} "
            f"{'keep' if where else 'keeps'} it verbatim",
            start,
            end,
        )


def _name_set(corpus: Corpus, member: Member) -> set[str]:
    """Capitalised words not at a sentence start and outside glossary terms."""
    taken = Spans(_glossary_spans(corpus, member))
    names = set()
    for m in _NAME.finditer(member.text):
        before = char_before(member.text, m.start(), ' «„“"(')
        if not before or before in ".!?:…—":
            continue
        if not taken.holds(m.start(), m.end()):
            names.add(m.group(0))
    return names
