"""The SQLite store: access through sqlite-utils, and the schema (:mod:`kb.store.schema`).

The parse and store stages fill the base tables (``cards``, ``sources``, ``rulings``); every
later stage reads them and writes its own tables, all declared in :mod:`kb.store.schema`. Rows
are keyed by content-derived ids, so building twice gives the same rows.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from kb.store import schema

if TYPE_CHECKING:  # sqlite-utils (and numpy, which it imports) cost `kb search` 150 ms to load
    import sqlite_utils

    from kb.corpus.parse import ParsedFile

DEFAULT_DB = Path("_build") / "rulings.db"


def open_db(path: str | Path) -> sqlite_utils.Database:
    """Open a store for writing (created if missing), with foreign keys enforced."""
    import sqlite_utils

    db = sqlite_utils.Database(path)
    db.execute("PRAGMA foreign_keys = ON")
    return db


@contextlib.contextmanager
def read_only(path: str | Path, rows: bool = True):
    """A plain sqlite3 connection to the store at ``path`` that cannot write (``rows``: rows
    as :class:`sqlite3.Row`, else tuples); for reading a previous build beside a new one."""
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    if rows:
        conn.row_factory = sqlite3.Row
    try:
        yield conn
    finally:
        conn.close()


def chunks(values, size: int = 500):
    """``values`` in lists of at most ``size``: SQLite limits the parameters of one query."""
    values = list(values)
    for start in range(0, len(values), size):
        yield values[start : start + size]


def wheres(column: str, values=None) -> list[tuple[str, list]]:
    """A query's `` WHERE column IN (?, ...)`` clause and its parameters for each of
    :func:`chunks` of ``values``; ``values`` None: one empty clause (every row)."""
    if values is None:
        return [("", [])]
    return [
        (f" WHERE {column} IN ({', '.join('?' * len(chunk))})", chunk) for chunk in chunks(values)
    ]


def open_existing(path: str | Path) -> sqlite_utils.Database:
    """Open a store that must already exist (for read commands); raise FileNotFoundError if not."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no store at {path}: run `kb build` first or pass --db")
    import sqlite_utils

    return sqlite_utils.Database(path)


def create_schema(db: sqlite_utils.Database) -> None:
    """Create the base tables if they are missing."""
    schema.create(db, *schema.BASE_TABLES)


def card_id(lang: str, name: str) -> str:
    return f"{lang}:{name}"


def store_files(db: sqlite_utils.Database, files: list[ParsedFile]) -> None:
    """Write parsed files into the store, replacing any earlier rows of the same files.

    One transaction and batched statements: a per-row upsert costs a round of schema
    introspection in sqlite-utils, which dominated at 100,000 rulings.
    """
    create_schema(db)
    cards = {
        card_id(f.lang, f.card): {"id": card_id(f.lang, f.card), "name": f.card, "lang": f.lang}
        for f in files
    }
    with db.conn:
        db.conn.executemany("DELETE FROM rulings WHERE source = ?", [(f.path,) for f in files])
        db.table("cards").upsert_all(cards.values(), pk="id")
        db.table("sources").upsert_all(
            (
                {
                    "path": f.path,
                    "sha256": f.sha256,
                    "lang": f.lang,
                    "lang_stated": f.lang_stated,
                    "lang_confidence": f.lang_confidence,
                    "card_id": card_id(f.lang, f.card),
                }
                for f in files
            ),
            pk="path",
        )
        db.table("rulings").insert_all(
            (
                {
                    "id": f"{f.path}#{r.position}",
                    "source": f.path,
                    "card_id": card_id(f.lang, f.card),
                    "lang": f.lang,
                    "date": r.date,
                    "position": r.position,
                    "text": r.text,
                    "line": r.line,
                }
                for f in files
                for r in f.rulings
            ),
            batch_size=500,
        )


def drop_derived(db: sqlite_utils.Database) -> None:
    """Drop every table but the base ones: later stages create and fill theirs afresh, exactly
    as in a build from nothing."""
    derived = [t for t in db.table_names() if t not in schema.BASE_TABLES]
    db.execute("PRAGMA foreign_keys = OFF")  # children and parents go together
    try:
        with db.conn:
            for table in derived:
                db.execute(f"DROP TABLE [{table}]")
    finally:
        db.execute("PRAGMA foreign_keys = ON")


def forget_sources(db: sqlite_utils.Database, paths: list[str]) -> None:
    """Delete these files' rows, and every row of any table that refers to them."""
    with db.conn:
        delete_with_dependents(db, "rulings", "source", paths)
        delete_with_dependents(db, "sources", "path", paths)


def forget_orphan_cards(db: sqlite_utils.Database) -> None:
    """Delete cards no file names any more (a file renamed its card or was removed)."""
    orphans = [
        row["id"]
        for row in db.query("SELECT id FROM cards WHERE id NOT IN (SELECT card_id FROM sources)")
    ]
    with db.conn:
        delete_with_dependents(db, "cards", "id", orphans)


def rulings(
    db: sqlite_utils.Database, lang: str | None = None, ids: list[str] | None = None
) -> list[dict]:
    """All rulings (or those with these ``ids``) with their card name, in a stable order
    (language, card, position)."""
    if ids is not None:
        found = [
            row
            for chunk in chunks(ids)
            for row in _rulings(db, f"WHERE r.id IN ({', '.join('?' for _ in chunk)})", chunk)
        ]
        return sorted(found, key=lambda r: (r["lang"], r["card"], r["source"], r["position"]))
    return _rulings(db, *(("WHERE r.lang = ?", [lang]) if lang else ("", [])))


def _rulings(db: sqlite_utils.Database, where: str, params: list) -> list[dict]:
    sql = f"""
        SELECT r.*, c.name AS card FROM rulings r JOIN cards c ON c.id = r.card_id
        {where} ORDER BY r.lang, c.name, r.source, r.position
    """
    return [dict(row) for row in db.query(sql, params)]


def delete_with_dependents(
    db: sqlite_utils.Database, table: str, column: str, values: list[str]
) -> None:
    """Delete rows of ``table`` whose ``column`` is in ``values``, and every row that refers to
    them through a declared foreign key, recursively (children first)."""
    if not values or table not in db.table_names():
        return
    for child in db.table_names():
        for fk in db.table(child).foreign_keys:
            if fk.other_table == table and child != table:
                if fk.column is None or fk.other_column is None:  # schema.py declares none
                    raise ValueError(f"{child}: a compound foreign key is not followed")
                keys = [row[0] for row in _select(db, table, fk.other_column, column, values)]
                delete_with_dependents(db, child, fk.column, keys)
    for where, params in wheres(f"[{column}]", values):
        db.execute(f"DELETE FROM [{table}]{where}", params)


def _select(db, table: str, wanted: str, column: str, values: list[str]):
    for where, params in wheres(f"[{column}]", values):
        yield from db.execute(f"SELECT [{wanted}] FROM [{table}]{where}", params).fetchall()
