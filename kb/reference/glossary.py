"""The multilingual glossary: concepts of the rules, their terms per language, and a matcher.

The data lives in ``kb/reference/glossary.yaml`` (see its header for the pattern syntax, which
:mod:`kb.reference.patterns` compiles). A concept has a preferred term and alternatives in
English (the pivot) and in each ruling language, and the inflected forms that find it in
running text. :meth:`Glossary.find` returns where concepts occur, as character offsets into
the text exactly as given (texts are never rewritten).

>>> g = load()
>>> [m.concept for m in g.find("Si le joueur qui a l’initiative quitte la partie", "fr")]
['initiative', 'leave_game']
>>> g.get("undercity").keep_english
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from kb.corpus.languages import UI_LANGUAGES
from kb.errors import KbError, Problem, read_yaml
from kb.reference import needles, patterns

GLOSSARY_FILE = Path(__file__).with_name("glossary.yaml")
_ID = re.compile(r"[a-z][a-z0-9_]*")
_FOUND_CACHE = 200_000


@dataclass(frozen=True)
class Match:
    """One occurrence of a concept: ``text[start:end] == surface``."""

    concept: str
    start: int
    end: int
    surface: str
    lang: str = ""


@dataclass(frozen=True)
class Concept:
    id: str
    terms: dict[str, list[str]]
    forms: dict[str, list[str]]
    keep_english: bool = False
    contrast: str | None = None
    rule: str | None = None
    #: Per language, terms a translation must not use for this concept (synonyms, calques,
    #: superseded terms; plain terms, no stems): the checks name them and the term expected;
    #: the term base exports them as deprecated. Never matched as the concept.
    forbidden: dict[str, list[str]] = field(default_factory=dict)
    #: Concepts whose longer terms hold a word of this one's ("venture" in "venture into
    #: Undercity", "aventure" in "marqueur d'aventure"): where a match of theirs overlaps
    #: one of this concept, this one is not found there.
    yields_to: tuple[str, ...] = ()
    #: A designation a player, a permanent or the game can have (the city's blessing, day and
    #: night, monstrous): a ruling group that names one whose rules the core does not carry
    #: (``rule`` not carried, or no ``rule`` given) is about it, and linked to nothing.
    designation: bool = False

    def term(self, lang: str) -> str:
        """The preferred term in ``lang`` (English when the language has none)."""
        return (self.terms.get(lang) or self.terms["en"])[0]

    def patterns(self, lang: str) -> list[str]:
        """The patterns that find this concept in ``lang`` (forms, else terms)."""
        found = list(self.forms.get(lang) or self.terms.get(lang) or [])
        if self.keep_english and lang != "en":
            found += self.forms.get("en") or self.terms["en"]
        return list(dict.fromkeys(found))


@dataclass
class Glossary:
    concepts: list[Concept]
    _regex: dict = field(default_factory=dict, repr=False)
    #: (text, lang, also) -> matches: stages ask again for texts earlier stages matched.
    _found: dict = field(default_factory=dict, repr=False)
    #: lang -> what :meth:`_needles` says.
    _by_needle: dict = field(default_factory=dict, repr=False)
    #: (concept, lang) -> its patterns with a gap, longest first (:meth:`shown`).
    _gapped: dict = field(default_factory=dict, repr=False)
    #: (concept, lang) -> what :meth:`needles` says.
    _least: dict = field(default_factory=dict, repr=False)
    #: (concept, lang) -> what :meth:`split` says.
    _split: dict = field(default_factory=dict, repr=False)

    @cached_property
    def by_id(self) -> dict[str, Concept]:
        return {c.id: c for c in self.concepts}

    def get(self, concept_id: str) -> Concept:
        """The concept with this id; KeyError names it if unknown."""
        try:
            return self.by_id[concept_id]
        except KeyError:
            raise KeyError(f"no concept {concept_id!r} in the glossary") from None

    def find(self, text: str, lang: str, also: tuple[str, ...] = ()) -> list[Match]:
        """Occurrences of the concepts in ``text`` read as ``lang``, in text order.

        ``also`` adds the patterns of other languages (say ``("en",)`` to catch English left
        in a translation); those matches carry their own ``lang``. Matches of different
        concepts may overlap ("take the initiative" holds "initiative"); matches of one
        concept never do.
        """
        key = (text, lang, also)
        cached = self._found.get(key)
        if cached is None:
            cached = self._find(text, lang, also)
            if len(self._found) >= _FOUND_CACHE:
                self._found.clear()
            self._found[key] = cached
        return list(cached)

    def remember(self, text: str, lang: str, also: tuple[str, ...], matches) -> None:
        """Take ``matches`` as what :meth:`find` returns for these arguments (matches an
        earlier build stored with the same glossary)."""
        if len(self._found) < _FOUND_CACHE:
            self._found[(text, lang, tuple(also))] = tuple(matches)

    def _find(self, text: str, lang: str, also: tuple[str, ...]) -> tuple[Match, ...]:
        found: list[Match] = []
        lowered = text.lower()
        # Offsets in the lowercased text are offsets in the text unless lowering changed a length.
        aligned = len(lowered) == len(text)
        codes = (lang, *also)
        # Most concepts are absent from a text: only those of which the text holds a needle
        # (or that have none) are matched, in glossary order.
        rare = patterns.spaced(lowered)
        candidates = [needles.candidates(self._needles(code), lowered, rare) for code in codes]
        for index in sorted(set().union(*candidates)):
            concept = self.concepts[index]
            spans: list[Match] = []
            for code, among in zip(codes, candidates):
                if index not in among:
                    continue
                if self.needles(concept, code) and aligned:
                    by_needle = self.split(concept, code)
                    places = needles.positions(lowered, rare, by_needle)
                    matches = needles.matches_at(by_needle, text, places)
                else:
                    matches = self.compiled(concept, code).finditer(text)
                spans += [Match(concept.id, m.start(), m.end(), m.group(0), code) for m in matches]
            found += non_overlapping(spans)
        return tuple(sorted(yielded(found, self.by_id), key=lambda m: (m.start, -m.end, m.concept)))

    def _needles(self, code: str) -> tuple:
        """The needle index of ``code`` (:func:`needles.index`), built once per language."""
        cached = self._by_needle.get(code)
        if cached is None:
            cached = self._by_needle[code] = needles.index(
                [c.patterns(code) for c in self.concepts],
                [self.needles(c, code) for c in self.concepts],
            )
        return cached

    def shown(self, concept_id: str, lang: str, surface: str) -> str:
        """A match's ``surface`` as a reader is shown it: the words of the concept's pattern
        in ``lang`` it holds, " … " where a gap skipped :data:`patterns.ELIDED` words or more
        (German's "ziehst … Karte", not the whole middle field between them); the surface
        itself when no pattern with a gap matches it whole."""
        key = (concept_id, lang)
        gapped = self._gapped.get(key)
        if gapped is None:
            forms = [p for p in self.get(concept_id).patterns(lang) if "~" in p]
            gapped = self._gapped[key] = tuple(needles.longest_first(forms))
        if not gapped:  # most concepts: every match is its words
            return surface
        for pattern in gapped:
            words = patterns.shown(pattern, surface)
            if words is not None:
                return words
        return surface

    def concept_ids(self, text: str, lang: str, also: tuple[str, ...] = ()) -> set[str]:
        return {m.concept for m in self.find(text, lang, also)}

    def compiled(self, concept: Concept, lang: str):
        """The regex of the concept's patterns in ``lang`` (None when it has none), longest
        pattern first: what a text without :meth:`needles` is searched with."""
        key = (concept.id, lang)
        if key not in self._regex:
            forms = concept.patterns(lang)
            self._regex[key] = needles.union(needles.longest_first(forms)) if forms else None
        return self._regex[key]

    def needles(self, concept: Concept, lang: str) -> tuple[str, ...]:
        """The literal lowercase starts one of which any match of the concept in ``lang``
        begins with (:func:`needles.least`). Computed without compiling: a text's regexes
        are compiled when it needs them (:meth:`split`'s, by needle, most of all)."""
        key = (concept.id, lang)
        if key not in self._least:
            self._least[key] = needles.least(concept.patterns(lang))
        return self._least[key]

    def split(self, concept: Concept, lang: str) -> dict:
        """The concept's regexes in ``lang`` by needle (:func:`needles.by_needle`)."""
        key = (concept.id, lang)
        if key not in self._split:
            forms = concept.patterns(lang)
            self._split[key] = needles.by_needle(forms, self.needles(concept, lang))
        return self._split[key]


def non_overlapping(spans: list[Match]) -> list[Match]:
    """Keep the longest of overlapping spans, earliest first."""
    kept: list[Match] = []
    for span in sorted(spans, key=lambda m: (m.start, -(m.end - m.start))):
        if not kept or span.start >= kept[-1].end:
            kept.append(span)
    return kept


def yielded(found: list[Match], by_id: dict[str, Concept]) -> list[Match]:
    """``found`` less the matches whose first or last word a match of a concept their concept
    yields to covers (a match held inside a gap's words is another phrase: "wagst du dich mit
    deinem Vorstoßmarker ... vor" is a venture beside a venture marker)."""

    def overlapped(m: Match) -> bool:
        mine = by_id[m.concept].yields_to  # empty for all but a few concepts
        return bool(mine) and any(
            o.concept in mine and (o.start <= m.start < o.end or o.start < m.end <= o.end)
            for o in found
        )

    return [m for m in found if not overlapped(m)]


@lru_cache(maxsize=4)
def load(path: str | Path = GLOSSARY_FILE) -> Glossary:
    """The glossary in ``path`` (cached); KbError names the file and the bad entry."""
    data = read_yaml(path) or {}
    concepts, problems = [], []
    variants = data.get("variants") or {}
    if not isinstance(variants, dict) or not all(
        lang in UI_LANGUAGES and isinstance(words, dict) for lang, words in variants.items()
    ):
        problems.append(Problem(str(path), 0, "variants: {language: {word: its variant}}"))
        variants = {}
    for index, raw in enumerate(data.get("concepts") or [], start=1):
        try:
            concepts.append(_concept(raw, variants))
        except (TypeError, ValueError, KeyError) as exc:
            problems.append(Problem(str(path), 0, f"concept #{index}: {exc}"))
    ids = [c.id for c in concepts]
    problems += [
        Problem(str(path), 0, f"concept {i!r} is listed twice")
        for i in sorted({i for i in ids if ids.count(i) > 1})
    ]
    problems += [
        Problem(str(path), 0, f"concept {c.id!r} yields to {other!r}, which is not in the glossary")
        for c in concepts
        for other in c.yields_to
        if other not in ids
    ]
    if problems:
        raise KbError(problems)
    return Glossary(concepts)


def _expanded(form: str) -> list[str]:
    """``form`` made one form per name when it begins with a placeholder ("<dungeon> ~2
    completed"), else the form alone: a pattern's first word is the literal needle the
    matcher looks for (:mod:`kb.reference.needles`), and a placeholder elsewhere is an
    alternation of the names (:func:`patterns.names`).

    >>> _expanded("<dungeon> ~2 completed")[:2]
    ['Undercity ~2 completed', 'Lost Mine of Phandelver ~2 completed']
    >>> _expanded("complet* ~1 <dungeon>")
    ['complet* ~1 <dungeon>']
    """
    first, _, rest = form.partition(" ")
    if not patterns.PLACEHOLDER.fullmatch(first):
        return [form]
    try:
        found = patterns.names(first)
    except ValueError as exc:
        raise ValueError(f"{form!r}: {exc}") from None
    return [f"{name} {rest}".strip() for name in found]


def _with_variants(forms: list[str], words: dict) -> list[str]:
    """``forms``, then each form holding a word of ``words`` with that word's variant (the
    glossary's ``variants``: the printed products' word beside the seeds').

    >>> _with_variants(["verlies*", "nicht ~1 in einem verlies*"], {"verlies*": "gewölbe*"})
    ['verlies*', 'nicht ~1 in einem verlies*', 'gewölbe*', 'nicht ~1 in einem gewölbe*']
    """
    out = list(forms)
    for form in forms:
        tokens = []
        for token in form.split(" "):
            word = token.rstrip(",")  # a word may end with the comma after it
            tokens.append(str(words.get(word.lower(), word)) + token[len(word) :])
        twin = " ".join(tokens)
        if twin != form and twin not in out:
            out.append(twin)
    return out


def _concept(raw: dict, variants: dict) -> Concept:
    cid = raw["id"]
    if not isinstance(cid, str) or not _ID.fullmatch(cid):
        raise ValueError(f"id {cid!r} is not snake_case")
    terms = {lang: [str(t) for t in raw["terms"].get(lang) or []] for lang in UI_LANGUAGES}
    missing = [lang for lang, values in terms.items() if not values]
    if missing:
        raise ValueError(f"{cid}: no term in {', '.join(missing)}")
    forms = {
        lang: _with_variants([str(f) for f in values], variants.get(lang) or {})
        for lang, values in (raw.get("forms") or {}).items()
    }
    try:
        forms = {
            lang: [f for form in values for f in _expanded(form)] for lang, values in forms.items()
        }
    except ValueError as exc:
        raise ValueError(f"{cid}: {exc}") from None
    forbidden = {
        lang: [str(f) for f in values] for lang, values in (raw.get("forbidden") or {}).items()
    }
    for pattern in (p for values in forms.values() for p in values):
        try:
            re.compile(patterns.compile_pattern(pattern))
        except ValueError as exc:
            raise ValueError(f"{cid}: {exc}") from None
    if any("*" in t or patterns.GAP.search(t) for values in forbidden.values() for t in values):
        raise ValueError(f"{cid}: forbidden terms are plain terms (no * or ~N)")
    return Concept(
        cid,
        terms,
        forms,
        bool(raw.get("keep_english", False)),
        raw.get("contrast"),
        raw.get("rule"),
        forbidden,
        tuple(str(c) for c in raw.get("yields_to") or ()),
        bool(raw.get("designation", False)),
    )
