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

This module registers the family and has the glossary-term checks; :mod:`kb.checks.synonyms`
finds synonyms and forbidden terms, :mod:`kb.checks.names` the names kept in English written
otherwise.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from kb.checks.findings import Corpus, Member, per_text, texts, unexpected
from kb.checks.names import misspelt, name_runs, other_name
from kb.checks.synonyms import forbidden, near, synonym, term_regex, who

# forbidden, misspelt and name_runs were defined here before the family was split in three.
__all__ = ["CHECKS", "check", "forbidden", "misspelt", "name_runs", "replacement", "term_usage"]

CHECKS = {
    "english-term": "a concept's English term kept where the glossary has a translation",
    "name-translated": "a name the glossary keeps in English, translated",
    "term-variant": "a term other than the glossary's preferred one",
    "term-synonym": "a synonym or forbidden term instead of the glossary's term",
    "wrong-term": "another concept's term where the source or the others have this concept",
}


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
        finding = _english(corpus, group, member, match, concept) or _variant(
            member, match, concept, usage
        )
        if finding is not None:
            yield finding


def _english(corpus, group, member: Member, match, concept):
    if member.lang == "en" or match.lang != "en" or concept.keep_english:
        return None
    local = concept.term(member.lang)
    if _is_term(match.surface, local) or _own_match(corpus, member, match):
        return None
    translated = sorted(
        o.lang
        for o in group.others(member)
        if any(m.concept == concept.id and m.lang == o.lang for m in corpus.matches(o))
    )
    also = f"; translated in {', '.join(translated)}" if translated else ""
    return member.finding(
        "english-term",
        "warning",
        f"English term “{match.surface}” where the glossary has “{local}”{also}",
        match.start,
        match.end,
    )


def _variant(member: Member, match, concept, usage: Counter):
    terms = concept.terms.get(member.lang) or []
    index = _term_index(match.surface, terms)
    if index is None or index == 0 or match.lang not in ("", member.lang):
        return None
    preferred = terms[0]
    if concept.keep_english:
        return member.finding(
            "name-translated",
            "warning",
            f"“{match.surface}” is a name the glossary keeps in English: “{preferred}”",
            match.start,
            match.end,
        )
    counts = ", ".join(
        f"“{terms[i]}” {n}×"
        for i, n in sorted(
            (i, n)
            for (lang, cid, i), n in usage.items()
            if lang == member.lang and cid == concept.id
        )
    )
    return member.finding(
        "term-variant",
        "info",
        f"“{match.surface}” is an alternative term; the glossary prefers “{preferred}” "
        f"(in this language: {counts})",
        match.start,
        match.end,
    )


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
    return any(
        m.concept == match.concept
        and m.lang == member.lang
        and m.start <= match.start
        and match.end <= m.end
        for m in corpus.matches(member)
    )


def _term_index(surface: str, terms: list[str]) -> int | None:
    return _index(surface, tuple(terms))


@lru_cache(maxsize=100_000)
def _index(surface: str, terms: tuple[str, ...]) -> int | None:
    """Which of ``terms`` ``surface`` is (once per surface: every text matches the same few)."""
    for index, term in enumerate(terms):
        if _is_term(surface, term):
            return index
    return None


def _is_term(surface: str, term: str) -> bool:
    return bool(term_regex(term).fullmatch(surface))


def replacement(
    corpus: Corpus,
    member: Member,
    witness: Member,
    others: list[Member],
    concept_id: str,
    start: int,
    end: int,
):
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
            sum(_names(corpus, o, match.concept) for o in others),
            len(others),
        ):
            said = next(m.surface for m in corpus.matches(witness) if m.concept == concept_id)
            other = corpus.concept(match.concept)
            return member.finding(
                "wrong-term",
                "error",
                f"“{match.surface}” ({other.id}) where the {who(witness)} has “{said}” "
                f"({concept_id}): expected “{concept.term(member.lang)}”",
                match.start,
                match.end,
            )
    found = next(iter(forbidden(corpus, member, start, end)), None)
    if found is not None:
        return found
    if concept.keep_english:
        found = other_name(corpus, member, witness, concept, start, end)
        if found is not None:
            return found
    resembling = near(member, corpus, concept, start, end)
    if resembling is not None:
        return synonym(member, concept, *resembling, f"as the {who(witness)} has it")
    return None


def _names(corpus: Corpus, member: Member, concept_id: str) -> bool:
    return any(m.concept == concept_id for m in corpus.matches(member))
