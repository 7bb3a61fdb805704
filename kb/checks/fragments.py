"""Untranslated fragments: English words or phrases left in a translation.

Each word is weighed with wordfreq: a word is *English* when it is common in English
(Zipf >= 3) and clearly more common there than in the text's language (by >= 1 Zipf, i.e. ten
times); it *bridges* a run when it is about as common in both ("in", "a", "no"); else it is
*local*. A run of words separated only by spaces, holding two English words or more, is a
fragment. Spans a translation is meant to keep in English are not fragments: glossary names
marked ``keep_english`` (Undercity, Secret Entrance), any term of the text's own language, and a
span that most other translations of the same ruling also contain verbatim (a name kept
everywhere, glossary or not). Latin-script words in a Cyrillic text are foreign by script.

Severity: a phrase is an error (it is not in the reader's language); a run of capitalised words
only is a warning ``untranslated-name`` (a name: the glossary should say whether it stays
English); a single very common English word is a warning.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from kb.checks.findings import WORD, Corpus, Finding, Member, per_text
from kb.checks.frequencies import Lookup

CHECKS = {
    "untranslated-fragment": "English words or phrases left in a translation",
    "untranslated-name": "an English name (capitalised words) that the glossary does not list",
}

ENGLISH, BRIDGE, LOCAL = "english", "bridge", "local"
_GAP = re.compile(r"[ \u00a0]+")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_LANGUAGE = {"ru": "Russian", "it": "Italian", "fr": "French", "de": "German", "es": "Spanish"}


#: Word frequencies looked up so far, {(word, lang): zipf}. An incremental build starts from
#: the previous build's (:mod:`kb.checks.update`): loading wordfreq's lists for a few changed
#: texts would take longer than checking them.
FREQUENCIES: dict[tuple[str, str], float] = {}
#: Where the rest come from: :func:`check` names a corpus's words to it first.
LOOKUP = Lookup()


def zipf(word: str, lang: str) -> float:
    value = FREQUENCIES.get((word, lang))
    if value is None:
        value = FREQUENCIES[(word, lang)] = LOOKUP.zipf(word, lang)
    return value


@lru_cache(maxsize=200_000)
def classify(word: str, lang: str) -> str:
    """English, bridge or local, for a word in a text of ``lang``.

    >>> classify("room", "it"), classify("in", "it"), classify("stanza", "it")
    ('english', 'bridge', 'local')
    """
    lower = word.lower()
    if lang == "ru" and not _CYRILLIC.search(word):
        return ENGLISH
    english = zipf(lower, "en")
    if english < 3.0 or len(lower) < 2:
        return LOCAL
    local = zipf(lower, lang)
    if english - local >= 1.0:
        return ENGLISH
    return BRIDGE if english - local > -1.0 else LOCAL


def check(corpus: Corpus):
    want_words(corpus)
    return per_text(
        corpus,
        lambda group, member: (
            () if member.lang == "en" else text_findings(corpus, group.others(member), member)
        ),
    )


def want_words(corpus: Corpus) -> None:
    """Name the words of the corpus's translations to :data:`LOOKUP`, in their language and
    in English: what :func:`classify` asks about (found in each distinct text once)."""
    by_lang: dict[str, set[str]] = {}
    for m in corpus.members:
        if m.lang != "en":
            by_lang.setdefault(m.lang, set()).add(m.text)
    for lang, texts in by_lang.items():
        words = {w.lower() for w in set(WORD.findall("\n".join(texts)))}
        LOOKUP.want(words, lang)
        LOOKUP.want(words, "en")


def text_findings(corpus: Corpus, others: list[Member], member: Member):
    """The findings of ``member``'s text: English fragments and names, but for a span most of
    its translations ``others`` hold too (a name kept on purpose everywhere)."""
    key = ("fragment-runs", member.lang, member.text)
    if key not in corpus.cache:  # a ruling shared by many cards is analysed once
        corpus.cache[key] = list(_runs(member, _kept_spans(corpus, member)))
    for run in corpus.cache[key]:
        start, end = run[0].start(), run[-1].end()
        excerpt = member.text[start:end]
        english = [w for w in run if classify(w.group(0), member.lang) == ENGLISH]
        if _shared(excerpt, others):
            continue
        finding = _finding(member, run, english, start, end)
        if finding is not None:
            yield finding


def _finding(member: Member, run, english, start: int, end: int) -> Finding | None:
    language = _LANGUAGE.get(member.lang, member.lang)
    excerpt = member.text[start:end]
    if len(run) >= 2 and all(w.group(0)[0].isupper() for w in run):
        return member.finding(
            "untranslated-name",
            "warning",
            f"English name “{excerpt}” in the {language} text, not in the glossary: translate "
            f"it or list it as kept in English",
            start,
            end,
        )
    if len(english) >= 2:
        return member.finding(
            "untranslated-fragment",
            "error",
            f"English phrase “{excerpt}” left in the {language} text",
            start,
            end,
        )
    word = english[0].group(0).lower()
    if zipf(word, "en") >= 4.0 and zipf(word, "en") - zipf(word, member.lang) >= 2.0:
        return member.finding(
            "untranslated-fragment",
            "warning",
            f"English word “{excerpt}” in the {language} text",
            start,
            end,
        )
    return None


def _kept_spans(corpus: Corpus, member: Member) -> list[tuple[int, int]]:
    """Spans meant to be as they are: the language's own terms and names kept in English."""
    spans = []
    for match in corpus.matches(member):
        own = match.lang in ("", member.lang)
        if own or corpus.concept(match.concept).keep_english:
            spans.append((match.start, match.end))
    return spans


def _runs(member: Member, kept: list[tuple[int, int]]):
    """Maximal runs of English and bridging words (next to each other, spaces between them),
    trimmed of bridging words at both ends."""
    words, lang = member.words, member.lang
    inside = _inside(words, kept)
    # A word inside a kept span is local, and classify is not asked about it (nor wordfreq).
    candidates = [
        i for i, w in enumerate(words) if i not in inside and classify(w.group(0), lang) != LOCAL
    ]
    run: list[re.Match] = []
    for i in candidates:
        word = words[i]
        if run and (
            run[-1] is not words[i - 1]
            or not _GAP.fullmatch(member.text[run[-1].end() : word.start()])
        ):
            trimmed = _trim(run, lang)
            if trimmed:
                yield trimmed
            run = []
        run.append(word)
    trimmed = _trim(run, lang)
    if trimmed:
        yield trimmed


def _trim(run: list[re.Match], lang: str) -> list[re.Match]:
    english = [i for i, w in enumerate(run) if classify(w.group(0), lang) == ENGLISH]
    return run[english[0] : english[-1] + 1] if english else []


def _inside(words: list[re.Match], spans: list[tuple[int, int]]) -> set[int]:
    """The indexes of the ``words`` that lie whole inside one of the ``spans``: found from the
    spans (a text has a few), each looking at the words from its start on."""
    if not spans:
        return set()
    starts = [w.start() for w in words]
    found = set()
    for a, b in spans:
        i = bisect_left(starts, a)
        while i < len(words) and starts[i] < b:
            if words[i].end() <= b:
                found.add(i)
            i += 1
    return found


def _shared(excerpt: str, others: list[Member]) -> bool:
    """Most other translations hold the same span: a name kept on purpose everywhere."""
    if not others:
        return False
    holding = sum(excerpt in other.text for other in others)
    return holding * 2 >= len(others)
