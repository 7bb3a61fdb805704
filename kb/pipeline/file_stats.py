"""Which corpus files may have changed since the previous build, without reading them all.

Every build hashes its ruling files (SHA-256) to find the changed ones; at 100,000 rulings that
is 10,000 files, read in 1.1 s when the system has not cached them (a translator's edit after a
pause). Like git's index, a build records each file's size, modification and change times and
inode as it found them *before* reading it (table ``source_stats``); the next build reads
only the files whose record differs, and takes the stored hash for the others. The change
time moves whenever a file's bytes or times are set, so a file written back with its old
modification time is still read.

A file modified within :data:`RACY_NS` before the build looked at it could be modified again
within the same tick of the file system's clock without its times moving: its record is not
kept, and the next build reads it.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from kb import store

TABLE = "source_stats"
RACY_NS = 1_000_000_000


@dataclass
class Scan:
    """The corpus files' records, as found when the build began."""

    stats: dict[str, tuple[int, int, int, int]]  # path -> (size, mtime_ns, ctime_ns, inode)
    taken_ns: int  # the clock when they were taken

    def trusted(self) -> dict[str, tuple[int, int, int, int]]:
        """The records a later build may rely on (not changed just before they were taken)."""
        limit = self.taken_ns - RACY_NS
        return {path: stat for path, stat in self.stats.items() if max(stat[1], stat[2]) < limit}


def scan(paths: list[str]) -> Scan:
    """The records of ``paths`` (unreadable ones left out: the parser reports them)."""
    taken = time.time_ns()
    stats = {}
    for path in paths:
        try:
            found = os.stat(path)
        except OSError:
            continue
        stats[path] = (found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino)
    return Scan(stats, taken)


def known(previous: Path) -> dict[str, tuple[tuple[int, int, int, int], str]]:
    """{path: (its record, its stored hash)} in the previous build's store ({} if none)."""
    try:
        with store.read_only(previous, rows=False) as conn:
            rows = conn.execute(f"SELECT t.path, t.size, t.mtime_ns, t.ctime_ns, t.inode, "
                                f"s.sha256 FROM {TABLE} t JOIN sources s ON s.path = t.path")
            return {path: ((size, mtime, ctime, inode), sha)
                    for path, size, mtime, ctime, inode, sha in rows}
    except sqlite3.Error:  # no such table (an older store), or none at all
        return {}


def record(db, found: Scan) -> None:
    """Keep the trusted records of the files this build stored, for the next build."""
    stored = {path for (path,) in db.execute("SELECT path FROM sources")}
    rows = [(path, *stat) for path, stat in sorted(found.trusted().items()) if path in stored]
    with db.conn:
        db.execute(f"DROP TABLE IF EXISTS {TABLE}")
        db.execute(f"CREATE TABLE {TABLE} (path TEXT PRIMARY KEY, size INTEGER, "
                   "mtime_ns INTEGER, ctime_ns INTEGER, inode INTEGER)")
        db.conn.executemany(f"INSERT INTO {TABLE} VALUES (?, ?, ?, ?, ?)", rows)
