"""The static site: the build's last stage, writing ``ctx.work / "site"``.

Modules, one job each:

- :mod:`kb.site.data`: gathers what pages show from the store and the other stages;
- :mod:`kb.site.paths`: safe, distinct file names (slugs) and relative links;
- :mod:`kb.site.i18n`: gettext catalogs, CLDR dates and language names per UI language;
- :mod:`kb.site.pages`: renders one UI language's tree from the jinja2 templates;
- :mod:`kb.site.search_index`: the browser's sharded search index;
- :mod:`kb.site.serve`: ``kb serve``, a preview on 127.0.0.1.

Layout: ``index.html`` (English home), ``<ui>/...`` per interface language, ``static/`` (css,
js), ``search/`` (index shards), ``data/rulings.json`` (the ``kb export json`` dump).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import shutil
from pathlib import Path

from kb import export
from kb.languages import UI_LANGUAGES
from kb.progress import progress
from kb.site import data as site_data
from kb.site import pages, search_index

STATIC = pages.TEMPLATES / "static"


def build(db, out: Path) -> dict:
    """Render the whole site for the store ``db`` into the new folder ``out``; return figures."""
    out.mkdir(parents=True)
    site = site_data.load(db)
    counts = _counts(site)
    shutil.copytree(STATIC, out / "static")
    rendering = _start_trees(site, out, counts)
    try:
        docs = [(number, group, member) for number, group in enumerate(site.groups)
                for member in group["members"]]
        figures = search_index.build(
            [member for _, _, member in docs],
            [f"ruling/{group['slug']}.html#{pages.anchor_of(member)}" for _, group, member in docs],
            out / "search", groups=[number for number, _, _ in docs])
        (out / "data").mkdir()
        with open(out / "data" / "rulings.json", "w", encoding="utf-8") as handle:
            export.write_json(db, handle)
    finally:
        written = rendering()  # wait for the workers even on failure: none outlives the build
    return {"pages": written, **figures}


#: From this many rulings on, the UI trees are rendered by worker processes on every core
#: while this process writes the search index and the data dump.
PARALLEL_FROM = 2000
_JOB: tuple | None = None


def _start_trees(site, out: Path, counts: dict):
    """Start rendering every UI tree; return a function waiting for it (-> pages written)."""
    workers = min(len(UI_LANGUAGES), os.cpu_count() or 1)
    if len(site.rulings) < PARALLEL_FROM or workers < 2 or "fork" not in mp.get_all_start_methods():
        with progress("site", len(UI_LANGUAGES)) as advance:
            written = 0
            for ui in UI_LANGUAGES:
                written += pages.render_tree(site, ui, out, counts)
                advance(1)
        return lambda: written
    global _JOB
    _JOB = (site, out, counts)  # forked workers inherit it: nothing is pickled but the language
    pool = mp.get_context("fork").Pool(workers)
    pending = pool.map_async(_render_tree, UI_LANGUAGES, chunksize=1)
    pool.close()

    def wait() -> int:
        global _JOB
        try:
            return sum(pending.get())
        finally:
            pool.join()
            _JOB = None
    return wait


def _render_tree(ui: str) -> int:
    site, out, counts = _JOB
    return pages.render_tree(site, ui, out, counts)


def build_stage(ctx) -> None:
    ctx.extra["site"] = build(ctx.db, ctx.work / "site")


def _counts(site) -> dict:
    per_lang: dict[str, dict] = {}
    for card in site.cards.values():
        entry = per_lang.setdefault(card["lang"], {"cards": 0, "rulings": 0})
        entry["cards"] += 1
        entry["rulings"] += len(card["rulings"])
    runs = [run for group in site.groups for run in group["examples"]]
    return {"rulings": len(site.rulings), "groups": len(site.groups), "cards": len(site.cards),
            "rules": sum(1 for rule in site.rules.values() if rule["groups"]),
            "examples": len(runs),
            "examples_passed": sum(1 for run in runs if run.get("status") == "passed"),
            "per_lang": per_lang}
