"""Units: one text of one language, as it appears on one or more cards, and its features.

A unit is what the aligner compares: same-language identical texts (any card) are one unit,
so a ruling printed on many cards is compared once. Also the group signature and fingerprint
that make a group's id, and the order of languages.
"""

from __future__ import annotations

import hashlib
import json
import re
import statistics
import unicodedata
from dataclasses import dataclass, field

from kb.corpus.languages import is_source, lang_order
from kb.reference import names
from kb.reference.glossary import Glossary

_SENTENCE_END = re.compile(r"[.!?…]+[»”“\"')\]]*(?=\s|$)")
_NUMBER = re.compile(r"\d+")
_QUOTES = str.maketrans(
    {
        "’": "'",
        "‘": "'",
        "«": '"',
        "»": '"',
        "„": '"',
        "“": '"',
        "”": '"',
        "\u00a0": " ",
        "\u202f": " ",
    }
)


@dataclass
class Unit:
    """One text of one language, as it appears on one or more cards."""

    lang: str
    key: str
    rulings: list[dict]
    concepts: frozenset[str]
    contrast: frozenset[str]
    numbers: frozenset[str]
    sentences: int
    length: int
    date: str
    relpos: float
    bucket: str = ""  # digest of (language, normalized text): units a text edit can touch

    @property
    def sort_key(self) -> tuple:
        return (lang_order(self.lang), self.key)

    def features(self) -> str:
        """Everything :class:`Scorer` reads of this unit, as JSON: two units with the same
        features score the same against any unit, under the same corpus statistics."""
        return json.dumps(
            [
                sorted(self.concepts),
                sorted(self.contrast),
                sorted(self.numbers),
                self.sentences,
                self.length,
                self.date,
                self.relpos,
            ],
            ensure_ascii=False,
        )

    @classmethod
    def from_features(cls, lang: str, key: str, features: str, bucket: str = "") -> Unit:
        concepts, contrast, numbers, sentences, length, date, relpos = json.loads(features)
        return cls(
            lang,
            key,
            [],
            frozenset(concepts),
            frozenset(contrast),
            frozenset(numbers),
            sentences,
            length,
            date,
            relpos,
            bucket,
        )


@dataclass
class Membership:
    ruling: dict
    unit: Unit
    score: float | None
    weak: bool
    evidence: dict


@dataclass
class Aligned:
    """One ruling group before it is stored."""

    units: list[Unit]
    signature: tuple[str, ...]
    fingerprint: str
    memberships: list[Membership] = field(default_factory=list)
    id: str = ""


# ---------------------------------------------------------------------------------------------
# Units and their features


def normalize(text: str) -> str:
    """The text as compared within one language: NFC, quotes and spaces unified, casefolded."""
    text = unicodedata.normalize("NFC", text).translate(_QUOTES)
    return " ".join(text.casefold().split())


def sentence_count(text: str) -> int:
    return max(1, len(_SENTENCE_END.findall(text.strip())))


def make_units(
    rows: list[dict], glossary: Glossary, by_file: dict[str, int] | None = None
) -> list[Unit]:
    """Merge same-language identical texts into units; a card repeating a text stays apart.

    ``by_file`` ({source: last position}) is needed when ``rows`` are not whole files.
    """
    if by_file is None:
        by_file = {}
        for row in rows:
            by_file[row["source"]] = max(by_file.get(row["source"], 0), row["position"])
    buckets: dict[tuple[str, str, int], list[dict]] = {}
    # The n-th time a card carries a text, it goes to copy n: counted, not searched for (a
    # file repeating one text 20,000 times would otherwise look through every earlier copy).
    seen: dict[tuple[str, str, str], int] = {}
    keyed = [
        (row["lang"], normalize(row["text"]), row["source"], row["position"], row) for row in rows
    ]
    keyed.sort(key=lambda k: k[:4])
    for lang, norm, _, _, row in keyed:
        copy = seen.get((lang, norm, row["card_id"]), 0)
        seen[lang, norm, row["card_id"]] = copy + 1
        buckets.setdefault((lang, norm, copy), []).append(row)
    units = []
    for (lang, norm, copy), members in buckets.items():
        first = members[0]
        concepts = frozenset(glossary.concept_ids(first["text"], lang, also=("en",)))
        contrast = frozenset(c for c in concepts if glossary.get(c).contrast)
        positions = [(r["position"] - 1) / max(1, by_file[r["source"]] - 1) for r in members]
        # statistics.mean is exact (it sums as fractions), and slow; the mean of one is itself.
        relpos = positions[0] if len(positions) == 1 else statistics.mean(positions)
        units.append(
            Unit(
                lang,
                digest(f"{lang}\n{norm}\n{copy}"),
                members,
                concepts,
                contrast,
                frozenset(_NUMBER.findall(first["text"])),
                sentence_count(first["text"]),
                len(norm),
                first["date"],
                relpos,
                digest(f"{lang}\n{norm}"),
            )
        )
    return sorted(units, key=lambda u: u.sort_key)


def digest(text: str, size: int = 12) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:size]


def signature(units: list[Unit]) -> tuple[str, ...]:
    """Concepts mentioned by at least half of the group's languages (language-independent)."""
    per_lang: dict[str, set[str]] = {}
    for unit in units:
        per_lang.setdefault(unit.lang, set()).update(unit.concepts)
    need = len(per_lang) / 2
    return tuple(sorted(c for c, k in naming(per_lang).items() if k >= need))


def naming(per_lang: dict[str, set[str]]) -> dict[str, int]:
    """{concept: how many of the languages name it}, from each language's concepts."""
    counts: dict[str, int] = {}
    for concepts in per_lang.values():
        for concept in concepts:
            counts[concept] = counts.get(concept, 0) + 1
    return counts


def link_votes(
    units: list[Unit], glossary: Glossary, stored: dict[str, list[dict]] | None = None
) -> dict[str, float]:
    """{concept: share of the group's languages naming it} as the link stage counts them
    (:func:`kb.link.stage.group_votes`): the first copy of each text, its concepts outside its
    card's name and the card's name when it leads (:func:`kb.reference.names.ruling_matches`).
    A group's id names the rule these give first, so the id says what the links say. A unit
    read back from the store has no rulings: ``stored`` gives its first copies."""
    firsts: dict[tuple[str, str], dict] = {}
    for unit in units:
        for ruling in unit.rulings or (stored or {}).get(unit.key, []):
            key = (unit.lang, ruling["text"])
            if key not in firsts or ruling["id"] < firsts[key]["id"]:
                firsts[key] = ruling
    per_lang: dict[str, set[str]] = {unit.lang: set() for unit in units}
    for (lang, _), ruling in firsts.items():
        per_lang[lang].update(m.concept for m in names.ruling_matches(glossary, ruling))
    return {c: round(k / len(per_lang), 4) for c, k in sorted(naming(per_lang).items())}


def source_lang(units: list[Unit]) -> str | None:
    """The language of the group's source (its English original), or None: a group holds at
    most one unit per language, so at most one source."""
    return next((u.lang for u in units if is_source(u.lang)), None)


def fingerprint(sig: tuple[str, ...]) -> str:
    return digest(",".join(sig), 6)
