"""The static site: the build's last stage, writing ``ctx.work / "site"``.

Modules, one job each:

- :mod:`kb.site.data`: gathers what pages show from the store (:mod:`kb.site.reads`) and
  the other stages;
- :mod:`kb.site.paths`: safe, distinct file names (slugs) and relative links;
- :mod:`kb.site.i18n`: gettext catalogs, CLDR dates and language names per UI language;
- :mod:`kb.site.pages`: renders one UI language's tree from the jinja2 templates
  (:mod:`kb.site.templating`: their environment and helpers);
- :mod:`kb.site.search_index`: the browser's sharded search index (:mod:`kb.site.search_build`:
  this build's);
- :mod:`kb.site.search_state`: what that index keeps between builds;
- :mod:`kb.site.serve`: ``kb serve``, a preview on 127.0.0.1.

Layout: ``index.html`` (English home), ``<ui>/...`` per interface language, ``static/`` (css,
js), ``search/`` (index shards), ``data/rulings.json`` (the ``kb export json`` dump).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from kb.corpus.languages import UI_LANGUAGES
from kb.pipeline import forking
from kb.pipeline.progress import progress
from kb.site import changes, dump, pages, search_build
from kb.site import data as site_data
from kb.site import digests as page_digests
from kb.site.files import previous_rows

STATIC = pages.TEMPLATES / "static"


def build(
    db,
    out: Path,
    previous: Path | None = None,
    changed_groups: set[str] | None = None,
    changed_sources: set[str] | None = None,
) -> dict:
    """Render the site for the store ``db`` into the new folder ``out``; return figures.

    ``previous``: an earlier build folder (its ``site/`` and ``rulings.db``, read only) made by
    the same code. Pages whose digest (:mod:`kb.site.digests`) is the same as then are
    hard-linked from it instead of rendered; the result is the same bytes as a full build.
    ``changed_groups`` (the groups the alignment changed; None: any) and ``changed_sources``
    let only what can have changed be loaded and digested (:mod:`kb.site.changes`)."""
    out.mkdir(parents=True)
    (out / "data").mkdir()
    pages.forget()
    large = db.execute("SELECT count(*) FROM rulings").fetchone()[0] >= PARALLEL_FROM
    dumping = _start_dump(db, out / "data" / "rulings.json", previous, changed_groups, large)
    indexing = _Indexing(db, out / "search", previous, changed_groups, large)
    try:
        written, linked, figures = _pages(
            db, out, previous, changed_groups, changed_sources, indexing
        )
    except BaseException:
        indexing.cancel()
        raise
    finally:
        figures_dump = dumping()
    return {"pages": written, "linked": linked, **figures, **figures_dump}


def _pages(
    db,
    out: Path,
    previous: Path | None,
    changed_groups: set[str] | None,
    changed_sources: set[str] | None,
    indexing: _Indexing,
):
    """Link or render every page (and wait for the search index); -> (pages written, pages
    linked, figures)."""
    if previous is not None and changed_groups is not None and (previous / "site").is_dir():
        plan = changes.plan(db, previous, changed_groups, changed_sources or set())
        if plan is not None:
            done = _planned(db, out, previous, plan, indexing)
            if done is not None:
                return done
            # A previous page is gone (or cannot be linked here): the plan loaded no data to
            # render it, so start again from everything.
            _remove_trees(out)
    site, digests, rows = _everything(db)
    todo, linked = _reuse(previous, digests, out)
    page_digests.store(db, digests, *rows)
    del digests, rows
    written, _ = _render(site, out, todo, None, indexing, {})
    return written, linked, {}


def _planned(db, out: Path, previous: Path, plan, indexing: _Indexing):
    """The pages of an incremental plan: each tree's unchanged pages are linked by the process
    that renders its changed ones (on both cores, beside each other); -> (pages written,
    pages linked, figures), or None when a page to link is not there."""
    same = sorted(set(plan.digests) - plan.render)
    page_digests.store(db, plan.digests, plan.group_rows, plan.card_rows, held=plan.held)
    figures = plan.figures
    written, (linked, failed) = _render(
        plan.site,
        out,
        {ui: plan.render for ui in UI_LANGUAGES},
        (previous, same),
        indexing,
        figures,
    )
    return None if failed else (written, linked, figures)


def _render(site, out: Path, todo: dict, links: _Links | None, indexing: _Indexing, figures: dict):
    """Render the trees (``links``: (previous build, page keys) each tree links first) while
    the search index is finished; -> (pages written, (pages linked, keys not linkable))."""
    shutil.copytree(STATIC, out / "static")
    rendering = _start_trees(site, out, site.summary.counts, todo, links)
    try:
        figures.update(indexing.wait(site))
    finally:
        written, linked, failed = rendering()  # wait for the workers even on failure
    return written, (linked, failed)


def _everything(db):
    """The whole site's data, every page's digest and the digest tables' rows."""
    corpus = site_data.read_corpus(db)
    site = site_data.load(db, corpus)
    rules = site.rules
    faces = {g["id"]: page_digests.face(g) for g in site.groups}
    known = page_digests.members(site.rulings)
    listings = {c["id"]: page_digests.listing(site, c, known) for c in site.cards.values()}
    extra = {g["id"]: page_digests.extras(corpus, rules, g["id"]) for g in site.groups}
    digests = page_digests.shared_pages(site, site.summary.counts, faces, listings, extra)
    digests.update(
        {
            f"card/{c['slug']}.html": page_digests.card_page(site, c, faces, known)
            for c in site.cards.values()
        }
    )
    digests.update(
        {f"ruling/{g['slug']}.html": page_digests.ruling_page(site, g, known) for g in site.groups}
    )
    groups = [page_digests.group_row(g, extra[g["id"]]) for g in site.groups]
    return site, digests, (groups, sorted(listings.items()))


class _Indexing:
    """The browser's search index, written here once the site's data is loaded (:meth:`wait`
    gets it), or by a child process started at once (an incremental build: it needs none of
    the pages' data, so it runs beside the plan and the pages)."""

    def __init__(
        self, db, out: Path, previous: Path | None, changed_groups: set[str] | None, large: bool
    ):
        self.db, self.args, self.pool = db, (out, previous, changed_groups), None
        self.figures: dict | None = None
        if (
            large
            and previous is not None
            and changed_groups is not None
            and "groups" in db.table_names()
            and forking.available()
        ):
            store_file = db.execute("PRAGMA database_list").fetchone()[2]
            self.pool = forking.pool(1)
            self.pending = self.pool.apply_async(_index_job, (store_file, *self.args))
            self.pool.close()

    def wait(self, site) -> dict:
        """The index's figures, once it is written and its files' digests stored (a second
        call, after an incremental plan was given up, gets the same: the index does not
        depend on the pages)."""
        if self.figures is None:
            self.figures = self._wait(site)
        return self.figures

    def _wait(self, site) -> dict:
        if self.pool is None:
            order = sorted(site.group_order)
            loaded = {g["id"]: g["members"] for g in site.groups if not g.get("face_only")}
            figures, files = _search_index(self.db, order, loaded, *self.args)
        else:
            try:
                figures, files = self.pending.get()
            finally:
                self.pool.join()
        files.store(self.db)
        return figures

    def cancel(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()


def _index_job(store_file: str, out: Path, previous: Path, changed_groups: set[str]):
    import sqlite_utils

    db = sqlite_utils.Database(store_file)
    try:
        db.execute("PRAGMA busy_timeout = 60000")  # the parent may be writing
        order = sorted(g for (g,) in db.execute("SELECT id FROM groups"))
        return _search_index(db, order, {}, out, previous, changed_groups)
    finally:
        db.close()


#: Looked up here when called, so the tests can watch which process writes the index.
_search_index = search_build.write_search_index


def _remove_trees(out: Path) -> None:
    """Remove the pages linked or rendered so far, and the static files copied (unlinking
    never touches the previous build's files)."""
    for folder in (*UI_LANGUAGES, "static"):
        shutil.rmtree(out / folder, ignore_errors=True)
    (out / "index.html").unlink(missing_ok=True)


def _reuse(previous: Path | None, digests: dict[str, str], out: Path):
    """Hard-link from ``previous`` every page whose digest is unchanged; return
    ({ui: page keys still to render, or None for all}, files linked)."""
    if previous is None or not (previous / "site").is_dir():
        return {ui: None for ui in UI_LANGUAGES}, 0
    before = dict(previous_rows(previous, f"SELECT page, digest FROM {page_digests.PAGES}"))
    same = sorted(key for key, digest in digests.items() if before.get(key) == digest)
    missing = set(digests).difference(same)
    todo, linked = {}, 0
    for ui in UI_LANGUAGES:
        failed, count = _link_tree(previous, same, out, ui)
        todo[ui], linked = missing | failed, linked + count
    return todo, linked


def _link_tree(previous: Path, same: list[str], out: Path, ui: str) -> tuple[set[str], int]:
    """Hard-link the pages ``same`` of the tree ``ui`` from ``previous``; -> (the keys that
    could not be linked, files linked)."""
    failed, linked, made = set(), 0, set()
    # Plain strings, not Path objects: this runs once per page (130,000 times at 100k).
    source, target = f"{previous / 'site'}/", f"{out}/"
    pairs = [(key, f"{ui}/{key}") for key in same]
    if ui == "en" and "index.html" in same:
        pairs.append(("index.html", "index.html"))  # the root home is the English one
    for key, page in pairs:
        folder = page.rpartition("/")[0]
        if folder not in made:
            os.makedirs(target + folder, exist_ok=True)
            made.add(folder)
        try:
            os.link(source + page, target + page)
            linked += 1
        except OSError:  # not there (any more), or no hard links here: render it
            failed.add(key)
    return failed, linked


#: From this many rulings on, the UI trees are rendered by worker processes on every core
#: while this process writes the search index and the data dump.
PARALLEL_FROM = 2000
_Links = tuple[Path, list[str]]  # (previous build, page keys): what a tree links, not renders
_JOB: tuple[site_data.SiteData, Path, dict, dict, _Links | None] | None = None


def _start_trees(site, out: Path, counts: dict, todo: dict, links: _Links | None = None):
    """Start rendering every UI tree (``todo[ui]``: its pages to render, None for all; with
    ``links`` = (previous build, page keys), a tree first links those pages and renders
    nothing if one of them cannot be linked); return a function waiting for it (-> pages
    written, pages linked, the keys that could not be linked)."""
    workers = min(len(UI_LANGUAGES), os.cpu_count() or 1)
    # Even a few pages (an incremental build's) go to the workers: the big ones (a language's
    # rulings, the consistency report) take as long as the search index the parent writes.
    nothing = all(keys is not None and not keys for keys in todo.values())
    if (nothing and links is None) or counts["rulings"] < PARALLEL_FROM or not forking.available():
        with progress("site", len(UI_LANGUAGES)) as advance:
            done = []
            for ui in UI_LANGUAGES:
                done.append(_tree(site, ui, out, counts, todo[ui], links))
                advance(1)
        return lambda: _sum(done)
    global _JOB
    _JOB = (
        site,
        out,
        counts,
        todo,
        links,
    )  # forked workers inherit it: only the language is pickled
    pool = forking.pool(workers)
    pending = pool.map_async(_render_tree, UI_LANGUAGES, chunksize=1)
    pool.close()

    def wait() -> tuple[int, int, set[str]]:
        global _JOB
        try:
            return _sum(pending.get())
        finally:
            pool.join()
            _JOB = None

    return wait


def _tree(
    site, ui: str, out: Path, counts: dict, only: set[str] | None, links: _Links | None
) -> tuple[int, int, set[str]]:
    """Link (``links``) then render one UI tree; -> (written, linked, keys not linkable)."""
    failed, linked = _link_tree(*links, out, ui) if links else (set(), 0)
    if failed:
        return 0, linked, failed
    return pages.render_tree(site, ui, out, counts, only), linked, failed


def _sum(done: list[tuple[int, int, set[str]]]) -> tuple[int, int, set[str]]:
    return (sum(d[0] for d in done), sum(d[1] for d in done), set().union(*(d[2] for d in done)))


def _start_dump(
    db, path: Path, previous: Path | None, changed_groups: set[str] | None, large: bool
):
    """Start writing ``data/rulings.json`` (:mod:`kb.site.dump`); return a function waiting
    for it (-> figures). When ``large`` (PARALLEL_FROM rulings or more), another process
    writes it on its own connection, while this one renders and indexes: a new interpreter
    (spawned: it needs none of this one's memory, which is at its peak in a full build), or
    in an incremental build, whose memory is small, a fork (a new interpreter and its
    imports cost 0.3 s of CPU, a tenth of such a dump's)."""
    if not large or not forking.available(cores=1):
        figures = dump.write(db, path, previous, changed_groups)
        return lambda: figures
    store_file = db.execute("PRAGMA database_list").fetchone()[2]
    incremental = previous is not None and changed_groups is not None
    pool = forking.pool(1) if incremental else forking.fresh_pool(1)
    # dump.encode_file, not a function of this module: a spawned worker imports the module of
    # the function it runs, and this one's imports (the pages, the search index) cost it 0.2 s.
    pending = pool.apply_async(dump.encode_file, (store_file, path, previous, changed_groups))
    pool.close()

    def wait() -> dict:
        try:
            pieces, figures = pending.get()
        finally:
            pool.join()
        dump.store(db, pieces)
        return figures

    return wait


def _render_tree(ui: str) -> tuple[int, int, set[str]]:
    if _JOB is None:  # set by _start_trees before the workers fork
        raise RuntimeError("a tree worker started without its job")
    site, out, counts, todo, links = _JOB
    return _tree(site, ui, out, counts, todo[ui], links)


def build_stage(ctx) -> None:
    previous = ctx.previous if ctx.reused else None
    build(
        ctx.db,
        ctx.work / "site",
        Path(previous) if previous else None,
        ctx.changed_groups,
        ctx.changed_sources,
    )
