"""Terminology: the glossary's terms, used the same way in every translation.

- ``english-term`` (warning): the English term of a concept left in a translation whose
  glossary term differs ("Two-Headed Giant" in Italian, where the glossary has "Gigante a Due
  Teste"); the message says which translations use a translated term, so a name translated in
  some languages and kept in English in others shows up on the English side.
- ``name-translated`` (warning): a name the glossary keeps in English, translated here
  ("Entrée secrète" where the other translations keep "Secret Entrance").
- ``term-variant`` (info): a term the glossary lists as an alternative, not the preferred one;
  the message counts how the rest of that language's corpus renders the concept, which shows
  a language using different terms for one concept across rulings.
- ``term-synonym`` (warning): a word used instead of the glossary's term: a term the glossary
  forbids for the concept (its ``forbidden`` data), anywhere; or, where the concept is
  missing (:mod:`kb.checks.content`), words of the sentence that resemble the glossary's term
  (a shared word or compound part of four letters or more, or a near spelling: "Befehlszone"
  for "Kommandozone", "Undrcity" for "Undercity"). The message names the word found and the
  term expected.
- ``wrong-term`` (error): where the concept is missing, the sentence names another glossary
  concept that the source (or the translation it is compared with) does not name at all:
  another concept's term ("Exilzone" where the source says "command zone").
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from kb.checks import fragments
from kb.checks.findings import (
    Corpus,
    Member,
    Spans,
    char_before,
    per_text,
    texts,
    unexpected,
)

CHECKS = {
    "english-term": "a concept's English term kept where the glossary has a translation",
    "name-translated": "a name the glossary keeps in English, translated",
    "term-variant": "a term other than the glossary's preferred one",
    "term-synonym": "a synonym or forbidden term instead of the glossary's term",
    "wrong-term": "another concept's term where the source or the others have this concept",
}
_NAME_RUN = re.compile(r"(?<![\w-])[A-ZÀ-ÞА-ЯЁ][\w’'-]+(?:(?:\s+(?:of|the|de|du|des|der|del))?"
                       r"\s+[A-ZÀ-ÞА-ЯЁ][\w’'-]+)*")
_CAPITAL_WORDS = re.compile(r"(?<![\w-])[A-ZÀ-ÞА-ЯЁ][\w’'-]{3,}")
#: Words shared with a term that say nothing about it (a synonym must share a content word).
_MIN_SHARED = 4
#: How alike a word group must be to the glossary's term to be taken as a misspelling of it.
_NEAR = 0.8


def check(corpus: Corpus):
    if corpus.glossary is None:
        return
    usage = corpus.total("term-usage", lambda: term_usage(corpus, corpus.members))
    yield from per_text(corpus, lambda group, member: _member(corpus, group, member, usage))


def _member(corpus: Corpus, group, member: Member, usage: Counter):
    yield from forbidden(corpus, member)
    yield from misspelt(corpus, member)
    for match in corpus.matches(member):
        concept = corpus.concept(match.concept)
        finding = (_english(corpus, group.others(member), member, match, concept)
                   or _variant(member, match, concept, usage))
        if finding is not None:
            yield finding


def _english(corpus, others, member: Member, match, concept):
    if member.lang == "en" or match.lang != "en" or concept.keep_english:
        return None
    local = concept.term(member.lang)
    if _is_term(match.surface, local) or _own_match(corpus, member, match):
        return None
    translated = sorted(o.lang for o in others if any(
        m.concept == concept.id and m.lang == o.lang for m in corpus.matches(o)))
    also = f"; translated in {', '.join(translated)}" if translated else ""
    return member.finding(
        "english-term", "warning",
        f"English term “{match.surface}” where the glossary has “{local}”{also}",
        match.start, match.end)


def _variant(member: Member, match, concept, usage: Counter):
    terms = concept.terms.get(member.lang) or []
    index = _term_index(match.surface, terms)
    if index is None or index == 0 or match.lang not in ("", member.lang):
        return None
    preferred = terms[0]
    if concept.keep_english:
        return member.finding(
            "name-translated", "warning",
            f"“{match.surface}” is a name the glossary keeps in English: “{preferred}”",
            match.start, match.end)
    counts = ", ".join(f"“{terms[i]}” {n}×" for i, n in sorted(
        (i, n) for (lang, cid, i), n in usage.items() if lang == member.lang and cid == concept.id))
    return member.finding(
        "term-variant", "info",
        f"“{match.surface}” is an alternative term; the glossary prefers “{preferred}” "
        f"(in this language: {counts})", match.start, match.end)


def term_usage(corpus: Corpus, members) -> Counter:
    """How often each language renders each concept with each of its glossary terms:
    {(lang, concept, index of the term): count}."""
    usage: Counter = Counter()
    for (lang, text), copies in texts(members).items():  # a shared ruling is matched once
        for match in corpus.text_matches(lang, text):
            terms = corpus.concept(match.concept).terms.get(lang) or []
            index = _term_index(match.surface, terms)
            if index is not None and match.lang in ("", lang):
                usage[(lang, match.concept, index)] += copies
    return usage


def _own_match(corpus: Corpus, member: Member, match) -> bool:
    """The English surface is also the language's own term here (Italian "dungeon")."""
    return any(m.concept == match.concept and m.lang == member.lang and
               m.start <= match.start and match.end <= m.end for m in corpus.matches(member))


def _term_index(surface: str, terms: list[str]) -> int | None:
    for index, term in enumerate(terms):
        if _is_term(surface, term):
            return index
    return None


def _is_term(surface: str, term: str) -> bool:
    return bool(_term_regex(term).fullmatch(surface))


@lru_cache(maxsize=4096)
def _term_regex(term: str) -> re.Pattern:
    from kb.reference.glossary import compile_pattern

    return re.compile(compile_pattern(term), re.IGNORECASE)


def forbidden(corpus: Corpus, member: Member, start: int = 0, end: int | None = None):
    """``term-synonym`` findings for the glossary's forbidden terms in ``member``'s text (in
    ``start:end``)."""
    end = len(member.text) if end is None else end
    for concept, regex in _forbidden_terms(corpus, member.lang):
        for m in regex.finditer(member.text, start, end):
            yield _synonym(member, concept, m.start(), m.end(), "a term the glossary "
                           "forbids for this concept")


def _forbidden_terms(corpus: Corpus, lang: str) -> list[tuple]:
    """(concept, regex) of each term the glossary forbids in ``lang``, in glossary order:
    gathered once per language, not once per text from every concept."""
    key = ("forbidden-terms", lang)
    found = corpus.cache.get(key)
    if found is None:
        concepts = corpus.glossary.concepts if corpus.glossary is not None else []
        found = corpus.cache[key] = [(concept, _term_regex(pattern)) for concept in concepts
                                     for pattern in concept.forbidden.get(lang, ())]
    return found


def _synonym(member: Member, concept, start: int, end: int, why: str):
    return member.finding(
        "term-synonym", "warning",
        f"“{member.text[start:end]}” where the glossary has “{concept.term(member.lang)}” "
        f"({concept.id}): {why}", start, end)


def replacement(corpus: Corpus, member: Member, witness: Member, others: list[Member],
                concept_id: str, start: int, end: int):
    """What stands in ``member``'s sentence ``start:end`` for the concept ``concept_id`` that
    ``witness`` (the source, or one of the translations ``others``) names and the sentence
    lacks: another concept's term that neither the source nor the other translations name
    (``wrong-term``), a forbidden term or a word resembling the glossary's term
    (``term-synonym``); or None."""
    concept = corpus.concept(concept_id)
    source = witness if witness.is_source else None
    for match in corpus.matches(member):
        if start <= match.start < end and unexpected(
                _names(corpus, source, match.concept) if source else None,
                sum(_names(corpus, o, match.concept) for o in others), len(others)):
            said = next(m.surface for m in corpus.matches(witness) if m.concept == concept_id)
            other = corpus.concept(match.concept)
            return member.finding(
                "wrong-term", "error",
                f"“{match.surface}” ({other.id}) where the {_who(witness)} has “{said}” "
                f"({concept_id}): expected “{concept.term(member.lang)}”",
                match.start, match.end)
    found = next(iter(forbidden(corpus, member, start, end)), None)
    if found is not None:
        return found
    if concept.keep_english:
        found = _other_name(corpus, member, witness, concept, start, end)
        if found is not None:
            return found
    near = _near(member, corpus, concept, start, end)
    if near is not None:
        return _synonym(member, concept, *near, f"as the {_who(witness)} has it")
    return None


def name_runs(member: Member, start: int = 0, end: int | None = None):
    """Capitalised word groups ("Lost Mine of Phandelver") in ``start:end``, not at a
    sentence start: names."""
    for m in _NAME_RUN.finditer(member.text, start, len(member.text) if end is None else end):
        before = char_before(member.text, m.start(), " «„“\"(")
        if before and before not in ".!?:…—":
            yield m


def _other_name(corpus: Corpus, member: Member, witness: Member, concept, start: int,
                end: int):
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
        if SequenceMatcher(None, m.group(0).lower(), name.lower()).ratio() >= _NEAR:
            return _synonym(member, concept, m.start(), m.end(), "the name misspelt")
        words = m.group(0).split()
        english = sum(fragments.classify(w, member.lang) == fragments.ENGLISH for w in words)
        if 2 * english > len(words):
            return member.finding(
                "wrong-term", "error",
                f"“{m.group(0)}”, another name, where the {_who(witness)} has “{name}”",
                m.start(), m.end())
        return member.finding(
            "name-translated", "warning",
            f"“{m.group(0)}” where the {_who(witness)} keeps the name “{name}”: the glossary "
            f"keeps it in English", m.start(), m.end())
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
        following = member.text[m.start():].split(None, most)[:most]
        candidates: dict[int, str] = {}
        for concept, name, size in names:
            candidate = candidates.get(size)
            if candidate is None:
                candidate = candidates[size] = " ".join(following[:size]).rstrip(".,;:!?)»”")
            if candidate == name or len(candidate) < 5 or abs(len(candidate) - len(name)) > 3:
                continue
            if _misspelling(candidate, name):
                yield _synonym(member, concept, m.start(), m.start() + len(candidate),
                               "the name misspelt")


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
            (c, c.terms["en"][0], len(c.terms["en"][0].split())) for c in concepts
            if c.keep_english]
    return found


def _names(corpus: Corpus, member: Member, concept_id: str) -> bool:
    return any(m.concept == concept_id for m in corpus.matches(member))


def _who(witness: Member) -> str:
    return f"{witness.lang} {'source' if witness.is_source else 'translation'}"


def _near(member: Member, corpus: Corpus, concept, start: int,
          end: int) -> tuple[int, int] | None:
    """The word group of ``start:end`` most like one of the concept's terms in the member's
    language (a shared long word or compound part, or a near spelling), outside other
    glossary matches; (start, end) or None."""
    taken = [(m.start, m.end) for m in corpus.matches(member)]
    words = [w for w in member.words if start <= w.start() and w.end() <= end
             and not any(a <= w.start() < b for a, b in taken)]
    best: tuple[int, int] | None = None
    best_score = 0.0
    for term in concept.terms.get(member.lang) or concept.terms["en"]:
        size = len(term.split())
        for i in range(len(words)):
            for j in range(i, min(len(words), i + size + 1)):
                a, b = words[i].start(), words[j].end()
                if any(ch in ".,;:!?()«»“”„\"" for ch in member.text[a:b]):
                    break
                candidate = member.text[a:b]
                # A word more than the term has (an article) must earn its place.
                penalty = 0.1 * max(0, j - i + 1 - size)
                # The ratio's upper bounds (from the lengths, then from the letters) first:
                # a group that cannot beat the best so far is not matched letter by letter.
                mine, theirs = candidate.lower(), term.lower()
                if 2.0 * min(len(mine), len(theirs)) / (len(mine) + len(theirs)) - penalty \
                        <= best_score:
                    continue
                ratio = _ratio(mine, theirs)
                score = ratio - penalty
                if (ratio >= _NEAR or _shares_part(candidate, term)) and score > best_score:
                    best, best_score = (a, b), score
    return best


@lru_cache(maxsize=100_000)
def _ratio(a: str, b: str) -> float:
    """difflib's similarity of two word groups, once per pair (sentences recur in groups)."""
    from difflib import SequenceMatcher

    return SequenceMatcher(None, a, b).ratio()


def _shares_part(candidate: str, term: str) -> bool:
    """A long word, or the head of a compound (its last letters), in both."""
    a, b = candidate.lower(), term.lower()
    if {w for w in a.split() if len(w) >= _MIN_SHARED} & {w for w in b.split()
                                                          if len(w) >= _MIN_SHARED}:
        return True
    head = next((b[-k:] for k in range(min(len(a), len(b)), _MIN_SHARED - 1, -1)
                 if a.endswith(b[-k:])), None)
    return head is not None and " " not in head
