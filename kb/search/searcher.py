"""Answering a query: the best groups, one hit per group, best first.

The query is parsed (:mod:`kb.search.query`) and compiled into one scored run per language
and filters (:mod:`kb.search.compiler`); the runs are ranked best bound first, each keeping
only documents above the bar the earlier ones set (:mod:`kb.search.ranking`); a group's
score is its best language's, so merging the runs gives the best groups exactly, each shown
in the language the reader asks for, else the one that matched (:mod:`kb.search.results`).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from kb.corpus.languages import LANGUAGES
from kb.errors import KbError
from kb.search import cards, compiler, exhaustive, handles, ranking, results
from kb.search.query import Query, parse
from kb.search.results import Hit

#: Extra hits fetched under a card: filter, for those whose card words are not in one name.
CARD_SLACK = 10


def search(
    index_dir: str | Path,
    query: str | Query,
    lang: str | None = None,
    limit: int = 10,
    mapped: bool = True,
) -> list[Hit]:
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
    identity, _, searcher, lock = handles.opened(index_dir, mapped)
    with lock:  # a whoosh searcher reads its files by seeking: one query at a time
        runs, filters = compiler.compile_query(parsed, searcher, index_dir)
        allowed = compiler.allowed_documents(filters, searcher) if filters else None
        if allowed is not None and not allowed:
            return []
        wanted = limit + (CARD_SLACK if parsed.cards else 0)  # some may fail the name check
        if runs:
            found, bar = [], 0.0
            bounds = {run: exhaustive.bound(searcher, compiled) for run, compiled in runs.items()}
            for run in sorted(runs, key=lambda run: bounds[run], reverse=True):  # likely best first
                if bounds[run] > bar:  # else no document of that run can rank
                    ranked = ranking.rank(searcher, runs[run], wanted, bar, allowed, bounds[run])
                    found += ranked
                    bar = max(bar, ranking.bar(ranked, wanted))
        else:  # filters alone: the documents that pass, in index order, unscored
            found = [(0.0, docnum) for docnum in sorted(allowed or ())]
        best: dict[str, tuple[float, dict[str, Any]]] = {}
        for key, docnum in sorted(found):
            fields = searcher.stored_fields(docnum)
            best.setdefault(fields["group"], (0.0 - key, fields))
            if not runs and len(best) >= wanted:
                break
        # Ties go by group id, not document number: a patched index appends changed groups.
        ordered = sorted(best.values(), key=lambda item: (-item[0], item[1]["group"]))
        names = cards.filter_names(parsed, index_dir, identity) if parsed.cards else None
        with results.store_beside(index_dir if parsed.cards or parsed.dates else None) as store:
            hits = (
                results.hit_for(searcher, fields, score, lang, parsed, store, names)
                for score, fields in ordered
            )
            return list(itertools.islice((hit for hit in hits if hit is not None), limit))
