"""The browser's search index: every corpus word in the lexicon file the browser reads, every
unit holding a term in its list with ``kb search``'s weight, and files bounded in size."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path

from site_helpers import CORPUS
from whoosh.util.numeric import byte_to_length, length_to_byte

from kb.corpus import parse
from kb.corpus.languages import LANGUAGES
from kb.site import search_index as si
from kb.site import search_lexicon
from kb.site.paths import slug


def seed_docs() -> list[dict]:
    docs = []
    for parsed in parse.parse_files(sorted(str(p) for p in CORPUS.glob("*.txt"))):
        for r in parsed.rulings:
            docs.append(
                {
                    "lang": parsed.lang,
                    "card": parsed.card,
                    "text": r.text,
                    "date": r.date,
                    "position": r.position,
                }
            )
    return docs


def grown(docs: list[dict], copies: int) -> list[dict]:
    """``copies`` cards per seed ruling, each with a word of its own (the vocabulary grows)."""
    return [
        {**d, "card": f"{d['card']} {n}", "text": f"{d['text']} Zusatz{n}x{i}"}
        for n in range(copies)
        for i, d in enumerate(docs)
    ]


def grouped(docs: list[dict]) -> tuple[list[dict], list[int]]:
    """The documents group by group (a group: the rulings at one position of the seed files,
    as aligned translations are), each group's in language order; and their group numbers."""
    ordered = sorted(docs, key=lambda d: (d["position"], LANGUAGES.index(d["lang"]), d["card"]))
    numbers = sorted({d["position"] for d in docs})
    return ordered, [numbers.index(d["position"]) for d in ordered]


def read_js(path: Path):
    body = path.read_text(encoding="utf-8")
    return json.loads(re.fullmatch(r"kbSearch\.\w+\((?:\d+,)*(.*)\);\n", body, re.DOTALL).group(1))


def build(tmp_path, docs, groups=None, facts=None):
    out = tmp_path / "search"
    figures = si.build(
        docs, [f"ruling/{i}.html" for i in range(len(docs))], out, groups, facts=facts
    )
    return out, figures


def lists(out: Path) -> dict[str, list[int]]:
    """Every term's whole list (its shard's first page and its further pages), flattened."""
    whole = {}
    for shard in (out / "p").glob("*.js"):
        for name, (df, cid, *flat) in read_js(shard).items():
            for k in range(1, len(si.page_bounds(df))):
                flat += read_js(out / "c" / f"{cid}.{k}.js")
            assert len(flat) == 3 * df, name
            whole[name] = flat
    return whole


def lexicon_of(out: Path, form: str) -> dict:
    """The lexicon file the browser reads for ``form``: the longest listed prefix (lexOf)."""
    prefixes = read_js(out / "manifest.js")["lexicon"]
    best = max(
        (i for i, p in enumerate(prefixes) if form.startswith(p)), key=lambda i: len(prefixes[i])
    )
    return read_js(out / "l" / f"{best}.js")


def test_every_corpus_word_is_in_the_lexicon_file_the_browser_reads(tmp_path):
    docs, groups = grouped(seed_docs())
    out, figures = build(tmp_path, docs, groups)
    assert figures["docs"] == len(docs) == 50 and figures["units"] == 50
    for doc in docs:
        for form in si.forms(doc["text"]):
            key = si.key(form)
            lexicon = lexicon_of(out, key)
            assert key in lexicon["f"], form
            found = {lexicon["t"][i] for i in lexicon["f"][key]}
            assert {f"{doc['lang']}:{t}" for t in si.terms(form, doc["lang"], split=False)} <= found


def test_a_shard_is_found_by_the_hash_of_the_term(tmp_path):
    out, figures = build(tmp_path, *grouped(seed_docs()))
    assert si.fnv("") == 0x811C9DC5 and si.fnv("a") == 0xE40C292C  # FNV-1a's own test values
    for number in range(figures["shards"]):
        for name in read_js(out / "p" / f"{number}.js"):
            assert si.fnv(name) % figures["shards"] == number


def whoosh_weights(docs: list[dict], groups: list[int]) -> dict[str, dict[int, float]]:
    """{term: {unit's first document: weight}}: BM25F term by term as whoosh scores it, over
    (group, language) units holding their distinct texts and card names (kb.search)."""
    units: dict[tuple, list[int]] = {}
    for number, (doc, group) in enumerate(zip(docs, groups)):
        units.setdefault((group, doc["lang"]), []).append(number)
    fields = {}  # (unit, field) -> Counter of terms; lengths
    for unit, members in units.items():
        lang = unit[1]
        for field, column in (("text", "text"), ("title", "card")):
            joined = "\n".join(dict.fromkeys(docs[m][column] for m in members))
            fields[unit, field] = Counter(si.terms(joined, lang))
    n = len(units)
    out: dict[str, dict[int, float]] = {}
    for field, boost in (("text", 1.0), ("title", 0.5)):
        total = Counter()
        df = Counter()
        for (unit, f), counts in fields.items():
            if f == field:
                total[unit[1]] += sum(counts.values())
                df.update(f"{unit[1]}:{t}" for t in counts)
        for (unit, f), counts in fields.items():
            if f != field:
                continue
            length = byte_to_length(length_to_byte(sum(counts.values())))
            average = total[unit[1]] / n
            for term, tf in counts.items():
                name = f"{unit[1]}:{term}"
                idf = math.log(n / (df[name] + 1)) + 1
                tf *= boost  # whoosh weighs a title's terms by its field boost
                weight = idf * (tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * length / average))
                first = units[unit][0]
                out.setdefault(name, {})[first] = out.get(name, {}).get(first, 0.0) + weight
    return out


def test_every_unit_holding_a_term_is_in_its_list_with_its_bm25f_weight(tmp_path):
    # Rulings printed on several cards (one unit, its names in the title), and words shared
    # by the card names and the texts.
    docs, groups = grouped(seed_docs())
    docs = [{**d, "card": f"{d['card']} {n}"} for d in docs for n in range(3)]
    groups = [g for g in groups for _ in range(3)]
    out, _ = build(tmp_path, docs, groups)
    expected = whoosh_weights(docs, groups)
    found = {name: flat for name, flat in lists(out).items() if not name.startswith("#")}
    assert set(found) == set(expected)
    for name, flat in found.items():
        entries = list(zip(flat[0::3], flat[1::3], flat[2::3]))
        assert {doc: weight for doc, _, weight in entries} == pytest_approx(expected[name]), name
        # An entry's second number leads to its group's first document.
        assert all(
            groups[doc - back] == groups[doc] and groups.index(groups[doc]) == doc - back
            for doc, back, _ in entries
        )
        assert entries == sorted(entries, key=lambda e: (-e[2], e[1])), name  # best first


def pytest_approx(weights: dict[int, float]):
    import pytest

    return {doc: pytest.approx(w * 1000, abs=1) for doc, w in weights.items()}


def test_the_weights_are_kb_search_scores(seed_site):
    """On a real build: a term's list is exactly the documents whoosh finds for it, with the
    score ``kb search`` gives each (the same (group, language) documents, to a thousandth)."""
    from whoosh import query as Q

    from kb.search import open_index

    out = seed_site / "search"
    manifest = read_js(out / "manifest.js")
    per = manifest["docsPerChunk"]
    chunks = {}

    def page_of(doc: int) -> str:
        number = doc // per
        if number not in chunks:
            chunks[number] = read_js(out / "d" / f"{number}.js")
        # A link that is only "#anchor" is on the page of the document before it (doc in JS).
        return next(
            entry[0].split("#")[0]
            for entry in chunks[number][doc % per :: -1]
            if not entry[0].startswith("#")
        )

    with open_index(seed_site.parent / "index").searcher() as searcher:
        for name, flat in lists(out).items():
            if name.startswith("#"):
                continue
            lang, _, term = name.partition(":")
            hits = searcher.search(
                Q.Or([Q.Term(f"text_{lang}", term), Q.Term(f"title_{lang}", term)]), limit=None
            )
            want = {f"ruling/{slug(h['group'])}.html": h.score for h in hits}
            got = {page_of(doc): weight for doc, weight in zip(flat[0::3], flat[2::3])}
            assert set(got) == set(want), name
            for page, weight in got.items():
                assert abs(weight / 1000 - want[page]) <= 0.0015, (name, page)


def test_pages_hold_the_rest_of_a_list(tmp_path):
    docs = grown(seed_docs(), 30)
    out, figures = build(tmp_path, docs)
    assert figures["pages"] > 0
    whole = lists(out)  # asserts each list's length is its count
    longest = max(whole.values(), key=len)
    assert len(longest) > 3 * si.FIRST_PAGE * (1 + si.PAGE_GROWTH)
    assert si.page_bounds(3000) == [(0, 30), (30, 270), (270, 2190), (2190, 3000)]


def test_filters_lists(tmp_path):
    docs, groups = grouped(seed_docs())
    rules = [["726.4", "726.2"] if g == 1 else [] for g in range(10)]
    dates = [
        {LANGUAGES.index(d["lang"]): [d["date"]] for d, gg in zip(docs, groups) if gg == g}
        for g in range(10)
    ]
    out, _ = build(tmp_path, docs, groups, si.Facts(rules, dates))
    found = lists(out)

    def units(name):
        flat = found[name]
        return {(groups[doc], LANGUAGES[lang]) for doc, lang in zip(flat[0::3], flat[2::3])}

    assert units("#r:726.4") == units("#r:726") == {(1, lang) for lang in LANGUAGES}
    assert "#r:726.3" not in found
    year = docs[0]["date"][:4]
    assert units(f"#d:{year}") >= {
        (groups[i], d["lang"]) for i, d in enumerate(docs) if d["date"].startswith(year)
    }
    chasseur = units("#c:chasseur")
    assert chasseur and all(lang in ("fr",) for _, lang in chasseur)
    assert units("#c:unterkellersauberung") == {(g, "de") for g in range(10)}  # ä as a
    titles = read_js(out / "r" / "en.js")
    assert titles["726.4"] and set(titles) == {"726.4", "726.2"}
    assert read_js(out / "dates.js") == sorted({d["date"] for d in docs})


def test_folding_matches_what_readers_type():
    assert si.key("säuberung") == "saeuberung"
    assert si.key("dernière") == "derniere"
    assert si.key("ёлка") == "елка" and si.key("й") == "й"
    assert si.forms("L’initiative, l'Initiative!") == ["l", "initiative", "l", "initiative"]


def test_first_query_files_do_not_grow_with_the_corpus(tmp_path):
    small_out, _ = build(tmp_path / "small", grown(seed_docs(), 4))
    large_out, large = build(tmp_path / "large", grown(seed_docs(), 40))

    def largest(out, folder):
        return max(p.stat().st_size for p in (out / folder).glob("*.js"))

    assert large["docs"] == 2000 and large["shards"] > 10
    for folder in ("p", "d"):
        assert largest(large_out, folder) <= 1.5 * largest(small_out, folder) + 2_000, folder
    assert largest(large_out, "l") <= search_lexicon.LEX_BYTES + 4_000
    for shard in (large_out / "p").glob("*.js"):
        assert all(len(head) <= 2 + 3 * si.FIRST_PAGE for head in read_js(shard).values())
    # The manifest grows with the lexicon files only, a short prefix each.
    assert (large_out / "manifest.js").stat().st_size < 2_500 + 12 * large["lexicon"]


def test_the_engine_ships_its_code_without_comments():
    from kb.site.pages import TEMPLATES

    source = (TEMPLATES / "static" / "search-engine.js").read_text(encoding="utf-8")
    shipped = si.engine().split("\n")
    assert shipped[0].startswith("/*") and "/*" not in "\n".join(shipped[1:])
    assert len(si.engine()) < 0.8 * len(source)
    # Each line shipped is a line of the source, in order (the browser tests run it).
    lines = iter(line.strip() for line in source.split("\n"))
    assert all(any(line in other for other in lines) for line in shipped[1:] if line)
