"""Incremental builds: start from the previous store and redo only what changed files affect.

A build records a *build key* in its store (table ``build_state``): a hash of everything besides
the corpus that decides the output (the package's code and data files, the templates, the
stated language). The next build into the same folder copies the previous ``rulings.db`` into
its staged folder when the key matches, then compares each ruling file's SHA-256 with
``sources.sha256``: only added or changed files are parsed and stored, removed files' rows are
deleted, and every row that depended on a replaced row (memberships, concepts, ...: found by
the store's foreign keys) goes with it. Later stages see the changed paths in
``ctx.changed_sources`` and may reuse what the previous build computed for the rest.

The output is the same as a full build's: stages that cannot reuse recompute, and the test
suite compares an incremental build with a full one row by row and byte by byte.

**File stamps: which files changed, without reading them all.** Every build hashes its ruling
files (SHA-256) to find the changed ones; at 100,000 rulings that is 10,000 files, read in 1.1 s when the system has not cached them (a translator's edit after a
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

import hashlib
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

import kb
from kb import store
from kb.corpus.files import display
from kb.store import schema

PACKAGE = Path(kb.__file__).resolve().parent
TEMPLATES = PACKAGE.parent / "site_templates"
STATE_TABLE = "build_state"
_CODE_SUFFIXES = {
    ".py",
    ".yaml",
    ".yml",
    ".toml",
    ".json",
    ".po",
    ".mo",
    ".pot",
    ".html",
    ".css",
    ".js",
    ".txt",
}


def build_key(lang: str | None) -> str:
    """A hash of what, besides the corpus, decides a build's output."""
    digest = hashlib.sha256(f"kb {kb.__version__} lang={lang or ''}\n".encode())
    for root in (PACKAGE, TEMPLATES):
        if not root.is_dir():
            continue
        for path in sorted(
            p
            for p in root.rglob("*")
            if p.is_file() and p.suffix in _CODE_SUFFIXES and "__pycache__" not in p.parts
        ):
            digest.update(path.relative_to(root.parent).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def reuse_store(previous: Path, work_db: Path, key: str) -> bool:
    """Copy the previous build's store into the staged folder if it was built with ``key``."""
    if not previous.is_file():
        return False
    try:
        with store.read_only(previous, rows=False) as conn:
            rows = conn.execute(
                f"SELECT value FROM {STATE_TABLE} WHERE key = 'build_key'"
            ).fetchall()
    except sqlite3.Error:  # an unreadable or foreign store is simply not reused
        return False
    if not rows or rows[0][0] != key:
        return False
    shutil.copyfile(previous, work_db)
    return True


def up_to_date(out: Path, hashes: dict[str, str], key: str, settings: str) -> bool:
    """Whether the build in ``out`` is what building the files of ``hashes`` ({path: sha256},
    every file of the corpus) would give again: made by the same code and options (``key``)
    from files of these very paths and bytes, with the same settings files (``settings``,
    :func:`settings_digest`), and whole (a build is swapped in whole; its index and site are
    still there). Building again would only reproduce it."""
    store_path = out / "rulings.db"
    if not (store_path.is_file() and (out / "index").is_dir() and (out / "site").is_dir()):
        return False
    try:
        with store.read_only(store_path, rows=False) as conn:
            built = dict(
                conn.execute(
                    f"SELECT key, value FROM {STATE_TABLE} WHERE key IN ('build_key', 'settings')"
                ).fetchall()
            )
            sources = dict(conn.execute("SELECT path, sha256 FROM sources").fetchall())
    except sqlite3.Error:
        return False
    return built == {"build_key": key, "settings": settings} and sources == hashes


def settings_digest(files: list[str]) -> str:
    """A hash of the files besides the rulings that the corpus' build reads: the
    suppressions and checklist files next to them (which findings there are, and which are
    accepted, shows on the site)."""
    from kb.checks import suppressions

    digest = hashlib.sha256()
    for path in suppressions.settings_files(files):
        # Named from the working folder, as the corpus files are: a project moved or cloned
        # elsewhere whole is still up to date.
        digest.update(display(path).encode("utf-8", "surrogatepass") + b"\0")
        try:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError:  # the check stage reports it
            digest.update(b"unreadable")
    return digest.hexdigest()


def record(db: sqlite_utils.Database, key: str, settings: str, found: Scan) -> None:
    """Write the build key, the settings' digest and the files' records (``found``, taken as
    the build began) into the store: the last thing a build does to it."""
    schema.create(db, STATE_TABLE)
    db.table(STATE_TABLE).insert_all(
        [{"key": "build_key", "value": key}, {"key": "settings", "value": settings}],
        pk="key",
        replace=True,
    )
    record_stats(db, found)


def changed_sources(
    db: sqlite_utils.Database, hashes: dict[str, str]
) -> tuple[list[str], list[str]]:
    """(added or changed paths, removed paths), comparing ``{path: sha256}`` with the store."""
    stored = (
        {row["path"]: row["sha256"] for row in db.query("SELECT path, sha256 FROM sources")}
        if "sources" in db.table_names()
        else {}
    )
    changed = [path for path, sha in hashes.items() if stored.get(path) != sha]
    removed = sorted(set(stored) - set(hashes))
    return changed, removed


def file_hashes(
    paths: list[str], found: Scan | None = None, previous: Path | None = None
) -> dict[str, str]:
    """{path: sha256 of its bytes}; unreadable files are left out (the parser reports them).

    With ``found`` (this build's :func:`scan_files`) and the ``previous`` store, a file
    whose record is the one that build kept is not read: the hash stored for it is taken."""
    before = known_stats(previous) if found is not None and previous is not None else {}
    out = {}
    for path in paths:
        seen = before.get(path)
        if seen is not None and found is not None and found.stats.get(path) == seen[0]:
            out[path] = seen[1]
            continue
        try:
            out[path] = hash_file(path)
        except OSError:
            continue
    return out


def hash_file(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def concept_matches(db: sqlite_utils.Database, changed: set[str]) -> dict[tuple[str, str], list]:
    """{(text, lang): [glossary matches]} of the previous build's unchanged rulings.

    The alignment stage stored every ruling's matches (``also=("en",)``) in ``ruling_concepts``;
    with the same build key the glossary is the same, so they need not be searched again.
    A ruling with no row there had no match: it maps to an empty list. A ruling naming its own
    card stored only the matches outside that name, and is not read back.
    """
    from kb.reference import names
    from kb.reference.glossary import Match

    if "ruling_concepts" not in db.table_names():
        return {}
    out: dict[tuple[str, str], list] = {}
    sql = """SELECT r.id, r.source, r.text, r.lang, c.name AS card, rc.concept, rc.start,
                    rc."end", rc.surface, rc.lang AS match_lang
             FROM rulings r JOIN cards c ON c.id = r.card_id
             LEFT JOIN ruling_concepts rc ON rc.ruling_id = r.id
             ORDER BY r.id"""
    ruling, key, skip = None, ("", ""), True
    for row in db.query(sql):
        if row["id"] != ruling:  # a text shared by many rulings is taken from its first one
            ruling, key = row["id"], (row["text"], row["lang"])
            # A ruling naming its own card stored the matches outside the name only, not all
            # of the text's, which another card's copy of the text needs.
            skip = (
                row["source"] in changed
                or key in out
                or bool(names.spans(row["text"], row["card"]))
            )
            if not skip:
                out[key] = []
        if not skip and row["concept"] is not None:
            out[key].append(
                Match(row["concept"], row["start"], row["end"], row["surface"], row["match_lang"])
            )
    for matches in out.values():
        matches.sort(key=lambda m: (m.start, -m.end, m.concept))
    return out


# -- file stamps ------------------------------------------------------------------------------

STATS_TABLE = "source_stats"
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


def scan_files(paths: list[str]) -> Scan:
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


def known_stats(previous: Path) -> dict[str, tuple[tuple[int, int, int, int], str]]:
    """{path: (its record, its stored hash)} in the previous build's store ({} if none)."""
    try:
        with store.read_only(previous, rows=False) as conn:
            rows = conn.execute(
                f"SELECT t.path, t.size, t.mtime_ns, t.ctime_ns, t.inode, "
                f"s.sha256 FROM {STATS_TABLE} t JOIN sources s ON s.path = t.path"
            )
            return {
                path: ((size, mtime, ctime, inode), sha)
                for path, size, mtime, ctime, inode, sha in rows
            }
    except sqlite3.Error:  # no such table (an older store), or none at all
        return {}


def record_stats(db, found: Scan) -> None:
    """Keep the trusted records of the files this build stored, for the next build."""
    stored = {path for (path,) in db.execute("SELECT path FROM sources")}
    rows = [(path, *stat) for path, stat in sorted(found.trusted().items()) if path in stored]
    with db.conn:
        db.execute(f"DROP TABLE IF EXISTS {STATS_TABLE}")
        db.execute(f"CREATE TABLE {STATS_TABLE} ({schema.columns(STATS_TABLE)})")
        db.conn.executemany(f"INSERT INTO {STATS_TABLE} VALUES (?, ?, ?, ?, ?)", rows)
