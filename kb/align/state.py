"""The alignment state a full alignment leaves in the store for :mod:`kb.align.update`.

Tables (declared in :mod:`kb.store.schema`): ``align_units`` (each unit's features, blocking
state, component and group), ``unit_keys`` (its blocking keys), ``unit_rulings`` (the rulings it
holds) and ``align_state`` (the scorer's corpus statistics: the number of units, each concept's
document frequency, the languages' usual lengths). :class:`Index` reads them back on demand.
"""

from __future__ import annotations

import json
from collections import Counter

import sqlite_utils

from kb import store
from kb.align import full, scoring
from kb.align.units import Unit
from kb.store import schema

STATE_TABLES = ("align_units", "unit_keys", "unit_rulings", "align_state")


def store_state(db: sqlite_utils.Database, alignment: full.Alignment) -> None:
    """Replace the state tables' rows with a full alignment's."""
    schema.create(db, *STATE_TABLES)
    units = alignment.units
    postings = scoring.block_postings(units)
    keyed = {
        i for members in postings.values() if len(members) <= scoring.KEY_LIMIT for i in members
    }
    component = {}
    for members in alignment.components:
        first = min(units[i].key for i in members)
        for i in members:
            component[units[i].key] = first
    group_of = {u.key: g.id for g in alignment.groups for u in g.units}
    with db.conn:
        for table in STATE_TABLES:
            db.execute(f"DELETE FROM [{table}]")
        insert_units(
            db,
            [
                (u, int(i not in keyed), component[u.key], group_of[u.key])
                for i, u in enumerate(units)
            ],
        )
        insert_keys(db, units)
        insert_rulings(db, units)
        df = Counter(c for u in units for c in u.concepts)
        write_state(db, len(units), dict(df), alignment.scorer.lang_length)


def insert_units(db, rows) -> None:
    db.conn.executemany(
        "INSERT OR REPLACE INTO align_units (key, lang, bucket, features, length, residual, "
        "component, group_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (u.key, u.lang, u.bucket, u.features(), u.length, residual, comp, gid)
            for u, residual, comp, gid in rows
        ),
    )


def insert_keys(db, units) -> None:
    db.conn.executemany(
        "INSERT OR REPLACE INTO unit_keys (block, unit) VALUES (?, ?)",
        ((k, u.key) for u in units for k in scoring.block_keys(u)),
    )


def insert_rulings(db, units) -> None:
    db.conn.executemany(
        "INSERT OR REPLACE INTO unit_rulings (ruling_id, unit, source) VALUES (?, ?, ?)",
        ((r["id"], u.key, r["source"]) for u in units for r in u.rulings),
    )


def write_state(db, n: int, df: dict[str, int], lang_length: dict[str, float]) -> None:
    db.conn.executemany(
        "INSERT OR REPLACE INTO align_state (name, value) VALUES (?, ?)",
        [
            ("n", str(n)),
            ("df", json.dumps(df, sort_keys=True)),
            ("lang_length", json.dumps(lang_length, sort_keys=True)),
        ],
    )


def placeholders(values) -> str:
    return f"({', '.join('?' * len(values))})"


def dicts(db, sql: str, values) -> list[dict]:
    """:func:`query`, rows as dicts."""
    out = []
    for chunk in store.chunks(values):
        out += [dict(r) for r in db.query(sql.format(placeholders(chunk)), chunk)]
    return out


def query(db, sql: str, values, *extra) -> list:
    """``sql`` with one ``IN {}`` placeholder run over ``values`` in chunks."""
    out = []
    for chunk in store.chunks(values):
        out += db.execute(sql.format(placeholders(chunk)), [*chunk, *extra]).fetchall()
    return out


class Index:
    """The current units, their blocking keys, components and groups, read from the store."""

    def __init__(self, db, scorer: scoring.Scorer):
        self.db, self.scorer = db, scorer
        self.cache: dict[str, Unit] = {}
        self.sizes: dict[str, int] = {}
        self.rows: dict[str, tuple] = {}  # key -> (residual, component, group_id)
        self._residual: list[str] | None = None

    def load(self, keys) -> dict[str, Unit]:
        missing = [k for k in keys if k not in self.cache]
        for key, lang, bucket, features, residual, comp, gid in query(
            self.db,
            "SELECT key, lang, bucket, features, residual, component, group_id "
            "FROM align_units WHERE key IN {}",
            missing,
        ):
            self.cache[key] = Unit.from_features(lang, key, features, bucket)
            self.rows[key] = (residual, comp, gid)
        return {k: self.cache[k] for k in keys}

    def active(self, block: str) -> bool:
        if block not in self.sizes:
            self.sizes[block] = self.db.execute(
                "SELECT COUNT(*) FROM unit_keys WHERE block = ?", [block]
            ).fetchone()[0]
        return self.sizes[block] <= scoring.KEY_LIMIT

    def partners(self, unit: Unit) -> set[str]:
        """Keys of the units a full alignment pairs ``unit`` with by blocking keys."""
        blocks = [b for b in scoring.block_keys(unit) if self.active(b)]
        if not blocks:
            if self._residual is None:
                self._residual = [
                    k for (k,) in self.db.execute("SELECT key FROM align_units WHERE residual = 1")
                ]
            found = set(self._residual)
        else:
            found = {
                k for (k,) in query(self.db, "SELECT unit FROM unit_keys WHERE block IN {}", blocks)
            }
        found.discard(unit.key)
        return {k for k, u in self.load(found).items() if u.lang != unit.lang}

    def component(self, comp: str) -> list[str]:
        return [
            k for (k,) in self.db.execute("SELECT key FROM align_units WHERE component = ?", [comp])
        ]

    def group_units(self, gids) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for key, gid in query(
            self.db, "SELECT key, group_id FROM align_units WHERE group_id IN {}", list(gids)
        ):
            out.setdefault(gid, []).append(key)
        return out


def corpus_statistics(db, buckets_old: dict, added: list[Unit], removed: list[Unit]):
    """(n, df, lang_length) after replacing ``removed`` units by ``added`` ones."""
    state = dict(db.execute("SELECT name, value FROM align_state").fetchall())
    n = int(state["n"]) - len(removed) + len(added)
    df = Counter(json.loads(state["df"]))
    df.subtract(c for u in removed for c in u.concepts)
    df.update(c for u in added for c in u.concepts)
    lengths: dict[str, list[int]] = {}
    gone = {u.key for u in removed}
    for key, lang, length in db.execute("SELECT key, lang, length FROM align_units"):
        if key not in gone:
            lengths.setdefault(lang, []).append(length)
    for unit in added:
        lengths.setdefault(unit.lang, []).append(unit.length)
    return state, n, {c: d for c, d in df.items() if d > 0}, scoring.usual_lengths(lengths)
