"""The browser's search index: BM25 over the same analysis as the whoosh index, in shards.

Terms come from :func:`kb.search.analysis.terms` (the per-language analysis whoosh uses), so the site
and ``kb search`` rank the same way: each posting carries its precomputed BM25F weight
(whoosh's formula and defaults, B=0.75, K1=1.2, idf = ln(N/(df+1)) + 1).

The browser cannot run the Python analyzers, so the index maps every *surface form* seen in the
corpus (lower-cased, NFC, split on non-letters exactly as ``search.js`` splits a query) to the
terms the analyzer gives it. Forms are sorted and cut into shards of about
:data:`SHARD_BYTES`; the manifest lists each shard's first form, and a query loads only the
shards of its words, then the few document chunks of its top results. Each term keeps its
:data:`MAX_POSTINGS` best documents only, so a shard never grows with the corpus and neither
does the first query's download (only the manifest grows, by one short key per shard).

Files are JavaScript (``kbSearch.shard(i, {...})``), not JSON: a page opened from ``file://``
may load scripts but not fetch JSON.
"""

from __future__ import annotations

import importlib
import json
import math
import re
import unicodedata
from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path

import numpy as np

from kb.site.search_state import Texts

B, K1 = 0.75, 1.2
SHARD_BYTES = 12_000
MAX_POSTINGS = 100
DOCS_PER_CHUNK = 4
SNIPPET = 180
_WORD = re.compile(r"[^\W_]+")
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
_BREVE = "\u0306"


def forms(text: str) -> list[str]:
    """Surface forms as the browser splits them (keep in step with ``tokens`` in search.js)."""
    return _WORD.findall(unicodedata.normalize("NFC", text).lower())


def key(form: str) -> str:
    """The folded form the index is keyed by, so a reader may type without accents or umlauts
    (keep in step with ``fold`` in search.js): umlauts spelled out, other marks dropped except
    the breve, which makes й a letter of its own. Not :func:`kb.search.analysis.fold`: that one
    case-folds (ß -> ss), which JavaScript cannot repeat; this key only has to match the
    browser's, the terms behind it come from the analysis itself."""
    spelled = form.translate(_UMLAUTS)
    decomposed = unicodedata.normalize("NFD", spelled)
    kept = "".join(ch for ch in decomposed
                   if ch == _BREVE or unicodedata.category(ch) != "Mn")
    return unicodedata.normalize("NFC", kept)


def _analysis():
    try:
        return importlib.import_module("kb.search.analysis")
    except ModuleNotFoundError as exc:
        if exc.name not in ("kb.search.analysis",):
            raise
        return None


def terms(text: str, lang: str) -> list[str]:
    """The search analysis of ``text``; plain forms until :mod:`kb.search.analysis` exists."""
    analysis = _analysis()
    return analysis.terms(text, lang) if analysis else forms(text)


@lru_cache(maxsize=200_000)
def _form_terms(form: str, lang: str) -> tuple[str, ...]:
    return tuple(terms(form, lang))


def build(docs: list[dict], urls: list[str], out: Path, groups: list[int] | None = None,
          write=None) -> dict:
    """Write the index of the rulings ``docs`` under ``out`` (``search/``); return its figures.

    ``urls[i]`` is the page of ``docs[i]`` inside a UI language's tree and ``groups[i]`` the
    number of its ruling group (results are collapsed to one per group before any document
    summary is fetched); default: every document its own group. ``write(path, text)`` writes a
    file (default: :meth:`Path.write_text`). The site builds through :func:`write_index`,
    which can keep a previous build's files and analyses (:mod:`kb.site.search_state`)."""
    texts = Texts(analyse)
    parts = np.array([(texts.number(d["card"], d["lang"]), texts.number(d["text"], d["lang"]))
                      for d in docs], dtype=np.int64).reshape(-1, 2)
    group_of = list(range(len(docs))) if groups is None else list(groups)
    return write_index(out, parts, group_of, texts,
                       lambda number: [document(r, u) for r, u in zip(*_chunk(number, docs, urls))],
                       write or _write_text)


def _chunk(number: int, *columns):
    return [column[number * DOCS_PER_CHUNK:(number + 1) * DOCS_PER_CHUNK] for column in columns]


def write_index(out: Path, parts: np.ndarray, group_of: list[int], texts: "Texts", chunk,
                write, keep=None) -> dict:
    """Write the index of the documents ``parts`` (each one's card name and text as ``texts``
    numbers; ``group_of[d]``: its group's number) under ``out``. ``chunk(number)``: the
    document summaries of a chunk file; ``keep(path, number)`` may keep that chunk's file from
    a previous build instead (-> True) so it is never made; ``write(path, text)`` writes a file."""
    postings, form_map = _postings(parts, texts)
    out.mkdir(parents=True, exist_ok=True)
    (out / "t").mkdir()
    shards = []  # each shard's first form, for the manifest; written as soon as it is complete
    for number, (first, body) in enumerate(_shards(form_map, postings, group_of)):
        _write_js(write, out / "t" / f"{number}.js", f"kbSearch.shard({number},", body)
        shards.append(first)
    (out / "d").mkdir()
    chunks = f"{out}/d/"  # a string: 25,000 chunk files at 100k rulings (see Files)
    for number in range(-(-len(parts) // DOCS_PER_CHUNK)):
        path = f"{chunks}{number}.js"
        if keep is None or not keep(path, number):
            _write_js(write, path, f"kbSearch.docs({number},", chunk(number))
    manifest = {"version": 1, "docs": len(parts), "docsPerChunk": DOCS_PER_CHUNK,
                "shards": shards}
    _write_js(write, out / "manifest.js", "kbSearch.manifest(", manifest)
    return {"docs": len(parts), "forms": len(form_map), "shards": len(shards),
            "texts_analysed": texts.analysed}


def _postings(parts: np.ndarray, texts: "Texts"):
    """term -> [(doc, weight in thousandths)] best first (capped), and form -> sorted term keys.

    The analysis is word by word, so a document is analysed as its two parts (card name,
    text): a text printed on thousands of cards and a card's name are analysed once each. The
    weights are computed on arrays (numpy), with the very float operations, in the same order,
    as the scalar formula, so they are the same bits (and round the same)."""
    forms = texts.form_map(np.unique(parts))
    n, names = len(parts), texts.terms.words
    lengths_of, sizes, term_ids, term_counts, *_ = texts.arrays()
    if not n or not len(term_ids):
        return {}, forms
    flat = parts.ravel()
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    # Each document's entries: its card part's, then its text part's (gathered by index).
    taken = sizes[flat]
    first = np.repeat(starts[flat] - (np.cumsum(taken) - taken), taken)
    gather = first + np.arange(int(taken.sum()), dtype=np.int64)
    doc_of = np.repeat(np.arange(n, dtype=np.int64), taken.reshape(n, 2).sum(axis=1))
    term_of, count_of = term_ids[gather], term_counts[gather]
    # A term both in the card's name and in the text counts once with both counts.
    keys, where = np.unique(doc_of * len(names) + term_of, return_inverse=True)
    freq = np.bincount(where, weights=count_of).astype(np.int64)
    doc_of, term_of = keys // len(names), keys % len(names)
    lengths = lengths_of[flat].reshape(n, 2).sum(axis=1)
    average = int(lengths.sum()) / n
    df = np.bincount(term_of, minlength=len(names))
    idf = np.array([math.log(n / (int(count) + 1)) + 1 for count in df])
    norm = K1 * ((1 - B) + B * lengths / average)
    weight = idf[term_of] * (freq * (K1 + 1)) / (freq + norm[doc_of])
    # Best first within each term (ties: the lower document), the first MAX_POSTINGS kept.
    order = np.lexsort((doc_of, -weight, term_of))
    term_sorted = term_of[order]
    begins = np.searchsorted(term_sorted, np.arange(len(names)))
    kept = order[np.arange(len(order)) - begins[term_sorted] < MAX_POSTINGS]
    kept_terms = term_of[kept]
    bounds = np.searchsorted(kept_terms, np.arange(len(names) + 1))
    postings = Postings(names, df > 0, bounds, doc_of[kept],
                        np.rint(weight[kept] * 1000).astype(np.int64))
    # Forms without terms (stop words) stay, so the browser knows them and matches nothing.
    return postings, forms


class Postings(dict):
    """term -> [(document, weight in thousandths)], best first: a dict whose lists are made
    when a term is looked up, from arrays (at 100k rulings, ~2 million small tuples held at
    once were the build's largest process at its memory peak). Only the terms some document
    holds (``held``) are in it."""

    def __init__(self, names: list[str], held, bounds, docs, weights):
        super().__init__((name, number) for number, (name, there)
                         in enumerate(zip(names, held.tolist())) if there)
        self._bounds, self._docs, self._weights = bounds, docs, weights

    def __getitem__(self, term: str) -> list[tuple[int, int]]:
        number = super().__getitem__(term)
        low, high = int(self._bounds[number]), int(self._bounds[number + 1])
        return list(zip(self._docs[low:high].tolist(), self._weights[low:high].tolist()))

    def items(self):
        return ((term, self[term]) for term in self)

    def __eq__(self, other) -> bool:
        return dict(self.items()) == dict(other.items())


def analyse(text: str, lang: str) -> tuple[int, Counter, dict[str, list[str]]]:
    """(number of terms, {term: count}, {folded form: [its terms]}) of ``text``."""
    analysed = terms(text, lang)
    keyed: dict[str, set[str]] = defaultdict(set)
    for form in set(forms(text)):
        keyed[_key(form)].update(f"{lang}:{t}" for t in _form_terms(form, lang))
    return (len(analysed), Counter(f"{lang}:{t}" for t in analysed),
            {folded: sorted(keys) for folded, keys in keyed.items()})


@lru_cache(maxsize=200_000)
def _key(form: str) -> str:
    return key(form)


def _shards(form_map: dict[str, list[str]], postings: dict, groups: list[int]):
    """Cut the sorted forms into shards of about SHARD_BYTES, each with its terms' postings:
    yields (first form, shard), one at a time."""
    current, size = None, 0
    for form in sorted(form_map):
        if current is None or size >= SHARD_BYTES:
            if current is not None:
                yield current
            current = (form, {"f": {}, "p": {}})
            size = 0
        body = current[1]
        body["f"][form] = form_map[form]
        size += len(form.encode()) + sum(len(k) for k in form_map[form]) + 8
        for term in form_map[form]:
            if term not in body["p"] and term in postings:
                # (document, its group, BM25 weight in thousandths), flattened.
                flat = [v for doc, w in postings[term] for v in (doc, groups[doc], w)]
                body["p"][term] = flat
                size += len(term) + 16 * len(flat) // 3
    if current is not None:
        yield current


def document(ruling: dict, url: str) -> list:
    """What a chunk file shows of a document: [url, language, card, snippet]."""
    text = " ".join(ruling["text"].split())
    snippet = text if len(text) <= SNIPPET else text[:SNIPPET].rsplit(" ", 1)[0] + "…"
    return [url, ruling["lang"], ruling["card"], snippet]


def _write_js(write, path: Path | str, prefix: str, data) -> None:
    body = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    write(path, f"{prefix}{body});\n")


def _write_text(path: Path | str, text: str) -> None:
    Path(path).write_text(text, encoding="utf-8")
