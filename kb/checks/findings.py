"""What the translator checks work on and what they return.

A check is a function ``check(corpus) -> Iterable[Finding]``. :class:`Corpus` holds the aligned
groups (each a ruling in every language it exists in) and the glossary, and caches what several
checks need (glossary matches per text, word tokens), so each text is analysed once per run.

A group may hold its English original (:attr:`Group.source`): the translations are compared
with it as well as with one another (:func:`expected`), and it is never checked as a
translation itself.

A ruling printed word for word on many cards is one text with many members (10,000 at 100,000
rulings). Whatever a check finds in one copy it finds in every copy of the same group, but for
the fields that name the ruling (ruling, card, source): :meth:`Group.texts` gathers the copies,
:func:`per_text` checks one and gives its findings to the others (:meth:`Finding.moved`), so a
check costs what the distinct texts cost, not what the members do.
"""

from __future__ import annotations

import hashlib
import json
import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from itertools import accumulate
from typing import TYPE_CHECKING

from kb.reference import names

if TYPE_CHECKING:
    from kb.reference.glossary import Concept, Glossary

SEVERITIES = ("error", "warning", "info")

# A word: letters, with inner hyphens ("Two-Headed"); apostrophes end words ("l’initiative").
WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@dataclass(frozen=True)
class Finding:
    """One departure of a translation, located by character offsets in the ruling's text.

    ``excerpt == text[start:end]`` of the ruling ``ruling``; a finding about a whole group
    (a missing language) has no ruling, no card and an empty excerpt.
    """

    check: str
    severity: str
    lang: str
    group: str
    card: str
    message: str
    excerpt: str = ""
    start: int = 0
    end: int = 0
    ruling: str = ""
    source: str = ""

    def to_dict(self) -> dict:
        # What dataclasses.asdict gives for these flat fields, without its deep copies (every
        # finding is turned into a row, and 100,000 rulings have 36,000 findings).
        return {name: getattr(self, name) for name in _FINDING_FIELDS}

    @property
    def id(self) -> str:
        """A digest of what the finding says and where: the same finding keeps its id from
        build to build (the ``findings`` table's key, ``id`` in every output format)."""
        key = json.dumps(
            [self.check, self.ruling, self.group, self.lang, self.start, self.end, self.message],
            ensure_ascii=False,
        )
        return hashlib.sha1(key.encode()).hexdigest()[:16]

    def moved(self, member: Member) -> Finding:
        """The same finding in ``member``, a copy of this finding's text (same language)."""
        return replace(
            self, group=member.group, card=member.card, ruling=member.id, source=member.source
        )

    @property
    def key(self) -> tuple:
        """Sort key: by ruling (group, language, card), then place in the text."""
        return (
            self.group,
            self.lang,
            self.card,
            self.ruling,
            self.start,
            self.end,
            self.check,
            self.message,
        )


_FINDING_FIELDS = tuple(f.name for f in fields(Finding))


@dataclass(frozen=True)
class Member:
    """One ruling text inside a group."""

    id: str
    lang: str
    card: str
    text: str
    group: str
    source: str = ""  # path:line
    date: str = ""  # ISO 8601
    is_source: bool = False  # the group's original (the text the others translate)

    def finding(
        self, check: str, severity: str, message: str, start: int = 0, end: int | None = None
    ) -> Finding:
        end = len(self.text) if end is None else end
        return Finding(
            check,
            severity,
            self.lang,
            self.group,
            self.card,
            message,
            self.text[start:end],
            start,
            end,
            self.id,
            self.source,
        )

    @cached_property
    def words(self) -> list[re.Match]:
        return list(WORD.finditer(self.text))


@dataclass(eq=False)
class Group:
    id: str
    members: list[Member]
    aligned: bool = True  # False: a stand-in group of one ruling (no alignment available)

    def others(self, member: Member) -> list[Member]:
        """The translations of ``member``: one per other language (a ruling shared by several
        cards has one text per card, and counting each would outvote the other languages).
        The source is not among them: see :attr:`source`. One list per language, made once
        (every family asks for every text): not to be changed."""
        found = self._others.get(member.lang)
        if found is None:
            found = self._others[member.lang] = [
                m
                for lang, m in self._first_per_language.items()
                if lang != member.lang and not m.is_source
            ]
        return found

    @cached_property
    def _others(self) -> dict[str, list[Member]]:
        return {}

    @cached_property
    def source(self) -> Member | None:
        """The group's original (its English text), or None when the corpus has none."""
        return next((m for m in self.members if m.is_source), None)

    @cached_property
    def _first_per_language(self) -> dict[str, Member]:
        first: dict[str, Member] = {}
        for m in self.members:
            first.setdefault(m.lang, m)
        return first

    @cached_property
    def texts(self) -> list[list[Member]]:
        """The members by distinct (language, text), in the order the texts first appear; each
        list in member order (its first member stands for the others)."""
        copies: dict[tuple[str, str], list[Member]] = {}
        for m in self.members:
            copies.setdefault((m.lang, m.text), []).append(m)
        return list(copies.values())


@dataclass
class Corpus:
    groups: list[Group]
    glossary: Glossary | None = None
    _matches: dict = field(default_factory=dict, repr=False)
    _outside_names: dict = field(default_factory=dict, repr=False)  # by text and card
    cache: dict = field(default_factory=dict, repr=False)  # for checks' per-text results
    #: Corpus-wide counts some checks compare a text with (see :meth:`total`); given when
    #: ``groups`` are only part of the corpus (an incremental build's changed groups).
    totals: dict = field(default_factory=dict, repr=False)
    partial: bool = False  # groups are part of the corpus: corpus-level scans are skipped
    #: The team's own rules (:class:`kb.checks.checklist.Rule`), from ``checklist.toml``.
    checklist: list = field(default_factory=list)

    def total(self, name: str, compute):
        """The corpus-wide count ``name`` (given, or computed over these groups)."""
        if name not in self.totals:
            self.totals[name] = compute()
        return self.totals[name]

    @cached_property
    def members(self) -> list[Member]:
        return [m for g in self.groups for m in g.members]

    @cached_property
    def languages(self) -> list[str]:
        """The languages the corpus has, in first-seen order."""
        return list(dict.fromkeys(m.lang for m in self.members))

    def matches(self, member: Member) -> list:
        """Glossary matches in the member's text, its own language's terms and English ones."""
        return self.text_matches(member.lang, member.text)

    def said(self, member: Member) -> list:
        """:meth:`matches` outside the member's own card name (:mod:`kb.reference.names`):
        what the ruling says, to compare across translations. Wizards prints the names, and
        "Esploratore di Dungeon" in an Italian card's name is no venture the others lack."""
        found = self.matches(member)
        if not found or not self.names_card(member):
            return found
        key = ("outside", member.lang, member.text, member.card)
        if key not in self._outside_names:
            self._outside_names[key] = names.outside(found, member.text, member.card)
        return self._outside_names[key]

    def names_card(self, member: Member) -> bool:
        """Whether the member's text names its own card (then :meth:`said` depends on the
        card, not on the text alone)."""
        return bool(self.name_spans(member))

    def name_spans(self, member: Member) -> list[tuple[int, int]]:
        """Where the member's text names its own card."""
        key = ("names-card", member.text, member.card)
        if key not in self._outside_names:
            self._outside_names[key] = names.spans(member.text, member.card)
        return self._outside_names[key]

    def text_matches(self, lang: str, text: str) -> list:
        """:meth:`matches` of a text of ``lang``."""
        if self.glossary is None:
            return []
        # Keyed by text: a ruling shared by many cards is matched once.
        key = (lang, text)
        if key not in self._matches:
            also = ("en",) if lang != "en" else ()
            self._matches[key] = self.glossary.find(text, lang, also)
        return self._matches[key]

    def concept(self, concept_id: str) -> Concept:
        if self.glossary is None:  # no glossary knows no concept: as an unknown id does
            raise KeyError(f"no glossary to find concept {concept_id!r} in")
        return self.glossary.get(concept_id)


def per_text(corpus: Corpus, compute, across_groups: bool = False):
    """Findings of ``compute(group, member)`` for every translation of every group (a source
    is not checked as a translation), computed once per distinct text of a group (of the
    corpus, ``across_groups``, for a check that does not look at the group) and moved to its
    other copies. They come group by group, text by text; the report sorts them."""
    seen: dict[tuple[str, str], list[Finding]] = {}
    for group in corpus.groups:
        for copies in group.texts:
            first = copies[0]
            if first.is_source:
                continue
            found = seen.get((first.lang, first.text))
            if found is None:
                found = list(compute(group, first))
                if across_groups:
                    seen[(first.lang, first.text)] = found
                yield from found
                copies = copies[1:]
            if found:
                for member in copies:
                    yield from (f.moved(member) for f in found)


class Spans:
    """Spans of a text (glossary matches), asked about in log time: a text has many words."""

    def __init__(self, spans):
        spans = sorted(spans)
        self.starts = [start for start, _ in spans]
        # reach[k]: the furthest end of the spans starting at or before starts[k]
        self.reach = list(accumulate((end for _, end in spans), max))

    def _reach(self, at: int) -> int:
        k = bisect_right(self.starts, at) - 1
        return self.reach[k] if k >= 0 else -1

    def covers(self, at: int) -> bool:
        """Whether a span holds the offset ``at``: ``any(a <= at < b)``."""
        return self._reach(at) > at

    def holds(self, start: int, end: int) -> bool:
        """Whether a span holds ``start:end`` whole: ``any(a <= start and end <= b)``."""
        return self._reach(start) >= end


def char_before(text: str, at: int, skip: str) -> str:
    """The last character of ``text[:at].rstrip(skip)`` ('' when there is none), found
    without copying the text before ``at`` (asked for every capitalised word of a text).

    >>> char_before("Il a dit. « Undercity", 11, " «"), char_before("« Undercity", 2, " «")
    ('.', '')
    """
    i = at - 1
    while i >= 0 and text[i] in skip:
        i -= 1
    return text[i] if i >= 0 else ""


def texts(members) -> Counter:
    """{(language, text): how many of ``members`` have it}, for counts made once per text."""
    return Counter((m.lang, m.text) for m in members)


def majority(count: int, total: int) -> bool:
    """Whether ``count`` of ``total`` other translations is enough to call it their consensus:
    all of them, or all but one when there are at least three."""
    return total >= 2 and (count == total or (total >= 3 and count >= total - 1))


def expected(source_has: bool | None, count: int, total: int) -> bool:
    """Whether the rest of a group says something a translation is compared with.

    ``source_has``: whether the group's source says it (None: the group has no source);
    ``count`` of the ``total`` other translations say it. With a source, the source decides,
    seconded by most of the other translations when there are two or more (what the source
    says that the translations do not render is its own wording, not a lost meaning; and one
    translation's mistake must not make the others look wrong); without one, the
    translations' consensus (:func:`majority`).

    >>> expected(True, 0, 1), expected(True, 2, 4), expected(True, 3, 4), expected(None, 3, 4)
    (True, False, True, True)
    """
    if source_has is None:
        return majority(count, total)
    return source_has and (total < 2 or 2 * count > total)


def unexpected(source_has: bool | None, count: int, total: int) -> bool:
    """Whether the rest of a group does *not* say something a translation says: neither the
    source (when there is one) nor more than half of the other translations; without a
    source, none of them.

    >>> unexpected(False, 1, 4), unexpected(False, 2, 4), unexpected(None, 0, 2)
    (True, False, True)
    """
    if source_has is None:
        return total >= 1 and count == 0
    return not source_has and 2 * count < total
