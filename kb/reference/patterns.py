"""The glossary's pattern syntax (see kb/reference/glossary.yaml's header): a pattern becomes a
regular expression, and its literal parts let the matcher skip texts that cannot hold it.

>>> import re
>>> drawn = re.compile(compile_pattern("zieh* ~ karte*"), re.IGNORECASE)
>>> bool(drawn.search("ziehst du zu Beginn deines nächsten Zuges nur eine Karte"))
True
>>> bool(drawn.search("ziehst du den Marker, legst du eine Karte"))
False
>>> bool(drawn.search("ziehst du den Marker und legst eine Karte ab"))
False
>>> bare = re.compile(compile_pattern("avventur* ~ !in"), re.IGNORECASE)
>>> bool(bare.search("ti avventuri di nuovo in X")), bool(bare.search("ti avventuri ancora"))
(False, True)
"""

from __future__ import annotations

import re
from functools import lru_cache

from kb.core import dungeons

#: "~N" (up to N words) or "~" (any words of the clause) between two words of a pattern.
GAP = re.compile(r"~(\d*)")
#: The coordinating conjunctions ("and", "or", "but") of each language: after one a new clause
#: begins. The glossary's "~" stops at them; the checks' negative concord starts a clause after
#: them ("no elige a nadie y nadie gana" negates twice).
COORDINATORS = {
    "en": ("and", "or", "but"),
    "ru": ("и", "или", "но", "а"),
    "it": ("e", "ed", "o", "od", "ma"),
    "fr": ("et", "ou", "mais"),
    "de": ("und", "oder", "aber", "sondern"),
    "es": ("y", "e", "o", "u", "pero"),
}
#: "~": any words up to the end of the clause, which punctuation or a coordinating conjunction
#: of any language ends ("verliert er Lebenspunkte und das Spiel geht weiter" is two clauses),
#: and at most CLAUSE_WORDS of them: a clause is rarely longer, and an unbounded gap would make
#: a text without punctuation cost the square of its length.
CLAUSE_WORDS = 20
_ANY_COORDINATOR = "|".join(sorted({w for words in COORDINATORS.values() for w in words}))
_CLAUSE_GAP = rf"(?:\s+(?!(?:{_ANY_COORDINATOR})(?!\w))[\w'’-]+){{0,{CLAUSE_WORDS}}}?\s+"
#: "<name>": a word of a pattern that is any of the names the core's dungeons print, in English
#: in every language (kb/core/dungeons.py): "<dungeon>" each dungeon's, "<room>" each room's,
#: "<later_room>" each room an arrow leads to (all but the topmost: a marker put on a dungeon's
#: first room enters that dungeon, it does not move on), "<last_room>" each bottommost room
#: (the room no arrow leads out of).
PLACEHOLDER = re.compile(r"<(\w+)>")
_NAMES = {
    "dungeon": lambda: list(dungeons.DUNGEONS),
    "room": lambda: [room.name for d in dungeons.DUNGEONS.values() for room in d.rooms],
    "later_room": lambda: list(
        dict.fromkeys(n for d in dungeons.DUNGEONS.values() for r in d.rooms for n in r.leads_to)
    ),
    "last_room": lambda: [d.bottommost for d in dungeons.DUNGEONS.values()],
}


def names(placeholder: str) -> list[str]:
    """The names a placeholder token ("<room>") stands for; ValueError if it is none of ours.

    >>> names("<dungeon>")[:2], len(names("<room>"))
    (['Undercity', 'Lost Mine of Phandelver'], 30)
    >>> names("<last_room>")[:2]
    ['Throne of the Dead Three', 'Temple of Dumathoin']
    """
    m = PLACEHOLDER.fullmatch(placeholder)
    if not m or m.group(1) not in _NAMES:
        known = ", ".join(f"<{n}>" for n in _NAMES)
        raise ValueError(f"{placeholder!r} is no placeholder (known: {known})")
    return _NAMES[m.group(1)]()


def compile_pattern(pattern: str, capture: bool = False) -> str:
    """Turn one glossary pattern into a regular expression (see glossary.yaml's header);
    ``capture``: each of its words in a group of its own, in order (for :func:`shown`).

    >>> bool(re.fullmatch(compile_pattern("prend* l'initiative"), "prendre l’initiative"))
    True
    >>> bool(re.fullmatch(compile_pattern("in undercity vor*"), "in Undercity vorzuwagen", re.I))
    True
    >>> text = "ti avventuri di nuovo in X, ti avventuri"
    >>> [m.group(0) for m in re.finditer(compile_pattern("avventur* ~2 !in"), text)]
    ['avventuri']
    """
    parts: list[str] = []
    unless: list[str] = []
    between = r"\s+"  # before the next word: whitespace, or the gap a "~" token gave
    misplaced = f"{pattern!r}: '!word' comes after the words it follows"
    tokens = pattern.split()
    if tokens and (GAP.fullmatch(tokens[0]) or GAP.fullmatch(tokens[-1])):  # "[auf, ~3 zu]"
        raise ValueError(f"{pattern!r}: '~N' comes between two words")
    for token in tokens:
        if m := GAP.fullmatch(token):
            # "~N" reaches up to N words, greedily; "~" alone the nearest end word within its
            # clause (German's sentence bracket holds a whole middle field between a verb and
            # its particle or participle).
            between = rf"(?:\s+[\w'’-]+){{0,{m.group(1)}}}\s+" if m.group(1) else _CLAUSE_GAP
            continue
        if token.startswith("!"):
            # Not where that word follows ("avventur* ~2 !in": not "si avventuri di nuovo
            # in Sottocittà", a venture into a name mistranslated).
            unless.append(rf"(?!{between}{_word(token[1:])}(?!\w))")
        elif unless:  # a word after a "!word"
            raise ValueError(misplaced)
        else:
            if parts:
                parts.append(between)
            try:
                word = _word(token)
            except ValueError as exc:  # a placeholder of no names
                raise ValueError(f"{pattern!r}: {exc}") from None
            parts.append(f"({word})" if capture else word)
        between = r"\s+"
    if not parts:
        raise ValueError(misplaced)
    regex = r"(?<!\w)" + "".join(parts)
    if unless or not parts[-1].endswith(r"\w*"):  # a stem before "!" ends with its word
        regex += r"(?!\w)"
    return regex + "".join(unless)


#: A gap of this many words or more is shown as " … " (:func:`shown`); a shorter one is part
#: of the phrase ("ziehst du eine Karte").
ELIDED = 4


def shown(pattern: str, surface: str) -> str | None:
    """``surface`` as the words of ``pattern`` it holds, " … " where a gap skipped
    :data:`ELIDED` words or more, or None if the pattern does not match it whole: a match
    through "~" holds a whole middle field, and a reader shown why a rule applies wants the
    words that say it.

    >>> shown("zieh* ~ karte*", "ziehst du zu Beginn deines Zuges nur eine Karte")
    'ziehst … Karte'
    >>> shown("zieh* ~ karte*", "ziehst du eine Karte"), shown("zieh* ~ karte*", "nimm Karten")
    ('ziehst du eine Karte', None)
    """
    found = _captured(pattern).fullmatch(surface)
    if found is None:
        return None
    pieces, end = [], 0
    for index in range(1, found.re.groups + 1):  # one group per word, none optional
        between = surface[end : found.start(index)]
        pieces.append(" … " if len(between.split()) >= ELIDED else between)
        pieces.append(found.group(index))
        end = found.end(index)
    return "".join(pieces)


@lru_cache(maxsize=1024)
def _captured(pattern: str) -> re.Pattern[str]:
    return re.compile(compile_pattern(pattern, capture=True), re.IGNORECASE)


def _word(token: str) -> str:
    body, mark = _split_mark(token)  # "verlies*," is the stem, then its comma
    if "<" in body and not PLACEHOLDER.fullmatch(body):
        raise ValueError(f"{token!r} holds a placeholder inside a word (it is a word of its own)")
    if body.startswith("<"):
        # One alternation, longest name first, not a pattern per name: a form holding
        # "<room>" stays one pattern to try, not thirty.
        found = sorted(names(body), key=len, reverse=True)
        return "(?:" + "|".join(_name(n) for n in found) + r")(?!\w)" + re.escape(mark)
    stem = body.endswith("*")
    body = body[:-1] if stem else body
    return _escaped(body) + (r"\w*" if stem else "") + re.escape(mark)


def _name(name: str) -> str:
    """A printed name as a regex: its words as a pattern's (any whitespace, either apostrophe)."""
    return r"\s+".join(_escaped(word) for word in name.split())


def _escaped(literal: str) -> str:
    """``literal`` as a regex matching it, ' and ’ alike."""
    return "".join("['’]" if ch in "'’" else re.escape(ch) for ch in literal)


def _split_mark(token: str) -> tuple[str, str]:
    """(the word, the clause mark after it): ("verlies*", ",") for "verlies*,"."""
    return (token[:-1], token[-1]) if len(token) > 1 and token[-1] in ",;:" else (token, "")


def needle(pattern: str) -> str:
    """The literal start of a pattern's first word, lowercased ('' if it has none).

    Letters match case-insensitively and ' matches ’ too, so only the part before any
    apostrophe is literal; re's IGNORECASE and str.lower agree on the letters of our patterns.
    """
    return next(iter(_literals(pattern)), "")


def longest(pattern: str, first: str) -> str:
    """The longest literal run of ``pattern`` (words in a row, no gap between them, up to a
    stem's * or an apostrophe), lowercased, one space between its words, if it has three
    letters or more and is not ``first`` alone, else '': every match holds it, as a text whose
    whitespace is made single spaces (:func:`spaced`) shows it. A first word common in running
    text ("in" in "in das verlies vor*", "la" in "la complet*") then finds the concept only in
    the texts that hold the rarer words too.

    >>> longest("in das verlies vor*", "in"), longest("sich ~ vorwag*", "sich")
    ('in das verlies vor', 'vorwag')
    """
    runs: list[list[str]] = []
    run: list[str] = []
    for token in pattern.split():
        if GAP.fullmatch(token) or token.startswith(("!", "<")):
            runs, run = runs + [run], []
            continue
        body, mark = _split_mark(token)
        literal = _literal(body)
        run.append(literal)
        if literal != body.lower() or mark:  # a stem, an apostrophe or a mark ends the run
            runs, run = runs + [run], []
    found = max((" ".join(r) for r in runs + [run] if r), key=len, default="")
    return found if len(found) >= 3 and found != first else ""


def spaced(lowered: str) -> str:
    """``lowered`` with each run of whitespace one space (a pattern's space matches any run):
    where :func:`longest`'s runs are looked for."""
    return " ".join(lowered.split())


def _literals(pattern: str) -> list[str]:
    """Each word's literal part, lowercased: before a stem's * and before any apostrophe."""
    words = [w for w in pattern.split() if not GAP.fullmatch(w) and not w.startswith("!")]
    return [_literal(_split_mark(w)[0]) for w in words]


def _literal(word: str) -> str:
    """A word's literal part, lowercased: before a stem's * and before any apostrophe; none
    for a placeholder (its names have no part in common)."""
    if word.startswith("<"):
        return ""
    return re.split("['’]", word.rstrip("*"))[0].lower()
