"""Names: the names the glossary keeps in English (cards, rooms, dungeons), looked for written
otherwise in a translation.

Part of the terminology family (:mod:`kb.checks.terms` registers the check ids and runs it):

- a kept name written almost like it ("Undrcity" for "Undercity"), anywhere: ``term-synonym``
  (:func:`misspelt`);
- where a kept name is missing from a sentence, another name there that the text compared with
  does not have (:func:`other_name`): the name misspelt (``term-synonym``), another English
  name (``wrong-term``) or the name translated (``name-translated``).

:func:`name_runs` finds the capitalised word groups that may be names.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kb.checks import fragments
from kb.checks.findings import Corpus, Member, Spans, char_before
from kb.checks.synonyms import NEAR, synonym, who

_NAME_RUN = re.compile(
    r"(?<![\w-])[A-ZÀ-ÞА-ЯЁ][\w’'-]+(?:(?:\s+(?:of|the|de|du|des|der|del))?"
    r"\s+[A-ZÀ-ÞА-ЯЁ][\w’'-]+)*"
)
_CAPITAL_WORDS = re.compile(r"(?<![\w-])[A-ZÀ-ÞА-ЯЁ][\w’'-]{3,}")


def name_runs(member: Member, start: int = 0, end: int | None = None):
    """Capitalised word groups ("Lost Mine of Phandelver") in ``start:end``, not at a
    sentence start: names."""
    for m in _NAME_RUN.finditer(member.text, start, len(member.text) if end is None else end):
        before = char_before(member.text, m.start(), ' «„“"(')
        if before and before not in ".!?:…—":
            yield m


def other_name(corpus: Corpus, member: Member, witness: Member, concept, start: int, end: int):
    """A name kept in English (``concept``) missing from ``member``'s sentence, and another
    name there that the witness does not have: a misspelling of it (``term-synonym``), an
    English name (another card or room: ``wrong-term``), or a translation of it
    (``name-translated``)."""
    from difflib import SequenceMatcher

    name = concept.terms["en"][0]
    taken = [(m.start, m.end) for m in corpus.matches(member)]
    for m in name_runs(member, start, end):
        if m.group(0) in witness.text or any(a <= m.start() < b for a, b in taken):
            continue
        if SequenceMatcher(None, m.group(0).lower(), name.lower()).ratio() >= NEAR:
            return synonym(member, concept, m.start(), m.end(), "the name misspelt")
        words = m.group(0).split()
        english = sum(fragments.classify(w, member.lang) == fragments.ENGLISH for w in words)
        if 2 * english > len(words):
            return member.finding(
                "wrong-term",
                "error",
                f"“{m.group(0)}”, another name, where the {who(witness)} has “{name}”",
                m.start(),
                m.end(),
            )
        return member.finding(
            "name-translated",
            "warning",
            f"“{m.group(0)}” where the {who(witness)} keeps the name “{name}”: the glossary "
            f"keeps it in English",
            m.start(),
            m.end(),
        )
    return None


def misspelt(corpus: Corpus, member: Member):
    """Names kept in English written almost like them ("Undrcity"): ``term-synonym``."""
    names = _kept_names(corpus)
    most = max((size for _, _, size in names), default=0)
    taken = Spans((m.start, m.end) for m in corpus.matches(member))
    for m in _CAPITAL_WORDS.finditer(member.text):
        if taken.covers(m.start()):
            continue
        # The words from here, as many as the longest name has: split once per word, not
        # once per name (the rest of the text split again for each name was most of the time)
        following = tuple(member.text[m.start() :].split(None, most)[:most])
        key = ("misspelt", following)
        found = corpus.cache.get(key)
        if found is None:  # the same capitalised words come back in text after text
            found = corpus.cache[key] = _misspelt_names(names, following)
        for concept, size in found:
            yield synonym(member, concept, m.start(), m.start() + size, "the name misspelt")


def _misspelt_names(names: list[tuple], following: tuple[str, ...]) -> list[tuple]:
    """(concept, length of the words) of each name that the words ``following`` (as many as
    the longest name has) begin with a misspelling of."""
    found = []
    candidates: dict[int, str] = {}
    for concept, name, size in names:
        candidate = candidates.get(size)
        if candidate is None:
            candidate = candidates[size] = " ".join(following[:size]).rstrip(".,;:!?)»”")
        if candidate == name or len(candidate) < 5 or abs(len(candidate) - len(name)) > 3:
            continue
        if _misspelling(candidate, name):
            found.append((concept, len(candidate)))
    return found


@lru_cache(maxsize=100_000)
def _misspelling(candidate: str, name: str) -> bool:
    """Whether ``candidate`` is written almost like ``name`` (case aside); asked once per
    pair of words: the same capitalised words come back in text after text."""
    from difflib import SequenceMatcher

    matcher = SequenceMatcher(None, candidate.lower(), name.lower())
    return matcher.quick_ratio() >= 0.85 and matcher.ratio() >= 0.85


def _kept_names(corpus: Corpus) -> list[tuple]:
    """(concept, its English name, how many words it has) of each name kept in English."""
    found = corpus.cache.get("kept-names")
    if found is None:
        concepts = corpus.glossary.concepts if corpus.glossary is not None else []
        found = corpus.cache["kept-names"] = [
            (c, c.terms["en"][0], len(c.terms["en"][0].split())) for c in concepts if c.keep_english
        ]
    return found
