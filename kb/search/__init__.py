"""Search: the whoosh index of the rulings (a build stage) and queries over it.

One whoosh document per *group and language*: a group (a ruling and its translations,
:mod:`kb.align`) has at most one text per language, carried by one or many cards. The document
holds that text in its language's field (``text_fr``…, analysed by :mod:`kb.search.analysis` for the
language), the names of the cards carrying it in ``title_<lang>`` (matched by free words,
weighted lower) and as keys for the ``card:`` filter, and the group's id, rule numbers
and the rulings' dates for the filters. A ruling printed word for word on 2,000 cards is one
document, scored once.

A query (:mod:`kb.search.query`) is analysed for every language it may be in and run once per
language, each run keeping its best documents with whoosh's block-skipping top-N collector; a
group's score is its best language's, so merging the runs gives the best groups exactly, one
hit per group, shown in the language the reader asks for (else the one that matched).

Words missing from the index's vocabulary are taken as typos: they match the terms within edit
distance 1 (words up to 7 letters) or 2 (longer), found with whoosh's automaton over the
vocabulary, weighted lower than exact matches. Glossary terms of a concept named in the query,
in English or any ruling language, add that concept's terms in every language.

On a rebuild that reuses the previous build (:mod:`kb.pipeline.incremental`), the previous index is
copied and only the documents that changed are replaced (a digest per document in
``index/documents.json`` tells which; German compound splits made before are in
``index/compounds.json``, so no dictionary is loaded for words seen before).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import math
import re
import shutil
import threading
from functools import lru_cache
from dataclasses import asdict, dataclass, field
from pathlib import Path

import functools
import sys
import types


def _stdlib_cached_property() -> None:
    """Let whoosh's one ``cached_property`` be the standard library's.

    whoosh imports the ``cached_property`` package for one decorator; that package imports
    asyncio, a sixth of a ``kb search`` command's time. When nothing has imported the package
    yet, a module holding :func:`functools.cached_property` (same caching) stands in for it.
    """
    if "cached_property" not in sys.modules:
        shim = types.ModuleType("cached_property")
        shim.cached_property = functools.cached_property
        sys.modules["cached_property"] = shim


@contextlib.contextmanager
def _deferred(module: str, names: list[str]):
    """While whoosh is imported, let ``module`` (if not loaded yet) be a stand-in whose
    functions ``names`` import the real module when first called. whoosh imports
    ``urllib.request`` (http, email, ssl) for one download helper and ``whoosh.lang.morph_en``
    (a large regex) for English word variations: neither is used here, and together they are
    35 ms of every ``kb search`` command. The stand-in is gone afterwards: a later import
    gets the real module."""
    if module in sys.modules:
        yield
        return
    shim = types.ModuleType(module)
    for name in names:
        def call(*args, _name=name, **kwargs):
            import importlib

            return getattr(importlib.import_module(module), _name)(*args, **kwargs)
        setattr(shim, name, call)
    sys.modules[module] = shim
    try:
        yield
    finally:
        if sys.modules.get(module) is shim:
            del sys.modules[module]


_stdlib_cached_property()

with _deferred("urllib.request", ["urlretrieve"]), \
        _deferred("whoosh.lang.morph_en", ["variations"]):
    from whoosh import index as whoosh_index  # noqa: E402
    from whoosh import query as Q  # noqa: E402
    from whoosh.collectors import FilterCollector, TopCollector  # noqa: E402
    from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema  # noqa: E402
    from whoosh.filedb.filestore import FileStorage  # noqa: E402
    from whoosh.matching.wrappers import FilterMatcher, WrappingMatcher  # noqa: E402

    from kb.search import exhaustive  # noqa: E402  (whoosh's codec and scoring)

from kb.search import analysis  # noqa: E402
from kb.errors import KbError  # noqa: E402
from kb.corpus.languages import LANGUAGES  # noqa: E402
from kb.search.query import Query, QueryError, parse  # noqa: E402

TYPO_WEIGHT = {1: 0.7, 2: 0.5}  # a corrected word counts less than a word typed right
TITLE_BOOST = 0.5  # a word of the card name counts less than one of the ruling
GLOSSARY_WEIGHT = 0.6
MAX_CORRECTIONS = 4
MAX_WORD = 40  # longer "words" are never in the vocabulary: no typo search for them
#: Extra hits fetched under a card: filter, for those whose card words are not in one name.
CARD_SLACK = 10
DIGESTS = "documents.json"
CARDS = "cards.json"
COMPOUNDS = "compounds.json"
#: Above this share of changed groups, rewriting the index is as quick as patching it.
PATCH_LIMIT = 0.2


@dataclass
class Hit:
    """One result: a group, shown by one of its rulings."""

    group: str
    lang: str
    card: str
    text: str
    score: float
    id: str = ""
    date: str = ""
    rules: list[str] = field(default_factory=list)
    source: str = ""
    matched_lang: str = ""  # the language whose text matched, if another is shown
    cards: int = 1  # how many cards carry the shown text

    def as_dict(self) -> dict:
        return asdict(self)


# --- building ---------------------------------------------------------------------------------

def index_dir_for(db_path: str | Path) -> Path:
    """Where the index of a store lives: ``index/`` next to ``rulings.db``."""
    return Path(db_path).parent / "index"


def schema(method: str = analysis.DEFAULT_METHOD) -> Schema:
    fields = {
        "key": ID(unique=True), "group": ID(stored=True), "lang": ID(stored=True),
        "dates": KEYWORD(), "rules": KEYWORD(stored=True, scorable=False),
        "cards": KEYWORD(scorable=False),
        "shown": STORED(),
    }
    for lang in LANGUAGES:
        fields[f"text_{lang}"] = TEXT(analyzer=analysis.LanguageAnalyzer(lang, method))
        fields[f"title_{lang}"] = TEXT(analyzer=analysis.LanguageAnalyzer(lang, method),
                                       phrase=False, field_boost=TITLE_BOOST)
    return Schema(**fields)


def build_stage(ctx) -> None:
    """Pipeline stage "index": write the whoosh index to ``ctx.work / "index"``.

    A reused build patches a copy of the previous index with the groups that changed.
    """
    previous = ctx.extra.get("previous") if ctx.extra.get("reused") else None
    ctx.extra["index"] = build_index(ctx.db, ctx.work / "index",
                                     previous=Path(previous) / "index" if previous else None,
                                     changed=ctx.extra.get("changed_groups"))


def build_index(db, index_dir: str | Path, method: str = analysis.DEFAULT_METHOD,
                previous: Path | None = None, changed: set[str] | None = None) -> dict:
    """Write the index of every group in the store; return ``{"documents", "written"}``.

    With ``previous`` (an index built by the same code), copy it and rewrite only the
    documents (a group in one language) whose digest differs. ``changed``: the only groups
    whose documents can differ from ``previous`` (the alignment's ``changed_groups``; None:
    any), so that only they are read from the store.
    """
    index_dir = Path(index_dir)
    old = _read_json(previous / DIGESTS) if previous is not None else None
    if old is None:
        return _write_all(db, index_dir, method)
    docs = {doc["key"]: doc for group in group_documents(db, changed).values() for doc in group}
    digests = {key: _digest(doc) for key, doc in docs.items()}
    if changed is not None:  # the other groups' documents are the previous ones
        digests.update((k, d) for k, d in old.items() if k.partition("\t")[0] not in changed)
    todo = sorted(k for k, d in digests.items() if old.get(k) != d)
    gone = sorted(set(old) - set(digests))
    if len(todo) + len(gone) > PATCH_LIMIT * max(1, len(digests)):
        del docs
        return _write_all(db, index_dir, method)  # as quick as patching, and a tidy index
    shutil.copytree(previous, index_dir)
    if not (todo or gone):  # the same index, file for file
        return {"documents": len(digests), "written": 0}
    analysis.remember_compounds(_read_json(index_dir / COMPOUNDS) or {})
    writer = whoosh_index.open_dir(str(index_dir)).writer(limitmb=POOL_MB)
    for key in gone + todo:
        writer.delete_by_term("key", key)
    _add(writer, (docs[key] for key in todo), len(todo))
    writer.commit(optimize=False)
    _finish(db, index_dir, digests)
    return {"documents": len(digests), "written": len(todo)}


#: whoosh's posting pool, in MB: 256 held 620 MB at 100k rulings, 64 holds 400 MB in the same
#: time (it spills sorted runs to disk and merges them).
POOL_MB = 64


def _write_all(db, index_dir: Path, method: str) -> dict:
    """Write a new index of every document, streamed from the store group by group."""
    index_dir.mkdir(parents=True, exist_ok=True)
    writer = whoosh_index.create_in(str(index_dir), schema(method)).writer(limitmb=POOL_MB)
    digests: dict[str, str] = {}
    _add(writer, _all_documents(db), _document_count(db), digests)
    writer.commit(optimize=True)
    write_glossary(index_dir, method)
    _finish(db, index_dir, digests)
    return {"documents": len(digests), "written": len(digests)}


def _add(writer, documents, total: int, digests: dict[str, str] | None = None) -> None:
    """Add ``documents`` to the index (recording each one's digest in ``digests``)."""
    from kb.pipeline.progress import progress

    with progress("index", total) as advance:
        for doc in documents:
            if digests is not None:
                digests[doc["key"]] = _digest(doc)
            writer.add_document(**doc)
            advance()


def _finish(db, index_dir: Path, digests: dict[str, str]) -> None:
    """What a reused build and ``card:`` need besides the index itself."""
    _write_json(index_dir / DIGESTS, digests)
    _write_json(index_dir / COMPOUNDS, analysis.known_compounds())
    _write_json(index_dir / CARDS, _card_names(db))
    _forget(index_dir)
    _glossary_table.cache_clear()


def _write_json(path: Path, table: dict) -> None:
    path.write_text(json.dumps(table, sort_keys=True, ensure_ascii=False), encoding="utf-8")


def _forget(index_dir: Path) -> None:
    with _LOCK:
        held = _OPEN.pop(str(index_dir.resolve()), None)
    if held is not None:
        held[2].close()


def _read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _digest(doc: dict) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True, ensure_ascii=False).encode()
                          ).hexdigest()[:24]


def group_documents(db, only: set[str] | None = None) -> dict[str, list[dict]]:
    """{group id: its whoosh documents, one per language} from the store (of the groups
    ``only``, if given).

    The ruling a hit shows in a language is the first of the group in the store's order (card
    name, file, position); ``shown`` keeps it, with the number of cards carrying the text.
    """
    from kb import store

    groups, rules = group_map(db, only)
    by_group: dict[str, dict[str, list[dict]]] = {}
    rows = store.rulings(db) if only is None else store.rulings(db, ids=sorted(groups))
    for row in rows:
        if row["lang"] in LANGUAGES:
            group = groups.get(row["id"], row["id"])
            by_group.setdefault(group, {}).setdefault(row["lang"], []).append(row)
    return {gid: [_document(gid, lang, rows, rules.get(gid, ()))
                  for lang, rows in sorted(per_lang.items())]
            for gid, per_lang in by_group.items()}


_INDEXED = f"r.lang IN ({', '.join(repr(lang) for lang in LANGUAGES)})"


def _all_documents(db):
    """Every document in key order, read from the store in one pass, group by group, so that
    the corpus is never all in memory (as :func:`group_documents`, when every ruling has a
    group)."""
    names = set(db.table_names())
    orphans = "memberships" not in names or db.execute(
        "SELECT EXISTS (SELECT 1 FROM rulings r LEFT JOIN memberships m ON m.ruling_id = r.id "
        "WHERE m.ruling_id IS NULL)").fetchone()[0]
    if orphans:  # before alignment, a ruling is a group of its own
        docs = {doc["key"]: doc for group in group_documents(db).values() for doc in group}
        yield from (docs[key] for key in sorted(docs))
        return
    rules = _rules(db)
    rows = db.query(
        "SELECT r.*, c.name AS card, m.group_id AS group_id FROM rulings r "
        "JOIN cards c ON c.id = r.card_id JOIN memberships m ON m.ruling_id = r.id "
        f"WHERE {_INDEXED} ORDER BY m.group_id, r.lang, c.name, r.source, r.position")
    for (gid, lang), run in itertools.groupby(rows, key=lambda r: (r["group_id"], r["lang"])):
        yield _document(str(gid), lang, list(run), rules.get(str(gid), ()))


def _document_count(db) -> int:
    return db.execute("SELECT COUNT(*) FROM (SELECT DISTINCT coalesce(m.group_id, r.id), r.lang "
                      "FROM rulings r LEFT JOIN memberships m ON m.ruling_id = r.id "
                      f"WHERE {_INDEXED})").fetchone()[0] \
        if "memberships" in db.table_names() else 0


def _document(gid: str, lang: str, rows: list[dict], rules) -> dict:
    cards = list(dict.fromkeys(r["card"] for r in rows))
    first = rows[0]
    return {"key": f"{gid}\t{lang}", "group": gid, "lang": lang, "rules": " ".join(rules),
            "dates": " ".join(sorted({r["date"] for r in rows})),
            "shown": [first["id"], first["card"], first["date"], first["source"], first["text"],
                      len(cards)],
            f"text_{lang}": "\n".join(dict.fromkeys(r["text"] for r in rows)),
            f"title_{lang}": "\n".join(cards),
            "cards": " ".join(dict.fromkeys(w for card in cards for w in analysis.card_key(card)))}


def name_key(name: str) -> str:
    """A card name as the ``card:`` filter compares it: its folded words, space-separated."""
    return " ".join(analysis.card_key(name))


def group_map(db, only: set[str] | None = None) -> tuple[dict[str, str], dict[str, list[str]]]:
    """``({ruling id: group id}, {group id: [rule numbers]})`` from the alignment's tables (of
    the groups ``only``, if given).

    Before alignment has run (no ``memberships`` table) each ruling is its own group.
    """
    groups: dict[str, str] = {}
    if "memberships" in db.table_names():
        for where, params in _groups_where(only):
            groups.update((r, str(g)) for r, g in db.execute(
                f"SELECT ruling_id, group_id FROM memberships{where}", params))
    return groups, _rules(db, only)


def _rules(db, only: set[str] | None = None) -> dict[str, list[str]]:
    """{group id: its rule numbers, sorted} (of the groups ``only``, if given)."""
    rules: dict[str, list[str]] = {}
    if "group_rules" in db.table_names():
        for where, params in _groups_where(only):
            for g, n in db.execute(f"SELECT group_id, rule FROM group_rules{where} ORDER BY 1, 2",
                                   params):
                rules.setdefault(str(g), []).append(n)
    return rules


def _groups_where(only: set[str] | None) -> list[tuple[str, list]]:
    """(SQL condition, parameters) pairs that select the groups ``only`` (in chunks, as SQLite
    limits parameters), or one pair selecting every group."""
    from kb import store

    if only is None:
        return [("", [])]
    return [(f" WHERE group_id IN ({', '.join('?' for _ in chunk)})", chunk)
            for chunk in store.chunks(sorted(only))]


# --- searching --------------------------------------------------------------------------------

_OPEN: dict[str, tuple] = {}
_LOCK = threading.Lock()


def open_index(index_dir: str | Path, mapped: bool = True):
    """The whoosh index in ``index_dir``, opened once per process (see :func:`search`)."""
    return _opened(index_dir, mapped)[1]


def _opened(index_dir: str | Path, mapped: bool = True) -> tuple:
    """(identity, index, searcher, lock) of ``index_dir``, kept open between queries.

    Opening a searcher reads every segment file's header (tens of ms at 100k rulings), so it
    is done once; a rebuild swaps in a new folder, whose identity (inode, mtime) differs.
    """
    key = str(Path(index_dir).resolve())
    with _LOCK:
        try:
            stat = Path(key).stat()
            identity = (stat.st_ino, stat.st_mtime_ns)
        except OSError:
            identity = None
        held = _OPEN.get(key)
        if held is None or held[0] != identity:
            if identity is None or not whoosh_index.exists_in(key):
                raise KbError(f"no search index in {index_dir}: run `kb build` first or pass --db")
            ix = FileStorage(key, readonly=True, supports_mmap=mapped).open_index()
            if held is not None:
                held[2].close()
            held = _OPEN[key] = (identity, ix, ix.searcher(), threading.Lock())
        return held


def search(index_dir: str | Path, query: str | Query, lang: str | None = None,
           limit: int = 10, mapped: bool = True) -> list[Hit]:
    """The best groups for ``query``, one hit per group, best first.

    ``lang`` shows each group by its ruling in that language (falling back to the language
    that matched when the group has none). ``mapped``: map the index's files into memory when
    this process opens it; whoosh then copies each file it opens whole into a BytesIO (about
    35 ms at 100k rulings), which pays for a process answering many queries (in-process p95
    51 ms mapped, 69 ms read) but not for one (``kb search``). Raises
    :class:`kb.search.query.QueryError` for a query that cannot be run, :class:`kb.errors.KbError`
    for a missing index.
    """
    if lang is not None and lang not in LANGUAGES:
        raise KbError(f"unknown language {lang!r} (use one of {', '.join(LANGUAGES)})")
    parsed = parse(query) if isinstance(query, str) else query
    limit = max(1, limit)
    identity, _, searcher, lock = _opened(index_dir, mapped)
    with lock:  # a whoosh searcher reads its files by seeking: one query at a time
        runs, filters = compile_query(parsed, searcher, index_dir)
        allowed = _allowed(filters, searcher) if filters else None
        if allowed is not None and not allowed:
            return []
        wanted = limit + (CARD_SLACK if parsed.cards else 0)  # some may fail the name check
        if runs:
            found, bar = [], 0.0
            bounds = {run: exhaustive.bound(searcher, compiled) for run, compiled in runs.items()}
            for run in sorted(runs, key=bounds.get, reverse=True):  # the likely best first
                if bounds[run] > bar:  # else no document of that run can rank
                    ranked = _run(searcher, runs[run], wanted, bar, allowed, bounds[run])
                    found += ranked
                    bar = max(bar, _bar(ranked, wanted))
        else:  # filters alone: the documents that pass, in index order, unscored
            found = [(0.0, docnum) for docnum in sorted(allowed or ())]
        best: dict[str, tuple] = {}
        for key, docnum in sorted(found):
            fields = searcher.stored_fields(docnum)
            best.setdefault(fields["group"], (0.0 - key, fields))
            if not runs and len(best) >= wanted:
                break
        # Ties go by group id, not document number: a patched index appends changed groups.
        ranked = sorted(best.values(), key=lambda item: (-item[0], item[1]["group"]))
        names = _card_filter_names(parsed, index_dir, identity) if parsed.cards else None
        with _store(index_dir if parsed.cards or parsed.dates else None) as store:
            hits = (_hit(searcher, fields, score, lang, parsed, store, names)
                    for score, fields in ranked)
            return list(itertools.islice((hit for hit in hits if hit is not None), limit))


def _run(searcher, compiled, wanted: int, floor: float, allowed: set[int] | None,
         bound: float) -> list[tuple[float, int]]:
    """The ``wanted`` best (-score, document number) pairs of one language's run, above
    ``floor`` (``bound``: the most a document can score on it).

    Runs go best bound first, so the first sets a bar the others must clear. The first has
    no bar to skip by: :mod:`kb.search.exhaustive` scores its every posting at once (about 1 µs
    each). The others go to whoosh's collector, which skips the blocks under the bar, until
    it has scored as many documents as scoring everything at once would cost
    (:data:`POSTINGS_PER_DOC`); thousands of card-specific rulings scoring alike leave it
    nothing to skip, at 15 µs a document. A phrase is the collector's to the end.
    """
    scorable = bound != math.inf
    if not floor and scorable:
        ranked = exhaustive.top(searcher, compiled, wanted, floor, allowed)
        if ranked is not None:
            return ranked
    postings = sum(searcher.doc_frequency(*term) for term in compiled.iter_all_terms())
    budget = postings // POSTINGS_PER_DOC if scorable else None
    top = _TopGroups(limit=wanted, floor=floor, budget=budget)
    collector = top if allowed is None else FilterCollector(top, allow=allowed)
    context = exhaustive.whoosh_context(searcher)  # the same sums as kb.search.exhaustive's
    try:
        searcher.search_with_collector(compiled, collector, context)
    except _OverBudget:
        ranked = exhaustive.top(searcher, compiled, wanted, floor, allowed)
        if ranked is not None:
            return ranked
        top.budget = None
        searcher.search_with_collector(compiled, collector, context)
    return [(-score, -negated) for score, negated in top.items]


def _bar(ranked: list[tuple[float, int]], wanted: int) -> float:
    """A score the next language's runs must beat: a little under the ``wanted``-th best of
    one run's ``ranked`` (-score, docnum) pairs. A run's documents are distinct groups, so
    ``wanted`` groups already score at least this much and a document below it cannot rank;
    ties and sums added in another order stay in (:data:`TIE`). (Pairs from several runs
    would not do: a group found in two languages would count twice.)"""
    if len(ranked) < wanted:
        return 0.0
    return -max(ranked)[0] * (1 - TIE)


class _Boosted(WrappingMatcher):
    """whoosh's boost wrapper, with two mistakes of its mended.

    whoosh's ``next`` drops the child's "entered a new block" answer, so under a boosted term
    the collector never checks block quality again and scores every document (at 100k
    rulings, 6,000 documents for "initiative" instead of 400); and its ``replace`` hands the
    child the bar unscaled, which under a boost above 1 may drop a term that could still
    clear it. (whoosh's skipping over an intersection with a filter also loses hits, which is
    why filters are applied as document sets, never inside the scored query.)
    """

    def next(self):
        return self.child.next()

    def replace(self, minquality=0):
        child = self.child.replace(minquality / self.boost if minquality else 0)
        return self if child is self.child else self._replacement(child)


exhaustive.SCALERS.add(_Boosted)


class _Live(FilterMatcher):
    """whoosh's filter of deleted documents (a patched index has some), mended the same way.

    whoosh's ``next`` and ``skip_to`` drop the "new block" answer, and a skip by quality
    lands wherever the child stops, deleted or not; here the deleted are stepped over after
    every move.
    """

    def next(self):
        moved = self.child.next()
        return self._find_next() or moved

    def skip_to(self, id):
        moved = self.child.skip_to(id)
        return self._find_next() or moved

    def skip_to_quality(self, minquality):
        skipped = self.child.skip_to_quality(minquality / self.boost)
        self._find_next()
        return skipped


exhaustive.FILTERS.add(_Live)


class _Term(Q.Term):
    """A term whose matcher skips blocks correctly: boost in :class:`_Boosted`, deleted
    documents in :class:`_Live`."""

    def matcher(self, searcher, context=None):
        matcher = Q.Term(self.fieldname, self.text).matcher(searcher, context)
        if type(matcher) is FilterMatcher:  # the segment has deleted documents
            if getattr(context, "deleted_above", False):  # filtered above the whole query
                matcher = matcher.child
            else:
                matcher = _Live(matcher.child, matcher._ids, exclude=matcher._exclude)
        return _Boosted(matcher, self.boost) if self.boost != 1.0 else matcher


#: Scoring a document in whoosh's collector costs about as much as reading and scoring this
#: many postings at once (:mod:`kb.search.exhaustive`): about 15 µs against 1 µs here (100k rulings).
POSTINGS_PER_DOC = 15


class _OverBudget(Exception):
    """The collector has scored as many documents as scoring everything at once costs."""


#: Scores within this share of each other count as ties: a block's bound is the same sum as a
#: score, added up in another order.
TIE = 1e-9


class _TopGroups(TopCollector):
    """whoosh's top-N collector, but skipping from the moment the top N is full.

    whoosh raises its skipping bar only when a document beats the N-th best, so when thousands
    of groups score alike (a ruling made card-specific by a number) it scores every one.
    Setting the bar once the heap is full skips whole blocks that cannot beat it: a tie never
    enters the top N (the earlier document wins it), so the results are the same. A block's
    bound is the same sum as a score added up in another order, so scores within
    :data:`TIE` of each other count as ties.
    """

    def __init__(self, limit: int = 10, floor: float = 0.0, budget: int | None = None,
                 **kwargs):
        super().__init__(limit=limit, **kwargs)
        self.floor = floor  # no document at or under it can rank (an earlier run's bar)
        self.budget = budget  # documents it may score before giving up (_OverBudget)

    def prepare(self, top_searcher, q, context):
        super().prepare(top_searcher, q, context)
        self.minscore = self.floor

    def set_subsearcher(self, subsearcher, offset):
        """A segment's deleted documents (a patched index has a few) are stepped over once,
        above the whole query, not under each of its terms: a wrapper per term cost every
        document one more call per term (at 100k rulings, p95 50 -> 80 ms once patched)."""
        deleted = getattr(subsearcher.reader(), "deleted_docs_set", None)
        if not deleted:
            return super().set_subsearcher(subsearcher, offset)
        self.subsearcher, self.offset = subsearcher, offset
        tree = self.q.matcher(subsearcher, self.context.set(deleted_above=True))
        self.matcher = _Live(tree, deleted, exclude=True)

    def _collect(self, global_docnum, score):
        if self.budget is not None:
            self.budget -= 1
            if self.budget < 0:
                raise _OverBudget
        if score <= self.floor:
            return 0
        key = super()._collect(global_docnum, score)
        if len(self.items) == self.limit:
            self.minscore = max(self.floor, self.items[0][0] * (1 + TIE))
        return key


def _hit(searcher, fields: dict, score: float, requested: str | None, query: Query,
         store, names: list[str] | None) -> Hit | None:
    """The hit of a matched document, shown in ``requested`` if the group has it; None when a
    ``card:`` filter's words are in the document's names but not in order in one of them."""
    matched = fields["lang"]
    rid, card, date, source, text, cards = fields["shown"]
    if store is not None:  # show a ruling that passes card: and date filters, not the first
        row = _member(store, fields["group"], matched, query, names)
        if row is None and query.cards:
            return None
        if row is not None:
            rid, card, date, source, text = (row["id"], row["card"], row["date"],
                                             row["source"], row["text"])
    if requested and requested != matched:
        other = searcher.document(group=fields["group"], lang=requested)
        if other is not None:
            fields = other
            rid, card, date, source, text, cards = other["shown"]
    return Hit(group=fields["group"], lang=fields["lang"], card=card, text=text,
               score=round(float(score), 4), id=rid, date=date,
               rules=fields.get("rules", "").split(), source=source, matched_lang=matched,
               cards=cards)


@contextlib.contextmanager
def _store(index_dir: str | Path | None):
    """The store next to the index, read only, for one query's hits; None when there is
    none (or ``index_dir`` is None: nothing to look up)."""
    from kb.store import read_only  # only queries with card: or date filters need it

    db = Path(index_dir).parent / "rulings.db" if index_dir is not None else None
    if db is None or not db.is_file():
        yield None
        return
    with read_only(db) as conn:
        yield conn


def _member(store, group: str, lang: str, query: Query, names: list[str] | None) -> dict | None:
    """The group's first ruling in ``lang`` (store order) whose card and date pass the
    query's filters; None if there is none."""
    # A card's id is "lang:name" (kb.store): a few names lead to their rulings by index;
    # many (card:chasseur on 2,000 cards) are checked on the group's rulings instead.
    ids = [f"{lang}:{name}" for name in names or ()]
    by_card = query.cards and len(ids) <= 50
    source = ("rulings r CROSS JOIN memberships m ON m.ruling_id = r.id" if by_card else
              "memberships m CROSS JOIN rulings r ON r.id = m.ruling_id")
    where = f" AND r.card_id IN ({', '.join('?' * len(ids))})" if by_card else ""
    try:
        rows = store.execute(
            f"""SELECT r.id, r.date, r.source, r.text, r.card_id, c.name AS card
                FROM {source} JOIN cards c ON c.id = r.card_id
                WHERE m.group_id = ? AND r.lang = ?{where}
                ORDER BY c.name, r.source, r.position""",
            (group, lang, *(ids if by_card else ()))).fetchall()
    except store.Error:  # sqlite3.Error, as the connection names it
        return None
    wanted = set(ids) if query.cards else None
    return next((dict(r) for r in rows
                 if (wanted is None or r["card_id"] in wanted)
                 and all(_date_passes(r["date"], op, value) for op, value in query.dates)), None)


def _card_names(db) -> dict[str, list[str]]:
    """{name key: the card names with that key} of every card with an indexed ruling."""
    table: dict[str, set[str]] = {}
    for (name,) in db.execute(
            "SELECT DISTINCT c.name FROM rulings r JOIN cards c ON c.id = r.card_id "
            f"WHERE r.lang IN ({', '.join('?' for _ in LANGUAGES)})", list(LANGUAGES)):
        table.setdefault(name_key(name), set()).add(name)
    return {key: sorted(names) for key, names in table.items()}


@lru_cache(maxsize=8)
def _card_table(index_dir: str, identity) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(" key ", names) of every card name in the index (``identity``: the index's, so a
    rebuilt index is read again)."""
    table = _read_json(Path(index_dir) / CARDS) or {}
    return tuple((f" {key} ", tuple(names)) for key, names in sorted(table.items()))


def _card_filter_names(query: Query, index_dir: str | Path, identity) -> list[str]:
    """The card names passing every ``card:"…"`` filter of the query: its words, in order,
    anywhere in the name."""
    table = _card_table(str(index_dir), identity)
    passing = None
    for card in query.cards:
        want = f" {name_key(card)} "
        named = {name for padded, names in table if want in padded for name in names}
        passing = named if passing is None else passing & named
    return sorted(passing or ())


def _date_passes(date: str, op: str, value: str) -> bool:
    end = value + "\uffff"
    return {"=": date.startswith(value), ">=": date >= value, ">": date > end,
            "<=": date <= end, "<": date < value}[op]


def compile_query(query: Query, searcher, index_dir: str | Path = "") -> tuple[dict, list]:
    """({language: the scored whoosh query run on that language's documents}, [filters]);
    no runs and no filters when no word can match anything."""
    reader = searcher.reader()
    method = searcher.schema[f"text_{LANGUAGES[0]}"].analyzer.method
    langs = query.langs or LANGUAGES
    weights: dict[tuple, float] = {}  # a term asked twice (word and glossary) counts once, more
    for word in query.words:
        per_lang = {lang: analysis.terms(word, lang, method, split=False) for lang in langs}
        for lang, terms, weight in _word_query(word, per_lang, reader):
            weights[lang, terms] = weights.get((lang, terms), 0.0) + weight
    for lang, terms, weight in _glossary_queries(query, langs, method, str(index_dir)):
        weights[lang, terms] = weights.get((lang, terms), 0.0) + weight
    words: dict[str, list] = {}
    for (lang, terms), weight in weights.items():
        words.setdefault(lang, []).append(_in_lang(lang, list(terms), weight))
    phrases = [_phrase_query(p, langs, method) for p in query.phrases]
    filters = _filters(query)
    if not (words or phrases or filters or query.langs):
        _explain_nothing(query.words, langs)
        return {}, []
    runs = {}
    for lang in langs:
        if phrases and not all(lang in p for p in phrases):
            continue  # a phrase with no words in this language: nothing here can match
        scored = ([Q.Or(words[lang])] if words.get(lang) else []) + [p[lang] for p in phrases]
        if not scored:
            continue  # the query's words mean nothing in this language
        run = scored[0] if len(scored) == 1 else Q.And(scored)
        excluded = [q for w in query.excluded if (q := _exact(w, [lang], reader, method))]
        runs[lang] = Q.AndNot(run, Q.Or(excluded)) if excluded else run
    if not runs and query.words and not phrases:
        return {}, []  # words that match nothing: no hits, whatever the filters
    if not runs and query.langs:  # filters alone: only the languages asked for
        filters = [Q.Or([Q.Term("lang", lang) for lang in query.langs])] + filters
    return runs, filters


def _allowed(filters: list, searcher) -> set[int]:
    """The documents passing every filter (filters restrict; they never score)."""
    allowed = None
    for query in filters:
        docs = set(query.docs(searcher))
        allowed = docs if allowed is None else allowed & docs
        if not allowed:
            break
    return allowed or set()


def _explain_nothing(words, langs) -> None:
    """Raise QueryError when the words could never match (no letters, only stop words)."""
    if not any(re.search(r"[^\W_]", w) for w in words):
        raise QueryError("nothing to search for: type some words, a \"phrase\" "
                         "or a filter such as lang:fr")
    if all(any(analysis.fold(w, lang) in analysis.stopwords(lang) for lang in langs)
           for w in words):
        raise QueryError("only very common words (" + " ".join(words[:5]) +
                         "): add a word that says what the ruling is about")


def _in_lang(lang: str, terms: list[str], boost: float = 1.0):
    """All ``terms`` in one language's ruling text or card name."""
    def one(term):
        return Q.Or([_Term(f"text_{lang}", term, boost=boost),
                     _Term(f"title_{lang}", term, boost=boost)])
    return one(terms[0]) if len(terms) == 1 else Q.And([one(t) for t in terms])


def _known(reader, lang: str, term: str) -> int:
    return reader.doc_frequency(f"text_{lang}", term) + reader.doc_frequency(f"title_{lang}", term)


def _word_query(word: str, per_lang: dict[str, list[str]], reader) -> list[tuple]:
    """(language, terms, weight) of the word in every language whose vocabulary has it; else
    of its typo corrections."""
    known = [(lang, tuple(terms), 1.0) for lang, terms in per_lang.items()
             if terms and all(_known(reader, lang, t) for t in terms)]
    return known or _corrections(word, per_lang, reader)


def _corrections(word: str, per_lang: dict[str, list[str]], reader) -> list[tuple]:
    """Terms within edit distance 1 (2 for words of 8+ letters) of the word's term."""
    letters = len(analysis.fold(word))
    if letters < 4 or letters > MAX_WORD:
        return []
    for distance in (1, 2) if letters >= 8 else (1,):
        found = []
        for lang, terms in per_lang.items():
            if len(terms) != 1:
                continue
            for candidate in reader.terms_within(f"text_{lang}", terms[0], distance, prefix=1):
                found.append((reader.doc_frequency(f"text_{lang}", candidate), lang, candidate))
        if found:
            return [(lang, (term,), TYPO_WEIGHT[distance])
                    for _, lang, term in sorted(found, reverse=True)[:MAX_CORRECTIONS]]
    return []


def _exact(word: str, langs, reader, method: str):
    per_lang = {lang: analysis.terms(word, lang, method, split=False) for lang in langs}
    parts = [_in_lang(lang, terms) for lang, terms in per_lang.items() if terms]
    return Q.Or(parts) if parts else None


def _phrase_query(phrase: str, langs, method: str) -> dict[str, object]:
    """{language: query} of a phrase's words in order, in each language it has words in."""
    parts = {}
    for lang in langs:
        terms = analysis.terms(phrase, lang, method, split=False)
        if len(terms) == 1:
            parts[lang] = Q.Term(f"text_{lang}", terms[0])
        elif terms:
            parts[lang] = Q.Phrase(f"text_{lang}", terms)
    if not parts:
        raise QueryError(f'the phrase "{phrase}" has only very common words')
    return parts


def _filters(query: Query) -> list:
    """Card, rule and date filters (the language filter picks which languages are run).

    A ``card:`` filter keeps documents whose card names have all its words; that the words
    come in order in one name is checked on the hits (:func:`_member`).
    """
    out = []
    for card in query.cards:
        words = analysis.card_key(card)
        if not words:
            raise QueryError(f'card:"{card}" has no letters to match a card name')
        out.append(Q.And([Q.Term("cards", word) for word in dict.fromkeys(words)]))
    if query.rules:
        out.append(Q.Or([Q.Or([Q.Term("rules", rule), Q.Prefix("rules", rule + ".")])
                         for rule in query.rules]))
    for op, value in query.dates:
        out.append(_date_query(op, value))  # a group passes when one of its rulings does
    return out


def _date_query(op: str, value: str):
    # ISO prefixes sort like dates; "\uffff" closes a prefix: 2022 <= 2022-06-10 < 2022\uffff.
    end = value + "\uffff"
    if op == "=":
        return Q.Prefix("dates", value)
    if op == ">=":
        return Q.TermRange("dates", value, None)
    if op == ">":
        return Q.TermRange("dates", end, None, startexcl=True)
    if op == "<=":
        return Q.TermRange("dates", None, end)
    return Q.TermRange("dates", None, value, endexcl=True)


def _glossary_queries(query: Query, langs, method: str, index_dir: str) -> list[tuple]:
    """(language, terms, weight) of the terms, in every language searched, of the glossary
    concepts the query's words name.

    A concept is named when one of its terms (in English or any ruling language, analysed
    like the query) appears in the query's words. The table comes from the index folder
    (:func:`write_glossary`), so no YAML is parsed and no regex compiled per query.
    """
    concepts = _glossary_table(index_dir)
    text = " ".join(query.words)
    if not concepts or not text:
        return []
    named = set()
    for source in GLOSSARY_SOURCES:
        words = analysis.terms(text, source, method, split=False)
        named |= {cid for cid, by_lang in concepts.items()
                  if any(_contains(words, term) for term in by_lang.get(source, ()))}
    return [(lang, tuple(term), GLOSSARY_WEIGHT)
            for cid in sorted(named) for lang in langs for term in concepts[cid].get(lang, ())]


def _contains(words: list[str], term: list[str]) -> bool:
    n = len(term)
    return n > 0 and any(words[i:i + n] == term for i in range(len(words) - n + 1))


GLOSSARY_SOURCES = ("en",) + tuple(LANGUAGES)


def write_glossary(index_dir: Path, method: str) -> None:
    """Save the glossary's terms, analysed per language, as ``glossary.json`` in the index."""
    import json

    try:
        from kb.reference import glossary
    except ImportError:  # no glossary yet: no cross-language expansion
        return
    table = {c.id: {lang: [t for t in (analysis.terms(term, lang, method, split=False)
                                       for term in c.terms.get(lang, ())) if t]
                    for lang in GLOSSARY_SOURCES}
             for c in glossary.load().concepts}
    (index_dir / "glossary.json").write_text(json.dumps(table, ensure_ascii=False, sort_keys=True),
                                             encoding="utf-8")


@lru_cache(maxsize=8)
def _glossary_table(index_dir: str) -> dict:
    import json

    path = Path(index_dir) / "glossary.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def render_text(hits: list[Hit]) -> str:
    """Hits as text for a terminal: a heading line per hit, then its text indented."""
    if not hits:
        return "no rulings found"
    import textwrap

    blocks = []
    for rank, hit in enumerate(hits, 1):
        rules = f"  rules {', '.join(hit.rules)}" if hit.rules else ""
        more = f" (and {hit.cards - 1} more cards)" if hit.cards > 1 else ""
        head = (f"{rank}. [{hit.lang}] {hit.card}{more} · {hit.date}{rules}"
                f"  (score {hit.score:.2f})")
        body = textwrap.fill(hit.text, width=96, initial_indent="   ", subsequent_indent="   ")
        blocks.append(f"{head}\n{body}")
    return "\n\n".join(blocks)
