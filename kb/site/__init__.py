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

import os
import shutil
from pathlib import Path

from kb import forking
from kb.languages import UI_LANGUAGES
from kb.progress import progress
from kb.site import data as site_data
from kb.site import digests as page_digests
from kb.site import dump
from kb.site.files import Files, previous_rows, replace_table
from kb.site import pages, search_index

STATIC = pages.TEMPLATES / "static"
#: The store's table of search analyses (:class:`kb.site.search_index.Analyses`).
ANALYSES = "site_terms"


def build(db, out: Path, previous: Path | None = None) -> dict:
    """Render the site for the store ``db`` into the new folder ``out``; return figures.

    ``previous``: an earlier build folder (its ``site/`` and ``rulings.db``, read only) made by
    the same code. Pages whose digest (:mod:`kb.site.digests`) is the same as then are
    hard-linked from it instead of rendered; the result is the same bytes as a full build."""
    out.mkdir(parents=True)
    (out / "data").mkdir()
    dumping = _start_dump(db, out / "data" / "rulings.json", previous)
    site = site_data.load(db)
    counts = _counts(site)
    digests = page_digests.page_digests(site, counts)
    todo, linked = _reuse(previous, digests, out)
    page_digests.store(db, digests)
    del digests
    shutil.copytree(STATIC, out / "static")
    rendering = _start_trees(site, out, counts, todo)
    try:
        figures = _search_index(db, site, out / "search", previous)
    finally:
        written = rendering()  # wait for the workers even on failure: none outlives the build
        figures_dump = dumping()
    return {"pages": written, "linked": linked, **figures, **figures_dump}


def _search_index(db, site, out: Path, previous: Path | None) -> dict:
    """The browser's search index of every group member, reusing what ``previous`` analysed
    and wrote; what the next build needs of it is stored at once (and freed)."""
    written_files = Files(out.parent, previous)
    analyses = search_index.Analyses(
        dict(previous_rows(previous, f"SELECT key, analysis FROM {ANALYSES}")))
    docs = [(number, group, member) for number, group in enumerate(site.groups)
            for member in group["members"]]
    figures = search_index.build(
        [member for _, _, member in docs],
        [f"ruling/{group['slug']}.html#{pages.anchor_of(member)}" for _, group, member in docs],
        out, groups=[number for number, _, _ in docs], write=written_files.write,
        analyses=analyses)
    written_files.store(db)
    replace_table(db, ANALYSES, "key TEXT PRIMARY KEY, analysis TEXT NOT NULL",
                  sorted(analyses.rows.items()))
    return {**figures, "search_linked": written_files.linked, "analyses_reused": analyses.reused}


def _reuse(previous: Path | None, digests: dict[str, str], out: Path):
    """Hard-link from ``previous`` every page whose digest is unchanged; return
    ({ui: page keys still to render, or None for all}, files linked)."""
    if previous is None or not (previous / "site").is_dir():
        return {ui: None for ui in UI_LANGUAGES}, 0
    before = page_digests.previous(previous)
    same = sorted(key for key, digest in digests.items() if before.get(key) == digest)
    todo, linked, made = {}, 0, set()
    for ui in UI_LANGUAGES:
        missing = set(digests).difference(same)
        pairs = [(key, f"{ui}/{key}") for key in same]
        if ui == "en":
            pairs.append(("index.html", "index.html"))  # the root home is the English one
        # Plain strings, not Path objects: this runs once per page (130,000 times at 100k).
        source, target = f"{previous / 'site'}/", f"{out}/"
        for key, page in pairs:
            folder = page.rpartition("/")[0]
            if folder not in made:
                os.makedirs(target + folder, exist_ok=True)
                made.add(folder)
            try:
                os.link(source + page, target + page)
                linked += 1
            except OSError:  # not there (any more), or no hard links here: render it
                missing.add(key)
        todo[ui] = missing
    return todo, linked


#: From this many rulings on, the UI trees are rendered by worker processes on every core
#: while this process writes the search index and the data dump.
PARALLEL_FROM = 2000
_JOB: tuple | None = None


def _start_trees(site, out: Path, counts: dict, todo: dict):
    """Start rendering every UI tree (``todo[ui]``: its pages to render, None for all); return
    a function waiting for it (-> pages written)."""
    workers = min(len(UI_LANGUAGES), os.cpu_count() or 1)
    # Even a few pages (an incremental build's) go to the workers: the big ones (a language's
    # rulings, the consistency report) take as long as the search index the parent writes.
    nothing = all(keys is not None and not keys for keys in todo.values())
    if nothing or len(site.rulings) < PARALLEL_FROM or not forking.available():
        with progress("site", len(UI_LANGUAGES)) as advance:
            written = 0
            for ui in UI_LANGUAGES:
                written += pages.render_tree(site, ui, out, counts, todo[ui])
                advance(1)
        return lambda: written
    global _JOB
    _JOB = (site, out, counts, todo)  # forked workers inherit it: nothing is pickled but the language
    pool = forking.pool(workers)
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


def _start_dump(db, path: Path, previous: Path | None):
    """Start writing ``data/rulings.json`` (:mod:`kb.site.dump`); return a function waiting
    for it (-> figures). From PARALLEL_FROM rulings on, a process forked before the site data
    is loaded writes it on its own connection, while this one renders and indexes."""
    large = db.execute("SELECT count(*) FROM rulings").fetchone()[0] >= PARALLEL_FROM
    if not large or not forking.available(cores=1):
        figures = dump.write(db, path, previous)
        return lambda: figures
    store_file = db.execute("PRAGMA database_list").fetchone()[2]
    pool = forking.pool(1)
    pending = pool.apply_async(_dump, (store_file, path, previous))
    pool.close()

    def wait() -> dict:
        try:
            pieces, figures = pending.get()
        finally:
            pool.join()
        dump.store(db, pieces)
        return figures
    return wait


def _dump(store_file: str, path: Path, previous: Path | None) -> tuple[dict, dict]:
    import sqlite_utils

    db = sqlite_utils.Database(store_file)
    try:
        return dump.encode(db, path, previous)
    finally:
        db.close()


def _render_tree(ui: str) -> int:
    site, out, counts, todo = _JOB
    return pages.render_tree(site, ui, out, counts, todo[ui])


def build_stage(ctx) -> None:
    previous = ctx.extra.get("previous") if ctx.extra.get("reused") else None
    ctx.extra["site"] = build(ctx.db, ctx.work / "site", Path(previous) if previous else None)


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
