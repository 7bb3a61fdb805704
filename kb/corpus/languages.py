"""The supported ruling languages and how a file's language is decided.

The corpus holds translations in five languages (:data:`LANGUAGES`) and, optionally, the
English originals they were translated from (:data:`SOURCE_LANGUAGES`): a source is aligned
with its translations and checked against, never checked as a translation itself.

Detection uses lingua restricted to the corpus languages; a user may state the language
instead. Detection is deliberately strict: a text lingua cannot tell apart with a clear margin
is "undecidable" rather than guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

#: ISO 639-1 codes of the translation languages, in the order pages list them.
LANGUAGES: tuple[str, ...] = ("ru", "it", "fr", "de", "es")
#: Languages of the originals the translations are made from (the official rulings' English).
SOURCE_LANGUAGES: tuple[str, ...] = ("en",)
#: Every language a ruling file may be in: the sources first, then the translations.
CORPUS_LANGUAGES: tuple[str, ...] = SOURCE_LANGUAGES + LANGUAGES
#: Languages of the site's interface: the ruling languages plus English (the rules' pivot).
UI_LANGUAGES: tuple[str, ...] = ("en",) + LANGUAGES


def is_source(lang: str) -> bool:
    """Whether rulings in ``lang`` are originals (the source of the translations).

    >>> is_source("en"), is_source("fr")
    (True, False)
    """
    return lang in SOURCE_LANGUAGES


def lang_order(lang: str) -> int:
    """A language's place among a group's members: the source first, then the translation
    languages' order, others last.

    >>> sorted(["es", "xx", "ru", "en", "fr"], key=lang_order)
    ['en', 'ru', 'fr', 'es', 'xx']
    """
    return CORPUS_LANGUAGES.index(lang) if lang in CORPUS_LANGUAGES else len(CORPUS_LANGUAGES)


# Below these, a guess is not a decision: short or mixed texts get a clear error instead.
MIN_CONFIDENCE = 0.5
MIN_LETTERS = 12
# Rivals the detector also knows, so that Portuguese text (or Latin filler) is recognised as
# such instead of being forced into the nearest supported language.
RIVALS: tuple[str, ...] = ("pt", "la", "ca", "nl", "pl", "uk")


@dataclass(frozen=True)
class Detection:
    lang: str | None
    confidence: float
    candidates: tuple[tuple[str, float], ...]


@lru_cache(maxsize=1)
def _detector():
    from lingua import Language, LanguageDetectorBuilder

    languages = [Language.from_iso_code_639_1(_iso(code)) for code in CORPUS_LANGUAGES + RIVALS]
    return LanguageDetectorBuilder.from_languages(*languages).build()


def _iso(code: str):
    from lingua import IsoCode639_1

    return getattr(IsoCode639_1, code.upper())


def detect(text: str) -> Detection:
    """Decide the language of ``text`` among :data:`CORPUS_LANGUAGES`.

    >>> detect("Un joueur qui a actuellement l’initiative peut la prendre à nouveau.").lang
    'fr'
    >>> detect("A player who already has the initiative can take it again.").lang
    'en'
    >>> detect("10/06/2022").lang is None
    True
    """
    return detect_many([text])[0]


def detect_many(texts: list[str]) -> list[Detection]:
    """:func:`detect` for many texts at once, on every core (lingua's parallel batch call)."""
    enough = [i for i, text in enumerate(texts) if sum(ch.isalpha() for ch in text) >= MIN_LETTERS]
    out = [Detection(None, 0.0, ())] * len(texts)
    if not enough:
        return out
    detector = _detector()
    batch = [texts[i] for i in enough]
    if len(batch) == 1:  # no thread pool for one text
        results = [detector.compute_language_confidence_values(batch[0])]
    else:
        results = detector.compute_language_confidence_values_in_parallel(batch)
    for i, values in zip(enough, results):
        out[i] = _decision(values)
    return out


def _decision(values) -> Detection:
    ranked = tuple((v.language.iso_code_639_1.name.lower(), v.value) for v in values)
    lang, confidence = ranked[0]
    decided = lang in CORPUS_LANGUAGES and confidence >= MIN_CONFIDENCE
    return Detection(lang if decided else None, confidence, ranked[:3])


def check_stated(lang: str) -> str:
    """Normalise a language the user states, or raise ValueError naming the accepted ones."""
    code = lang.strip().lower()
    if code not in CORPUS_LANGUAGES:
        raise ValueError(
            f"unsupported language {lang!r} (use one of {', '.join(CORPUS_LANGUAGES)})"
        )
    return code
