"""The ``findings`` table: one row per finding, accepted ones marked with their reason.

Written whole by :func:`store_report` (a full check) or in part by :mod:`kb.checks.update`;
read by the site (:func:`findings`, :func:`findings_of_groups`, :func:`stray_findings`).
Columns (declared in :mod:`kb.store.schema`): ``id`` (a digest of what the finding says and
where, so a finding keeps its id from build to build), the :class:`kb.checks.findings.Finding`
fields, and ``accepted`` (the suppression's reason, or NULL).
"""

from __future__ import annotations

import sqlite_utils

from kb import store
from kb.checks.findings import Finding
from kb.checks.run import Report, run_checks
from kb.store import schema

TABLE = "findings"
COLUMNS = ("check", "severity", "lang", "group", "card", "message", "excerpt", "start", "end")
#: The Finding fields, as columns (a stored row back to a Finding).
FIELDS = COLUMNS + ("ruling", "source")


def store_report(db: sqlite_utils.Database, report: Report) -> None:
    """Replace the table with ``report``'s findings and accepted findings."""
    rows = [row(f, None) for f in report.findings]
    rows += [row(f, s.reason) for f, s in report.accepted]
    with db.conn:
        if TABLE in db.table_names():
            db[TABLE].drop()
        schema.create(db, TABLE)
        db.table(TABLE).insert_all(rows)


def row(finding: Finding, reason: str | None) -> dict:
    """The table row of ``finding``; ``reason``: the suppression's that accepts it, or None."""
    return {"id": finding.id, **finding.to_dict(), "accepted": reason}


def findings(db: sqlite_utils.Database, accepted: bool = False) -> list[dict]:
    """Findings as the build stored them (run the checks now if this store has none).

    Each is a dict with the JSON keys of ``kb check`` plus ``ruling``, ``source`` and
    ``accepted`` (the suppression's reason, or None). Accepted findings are left out unless
    ``accepted`` is true.
    """
    if TABLE not in db.table_names():
        return [dict(f.to_dict(), accepted=None) for f in run_checks(db).findings]
    return _stored(db, "" if accepted else "WHERE accepted IS NULL", [])


def findings_of_groups(db: sqlite_utils.Database, groups: list[str]) -> list[dict]:
    """The stored findings (not accepted) of the groups ``groups``, as :func:`findings` gives
    them. An incremental site build reads these instead of all 36,000 at 100k rulings."""
    found = []
    for chunk in store.chunks(groups):
        found += _stored(
            db, f'WHERE accepted IS NULL AND "group" IN ({", ".join("?" * len(chunk))})', chunk
        )
    return sorted(found, key=_order)


def stray_findings(db: sqlite_utils.Database) -> list[dict]:
    """The stored findings (not accepted) of no group the store has: corpus-wide ones."""
    if "groups" not in db.table_names():
        return findings(db)
    return _stored(
        db,
        'WHERE accepted IS NULL AND ("group" IS NULL OR "group" NOT IN (SELECT id FROM groups))',
        [],
    )


def _stored(db: sqlite_utils.Database, where: str, values: list) -> list[dict]:
    """Rows of the findings table as dicts, without their id, in :func:`findings`' order."""
    # Plain tuples, not sqlite-utils' dict per row (36,000 rows at 100k rulings); SQLite's
    # order first, then Python's (the same order, found by one pass over sorted input).
    cursor = db.conn.execute(
        f'SELECT * FROM [{TABLE}] {where} ORDER BY "group", lang, card, '
        'ruling, start, "end", "check", message',
        values,
    )
    names = [column[0] for column in cursor.description]
    rows = [dict(zip(names, record)) for record in cursor]
    for stored in rows:
        del stored["id"]
    return sorted(rows, key=_order)


def _order(r: dict) -> tuple:
    return (
        r["group"],
        r["lang"],
        r["card"],
        r["ruling"],
        r["start"],
        r["end"],
        r["check"],
        r["message"],
    )
