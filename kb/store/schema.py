"""Every table of the store, declared and documented in this one module.

Stages never create tables themselves: they call :func:`create` with the names of theirs (or,
for the tables a build rewrites whole with plain SQL, take :func:`columns`). A test builds a
corpus and checks that the store holds exactly the tables and columns declared here, so this
list cannot drift from what is written.

Foreign keys are declared (Datasette links rows; :func:`kb.store.delete_with_dependents`
follows them when an incremental build replaces a file's rulings).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite_utils


@dataclass(frozen=True)
class Table:
    """A table: its columns (name -> Python type, in order), key, links, indexes, and what
    it holds; ``stage`` is the build stage that writes it."""

    stage: str
    doc: str
    columns: dict[str, type]
    pk: str | tuple[str, ...]
    foreign_keys: tuple[tuple[str, str, str], ...] = ()
    indexes: tuple[tuple[str, ...], ...] = ()
    #: Written with plain SQL (``CREATE TABLE name (sql)``), not through sqlite-utils.
    sql: str = field(default="", compare=False)


def _fk(*triples: tuple[str, str, str]) -> tuple[tuple[str, str, str], ...]:
    return tuple(triples)


TABLES: dict[str, Table] = {
    # -- store: the corpus as parsed ---------------------------------------------------------
    "cards": Table(
        "store",
        "one row per card name in one language; id is `lang:name`",
        {"id": str, "name": str, "lang": str},
        "id",
    ),
    "sources": Table(
        "store",
        "one row per ruling file: its bytes' SHA-256, detected or stated "
        "language and confidence, its card",
        {
            "path": str,
            "sha256": str,
            "lang": str,
            "lang_stated": bool,
            "lang_confidence": float,
            "card_id": str,
        },
        "path",
        _fk(("card_id", "cards", "id")),
    ),
    "rulings": Table(
        "store",
        "one row per ruling text, verbatim; id is `path#position`; date "
        "ISO 8601; line of the text's first line",
        {
            "id": str,
            "source": str,
            "card_id": str,
            "lang": str,
            "date": str,
            "position": int,
            "text": str,
            "line": int,
        },
        "id",
        _fk(("source", "sources", "path"), ("card_id", "cards", "id")),
        (("lang",), ("card_id",)),
    ),
    # -- align ---------------------------------------------------------------------------------
    "groups": Table(
        "align",
        "one row per ruling group: concept signature (JSON), its "
        "fingerprint, languages, number of rulings, the language of its source "
        "(the English original; null when the corpus has none for it)",
        {
            "id": str,
            "fingerprint": str,
            "signature": str,
            "languages": str,
            "size": int,
            "source": str,
        },
        "id",
    ),
    "memberships": Table(
        "align",
        "which group each ruling is in, its score there, whether it "
        "is weak, the evidence (JSON), and whether it is the group's source "
        "(an original the others translate)",
        {
            "ruling_id": str,
            "group_id": str,
            "score": float,
            "evidence": str,
            "weak": bool,
            "source": bool,
        },
        "ruling_id",
        _fk(("ruling_id", "rulings", "id"), ("group_id", "groups", "id")),
        (("group_id",),),
    ),
    "ruling_concepts": Table(
        "align",
        "every glossary concept found in a ruling outside its card's own name, with where "
        "and the words matched",
        {"ruling_id": str, "concept": str, "start": int, "end": int, "surface": str, "lang": str},
        ("ruling_id", "concept", "start"),
        _fk(("ruling_id", "rulings", "id")),
        (("concept",),),
    ),
    "card_identities": Table(
        "align",
        "each card's identity across languages and its English "
        "name, when the card catalogue knows it",
        {"card_id": str, "identity": str, "english_name": str, "known": bool},
        "card_id",
        _fk(("card_id", "cards", "id")),
        (("identity",),),
    ),
    "align_units": Table(
        "align",
        "state for the incremental alignment: each unit's features, "
        "blocking state, component and group",
        {
            "key": str,
            "lang": str,
            "bucket": str,
            "features": str,
            "length": int,
            "residual": int,
            "component": str,
            "group_id": str,
        },
        "key",
        (),
        (("bucket",), ("component",), ("group_id",)),
    ),
    "unit_keys": Table(
        "align",
        "state: each unit's blocking keys",
        {"block": str, "unit": str},
        ("block", "unit"),
        (),
        (("unit",),),
    ),
    "unit_rulings": Table(
        "align",
        "state: the rulings each unit holds",
        {"ruling_id": str, "unit": str, "source": str},
        "ruling_id",
        (),
        (("unit",), ("source",)),
    ),
    "align_state": Table(
        "align",
        "state: the scorer's corpus statistics (number of units, "
        "concept document frequencies, usual lengths), as name/value",
        {"name": str, "value": str},
        "name",
    ),
    # -- link ----------------------------------------------------------------------------------
    "group_rules": Table(
        "link",
        "the rules each group explains, most specific first, the "
        "number each had on the rulings' date (null: none yet), the score and "
        "the evidence (JSON: concepts with each language's words, votes, "
        "strength)",
        {
            "group_id": str,
            "rule": str,
            "rank": int,
            "number_then": str,
            "score": float,
            "evidence": str,
        },
        ("group_id", "rule"),
        _fk(("group_id", "groups", "id")),
    ),
    # -- examples ------------------------------------------------------------------------------
    "example_runs": Table(
        "examples",
        "each executable example's run: kind (rule or ruling), "
        "its group, rules, status, seconds, start state and steps (JSON)",
        {
            "id": str,
            "group": str,
            "kind": str,
            "title": str,
            "source": str,
            "rules": str,
            "status": str,
            "seconds": float,
            "failure": str,
            "initial": str,
            "steps": str,
        },
        "id",
        _fk(("group", "groups", "id")),
        (("group",),),
    ),
    "example_keys": Table(
        "examples",
        "which group key each ruling example names, and its file",
        {"id": str, "key": str, "path": str},
        "id",
    ),
    # -- checks --------------------------------------------------------------------------------
    "findings": Table(
        "check",
        "one row per translator finding (id: a digest of what it says "
        "and where), accepted ones with the suppression's reason",
        {
            "id": str,
            "check": str,
            "severity": str,
            "lang": str,
            "group": str,
            "card": str,
            "message": str,
            "excerpt": str,
            "start": int,
            "end": int,
            "ruling": str,
            "source": str,
            "accepted": str,
        },
        "id",
        (),
        (("group",), ("ruling",)),
    ),
    "check_state": Table(
        "check",
        "state for the incremental checks: corpus-wide counts the "
        "checks compare texts with, and the suppressions' digest, as name/value",
        {"name": str, "value": str},
        "name",
    ),
    # -- site: what the next build compares ----------------------------------------------------
    "site_files": Table(
        "site",
        "each file the site stage wrote, with its digest",
        {"path": str, "digest": str},
        "path",
        sql="path TEXT PRIMARY KEY, digest TEXT NOT NULL",
    ),
    "site_pages": Table(
        "site",
        "each page's digest of what it shows",
        {"page": str, "digest": str},
        "page",
        sql="page TEXT PRIMARY KEY, digest TEXT NOT NULL",
    ),
    "site_groups": Table(
        "site",
        "each group's face on listings, sort key, leads and extras",
        {"id": str, "face": str, "sort": str, "leads": str, "extras": str},
        "id",
        sql="id TEXT PRIMARY KEY, face TEXT NOT NULL, sort TEXT NOT "
        "NULL, leads TEXT NOT NULL, extras TEXT NOT NULL",
    ),
    "site_cards": Table(
        "site",
        "each card page's listing digest",
        {"id": str, "listing": str},
        "id",
        sql="id TEXT PRIMARY KEY, listing TEXT NOT NULL",
    ),
    "site_dump": Table(
        "site",
        "where each group's piece sits in the data dump",
        {"id": str, "digest": str, "offset": int, "length": int},
        "id",
        sql="id TEXT PRIMARY KEY, digest TEXT NOT NULL, offset INTEGER NOT "
        "NULL, length INTEGER NOT NULL",
    ),
    # -- the build's own state -----------------------------------------------------------------
    "build_state": Table(
        "build",
        "the build key and the settings files' digest, as key/value",
        {"key": str, "value": str},
        "key",
    ),
    "source_stats": Table(
        "build",
        "each ruling file's size, times and inode as the build "
        "found them (which files the next build must read)",
        {"path": str, "size": int, "mtime_ns": int, "ctime_ns": int, "inode": int},
        "path",
        sql="path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, "
        "ctime_ns INTEGER, inode INTEGER",
    ),
}

#: The tables the parse and store stages fill; every other one is derived from them.
BASE_TABLES = ("cards", "sources", "rulings")


def create(db: sqlite_utils.Database, *names: str) -> None:
    """Create the tables ``names`` that are missing (with their indexes). A foreign key to a
    table the store does not have yet is left out, as a stage run on its own needs."""
    existing = set(db.table_names())
    for name in names:
        if name in existing:
            continue
        table = TABLES[name]
        if table.sql:
            db.execute(f"CREATE TABLE {name} ({table.sql})")
            continue
        keys = [fk for fk in table.foreign_keys if fk[1] in existing or fk[1] == name]
        db.table(name).create(dict(table.columns), pk=table.pk, foreign_keys=keys)
        for columns in table.indexes:
            db.table(name).create_index(list(columns))
        existing.add(name)


def columns(name: str) -> str:
    """The column definitions of a table written with plain SQL (``CREATE TABLE name (...)``)."""
    return TABLES[name].sql
