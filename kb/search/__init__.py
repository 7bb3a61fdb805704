"""Search: the whoosh index of the rulings (the build stage "index") and queries over it.

**Role.** ``kb build`` writes an index of the aligned groups; ``kb search`` (and the tests,
benchmarks and site checks) asks it queries in any ruling language, with typos, glossary
terms, phrases and filters, and gets the best groups, one hit per group.

**Inputs.** The store's tables ``rulings`` and ``cards`` (:mod:`kb.store`), the alignment's
``memberships`` (:mod:`kb.align`) and the links' ``group_rules`` (:mod:`kb.link`); the
glossary (:mod:`kb.reference.glossary`). Before alignment each ruling is a group of its own.

**Writes** no table: the folder ``index/`` next to ``rulings.db`` (:func:`index_dir_for`),
whoosh's segment files plus ``documents.json``, ``compounds.json``, ``cards.json`` and
``glossary.json`` (:mod:`kb.search.folder` says what each holds).

**Modules**, in the order a query meets them:

- :mod:`~kb.search.whoosh_imports`: importing whoosh without what it loads and kb never
  uses (a ``kb search`` start-up cost); run first, below;
- :mod:`~kb.search.analysis`: per-language words, folding, stemming, German compounds;
- :mod:`~kb.search.documents`, :mod:`~kb.search.build`: the store's groups as whoosh
  documents, and the build stage writing (or patching) the index;
- :mod:`~kb.search.cards`, :mod:`~kb.search.glossary`: the tables of card names and
  glossary terms the build leaves in the index folder and queries read;
- :mod:`~kb.search.query`: the query language; :mod:`~kb.search.compiler`: a parsed query
  as one scored whoosh query per language, plus filters;
- :mod:`~kb.search.handles`: indexes opened once per process;
- :mod:`~kb.search.ranking`, :mod:`~kb.search.matchers`, :mod:`~kb.search.exhaustive`:
  the best documents of each language's run, skipping what cannot rank;
- :mod:`~kb.search.searcher`: :func:`search` itself; :mod:`~kb.search.results`: the hits.

Modules of this package import each other by module (``from kb.search import analysis``),
never names from this ``__init__``, which only re-exports the public API below.
"""

from __future__ import annotations

from kb.search import whoosh_imports

# Importing any module of this package runs this file first, so whoosh is first imported
# here, without the modules it loads and kb never uses (see kb.search.whoosh_imports).
whoosh_imports.load()

from kb.search.build import build_index, build_stage, schema
from kb.search.cards import name_key
from kb.search.compiler import compile_query
from kb.search.documents import group_documents, group_map
from kb.search.folder import index_dir_for
from kb.search.glossary import write_glossary
from kb.search.handles import open_index
from kb.search.results import Hit, render_text
from kb.search.searcher import search

__all__ = [
    "Hit",
    "build_index",
    "build_stage",
    "compile_query",
    "group_documents",
    "group_map",
    "index_dir_for",
    "name_key",
    "open_index",
    "render_text",
    "schema",
    "search",
    "write_glossary",
]
