"""The SQLite store: schema and access, through sqlite-utils.

Tables (foreign keys declared, so Datasette links them):

- ``sources``: one row per ruling file: ``path`` (pk), ``sha256``, ``lang``, ``lang_stated``,
  ``lang_confidence``, ``card_id`` -> ``cards.id``.
- ``cards``: one row per card name in one language: ``id`` (pk, ``lang:name``), ``name``, ``lang``.
- ``rulings``: one row per ruling text: ``id`` (pk, ``path#position``), ``source`` ->
  ``sources.path``, ``card_id`` -> ``cards.id``, ``lang``, ``date`` (ISO 8601), ``position``,
  ``text``, ``line``.

Later stages add their own tables; each declares its schema in :func:`create_schema` helpers of
its module. Rows are keyed by content-derived ids, so building twice gives the same rows.
"""

from __future__ import annotations

from pathlib import Path

import sqlite_utils

from kb.parse import ParsedFile

DEFAULT_DB = Path("_build") / "rulings.db"


def open_db(path: str | Path) -> sqlite_utils.Database:
    """Open a store for writing (created if missing), with foreign keys enforced."""
    db = sqlite_utils.Database(path)
    db.execute("PRAGMA foreign_keys = ON")
    return db


def open_existing(path: str | Path) -> sqlite_utils.Database:
    """Open a store that must already exist (for read commands); raise FileNotFoundError if not."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no store at {path}: run `kb build` first or pass --db")
    return sqlite_utils.Database(path)


def create_schema(db: sqlite_utils.Database) -> None:
    """Create the base tables if they are missing."""
    if "cards" not in db.table_names():
        db["cards"].create({"id": str, "name": str, "lang": str}, pk="id")
    if "sources" not in db.table_names():
        db["sources"].create(
            {"path": str, "sha256": str, "lang": str, "lang_stated": bool,
             "lang_confidence": float, "card_id": str},
            pk="path", foreign_keys=[("card_id", "cards", "id")],
        )
    if "rulings" not in db.table_names():
        db["rulings"].create(
            {"id": str, "source": str, "card_id": str, "lang": str, "date": str,
             "position": int, "text": str, "line": int},
            pk="id", foreign_keys=[("source", "sources", "path"), ("card_id", "cards", "id")],
        )
        db["rulings"].create_index(["lang"])
        db["rulings"].create_index(["card_id"])


def card_id(lang: str, name: str) -> str:
    return f"{lang}:{name}"


def store_files(db: sqlite_utils.Database, files: list[ParsedFile]) -> None:
    """Write parsed files into the store, replacing any earlier rows of the same files."""
    create_schema(db)
    with db.conn:
        for parsed in files:
            _store_file(db, parsed)


def _store_file(db: sqlite_utils.Database, parsed: ParsedFile) -> None:
    cid = card_id(parsed.lang, parsed.card)
    db["rulings"].delete_where("source = ?", [parsed.path])
    db["cards"].upsert({"id": cid, "name": parsed.card, "lang": parsed.lang}, pk="id")
    db["sources"].upsert(
        {"path": parsed.path, "sha256": parsed.sha256, "lang": parsed.lang,
         "lang_stated": parsed.lang_stated, "lang_confidence": parsed.lang_confidence,
         "card_id": cid},
        pk="path",
    )
    db["rulings"].insert_all(
        {"id": f"{parsed.path}#{r.position}", "source": parsed.path, "card_id": cid,
         "lang": parsed.lang, "date": r.date, "position": r.position, "text": r.text,
         "line": r.line}
        for r in parsed.rulings
    )


def rulings(db: sqlite_utils.Database, lang: str | None = None) -> list[dict]:
    """All rulings with their card name, in a stable order (language, card, position)."""
    where, params = ("WHERE r.lang = ?", [lang]) if lang else ("", [])
    sql = f"""
        SELECT r.*, c.name AS card FROM rulings r JOIN cards c ON c.id = r.card_id
        {where} ORDER BY r.lang, c.name, r.source, r.position
    """
    return [dict(row) for row in db.query(sql, params)]
