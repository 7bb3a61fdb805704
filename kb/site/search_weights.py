"""The browser index's posting lists: what each term finds, with ``kb search``'s weights.

A *unit* is what ``kb search`` indexes as one whoosh document: a ruling group in one language.
Its text field holds the group's distinct texts in that language, its title field the names
of the cards carrying them (a ruling printed on 2,000 cards is one unit, scored once). A term's
weight in a unit is whoosh's BM25F with its defaults, as :mod:`kb.search` scores it: B=0.75,
K1=1.2, idf = ln(N/(df+1)) + 1 over all N units, a field's average length over all N units,
lengths rounded as whoosh stores them (one byte), the title's counts times its field boost
0.5; text and title add up. So the browser ranks a query's terms as ``kb search`` does, and a
term's list holds every unit, however many: nothing is cut.

Besides the analysed terms (``fr:initi``) the lists hold the filters' keys, one list each, in
unit order and without weights: ``#c:<word>`` (a word of a card's name, folded as the browser
folds what is typed; the document is that card's ruling), ``#r:<rule>`` and ``#r:<section>``
(the groups linked to a rule), ``#d:<YYYY>``, ``#d:<YYYY-MM>``, ``#d:<YYYY-MM-DD>`` (a unit
holding a ruling of that date).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
from whoosh.util.numeric import byte_to_length, length_to_byte

B, K1 = 0.75, 1.2
TITLE_BOOST = 0.5  # kb.search.TITLE_BOOST: a card-name word counts less than a ruling word
_LANG_SLOTS = 8  # a unit's key is group * 8 + language index
# whoosh keeps a field's length in one byte: the length BM25 reads is this table's.
_STORED_LENGTH = np.array([byte_to_length(length_to_byte(n)) for n in range(4096)], dtype=float)


@dataclass
class Units:
    """The (group, language) units of the documents (a document: a ruling on one card)."""

    group: np.ndarray  # per unit
    lang: np.ndarray  # per unit: index in LANGUAGES
    first: np.ndarray  # per unit: its first document, the one a result shows
    of_doc: np.ndarray  # per document: its unit


def units(parts: np.ndarray, group_of: np.ndarray, text_langs: np.ndarray) -> Units:
    """The units of the documents ``parts`` ((card name, text) as text numbers)."""
    lang = text_langs[parts[:, 1]] if len(parts) else np.zeros(0, dtype=np.int64)
    keys = group_of * _LANG_SLOTS + lang
    unique, first, of_doc = np.unique(keys, return_index=True, return_inverse=True)
    return Units(unique // _LANG_SLOTS, unique % _LANG_SLOTS, first, of_doc.reshape(-1))


@dataclass
class Lists:
    """Every term's list: ``names[t]``'s entries are ``bounds[t]:bounds[t+1]`` of ``doc``,
    ``group`` and ``value`` (a weight in thousandths, best first, ties by group; or, in a
    filter's list, the unit's language, in unit order)."""

    names: list[str]
    bounds: np.ndarray
    doc: np.ndarray
    group: np.ndarray
    value: np.ndarray

    def df(self) -> dict[str, int]:
        return dict(zip(self.names, np.diff(self.bounds).tolist()))


def scored(parts: np.ndarray, found: Units, texts) -> Lists:
    """The analysed terms' lists (``texts``: :class:`kb.site.search_state.Texts`)."""
    names = texts.terms.words
    _, lengths, term_sizes, term_ids, term_counts, *_ = texts.arrays()
    n = len(found.group)
    if not n or not len(term_ids):
        return Lists([], np.zeros(1, dtype=np.int64), *(np.zeros(0, dtype=np.int64),) * 3)
    starts = np.concatenate(([0], np.cumsum(term_sizes)[:-1]))
    fields = [
        _field(
            parts[:, column],
            found,
            len(names),
            starts,
            term_sizes,
            term_ids,
            term_counts,
            lengths,
            boost,
        )
        for column, boost in ((1, 1.0), (0, TITLE_BOOST))
    ]
    unit = np.concatenate([f[0] for f in fields])
    term = np.concatenate([f[1] for f in fields])
    weight = np.concatenate([f[2] for f in fields])
    # A term in both the text and a card's name: the two fields' scores add up.
    keys, where = np.unique(unit * len(names) + term, return_inverse=True)
    weight = np.bincount(where.reshape(-1), weights=weight)
    unit, term = keys // len(names), keys % len(names)
    value = np.rint(weight * 1000).astype(np.int64)
    group = found.group[unit]
    order = np.lexsort((group, -value, term))
    return _lists(names, term[order], found.first[unit[order]], group[order], value[order])


def _field(
    texts_of_doc,
    found: Units,
    term_count: int,
    starts,
    sizes,
    term_ids,
    term_counts,
    lengths,
    boost: float,
):
    """(unit, term, BM25F weight) of one field: each unit's distinct texts in that column."""
    n, span = len(found.group), int(texts_of_doc.max()) + 1
    pairs = np.unique(found.of_doc * span + texts_of_doc)
    unit, text = pairs // span, pairs % span
    taken = sizes[text]
    first = np.repeat(starts[text] - (np.cumsum(taken) - taken), taken)
    gather = first + np.arange(int(taken.sum()), dtype=np.int64)
    entry_unit = np.repeat(unit, taken)
    keys, where = np.unique(entry_unit * term_count + term_ids[gather], return_inverse=True)
    tf = np.bincount(where.reshape(-1), weights=term_counts[gather]) * boost
    entry_unit, entry_term = keys // term_count, keys % term_count
    length = np.bincount(unit, weights=lengths[text], minlength=n)
    lang = found.lang
    # whoosh: a field's average length is its total over every document of the index.
    average = np.bincount(lang, weights=length, minlength=_LANG_SLOTS) / n
    stored = _STORED_LENGTH[np.minimum(length.astype(np.int64), len(_STORED_LENGTH) - 1)]
    df = np.bincount(entry_term, minlength=term_count)
    idf = np.array([math.log(n / (int(c) + 1)) + 1 for c in df])
    norm = K1 * ((1 - B) + B * stored[entry_unit] / np.maximum(average[lang[entry_unit]], 1e-9))
    weight = idf[entry_term] * (tf * (K1 + 1)) / (tf + norm)
    return entry_unit, entry_term, weight


def _lists(names: list[str], term, doc, group, value) -> Lists:
    bounds = np.searchsorted(term, np.arange(len(names) + 1))
    held = np.diff(bounds) > 0
    kept = [name for name, there in zip(names, held.tolist()) if there]
    return Lists(kept, np.concatenate(([0], np.cumsum(np.diff(bounds)[held]))), doc, group, value)


def card_word(form_key: str) -> str:
    """A folded word of a card name as the ``card:`` filter compares it (keep in step with
    ``cardWord`` in search-engine.js): ``ae`` ``oe`` ``ue`` as the bare vowel, so Säuberung,
    Saeuberung and Sauberung are one word (as :func:`kb.search.analysis.card_key`)."""
    return re.sub(r"([aou])e", r"\1", form_key)


def filters(parts: np.ndarray, found: Units, texts, facts) -> Lists:
    """The filters' lists: card words, rules and dates (rules and dates from ``facts``,
    :class:`kb.site.search_index.Facts`; none without it)."""
    names: dict[str, int] = {}
    rows: list[tuple[int, int, int]] = []  # (name, unit, document)

    def add(name: str, unit: int, doc: int) -> None:
        rows.append((names.setdefault(name, len(names)), unit, doc))

    words = _card_words(texts, np.unique(parts[:, 0]) if len(parts) else [])
    seen = set()
    for doc, card in enumerate(parts[:, 0].tolist()):
        unit = int(found.of_doc[doc])
        for word in words[card]:
            if (unit, word) not in seen:  # the unit's first ruling on a card with that word
                seen.add((unit, word))
                add(f"#c:{word}", unit, doc)
    if facts is not None:
        for unit, (group, lang) in enumerate(zip(found.group.tolist(), found.lang.tolist())):
            doc = int(found.first[unit])
            for rule in facts.rules[group]:
                for name in dict.fromkeys((rule, rule.split(".")[0])):
                    add(f"#r:{name}", unit, doc)
            for date in facts.dates[group].get(lang, ()):
                for prefix in dict.fromkeys((date[:4], date[:7], date)):
                    add(f"#d:{prefix}", unit, doc)
    if not rows:
        return Lists([], np.zeros(1, dtype=np.int64), *(np.zeros(0, dtype=np.int64),) * 3)
    table = np.array(sorted(set(rows)), dtype=np.int64)
    ordered = sorted(names, key=names.__getitem__)
    terms, units, docs = table[:, 0], table[:, 1], table[:, 2]
    return _lists(ordered, terms, docs, found.group[units], found.lang[units])


def _card_words(texts, cards) -> dict[int, list[str]]:
    """{card name's text number: the words of the name for the card: filter}."""
    *_, pair_sizes, pair_ids = texts.arrays()
    starts = np.concatenate(([0], np.cumsum(pair_sizes)[:-1]))
    out = {}
    for card in np.asarray(cards).tolist():
        pairs = pair_ids[starts[card] : starts[card] + pair_sizes[card]].tolist()
        forms = dict.fromkeys(texts.pairs.words[p].partition("\t")[0] for p in pairs)
        out[card] = sorted({card_word(form) for form in forms})
    return out
