"""Where the glossary's concepts can match a text, found without running every regex on it.

Every pattern of a concept starts with a literal lowercase *needle* (:func:`kb.reference.
patterns.needle`), so a concept can only match where one of its needles is, and only its
patterns starting with that needle can match there. :class:`kb.reference.glossary.Glossary`
keeps, per language, an index of the needles (:func:`index`) and, per concept, its regexes
split by needle (:func:`by_needle`); this module computes them and uses them on a text. Pure
functions: the glossary owns the caches.

>>> sorted(least(["aventur*", "aventurez", "marqueur d'aventure"]))
['aventur', 'marqueur']
>>> [m.group(0) for m in matches_at(by_needle(["venture*"], ("venture",)), "Venture now",
...                                  positions("venture now", " venture now ",
...                                            by_needle(["venture*"], ("venture",))))]
['Venture']
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from kb.reference import patterns


def longest_first(forms: Sequence[str]) -> list[str]:
    """Glossary patterns in the order the glossary tries them (its regexes, what it shows):
    the longest first, so that of two fitting at one place the one saying more wins."""
    return sorted(forms, key=len, reverse=True)


def union(forms: Sequence[str]) -> re.Pattern[str]:
    """One regex finding any of ``forms`` (glossary patterns), tried in their order."""
    return re.compile("|".join(f"(?:{patterns.compile_pattern(p)})" for p in forms), re.I)


def least(forms: Sequence[str]) -> tuple[str, ...]:
    """The needles of a concept's patterns ``forms``, none of them another's start; empty when
    some pattern has none (then the concept's whole regex must run)."""
    found = {patterns.needle(p) for p in forms}
    if "" in found:
        return ()
    # A needle another one starts ("aventur" of "aventurez") finds its places too.
    return tuple(n for n in found if not any(n.startswith(m) and n != m for m in found))


def by_needle(forms: Sequence[str], needles: tuple[str, ...]) -> dict:
    """{needle: (the regex of those ``forms`` whose own needle starts with it, longest pattern
    first, and their rarer words)}: where that needle starts, no other pattern can match."""
    ordered = longest_first(forms)
    split = {}
    for needle in needles:
        mine = [p for p in ordered if patterns.needle(p).startswith(needle)]
        words = {patterns.longest(p, patterns.needle(p)) for p in mine}
        split[needle] = (
            union(mine),
            # A match holds its pattern's rarer word: without one of them in the text,
            # a needle as common as "la" or "die" need not be looked for at all.
            () if "" in words else tuple(sorted(words)),
        )
    return split


def index(forms_of: Sequence[Sequence[str]], needles_of: Sequence[tuple[str, ...]]) -> tuple:
    """The needle index of one language, given each concept's patterns (``forms_of``, in
    glossary order) and :func:`least` needles: (((needle, indexes of the concepts it finds),
    ...), indexes of the concepts with patterns but no needle, ((word, ((needle, index of a
    concept that needle finds only when that other word of one of its patterns is in the text
    too), ...)), ...))."""
    found: dict[str, dict[int, set[str]]] = {}
    always: list[int] = []
    for i, (forms, needles) in enumerate(zip(forms_of, needles_of)):
        if not forms:
            continue
        if not needles:
            always.append(i)
            continue
        for pattern in forms:
            needle = patterns.needle(pattern)
            found.setdefault(needle, {}).setdefault(i, set()).add(patterns.longest(pattern, needle))
    plain = {
        needle: tuple(i for i, words in by.items() if "" in words) for needle, by in found.items()
    }
    checked: dict[str, list[tuple[str, int]]] = {}
    for needle, by in found.items():
        for i, words in by.items():
            if "" not in words:
                for word in sorted(words):
                    checked.setdefault(word, []).append((needle, i))
    return (
        tuple((needle, indexes) for needle, indexes in plain.items() if indexes),
        tuple(always),
        tuple((word, tuple(pairs)) for word, pairs in checked.items()),
    )


def candidates(indexed: tuple, lowered: str, rare: str) -> set[int]:
    """The indexes of the concepts of an :func:`index` that may match ``lowered``: one of their
    needles is in it, or they have none. One test per needle, not per concept (a needle is
    shared by several concepts, and testing it is cheaper than a loop)."""
    plain, always, checked = indexed
    found = set(always)
    for needle, indexes in plain:
        if needle in lowered:
            found.update(indexes)
    # A needle common in running text ("no", "la", "dungeon") is in most texts: another
    # word of the pattern, which any match holds too, must be there as well ("no monarch").
    # That word is the rarer, so it is tested first, and once for all its patterns.
    for word, pairs in checked:
        if word in rare:
            found.update(i for needle, i in pairs if i not in found and needle in lowered)
    return found


def positions(lowered: str, rare: str, split: dict) -> list[tuple[int, str]]:
    """Where any needle of ``split`` (:func:`by_needle`) whose patterns may match starts in
    the lowercased text, in order, with that needle (one at a place: none of :func:`least`'s
    needles starts another)."""
    found = []
    for needle, (_, words) in split.items():
        if words and not any(w in rare for w in words):
            continue
        at = lowered.find(needle)
        while at >= 0:
            found.append((at, needle))
            at = lowered.find(needle, at + 1)
    return sorted(found)


def matches_at(split: dict, text: str, places: list[tuple[int, str]]) -> Iterator[re.Match[str]]:
    """What the concept's regex's ``finditer(text)`` yields, trying only ``places``
    (:func:`positions`).

    Every alternative of a concept's regex starts with one of its needles, so a match can only
    start where a needle does, and only the alternatives of that needle can match there
    (``split``, :func:`by_needle`: a concept with forty patterns tries the few that start with
    that word); like finditer, a match resumes the scan at its end.
    """
    end = 0
    for at, needle in places:
        if at < end:
            continue
        # Every pattern starts with (?<!\w): a needle inside a word ("lo" in "dello") starts
        # no match, and this test is cheaper than the regex's.
        if at and (text[at - 1].isalnum() or text[at - 1] == "_"):
            continue
        m = split[needle][0].match(text, at)
        if m:
            yield m
            end = m.end() if m.end() > at else at + 1
