"""The ``parse`` build stage: ruling files -> parsed records (``ctx.files``).

On a reused store only the files that are new or changed since the previous build are parsed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb import store
from kb.corpus import parse
from kb.pipeline import incremental
from kb.pipeline.progress import progress

if TYPE_CHECKING:
    from kb.pipeline.context import BuildContext


def build_stage(ctx: BuildContext) -> None:
    """Parse the corpus; on a reused store, only the files that are new or changed."""
    todo = ctx.corpus
    if ctx.reused:
        db = store.open_db(ctx.db_path)
        try:
            hashes = ctx.hashes or incremental.file_hashes(ctx.corpus)
            changed, removed = incremental.changed_sources(db, hashes)
        finally:
            db.close()
        ctx.changed_sources = set(changed) | set(removed)
        ctx.removed_sources = removed
        todo = changed
    with progress("parse", len(todo)) as advance:
        ctx.files = parse.parse_files(todo, ctx.lang, progress=advance) if todo else []
