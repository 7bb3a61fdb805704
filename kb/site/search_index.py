"""The browser's search index: BM25 over the same analysis as the whoosh index, in shards.

Terms come from :func:`kb.analysis.terms` (the per-language analysis whoosh uses), so the site
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

import hashlib
import importlib
import json
import math
import re
import unicodedata
from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path

import numpy as np

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
    the breve, which makes й a letter of its own. Not :func:`kb.analysis.fold`: that one
    case-folds (ß -> ss), which JavaScript cannot repeat; this key only has to match the
    browser's, the terms behind it come from the analysis itself."""
    spelled = form.translate(_UMLAUTS)
    decomposed = unicodedata.normalize("NFD", spelled)
    kept = "".join(ch for ch in decomposed
                   if ch == _BREVE or unicodedata.category(ch) != "Mn")
    return unicodedata.normalize("NFC", kept)


def _analysis():
    try:
        return importlib.import_module("kb.analysis")
    except ModuleNotFoundError as exc:
        if exc.name not in ("kb.analysis",):
            raise
        return None


def terms(text: str, lang: str) -> list[str]:
    """The search analysis of ``text``; plain forms until :mod:`kb.analysis` exists."""
    analysis = _analysis()
    return analysis.terms(text, lang) if analysis else forms(text)


@lru_cache(maxsize=200_000)
def _form_terms(form: str, lang: str) -> tuple[str, ...]:
    return tuple(terms(form, lang))


def build(docs: list[dict], urls: list[str], out: Path, groups: list[int] | None = None,
          write=None, analyses: "Analyses | None" = None) -> dict:
    """Write the index of the rulings ``docs`` under ``out`` (``search/``); return its figures.

    ``urls[i]`` is the page of ``docs[i]`` inside a UI language's tree and ``groups[i]`` the
    number of its ruling group (results are collapsed to one per group before any document
    summary is fetched); default: every document its own group. ``write(path, text)`` writes a
    file (default: :meth:`Path.write_text`; the site passes one that may link an identical file
    of the previous build instead). ``analyses``: the analysis of each card name and text,
    which may come from a previous build (:class:`Analyses`).
    """
    write = write or _write_text
    groups = list(range(len(docs))) if groups is None else groups
    postings, form_map = _postings(docs, analyses or Analyses())
    out.mkdir(parents=True, exist_ok=True)
    (out / "t").mkdir()
    shards = []  # each shard's first form, for the manifest; written as soon as it is complete
    for number, (first, body) in enumerate(_shards(form_map, postings, groups)):
        _write_js(write, out / "t" / f"{number}.js", f"kbSearch.shard({number},", body)
        shards.append(first)
    (out / "d").mkdir()
    for start in range(0, len(docs), DOCS_PER_CHUNK):
        chunk = [_doc(r, u) for r, u in zip(docs[start:start + DOCS_PER_CHUNK],
                                            urls[start:start + DOCS_PER_CHUNK])]
        _write_js(write, out / "d" / f"{start // DOCS_PER_CHUNK}.js",
                  f"kbSearch.docs({start // DOCS_PER_CHUNK},", chunk)
    manifest = {"version": 1, "docs": len(docs), "docsPerChunk": DOCS_PER_CHUNK,
                "shards": shards}
    _write_js(write, out / "manifest.js", "kbSearch.manifest(", manifest)
    return {"docs": len(docs), "forms": len(form_map), "shards": len(shards)}


def _postings(docs: list[dict], analyses: "Analyses"):
    """term -> [(doc, weight in thousandths)] best first (capped), and form -> sorted term keys.

    The weights are computed on arrays (numpy), with the very float operations, in the same
    order, as the scalar formula, so they are the same bits (and round the same)."""
    form_map: dict[str, set[str]] = defaultdict(set)
    # The analysis is word by word, so a document (card name, then text) is analysed as its two
    # parts: a text printed on thousands of cards and a card's name are analysed once each.
    parts: dict[tuple[str, str], int] = {}
    terms: dict[str, int] = {}
    part_terms, part_counts, part_sizes, part_lengths = [], [], [], []
    doc_parts = np.empty(2 * len(docs), dtype=np.int64)  # card part, text part of each doc
    slot = 0
    for doc in docs:
        lang = doc["lang"]
        for text in (doc["card"], doc["text"]):
            number = parts.get((text, lang))
            if number is None:
                number = parts[(text, lang)] = len(part_lengths)
                tf, length = analyses.get(text, lang, form_map)
                part_terms += [terms.setdefault(t, len(terms)) for t in tf]
                part_counts += tf.values()
                part_sizes.append(len(tf))
                part_lengths.append(length)
            doc_parts[slot] = number
            slot += 1
    del parts
    forms = {form: sorted(keys) for form, keys in form_map.items()}
    n = len(docs)
    if not n or not terms:
        return {}, forms
    names = list(terms)
    sizes = np.array(part_sizes, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    # Each document's entries: its card part's, then its text part's (gathered by index).
    taken = sizes[doc_parts]
    first = np.repeat(starts[doc_parts] - (np.cumsum(taken) - taken), taken)
    gather = first + np.arange(int(taken.sum()), dtype=np.int64)
    doc_of = np.repeat(np.arange(n, dtype=np.int64), taken.reshape(n, 2).sum(axis=1))
    term_of = np.array(part_terms, dtype=np.int64)[gather]
    count_of = np.array(part_counts, dtype=np.int64)[gather]
    # A term both in the card's name and in the text counts once with both counts.
    keys, where = np.unique(doc_of * len(names) + term_of, return_inverse=True)
    freq = np.bincount(where, weights=count_of).astype(np.int64)
    doc_of, term_of = keys // len(names), keys % len(names)
    lengths = np.array(part_lengths, dtype=np.int64)[doc_parts].reshape(n, 2).sum(axis=1)
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
    postings = Postings(names, bounds, doc_of[kept], np.rint(weight[kept] * 1000).astype(np.int64))
    # Forms without terms (stop words) stay, so the browser knows them and matches nothing.
    return postings, forms


class Postings(dict):
    """term -> [(document, weight in thousandths)], best first: a dict whose lists are made
    when a term is looked up, from arrays (at 100k rulings, ~2 million small tuples held at
    once were the build's largest process at its memory peak)."""

    def __init__(self, names: list[str], bounds, docs, weights):
        super().__init__((name, number) for number, name in enumerate(names))
        self._bounds, self._docs, self._weights = bounds, docs, weights

    def __getitem__(self, term: str) -> list[tuple[int, int]]:
        number = super().__getitem__(term)
        low, high = int(self._bounds[number]), int(self._bounds[number + 1])
        return list(zip(self._docs[low:high].tolist(), self._weights[low:high].tolist()))

    def items(self):
        return ((term, self[term]) for term in self)

    def __eq__(self, other) -> bool:
        return dict(self.items()) == dict(other.items())


class Analyses:
    """The analysis of each card name and ruling text (its term counts, length and surface
    forms), keyed by a digest of the language and text. ``before``: {key: analysis} a previous
    build stored (the same analysis code: its build key matched); only new texts are analysed.
    :attr:`rows` is what this build saw, for the next build."""

    def __init__(self, before: dict[str, str] | None = None):
        self.before, self.rows, self.reused = before or {}, {}, 0

    def get(self, text: str, lang: str, form_map: dict[str, set[str]]) -> tuple[dict, int]:
        """({term: count}, number of terms) of ``text``; adds its forms to ``form_map``."""
        digest = hashlib.sha256(f"{lang}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
        raw = self.before.get(digest)
        if raw is None:
            raw = json.dumps(_analyse(text, lang), ensure_ascii=False, sort_keys=True,
                             separators=(",", ":"))
        else:
            self.reused += 1
        self.rows[digest] = raw
        length, tf, keyed = json.loads(raw)
        for folded, keys in keyed.items():
            form_map[folded].update(keys)
        return tf, length


def _analyse(text: str, lang: str) -> list:
    """[number of terms, {term: count}, {folded form: [its terms]}] of ``text``."""
    analysed = terms(text, lang)
    keyed: dict[str, set[str]] = defaultdict(set)
    for form in set(forms(text)):
        keyed[_key(form)].update(f"{lang}:{t}" for t in _form_terms(form, lang))
    return [len(analysed), Counter(f"{lang}:{t}" for t in analysed),
            {folded: sorted(keys) for folded, keys in keyed.items()}]


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


def _doc(ruling: dict, url: str) -> list:
    text = " ".join(ruling["text"].split())
    snippet = text if len(text) <= SNIPPET else text[:SNIPPET].rsplit(" ", 1)[0] + "…"
    return [url, ruling["lang"], ruling["card"], snippet]


def _write_js(write, path: Path, prefix: str, data) -> None:
    body = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    write(path, f"{prefix}{body});\n")


def _write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
