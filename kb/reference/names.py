"""A card's own name inside its rulings: what the name says is not what the ruling says.

Rulings name the card they are printed under, and a card's name may hold the game's words:
"Dungeon Map's abilities require you to tap it" names a card, not a dungeon, and the French
"Prendre l'initiative" (Seize the Initiative) is no one taking the initiative. A glossary
match within the ruling's own card name (:func:`outside`) is not one of the ruling's
concepts: the align stage stores the others in ``ruling_concepts`` (which the linker votes
with), and the content checks compare the others across languages.

The name is found as rulings write it: whole, or by the short name official rulings give a
legendary card (before the comma: "Nadaar" for "Nadaar, Selfless Paladin"), each half of a
split card, capitalized as the name is (French "prendre l'initiative" in a sentence is the
designation, "Prendre l'initiative" the card), and inflected as Russian or German inflect it
("Карты подземелья" for "Карта подземелья", "Призраками" for "Призраки", "Verliesgeists"):
each word of five letters or more may end in up to four other letters than its last two. A
card whose name is a dungeon's (Undercity, Tomb of Annihilation) is that dungeon, and its
name stays what the ruling is about.

>>> [(a, b) for a, b in spans("If Dungeon Map's abilities", "Dungeon Map")]
[(3, 14)]
>>> spans("Tomb of Annihilation's last room", "Tomb of Annihilation")
[]
"""

from __future__ import annotations

import re
from functools import lru_cache

from kb.reference import patterns
from kb.reference.glossary import Glossary

#: Words this long may change their ending (cases, the German genitive's -s adds one letter).
STEM = 5
_WORD = re.compile(r"\w+", re.UNICODE)


def spans(text: str, card: str) -> list[tuple[int, int]]:
    """Where ``text`` names the card ``card`` (the name as its file prints it), in order."""
    # Most rulings never name their card: a plain search for the first word's stem of each
    # form of the name rules them out before any pattern is built.
    if not any(stem in text for stem in _stems(card)):
        return []
    found = _pattern(card)
    return [m.span() for m in found.finditer(text)] if found else []


def outside(matches: list, text: str, card: str | None) -> list:
    """``matches`` (glossary matches in ``text``) less those within an occurrence of the
    card's own name. One that goes beyond it stays: under a card named "Karte", "ziehst du
    eine Karte" still draws a card."""
    if not matches or not card:
        return matches
    named = spans(text, card)
    if not named:
        return matches
    return [
        m for m in matches if not any(start <= m.start and m.end <= end for start, end in named)
    ]


def ruling_matches(glossary: Glossary, ruling: dict) -> list:
    """What the align stage stores in ``ruling_concepts`` for a ``rulings`` row: the glossary's
    matches in its text (its language's terms and English ones) outside its card's name."""
    text = ruling["text"]
    return outside(glossary.find(text, ruling["lang"], also=("en",)), text, _card_of(ruling))


def _card_of(ruling: dict) -> str:
    # Its ``card`` (kb.store.rulings gives it), or the name in its ``card_id`` (``lang:name``).
    return ruling.get("card") or ruling["card_id"].split(":", 1)[1]


@lru_cache(maxsize=65536)
def _forms(card: str) -> tuple[tuple[str, ...], ...]:
    """The words of each form the card's name takes in its rulings (none for a dungeon's)."""
    dungeons = {name.casefold() for name in patterns.names("<dungeon>")}
    halves = [half.strip() for half in card.split("//") if half.strip()]
    if any(half.casefold() in dungeons for half in halves):
        return ()
    forms: set[str] = set()
    for half in halves:
        forms.add(half)
        short = half.split(",")[0].strip()
        if short != half:
            forms.add(short)
    words = (tuple(_WORD.findall(form)) for form in sorted(forms, key=len, reverse=True))
    return tuple(w for w in words if w)


@lru_cache(maxsize=65536)
def _stems(card: str) -> tuple[str, ...]:
    return tuple(_stem(words[0]) for words in _forms(card))


@lru_cache(maxsize=4096)
def _pattern(card: str) -> re.Pattern[str] | None:
    alternatives = [
        r"\W{1,3}".join(
            re.escape(_stem(w)) + r"\w{0,4}" if len(w) >= STEM else re.escape(w) for w in words
        )
        for words in _forms(card)
    ]
    if not alternatives:
        return None
    return re.compile(rf"(?<!\w)(?:{'|'.join(alternatives)})(?!\w)")


def _stem(word: str) -> str:
    return word[:-2] if len(word) >= STEM else word
