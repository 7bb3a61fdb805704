"""Writing an incremental alignment's result: the rows of the groups, memberships, unit
rulings, concepts and card identities that :mod:`kb.align.update` found changed."""

from __future__ import annotations

import json
from collections.abc import Callable

from kb import store
from kb.align import memberships
from kb.align import state as align_state
from kb.align import units as align_units
from kb.align.units import Aligned, Unit
from kb.corpus.languages import is_source, lang_order
from kb.reference import cards, names


class Groups:
    """Groups as :class:`kb.align.Aligned`, read from the updated units on demand."""

    def __init__(self, db, index: align_state.Index, new_groups: list[Aligned]):
        self.db, self.index = db, index
        self.by_id = {g.id: g for g in new_groups}

    def get(self, gid: str) -> Aligned:
        if gid not in self.by_id:
            keys = self.index.group_units([gid]).get(gid, [])
            units = sorted(self.index.load(keys).values(), key=lambda u: u.sort_key)
            sig = align_units.signature(units)
            self.by_id[gid] = Aligned(units, sig, align_units.fingerprint(sig), id=gid)
        return self.by_id[gid]

    def of(self, key: str) -> Aligned:
        return self.get(self.index.rows[key][2])

    def containing(self, concepts: frozenset[str]) -> list[Aligned]:
        """Every group whose signature holds all of ``concepts``."""
        ids = [
            gid
            for gid, sig in self.db.execute("SELECT id, signature FROM groups")
            if concepts <= set(json.loads(sig))
        ]
        return [self.get(gid) for gid in ids]


def write_rulings(db, changed: list[str], old: dict, rebuilt: list[Unit]) -> None:
    """unit_rulings follows the rebuilt units."""
    for chunk in store.chunks(changed):
        db.execute(
            f"DELETE FROM unit_rulings WHERE source IN {align_state.placeholders(chunk)}", chunk
        )
    for chunk in store.chunks(list(old)):
        db.execute(
            f"DELETE FROM unit_rulings WHERE unit IN {align_state.placeholders(chunk)}", chunk
        )
    align_state.insert_rulings(db, rebuilt)


def write_groups(db, groups: Groups, written: set[str], existing: set[str]) -> None:
    sizes = dict(
        align_state.query(
            db,
            "SELECT au.group_id, COUNT(*) FROM unit_rulings ur JOIN align_units "
            "au ON au.key = ur.unit WHERE au.group_id IN {} GROUP BY au.group_id",
            sorted(written),
        )
    )
    rows = []
    for gid in sorted(written):
        g = groups.get(gid)
        rows.append(
            (
                g.fingerprint,
                json.dumps(list(g.signature)),
                ",".join(sorted({u.lang for u in g.units}, key=lang_order)),
                sizes.get(gid, 0),
                align_units.source_lang(g.units),
                gid,
            )
        )
    db.conn.executemany(
        "UPDATE groups SET fingerprint = ?, signature = ?, languages = ?, "
        "size = ?, source = ? WHERE id = ?",
        [r for r in rows if r[-1] in existing],
    )
    db.conn.executemany(
        "INSERT INTO groups (fingerprint, signature, languages, size, source, id) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [r for r in rows if r[-1] not in existing],
    )


def with_rulings(db, index: align_state.Index, keys) -> None:
    """Give the loaded units their ruling rows (rebuilt units have them already)."""
    missing = [k for k in keys if not index.cache[k].rulings]
    found: dict[str, list[dict]] = {}
    for chunk in store.chunks(missing):
        for row in db.query(
            f"SELECT ur.unit AS unit_key, r.* FROM unit_rulings ur JOIN rulings r "
            f"ON r.id = ur.ruling_id WHERE ur.unit IN {align_state.placeholders(chunk)} "
            f"ORDER BY r.source, r.position",
            chunk,
        ):
            row = dict(row)
            found.setdefault(row.pop("unit_key"), []).append(row)
    for key, rows in found.items():
        index.cache[key].rulings = rows


def _partial(groups: Groups, own: Aligned) -> Callable[[Unit], list[str]]:
    """``partial(unit)`` for :func:`memberships.unit_memberships`: only a ruling alone in its
    group may be a partial translation of another."""
    if len(own.units) != 1:
        return lambda u: []
    return lambda u: memberships.partial_of(u, own, groups.containing(u.concepts))


def write_memberships(db, index: align_state.Index, groups: Groups, redo: set[str]) -> None:
    with_rulings(db, index, redo)
    ids = [r["id"] for k in redo for r in index.cache[k].rulings]
    for chunk in store.chunks(ids):
        db.execute(
            f"DELETE FROM memberships WHERE ruling_id IN {align_state.placeholders(chunk)}", chunk
        )
    rows = []
    for key in sorted(redo):
        unit = index.cache[key]
        own = groups.of(key)
        # Scored against: candidates by blocking keys, and the rest of its component.
        mates = index.partners(unit) | set(index.component(index.rows[key][1]))
        mates = {k for k, u in index.load(mates).items() if u.lang != unit.lang}
        score = {k: index.scorer.value(unit, index.cache[k]) for k in mates}
        rivals = {}
        for k in sorted(mates):
            other = groups.of(k)
            if other.id != own.id:
                rivals[other.id] = other
        partial = _partial(groups, own)
        dumped = None
        for m in memberships.unit_memberships(
            unit,
            own,
            index.scorer,
            lambda u, score=score: score.get(u.key, 0.0),
            list(rivals.values()),
            partial,
        ):
            dumped = dumped or json.dumps(m.evidence, ensure_ascii=False, sort_keys=True)
            rows.append(
                (m.ruling["id"], own.id, m.score, dumped, int(m.weak), int(is_source(unit.lang)))
            )
    db.conn.executemany(
        "INSERT INTO memberships (ruling_id, group_id, score, evidence, weak, "
        "source) VALUES (?, ?, ?, ?, ?, ?)",
        rows,
    )


def write_derived(db, glossary, new_rows: list[dict]) -> None:
    """Concept rows of the new rulings, identities of new cards."""
    db.conn.executemany(
        'INSERT OR REPLACE INTO ruling_concepts (ruling_id, concept, start, "end", surface, '
        "lang) VALUES (?, ?, ?, ?, ?, ?)",
        (
            (r["id"], c.concept, c.start, c.end, c.surface, c.lang)
            for r in new_rows
            for c in names.ruling_matches(glossary, r)
        ),
    )
    db["card_identities"].insert_all(
        cards.identity_rows(
            db, "SELECT * FROM cards WHERE id NOT IN (SELECT card_id FROM card_identities)"
        ),
        pk="card_id",
        replace=True,
    )
