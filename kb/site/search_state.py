"""What the browser search index keeps between builds (``search-state.npz`` in the build folder).

- :class:`Texts`: every distinct text analysed (a card name or a ruling text, in its
  language): its language, its number of terms, its terms' counts and the (folded form,
  term) pairs it gives the browser's lexicon, as arrays;
- :class:`Documents`: the documents, group by group in id order, each as its two texts'
  numbers (card name, ruling text).

An incremental build takes an unchanged group's documents from here as they were: it reads
from the store, and analyses, only the changed groups' rulings (at 100,000 rulings, a few
hundred documents instead of 100,000 members read and 70,000 stored analyses decoded). The
file holds arrays and UTF-8 text only (no pickles): it is read with ``allow_pickle=False``.
"""

from __future__ import annotations

import hashlib
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kb.corpus.languages import LANGUAGES

FILE = "search-state.npz"
VERSION = 2  # 2: each text's language kept (the index scores a group per language)
_SEP = "\0"  # between the strings of a saved list: no term, form, digest or group id holds it
_PAIR = "\t"  # between a pair's folded form and term (a form is letters only)


def text_key(text: str, lang: str) -> str:
    return hashlib.sha256(f"{lang}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()


class _Vocabulary:
    """Strings numbered in the order first seen."""

    def __init__(self, words: Iterable[str] = ()):
        self.words = list(words)
        self.number = {word: n for n, word in enumerate(self.words)}

    def __call__(self, word: str) -> int:
        n = self.number.get(word)
        if n is None:
            n = self.number[word] = len(self.words)
            self.words.append(word)
        return n


class Texts:
    """The analysed texts, numbered; a text not seen before is analysed by ``analyse(text,
    lang)`` -> (number of terms, {term: count}, {folded form: [terms]}).

    Arrays (:meth:`arrays`): ``langs[t]`` (index in :data:`LANGUAGES`) and ``lengths[t]``;
    text ``t``'s ``term_sizes[t]`` terms, after those
    of the texts before it, in ``term_ids`` with their counts in ``term_counts``; its
    ``pair_sizes[t]`` pairs likewise in ``pair_ids``, a pair being (folded form, term), or
    (folded form, "") for a form that gives no term (a stop word: the browser must still know
    it)."""

    def __init__(self, analyse, saved: dict | None = None):
        self.analyse, self.analysed = analyse, 0
        saved = saved or {}
        self.keys = _Vocabulary(saved.get("keys", []))
        self.terms = _Vocabulary(saved.get("terms", []))
        self.pairs = _Vocabulary(saved.get("pairs", []))
        empty = np.zeros(0, dtype=np.int64)
        self._arrays = [saved.get(name, empty) for name in _ARRAYS]
        self._new: list[list[int]] = [[] for _ in self._arrays]

    def number(self, text: str, lang: str) -> int:
        before = len(self.keys.words)
        n = self.keys(text_key(text, lang))
        if n == before:
            self._add(
                LANGUAGES.index(lang) if lang in LANGUAGES else len(LANGUAGES),
                *self.analyse(text, lang),
            )
        return n

    def _add(self, lang: int, length: int, tf: dict[str, int], keyed: dict[str, list[str]]) -> None:
        self.analysed += 1
        pairs = [
            self.pairs(f"{form}{_PAIR}{term}")
            for form, terms in keyed.items()
            for term in (terms or [""])
        ]
        langs, lengths, term_sizes, term_ids, term_counts, pair_sizes, pair_ids = self._new
        langs.append(lang)
        lengths.append(length)
        term_sizes.append(len(tf))
        term_ids += [self.terms(term) for term in tf]
        term_counts += tf.values()
        pair_sizes.append(len(pairs))
        pair_ids += pairs

    def arrays(self) -> tuple[np.ndarray, ...]:
        """(langs, lengths, term_sizes, term_ids, term_counts, pair_sizes, pair_ids) of every
        text."""
        if any(self._new):
            self._arrays = [
                np.concatenate((old, np.array(new, dtype=np.int64)))
                for old, new in zip(self._arrays, self._new)
            ]
            self._new = [[] for _ in self._arrays]
        return tuple(self._arrays)

    def form_map(self, used: np.ndarray) -> dict[str, list[str]]:
        """{folded form: its terms, sorted} over the texts ``used`` (numbers)."""
        *_, pair_sizes, pair_ids = self.arrays()
        mask = np.zeros(len(pair_sizes), dtype=bool)
        mask[used] = True
        out: dict[str, list[str]] = {}
        for number in np.unique(pair_ids[np.repeat(mask, pair_sizes)]).tolist():
            form, _, term = self.pairs.words[number].partition(_PAIR)
            terms = out.setdefault(form, [])
            if term:
                terms.append(term)
        return {form: sorted(terms) for form, terms in out.items()}

    def kept(self, used: np.ndarray) -> tuple[dict, np.ndarray]:
        """What to save of the texts ``used`` only (a text no document holds any more, and
        terms and pairs only it had, are dropped), and each text's new number (-1: dropped)."""
        langs, lengths, term_sizes, term_ids, term_counts, pair_sizes, pair_ids = self.arrays()
        mask = np.zeros(len(lengths), dtype=bool)
        mask[used] = True
        renumber = np.cumsum(mask) - 1
        renumber[~mask] = -1
        term_mask, pair_mask = np.repeat(mask, term_sizes), np.repeat(mask, pair_sizes)
        term_ids, pair_ids = term_ids[term_mask], pair_ids[pair_mask]
        terms, term_ids = _compact(self.terms.words, term_ids)
        pairs, pair_ids = _compact(self.pairs.words, pair_ids)
        saved = {
            "keys": [k for k, keep in zip(self.keys.words, mask.tolist()) if keep],
            "terms": terms,
            "pairs": pairs,
            "langs": langs[mask],
            "lengths": lengths[mask],
            "term_sizes": term_sizes[mask],
            "term_ids": term_ids,
            "term_counts": term_counts[term_mask],
            "pair_sizes": pair_sizes[mask],
            "pair_ids": pair_ids,
        }
        return saved, renumber


def _compact(words: list[str], ids: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The words ``ids`` use, and ``ids`` renumbered into them."""
    used, inverse = np.unique(ids, return_inverse=True)
    return [words[n] for n in used.tolist()], inverse.astype(np.int64)


@dataclass
class Documents:
    """Every document, group by group (``groups``, in id order): group ``g``'s documents are
    ``starts[g]:starts[g+1]``; ``parts[d]`` = (card name, ruling text) as :class:`Texts`
    numbers; ``source[d]``: the document's number in the previous build, -1 if read anew."""

    groups: list[str]
    starts: np.ndarray
    parts: np.ndarray
    source: np.ndarray

    @property
    def group_of(self) -> np.ndarray:
        return np.repeat(np.arange(len(self.groups), dtype=np.int64), np.diff(self.starts))


def assemble(
    order: list[str],
    texts: Texts,
    read,
    previous: Saved | None = None,
    changed: set[str] | None = None,
) -> tuple[Documents, dict[int, dict]]:
    """The documents of the groups ``order`` (ids, sorted): an unchanged group's (not in
    ``changed``; None: any may have changed) as ``previous`` had them, the others from
    ``read(group ids)`` -> {group id: members in the site's order}; also {document number:
    member} of those read."""
    kept: dict[str, tuple[int, int]] = {}
    if previous is not None and changed is not None:
        before, old_parts = previous.ranges(), previous.parts
        kept = {g: before[g] for g in order if g in before and g not in changed}
    members = read([g for g in order if g not in kept]) if len(kept) < len(order) else {}
    parts, source, sizes = [], [], []
    fresh: dict[int, dict] = {}
    position = 0
    for group in order:
        if group in kept:
            low, high = kept[group]
            parts.append(old_parts[low:high])
            source.append(np.arange(low, high, dtype=np.int64))
            size = high - low
        else:
            rows = members[group]
            parts.append(
                np.array(
                    [
                        (texts.number(m["card"], m["lang"]), texts.number(m["text"], m["lang"]))
                        for m in rows
                    ],
                    dtype=np.int64,
                ).reshape(-1, 2)
            )
            source.append(np.full(len(rows), -1, dtype=np.int64))
            fresh.update(zip(range(position, position + len(rows)), rows))
            size = len(rows)
        sizes.append(size)
        position += size
    starts = np.concatenate(([0], np.cumsum(sizes, dtype=np.int64))).astype(np.int64)
    empty = np.zeros((0, 2), dtype=np.int64)
    return Documents(
        list(order),
        starts,
        np.concatenate(parts) if parts else empty,
        np.concatenate(source) if source else np.zeros(0, dtype=np.int64),
    ), fresh


@dataclass
class Saved:
    """A previous build's state: its texts (as :class:`Texts` takes them) and documents."""

    texts: dict
    groups: list[str]
    starts: np.ndarray
    parts: np.ndarray

    def ranges(self) -> dict[str, tuple[int, int]]:
        bounds = self.starts.tolist()
        return {g: (bounds[n], bounds[n + 1]) for n, g in enumerate(self.groups)}


_LISTS = ("keys", "terms", "pairs")
_ARRAYS = ("langs", "lengths", "term_sizes", "term_ids", "term_counts", "pair_sizes", "pair_ids")


def save(folder: Path, texts: Texts, documents: Documents) -> None:
    """Write the state of this build into its folder (the texts no document uses dropped)."""
    saved, renumber = texts.kept(np.unique(documents.parts))
    arrays = {name: saved[name] for name in _ARRAYS}
    arrays.update({name: _joined(saved[name]) for name in _LISTS})
    arrays.update(
        version=np.array([VERSION]),
        groups=_joined(documents.groups),
        starts=documents.starts,
        parts=renumber[documents.parts],
    )
    with open(folder / FILE, "wb") as out:
        np.savez(out, **arrays)


def load(folder: Path | None) -> Saved | None:
    """The state a previous build folder kept, or None (none there, unreadable, another
    version: the caller then reads and analyses everything)."""
    if folder is None:
        return None
    try:
        with np.load(folder / FILE, allow_pickle=False) as data:
            if int(data["version"][0]) != VERSION:
                return None
            texts = {name: data[name] for name in _ARRAYS}
            texts.update({name: _split(data[name]) for name in _LISTS})
            return Saved(texts, _split(data["groups"]), data["starts"], data["parts"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None  # a state cut short or made otherwise costs a full index, nothing else


def _joined(words: list[str]) -> np.ndarray:
    return np.frombuffer(_SEP.join(words).encode("utf-8", "surrogatepass"), dtype=np.uint8)


def _split(blob: np.ndarray) -> list[str]:
    text = blob.tobytes().decode("utf-8", "surrogatepass")
    return text.split(_SEP) if text else []


def same_chunks(documents: Documents, before: int, size: int) -> np.ndarray:
    """Per chunk file: whether it holds the very documents, at the same numbers, as the
    previous build's (of ``before`` documents) did; ``size`` documents a chunk."""
    n = len(documents.source)
    count = -(-n // size)
    same = np.ones(count * size, dtype=bool)
    same[:n] = documents.source == np.arange(n)
    ends = np.arange(1, count + 1) * size
    return same.reshape(count, size).all(axis=1) & (np.minimum(ends, n) == np.minimum(ends, before))
