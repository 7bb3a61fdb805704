"""Per-language text analysis: the one definition of "the same word" for every search.

The whoosh index (:mod:`kb.search.build`) and the site's browser index both call :func:`terms`, so
the command line and the static site agree on what matches. For one language it

1. splits text into words (``\\w+``: the apostrophes ’ and ' both end a word, so
   ``l’initiative`` and ``l'initiative`` give the same words);
2. folds case and accents (:func:`fold`): ``Dernière`` = ``derniere``, ``ё`` = ``е`` but ``й``
   stays (it is a letter of its own); German umlauts become their two-letter spelling
   (``ä`` -> ``ae``) because that is how German players type without an umlaut key;
3. drops the language's stop words (whoosh's lists plus the elided forms ``lorsqu``, ``dell``…);
4. reduces each word to a term with the language's Snowball stemmer (``method="snowball"``,
   the default) or with simplemma's lemma then Snowball (``method="lemma"``); the benchmark
   ``benchmarks/search_quality.py --compare`` measures both and the README says which won;
5. for German, also emits the parts of a compound at the same position (``Kampfschaden`` ->
   ``kampfschaden``, ``kampf``, ``schaden``), so either the compound or its parts find it.

Everything is pure and cached per word, so indexing 100k rulings stems each distinct word once.
Nothing heavy happens at import: stemmers, stop lists and dictionaries load on first use.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import cache, lru_cache
from typing import NamedTuple

from whoosh.analysis import Analyzer
from whoosh.analysis import Token as WhooshToken

METHODS = ("snowball", "lemma")
DEFAULT_METHOD = "snowball"

WORD = re.compile(r"\w+")
_BREVE = "\u0306"  # keeps й apart from и
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
# Elided forms that \w+ leaves behind (lorsqu’il, dell’iniziativa) and words whoosh's lists miss.
_EXTRA_STOPS = {
    "fr": {"lorsqu", "jusqu", "puisqu", "quoiqu", "presqu", "les", "cet", "cette"},
    "it": {"dall", "quell", "quest", "coll", "tutt"},
}
# German compounds: parts shorter than these are not split off (avoids "ab" + "schnitt").
_MIN_HEAD, _MIN_TAIL = 3, 4
_LINKS = ("", "s", "es", "n", "en", "e", "er")


class Token(NamedTuple):
    """One term with where it came from: word position and character span in the text."""

    pos: int
    term: str
    start: int
    end: int


def words(text: str) -> Iterator[re.Match]:
    """The words of ``text`` as regex matches (so callers keep character offsets)."""
    return WORD.finditer(text)


@lru_cache(maxsize=500_000)
def fold(word: str, lang: str | None = None) -> str:
    """Case- and accent-folded form of one word, as used for matching.

    >>> fold("Dernière", "fr"), fold("Ещё", "ru"), fold("Vorstoß", "de"), fold("Säuberung", "de")
    ('derniere', 'еще', 'vorstoss', 'saeuberung')
    >>> fold("Исследователь", "ru") == "исследователь" and fold("й") == "й"
    True
    """
    word = word.casefold()
    if lang == "de":
        word = word.translate(_UMLAUTS)
    decomposed = unicodedata.normalize("NFD", word)
    kept = [
        ch
        for i, ch in enumerate(decomposed)
        if not unicodedata.combining(ch) or (ch == _BREVE and decomposed[i - 1] in "иИ")
    ]
    return unicodedata.normalize("NFC", "".join(kept))


@cache
def stopwords(lang: str) -> frozenset[str]:
    """Folded stop words of ``lang`` (empty for a language whoosh has no list for)."""
    from whoosh.lang import has_stopwords, stopwords_for_language

    base = stopwords_for_language(lang) if has_stopwords(lang) else ()
    return frozenset(fold(w, lang) for w in set(base) | _EXTRA_STOPS.get(lang, set()))


@cache
def _stemmer(lang: str):
    from whoosh.lang import has_stemmer, stemmer_for_language

    return stemmer_for_language(lang) if has_stemmer(lang) else (lambda w: w)


@lru_cache(maxsize=500_000)
def stem(word: str, lang: str, method: str = DEFAULT_METHOD) -> str:
    """The term of one word (any case/accents) in ``lang`` by ``method``.

    >>> stem("dernière", "fr") == stem("derniere", "fr") == stem("DERNIÈRE", "fr")
    True
    >>> stem("Verlieses", "de"), stem("Verlies", "de"), stem("Verlieses", "de", "lemma")
    ('verlies', 'verli', 'verli')
    """
    if method == "lemma":
        word = _lemma(word, lang)
    elif method != "snowball":
        raise ValueError(f"unknown analysis method {method!r} (use one of {', '.join(METHODS)})")
    # Folding before stemming makes an unaccented query stem like the accented text.
    return _stemmer(lang)(fold(word, lang))


def _lemma(word: str, lang: str) -> str:
    import simplemma

    try:
        return simplemma.lemmatize(word, lang=lang).casefold()
    except ValueError:  # a language simplemma does not know: keep the word
        return word


_COMPOUNDS: dict[str, tuple[str, ...]] = {}


def compound_parts(word: str) -> tuple[str, ...]:
    """:func:`split_compound`, remembered: see :func:`known_compounds`."""
    parts = _COMPOUNDS.get(word)
    if parts is None:
        parts = _COMPOUNDS[word] = split_compound(word)
    return parts


def known_compounds() -> dict[str, list[str]]:
    """Every word split so far in this process, with its parts (``[]``: not a compound)."""
    return {word: list(parts) for word, parts in _COMPOUNDS.items()}


def remember_compounds(table: dict[str, list[str]]) -> None:
    """Take splits made before (:func:`known_compounds` of an earlier build): loading the
    German dictionary costs seconds, and a rebuild that sees no new word needs none of it."""
    _COMPOUNDS.update((word, tuple(parts)) for word, parts in table.items())


def split_compound(word: str) -> tuple[str, ...]:
    """The two parts of a German compound noun (casefolded), or () if it is none.

    Only a capitalised word that simplemma's German dictionary does not know as a whole is
    split, and only into two known words that are not stop words, allowing a linking element
    (Versorgung-s-segment); the most balanced split wins. Known words (Reihenfolge) and
    verbs (ergreifen -> *erg + reifen*) stay whole: splitting them found wrong rulings.

    >>> compound_parts("Kampfschaden"), compound_parts("Versorgungssegments")
    (('kampf', 'schaden'), ('versorgung', 'segments'))
    >>> compound_parts("ergreifen"), compound_parts("Reihenfolge"), compound_parts("Undercity")
    ((), (), ())
    """
    if not word[:1].isupper() or len(word) < _MIN_HEAD + _MIN_TAIL or _known_de(word):
        return ()
    word, stops = word.casefold(), stopwords("de")
    best = None
    for cut in range(_MIN_HEAD, len(word) - _MIN_TAIL + 1):
        tail = word[cut:]
        if fold(tail, "de") in stops or not _known_de(tail):
            continue
        for link in _LINKS:
            head = word[: cut - len(link)]
            if (
                word[len(head) : cut] != link
                or len(head) < _MIN_HEAD
                or fold(head, "de") in stops
                or not _known_de(head)
            ):
                continue
            score = (min(len(head), len(tail)), len(tail))
            if best is None or score > best[0]:
                best = (score, head, tail)
    return best[1:] if best else ()


def _known_de(word: str) -> bool:
    import simplemma

    return simplemma.is_known(word, lang="de") or simplemma.is_known(word.capitalize(), lang="de")


def analyze(text: str, lang: str, method: str = DEFAULT_METHOD, split: bool = True) -> list[Token]:
    """Terms of ``text`` with positions; stop words leave no gap (phrases skip them alike).

    ``split=False`` leaves German compounds whole (query words do: the index has both).
    """
    return list(_analyze(text, lang, method, split))


@lru_cache(maxsize=4096)
def _analyze(text: str, lang: str, method: str, split: bool) -> tuple[Token, ...]:
    """Remembers recent texts: a ruling printed on many cards is indexed once per card."""
    return tuple(_analyze_text(text, lang, method, split))


def _analyze_text(text: str, lang: str, method: str, split: bool) -> list[Token]:
    stops = stopwords(lang)
    out: list[Token] = []
    pos = 0
    for match in words(text):
        word = match.group()
        folded = fold(word, lang)
        if len(folded) < 2 or folded in stops:
            continue
        out.append(Token(pos, stem(word, lang, method), match.start(), match.end()))
        if split and lang == "de" and len(folded) >= _MIN_HEAD + _MIN_TAIL:
            for part in compound_parts(word):
                if fold(part, lang) not in stops:
                    out.append(Token(pos, stem(part, lang, method), match.start(), match.end()))
        pos += 1
    return out


def terms(text: str, lang: str, method: str = DEFAULT_METHOD, split: bool = True) -> list[str]:
    """The index terms of ``text`` in ``lang``, in order (compound parts follow the compound).

    >>> terms("Le joueur prend l’initiative", "fr") == terms("le JOUEUR prend l'initiative", "fr")
    True
    >>> terms("Die Initiative ergreifen", "de")
    ['initiativ', 'ergreif']
    >>> terms("Kampfschaden", "de")
    ['kampfschad', 'kampf', 'schad']
    """
    return [t.term for t in analyze(text, lang, method, split)]


def card_key(name: str) -> list[str]:
    """Folded words of a card name for the ``card:`` filter, the same in every language.

    Umlauts and their two-letter spelling both fold to the bare vowel, so ``card:saeuberung``
    and ``card:sauberung`` both find Unterkellersäuberung.
    """
    return [re.sub(r"([aou])e", r"\1", fold(m.group(), "de")) for m in words(name)]


class LanguageAnalyzer(Analyzer):
    """The whoosh Analyzer of one language: :func:`analyze` as whoosh tokens.

    It is pickled into the index's schema, so an index remembers the method it was built with
    and queries are analysed the same way.
    """

    def __init__(self, lang: str, method: str = DEFAULT_METHOD):
        self.lang, self.method = lang, method

    def __call__(
        self,
        value,
        positions=False,
        chars=False,
        keeporiginal=False,
        removestops=True,
        start_pos=0,
        start_char=0,
        tokenize=True,
        mode="",
        **kw,
    ):
        token = WhooshToken(positions, chars, removestops=removestops, mode=mode, **kw)
        for pos, term, start, end in analyze(value, self.lang, self.method, split=mode != "query"):
            token.text, token.boost, token.stopped = term, 1.0, False
            if keeporiginal:
                token.original = value[start:end]
            if positions:
                token.pos = start_pos + pos
            if chars:
                token.startchar, token.endchar = start_char + start, start_char + end
            yield token

    def has_morph(self) -> bool:
        return True
