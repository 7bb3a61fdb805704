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
card whose name is a dungeon's (Undercity, Tomb of Annihilation) is that dungeon, and one
named as a designation (the helper cards "The Initiative", "The Monarch") is that
designation: its name stays what the ruling is about.

A ruling that *leads* with its card (:func:`leads`: the name among the first words of its first
sentence, which opens with no "if", "when" or "as") is about that card: "Throne Warden's
ability checks whether you're the monarch", "Ossuary Cartographer affects the room abilities
of any dungeon you own". Official rulings put a card first when its own effect is their point
and open with the situation ("If Vanguard's Descent moves your marker ...") when a rule of the
game is. :func:`ruling_matches` adds the name as a match of :data:`LEAD` to such a ruling's,
and the linker links a group whose languages mostly lead with their card to no rule.

>>> [(a, b) for a, b in spans("If Dungeon Map's abilities", "Dungeon Map")]
[(3, 14)]
>>> spans("Tomb of Annihilation's last room", "Tomb of Annihilation")
[]
>>> leads("Die letzte Fähigkeit der Wache des Galgentors prüft, ob du die Initiative hast.",
...       "Wache des Galgentors", "de")
(25, 45)
>>> leads("Falls die Wache des Galgentors das Spielfeld verlässt, ...", "Wache des Galgentors", "de")
"""

from __future__ import annotations

import re
from functools import lru_cache

from kb.reference import patterns
from kb.reference.glossary import Glossary, Match, load

#: Words this long may change their ending (cases, the German genitive's -s adds one letter).
STEM = 5
_WORD = re.compile(r"\w+", re.UNICODE)

#: The concept a ruling's own card name is stored as when the ruling leads with it.
LEAD = "own_card"
#: A ruling leads with its card when the name starts within this many words of its start.
LEAD_WORDS = 5
#: Words that open a subordinate clause ("If Dungeon Map leaves ..."), and phrases that say
#: "if" in several words ("In the case where ..."), comma-separated: a ruling opening with one
#: sets a situation, whatever card it names. A language without a list never leads.
OPENINGS = {
    "en": "if, when, whenever, as, after, while, because, since, once, although, though, even, "
    "unless, until, before, whether, in case, in the case, in the event",
    "ru": "если, когда, пока, поскольку, после, хотя, даже, так, раз, прежде, ли, в случае, "
    "в том случае",
    "it": "se, quando, mentre, dopo, poiché, anche, sebbene, finché, prima, perché, ogniqualvolta, "
    "nel caso, in caso",
    "fr": "si, lorsque, lorsqu, quand, tant, après, comme, puisque, même, bien, dès, avant, "
    "chaque, dans le cas, au cas, en cas",
    "de": "falls, wenn, während, nachdem, sobald, da, weil, solange, obwohl, auch, bevor, ob, "
    "immer, im fall, für den fall",
    "es": "si, cuando, mientras, después, como, ya, aunque, incluso, antes, siempre, en caso, "
    "en el caso",
}
_OPENINGS = {
    lang: tuple(tuple(phrase.split()) for phrase in words.split(","))
    for lang, words in OPENINGS.items()
}
_SENTENCE_END = re.compile(r"[.!?;:](\s|$)")


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


def leads(text: str, card: str, lang: str) -> tuple[int, int] | None:
    """Where ``text`` names its card ``card`` if it leads with it (the module's doc): the name
    starts within :data:`LEAD_WORDS` words of a first sentence that opens with none of the
    language's :data:`OPENINGS`; else None."""
    openings = _OPENINGS.get(lang)
    named = spans(text, card) if openings else []
    if not openings or not named:
        return None
    start, end = named[0]
    head = [word.casefold() for word in _WORD.findall(text, 0, start)]
    ends = _SENTENCE_END.search(text)
    if (
        any(tuple(head[: len(phrase)]) == phrase for phrase in openings)
        or (ends is not None and ends.start() < start)
        or len(head) >= LEAD_WORDS
    ):
        return None
    return start, end


def ruling_matches(glossary: Glossary, ruling: dict) -> list:
    """What the align stage stores in ``ruling_concepts`` for a ``rulings`` row: the glossary's
    matches in its text (its language's terms and English ones) outside its card's name, and
    the name as :data:`LEAD` if the ruling leads with it."""
    text, card = ruling["text"], _card_of(ruling)
    found = list(outside(glossary.find(text, ruling["lang"], also=("en",)), text, card))
    lead = leads(text, card, ruling["lang"])
    if lead:
        found.append(Match(LEAD, *lead, text[lead[0] : lead[1]], ruling["lang"]))
    return found


def _card_of(ruling: dict) -> str:
    # Its ``card`` (kb.store.rulings gives it), or the name in its ``card_id`` (``lang:name``).
    return ruling.get("card") or ruling["card_id"].split(":", 1)[1]


@lru_cache(maxsize=65536)
def _forms(card: str) -> tuple[tuple[str, ...], ...]:
    """The words of each form the card's name takes in its rulings (none for a dungeon's)."""
    dungeons = {name.casefold() for name in patterns.names("<dungeon>")}
    halves = [half.strip() for half in card.split("//") if half.strip()]
    if any(half.casefold() in dungeons or _is_a_term(half) for half in halves):
        return ()
    forms: set[str] = set()
    for half in halves:
        forms.add(half)
        short = half.split(",")[0].strip()
        if short != half:
            forms.add(short)
    words = (tuple(_WORD.findall(form)) for form in sorted(forms, key=len, reverse=True))
    return tuple(w for w in words if w)


def _is_a_term(name: str) -> bool:
    """Whether the name is a designation's glossary term, with or without an article before
    it: the helper cards "The Initiative" and "The Monarch" (German "Die Initiative") are the
    designation, as a card named as a dungeon is that dungeon. ("Prendre l'initiative", Seize
    the Initiative, is a card that makes a player take it.)"""
    words = _WORD.findall(name.casefold())
    terms = _terms()
    return " ".join(words) in terms or (len(words) > 1 and " ".join(words[1:]) in terms)


@lru_cache(maxsize=1)
def _terms() -> frozenset[str]:
    return frozenset(
        " ".join(_WORD.findall(term.casefold()))
        for concept in load().concepts
        if concept.contrast or concept.designation
        for terms in concept.terms.values()
        for term in terms
    )


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
