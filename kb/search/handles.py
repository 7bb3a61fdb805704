"""Indexes opened once per process and kept open between queries.

Opening a searcher reads every segment file's header (tens of ms at 100k rulings), so a
process answering many queries opens each index folder once. A rebuild swaps in a new
folder, whose identity (inode, mtime) differs, so the next query opens it again; a build
writing an index where one was open drops the old one (:func:`forget`).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, NamedTuple

from whoosh import index as whoosh_index
from whoosh.filedb.filestore import FileStorage

from kb.errors import KbError


class Opened(NamedTuple):
    """An index folder opened for queries."""

    identity: tuple[int, int] | None  # the folder's (inode, mtime) when opened
    index: Any  # whoosh's FileIndex
    searcher: Any  # whoosh's Searcher, kept open
    lock: threading.Lock  # a whoosh searcher reads its files by seeking: one query at a time


_OPEN: dict[str, Opened] = {}
_LOCK = threading.Lock()


def open_index(index_dir: str | Path, mapped: bool = True):
    """The whoosh index in ``index_dir``, opened once per process (see
    :func:`kb.search.searcher.search` for ``mapped``)."""
    return opened(index_dir, mapped).index


def opened(index_dir: str | Path, mapped: bool = True) -> Opened:
    """The index in ``index_dir`` with its searcher, opened now or by an earlier query;
    :class:`kb.errors.KbError` when there is none."""
    key = str(Path(index_dir).resolve())
    with _LOCK:
        try:
            stat = Path(key).stat()
            identity = (stat.st_ino, stat.st_mtime_ns)
        except OSError:
            identity = None
        held = _OPEN.get(key)
        if held is None or held.identity != identity:
            if identity is None or not whoosh_index.exists_in(key):
                raise KbError(f"no search index in {index_dir}: run `kb build` first or pass --db")
            ix = FileStorage(key, readonly=True, supports_mmap=mapped).open_index()
            if held is not None:
                held.searcher.close()
            held = _OPEN[key] = Opened(identity, ix, ix.searcher(), threading.Lock())
        return held


def forget(index_dir: Path) -> None:
    """Close the index held open for ``index_dir``, if any: it is being written again."""
    with _LOCK:
        held = _OPEN.pop(str(index_dir.resolve()), None)
    if held is not None:
        held.searcher.close()
