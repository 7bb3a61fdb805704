"""The ``store`` build stage: parsed records -> the base tables (``cards``, ``sources``,
``rulings``), replacing the rows of changed and removed files on a reused store."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb import store

if TYPE_CHECKING:
    from kb.pipeline.context import BuildContext


def build_stage(ctx: BuildContext) -> None:
    ctx.db = store.open_db(ctx.db_path)
    # The store is in the staged folder: a build that dies is thrown away whole, so SQLite
    # need not sync each transaction; build() syncs the file once before the swap.
    ctx.db.execute("PRAGMA synchronous = OFF")
    if ctx.reused:
        # Derived tables stay: the rows that depended on a replaced ruling go with it (foreign
        # keys), and each later stage updates its own tables (or rebuilds them all).
        if ctx.changed_sources is None:  # the parse stage finds them whenever it reuses
            raise RuntimeError("a reused store, but no changed files from the parse stage")
        store.forget_sources(ctx.db, sorted(ctx.changed_sources))
    store.store_files(ctx.db, ctx.files)
    if ctx.reused:
        store.forget_orphan_cards(ctx.db)
    ctx.files = []  # in the store now; later stages read it from there (and memory is scarce)
