"""The browser's search index: every corpus word findable, and shards bounded in size."""

from __future__ import annotations

import bisect
import json
import re
from pathlib import Path

import numpy as np

from kb.corpus import parse
from kb.site import search_index as si
from kb.site.search_state import Texts

from site_helpers import CORPUS


def seed_docs() -> list[dict]:
    docs = []
    for parsed in parse.parse_files(sorted(str(p) for p in CORPUS.glob("*.txt"))):
        for r in parsed.rulings:
            docs.append({"lang": parsed.lang, "card": parsed.card, "text": r.text})
    return docs


def grown(docs: list[dict], copies: int) -> list[dict]:
    """``copies`` cards per seed ruling, each with a word of its own (the vocabulary grows)."""
    return [{**d, "card": f"{d['card']} {n}", "text": f"{d['text']} Zusatz{n}x{i}"}
            for n in range(copies) for i, d in enumerate(docs)]


def read_js(path: Path):
    body = path.read_text(encoding="utf-8")
    return json.loads(re.search(r"\((?:\d+,)?(.*)\);\n$", body, re.S).group(1))


def build(tmp_path, docs):
    out = tmp_path / "search"
    figures = si.build(docs, [f"ruling/{i}.html" for i in range(len(docs))], out)
    return out, figures


def test_every_corpus_word_is_in_the_shard_the_browser_looks_in(tmp_path):
    docs = seed_docs()
    out, figures = build(tmp_path, docs)
    firsts = read_js(out / "manifest.js")["shards"]
    assert figures["docs"] == len(docs) == 50
    for doc in docs:
        for form in si.forms(doc["text"]):
            key = si.key(form)
            shard = read_js(out / "t" / f"{bisect.bisect_right(firsts, key) - 1}.js")
            assert key in shard["f"], form


def test_postings_point_at_documents_holding_the_term(tmp_path):
    docs = seed_docs()
    out, _ = build(tmp_path, docs)
    shard = read_js(out / "t" / "0.js")
    for term, flat in shard["p"].items():
        lang, _, stem = term.partition(":")
        for doc in flat[0::3]:
            assert docs[doc]["lang"] == lang
            assert stem in si.terms(f"{docs[doc]['card']}\n{docs[doc]['text']}", lang)


def test_folding_matches_what_readers_type():
    assert si.key("säuberung") == "saeuberung"
    assert si.key("dernière") == "derniere"
    assert si.key("ёлка") == "елка" and si.key("й") == "й"
    assert si.forms("L’initiative, l'Initiative!") == ["l", "initiative", "l", "initiative"]


def test_first_query_download_does_not_grow_with_the_corpus(tmp_path):
    small_out, _ = build(tmp_path / "small", grown(seed_docs(), 4))
    large_out, large = build(tmp_path / "large", grown(seed_docs(), 40))

    def largest(out, folder):
        return max(p.stat().st_size for p in (out / folder).glob("*.js"))

    assert large["docs"] == 2000 and large["shards"] > 1
    for folder in ("t", "d"):
        assert largest(large_out, folder) <= 1.5 * largest(small_out, folder) + 2_000, folder
    for shard in (large_out / "t").glob("*.js"):
        postings = read_js(shard)["p"]
        assert all(len(flat) // 3 <= si.MAX_POSTINGS for flat in postings.values())
    # Only the manifest grows: one short key per shard.
    assert (large_out / "manifest.js").stat().st_size < 40 * large["shards"] + 200


def scalar_postings(docs: list[dict]) -> dict[str, list[tuple[int, int]]]:
    """The BM25F postings computed one weight at a time, as whoosh's formula reads."""
    from collections import Counter
    import math

    counts, lengths = [], []
    for doc in docs:
        card, text = si.terms(doc["card"], doc["lang"]), si.terms(doc["text"], doc["lang"])
        counts.append(Counter(f"{doc['lang']}:{t}" for t in card + text))
        lengths.append(len(card) + len(text))
    average, n = sum(lengths) / len(lengths), len(docs)
    df = Counter(term for tf in counts for term in tf)
    out: dict[str, list] = {}
    for number, tf in enumerate(counts):
        norm = si.K1 * ((1 - si.B) + si.B * lengths[number] / average)
        for term, freq in tf.items():
            idf = math.log(n / (df[term] + 1)) + 1
            out.setdefault(term, []).append(
                (number, idf * (freq * (si.K1 + 1)) / (freq + norm)))
    return {term: [(doc, round(w * 1000)) for doc, w in
                   sorted(entries, key=lambda e: (-e[1], e[0]))[:si.MAX_POSTINGS]]
            for term, entries in out.items()}


def test_array_postings_are_the_scalar_formulas_to_the_bit():
    # Card names sharing words with texts (counted together), a text on many cards, and more
    # documents than a term keeps.
    docs = grown(seed_docs(), 4)
    docs += [{**docs[0], "card": f"Initiative {n}"} for n in range(si.MAX_POSTINGS + 20)]
    texts = Texts(si.analyse)
    parts = np.array([(texts.number(d["card"], d["lang"]), texts.number(d["text"], d["lang"]))
                      for d in docs])
    postings, forms = si._postings(parts, texts)
    assert postings == scalar_postings(docs)
    assert forms and all(keys == sorted(keys) for keys in forms.values())
