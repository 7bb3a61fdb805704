"""Writing whole-corpus files (search index shards and chunks) so unchanged ones are reused.

Each file's text is hashed; the digests are kept in the store (table ``site_files``). When the
previous build (read only) wrote the same digest at the same path, its file is hard-linked
instead of written: the bytes are the same by construction. A file is never written through a
link: every path is new in the staged site.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

from kb import store
from kb.store import schema

TABLE = "site_files"


class Files:
    """``write(path, text)`` for the files under ``site``; ``previous``: the earlier build folder.

    Paths may be strings: the search index has 25,000 files at 100k rulings, and a Path
    object per file (made, joined, made relative) cost more than linking the file."""

    def __init__(self, site: Path, previous: Path | None = None):
        self.site, self.linked = site, 0
        self.digests: dict[str, str] = {}
        self._prefix = f"{site}/"
        self._old = f"{previous / 'site'}/" if previous else None
        self.before = dict(previous_rows(previous, f"SELECT path, digest FROM {TABLE}"))
        self.held = {k: (k, v) for k, v in self.before.items()} if previous else None

    def write(self, path: Path | str, text: str) -> None:
        data = text.encode("utf-8", "surrogatepass")
        key = self._key(path)
        digest = hashlib.sha256(data).hexdigest()
        if self.before.get(key) != digest or not self._link(key, path, digest):
            self.digests[key] = digest
            with open(path, "wb") as handle:
                handle.write(data)

    def keep(self, path: Path | str) -> bool:
        """Link the previous build's file at ``path``, known to be what this build would write,
        without making its text; False if there is none to link (then write it)."""
        key = self._key(path)
        digest = self.before.get(key)
        return digest is not None and self._link(key, path, digest)

    def _key(self, path: Path | str) -> str:
        path = str(path)
        if not path.startswith(self._prefix):
            raise ValueError(f"{path} is not under {self.site}")
        return path[len(self._prefix) :]

    def _link(self, key: str, path: Path | str, digest: str) -> bool:
        if self._old is None:  # no previous build: nothing to link (``before`` is empty then)
            return False
        try:
            os.link(self._old + key, path)
        except OSError:  # gone or on another file system: write it
            return False
        self.digests[key] = digest
        self.linked += 1
        return True

    def store(self, db) -> None:
        replace_table(db, TABLE, schema.columns(TABLE), sorted(self.digests.items()), self.held)


def replace_table(
    db, table: str, columns: str, rows: list[tuple], held: dict[str, tuple] | None = None
) -> None:
    """(Re)create ``table`` of the store ``db`` with these rows: what the next build compares.
    ``held``: {first column: row} of what the table holds now (an incremental build's store
    starts as the previous one): then only the rows that differ are deleted and inserted."""
    with db.conn:
        if held and table in db.table_names():
            wanted = {row[0]: tuple(row) for row in rows}
            gone = [(key,) for key, row in held.items() if wanted.get(key) != tuple(row)]
            new = [row for key, row in wanted.items() if held.get(key) != row]
            first = columns.split()[0]
            db.conn.executemany(f"DELETE FROM {table} WHERE {first} = ?", gone)
            if new:
                db.conn.executemany(
                    f"INSERT INTO {table} VALUES ({', '.join('?' * len(new[0]))})", new
                )
            return
        db.execute(f"DROP TABLE IF EXISTS {table}")
        db.execute(f"CREATE TABLE {table} ({columns})")
        if rows:
            db.conn.executemany(
                f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows
            )


def previous_rows(previous: Path | None, sql: str) -> list[tuple]:
    """Rows of ``sql`` in the store of the build folder ``previous``, opened read only
    ([] when there is none, or it lacks the table)."""
    if previous is None:
        return []
    try:
        with store.read_only(previous / "rulings.db", rows=False) as conn:
            return conn.execute(sql).fetchall()
    except sqlite3.Error:
        return []
