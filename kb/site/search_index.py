"""The browser's search index: ``kb search``'s terms and weights, cut into small files.

``search-engine.js`` cannot run the Python analysis, so the index gives it what the analysis knows:

- a **lexicon** (``l/<n>.js``, :mod:`kb.site.search_lexicon`): every word form of the corpus
  with its terms as ``kb search`` analyses a query word, for exact words, stems of unseen
  inflections, typos and the glossary;
- the **posting lists** (:mod:`kb.site.search_weights`): per term every (group, language) unit
  holding it, with its BM25F weight, best first; a list's first :data:`FIRST_PAGE` entries sit
  in a shard ``p/<n>.js`` (the shard of a term is a hash of its name, so no table of terms is
  needed), the rest in pages ``c/<list>.<k>.js`` growing :data:`PAGE_GROWTH` times each, which
  the browser loads only when they can still change the top results;
- **documents** (``d/<n>.js``, :data:`DOCS_PER_CHUNK` a file): a result's page, language, card,
  text, its group's rules and, for a unit's first ruling, the group's first ruling in each
  language (a result is shown in the reader's language);
- each UI language's rule titles (``r/<ui>.js``) and the dates that occur (``dates.js``, for
  ``date>=`` filters), and ``manifest.js``: counts, the lexicon files, the shard count, and
  per language the endings its stems take in the corpus.

Files are JavaScript (``kbSearch.shard(i, {...})``), not JSON: a page opened from ``file://``
may load scripts but not fetch JSON.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from kb.corpus.languages import LANGUAGES, UI_LANGUAGES
from kb.site import search_lexicon, search_weights
from kb.site.search_lexicon import forms, key
from kb.site.search_state import Texts

__all__ = [
    "DOCS_PER_CHUNK",
    "Facts",
    "analyse",
    "build",
    "document",
    "fnv",
    "forms",
    "group_facts",
    "key",
    "page_bounds",
    "terms",
    "write_index",
]

DOCS_PER_CHUNK = 4  # rulings a file: fewer files to write, more bytes a result brings
FIRST_PAGE = 30  # entries of a list in its shard: the top 10 results of one word, three times
PAGE_GROWTH = 8  # each further page of a list is this many times the one before
SHARD_BYTES = 600  # a shard's target size: a query loads one per term, holding a few


def terms(text: str, lang: str, split: bool = True) -> list[str]:
    """The search analysis of ``text`` (``split=False``: German compounds whole, as a query
    word is analysed)."""
    return search_lexicon.analysis().terms(text, lang, split=split)


@lru_cache(maxsize=200_000)
def _form_terms(form: str, lang: str) -> tuple[str, ...]:
    return tuple(terms(form, lang, split=False))


@lru_cache(maxsize=200_000)
def _key(form: str) -> str:
    return key(form)


def analyse(text: str, lang: str) -> tuple[int, Counter, dict[str, list[str]]]:
    """(number of terms, {term: count}, {folded form: [its terms as a query word]}) of
    ``text``: the index side splits German compounds (so a part finds them), a typed word
    does not (as in ``kb search``)."""
    analysed = terms(text, lang)
    keyed: dict[str, set[str]] = defaultdict(set)
    for form in set(forms(text)):
        keyed[_key(form)].update(f"{lang}:{t}" for t in _form_terms(form, lang))
    return (
        len(analysed),
        Counter(f"{lang}:{t}" for t in analysed),
        {folded: sorted(keys) for folded, keys in keyed.items()},
    )


@dataclass
class Facts:
    """What the store knows of each group beyond its texts, by group number: its rules (best
    first) and, per language index, its rulings' dates. Rules title the results and, with
    dates, feed the ``rule:`` and ``date`` filters."""

    rules: list[list[str]]
    dates: list[dict[int, list[str]]]


def group_facts(db, groups: list[str]) -> Facts:
    """The :class:`Facts` of the groups ``groups`` (ids, in the index's order) from the store."""
    number = {g: n for n, g in enumerate(groups)}
    rules: list[list[str]] = [[] for _ in groups]
    dates: list[dict[int, list[str]]] = [{} for _ in groups]
    tables = set(db.table_names())
    if "group_rules" in tables:
        for group, rule in db.execute(
            "SELECT group_id, rule FROM group_rules ORDER BY group_id, rank, rule"
        ):
            if group in number:
                rules[number[group]].append(rule)
    if "memberships" in tables:
        for group, lang, date in db.execute(
            "SELECT DISTINCT m.group_id, r.lang, r.date FROM memberships m "
            "JOIN rulings r ON r.id = m.ruling_id ORDER BY 1, 2, 3"
        ):
            if group in number and lang in LANGUAGES and date:
                dates[number[group]].setdefault(LANGUAGES.index(lang), []).append(date)
    return Facts(rules, dates)


def build(
    docs: list[dict],
    urls: list[str],
    out: Path,
    groups: list[int] | None = None,
    write=None,
    facts: Facts | None = None,
) -> dict:
    """Write the index of the rulings ``docs`` under ``out`` (``search/``); return its figures.

    ``urls[i]`` is the page of ``docs[i]`` inside a UI language's tree and ``groups[i]`` the
    number of its ruling group (default: every document its own group; a group's documents
    must follow each other, in language order); ``facts``: the groups' rules and dates.
    ``write(path, text)`` writes a file (default: :meth:`Path.write_text`). The site builds
    through :func:`write_index`, which can keep a previous build's files and analyses
    (:mod:`kb.site.search_state`)."""
    texts = Texts(analyse)
    parts = np.array(
        [(texts.number(d["card"], d["lang"]), texts.number(d["text"], d["lang"])) for d in docs],
        dtype=np.int64,
    ).reshape(-1, 2)
    group_of = list(range(len(docs))) if groups is None else list(groups)
    return write_index(
        out,
        parts,
        group_of,
        texts,
        lambda number: [document(r, u) for r, u in zip(*_chunk(number, docs, urls))],
        write or _write_text,
        facts=facts,
    )


def _chunk(number: int, *columns):
    return [column[number * DOCS_PER_CHUNK : (number + 1) * DOCS_PER_CHUNK] for column in columns]


def write_index(
    out: Path,
    parts: np.ndarray,
    group_of: list[int],
    texts: Texts,
    chunk,
    write,
    keep=None,
    facts: Facts | None = None,
) -> dict:
    """Write the index of the documents ``parts`` (each one's card name and text as ``texts``
    numbers; ``group_of[d]``: its group's number; a group's documents follow each other)
    under ``out``. ``chunk(number)``: the document summaries (:func:`document`) of a chunk
    file; ``keep(path, number)`` may keep that chunk's file from a previous build instead
    (-> True) so it is never made; ``write(path, text)`` writes a file; ``facts``: the
    groups' rules and dates (:func:`group_facts`; without them no rule titles, ``rule:`` or
    date filters)."""
    parts = np.asarray(parts, dtype=np.int64).reshape(-1, 2)
    groups = np.asarray(group_of, dtype=np.int64)
    found = search_weights.units(parts, groups, texts.arrays()[0])
    lists = [
        search_weights.scored(parts, found, texts),
        search_weights.filters(parts, found, texts, facts),
    ]
    out.mkdir(parents=True, exist_ok=True)
    group_first = np.full(int(groups.max()) + 1 if len(groups) else 0, len(groups), dtype=np.int64)
    np.minimum.at(group_first, groups, np.arange(len(groups), dtype=np.int64))
    shards, pages = _write_lists(out, lists, group_first, write)
    lexicon = search_lexicon.lexicon(texts.form_map(np.unique(parts)), lists[0].df())
    (out / "l").mkdir()
    for number, (_, body) in enumerate(lexicon):
        _write_js(write, out / "l" / f"{number}.js", f"kbSearch.lexicon({number},", body)
    (out / "g").mkdir()
    for number, body in enumerate(search_lexicon.concept_files()):
        _write_js(write, out / "g" / f"{number}.js", f"kbSearch.concept({number},", body)
    write(out / "engine.js", engine())
    _write_chunks(out, found, groups, facts, chunk, write, keep, len(parts))
    _write_rules(out, facts, write)
    dates = sorted(
        {d for by_lang in (facts.dates if facts else ()) for ds in by_lang.values() for d in ds}
    )
    _write_js(write, out / "dates.js", "kbSearch.dates(", dates)
    manifest = {
        "version": 2,
        "docs": len(parts),
        "docsPerChunk": DOCS_PER_CHUNK,
        "shards": shards,
        "firstPage": FIRST_PAGE,
        "pageGrowth": PAGE_GROWTH,
        "langs": list(LANGUAGES),
        "lexicon": [prefix for prefix, _ in lexicon],
        "endings": search_lexicon.endings(texts, lists[0].df()),
        "facts": facts is not None,
    }
    _write_js(write, out / "manifest.js", "kbSearch.manifest(", manifest)
    return {
        "docs": len(parts),
        "units": len(found.group),
        "terms": len(lists[0].names),
        "shards": shards,
        "pages": pages,
        "lexicon": len(lexicon),
        "texts_analysed": texts.analysed,
    }


def fnv(text: str) -> int:
    """FNV-1a (32 bits) over the UTF-16 code units of ``text`` (keep in step with ``fnv`` in
    search-engine.js): which shard holds a term's list."""
    h = 0x811C9DC5
    units = text.encode("utf-16-le")
    for i in range(0, len(units), 2):
        h = ((h ^ (units[i] | units[i + 1] << 8)) * 0x01000193) & 0xFFFFFFFF
    return h


def _write_lists(out: Path, lists, group_first: np.ndarray, write) -> tuple[int, int]:
    """Write every list's first page into its shard and the rest into pages; -> (shards,
    pages). A list's entries are (document, its distance from its group's first document,
    weight or language), flattened: the browser knows a group by its first document (in the
    groups' order), and a distance takes fewer digits than a group's number."""
    heads, total, continued = {}, 0, 0
    (out / "c").mkdir()
    for found in lists:
        for t, name in enumerate(found.names):
            low, high = int(found.bounds[t]), int(found.bounds[t + 1])
            docs = found.doc[low:high]
            flat = (
                np.stack(
                    (docs, docs - group_first[found.group[low:high]], found.value[low:high]), axis=1
                )
                .reshape(-1)
                .tolist()
            )
            cid = 0
            if high - low > FIRST_PAGE:
                continued += 1
                cid = continued
                for k, (start, end) in enumerate(page_bounds(high - low)[1:], 1):
                    _write_js(
                        write,
                        f"{out}/c/{cid}.{k}.js",
                        f"kbSearch.page({cid},{k},",
                        flat[3 * start : 3 * end],
                    )
            heads[name] = [high - low, cid, *flat[: 3 * FIRST_PAGE]]
            total += len(name) + 8 + len(json.dumps(heads[name], separators=(",", ":")))
    shards = max(1, math.ceil(total / SHARD_BYTES))
    bodies: list[dict] = [{} for _ in range(shards)]
    for name, head in heads.items():
        bodies[fnv(name) % shards][name] = head
    (out / "p").mkdir()
    for number, body in enumerate(bodies):
        _write_js(write, out / "p" / f"{number}.js", f"kbSearch.shard({number},", body)
    return shards, sum(len(page_bounds(int(h[0]))) - 1 for h in heads.values())


def page_bounds(n: int) -> list[tuple[int, int]]:
    """The (start, end) entries of each page of a list of ``n``: the first page, then pages
    :data:`PAGE_GROWTH` times larger each (``pageCount`` in search-engine.js counts them)."""
    bounds, start, size = [(0, min(n, FIRST_PAGE))], FIRST_PAGE, FIRST_PAGE * PAGE_GROWTH
    while start < n:
        bounds.append((start, min(n, start + size)))
        start, size = start + size, size * PAGE_GROWTH
    return bounds


def _write_chunks(
    out: Path, found, groups: np.ndarray, facts: Facts | None, chunk, write, keep, n: int
) -> None:
    """Write the document files: :func:`document`'s summary (its link only ``#anchor`` when
    on the page of the document before it), then the group's rules and, for a unit's first
    document, {language: the group's first document in it}. Both belong to the group alone,
    so a chunk whose documents did not change may be kept as it was."""
    first_of: dict[int, dict[str, int]] = {}  # {group: {language: first document}}
    for unit, doc in enumerate(found.first.tolist()):
        first_of.setdefault(int(found.group[unit]), {})[LANGUAGES[found.lang[unit]]] = doc
    firsts = set(found.first.tolist())
    (out / "d").mkdir()
    prefix = f"{out}/d/"  # a string: 25,000 chunk files at 100k rulings (see Files)
    for number in range(-(-n // DOCS_PER_CHUNK)):
        path = f"{prefix}{number}.js"
        if keep is not None and keep(path, number):
            continue
        entries, page = [], None
        for i, (url, *entry) in enumerate(chunk(number)):
            doc = number * DOCS_PER_CHUNK + i
            group = int(groups[doc])
            here, anchor = url.split("#", 1) if "#" in url else (url, None)
            short = f"#{anchor}" if here == page and anchor is not None else url  # same page
            page = here
            entries.append(
                [
                    short,
                    *entry,
                    facts.rules[group] if facts else [],
                    first_of[group] if doc in firsts else 0,
                ]
            )
        _write_js(write, path, f"kbSearch.docs({number},", entries)


def _write_rules(out: Path, facts: Facts | None, write) -> None:
    """Each UI language's titles of the rules the groups link to."""
    numbers = sorted({r for rules in (facts.rules if facts else ()) for r in rules})
    from kb.core import registry

    titles = {n: registry.RULES[n].title for n in numbers if n in registry.RULES}
    (out / "r").mkdir()
    for ui in UI_LANGUAGES:
        translate = _translator(ui)
        _write_js(
            write,
            out / "r" / f"{ui}.js",
            "kbSearch.rules(",
            {n: translate(t) for n, t in titles.items()},
        )


def _translator(ui: str):
    if ui == "en":
        return str
    from kb.site import i18n

    return i18n.translations(ui).gettext


_COMMENT = re.compile(r"(?:^|(?<=\s))/\*.*?\*/", re.DOTALL | re.MULTILINE)


def engine() -> str:
    """``search-engine.js`` as the index ships it (``search/engine.js``, loaded by search.js on
    a page's first query): without its comments and indentation, a quarter smaller. Its
    comments open at a line's start or after a space, and no string of it holds ``/*``."""
    from kb.site.pages import TEMPLATES

    source = (TEMPLATES / "static" / "search-engine.js").read_text(encoding="utf-8")
    lines = (line.strip() for line in _COMMENT.sub("", source).split("\n"))
    return (
        "/* site_templates/static/search-engine.js, comments and indentation left out */\n"
        + "\n".join(line for line in lines if line)
        + "\n"
    )


def document(ruling: dict, url: str) -> list:
    """What a chunk file shows of a document: [url, language, card, text]."""
    return [url, ruling["lang"], ruling["card"], " ".join(ruling["text"].split())]


def _write_js(write, path: Path | str, prefix: str, data) -> None:
    body = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    write(path, f"{prefix}{body});\n")


def _write_text(path: Path | str, text: str) -> None:
    Path(path).write_text(text, encoding="utf-8")
