"""Reading stored groups: every group with its rules and members, or one group by id or fingerprint."""

from __future__ import annotations

import json

import sqlite_utils

from kb.align.clustering import id_order
from kb.corpus.languages import lang_order

# ---------------------------------------------------------------------------------------------
# Reading


def groups(db: sqlite_utils.Database, ids: list[str] | None = None) -> list[dict]:
    """The stored groups, in a stable order, each {id, rules, fingerprint, signature, source,
    members}.

    ``members`` are ruling rows (lang, card, card_identity, english_name, text, date, source,
    line, score, weak, evidence, is_source), ordered by language (the source first) then card.
    ``source`` is the language of the group's source (its English original), or None. ``rules`` lists the linked
    Comprehensive Rules numbers, most specific first (empty before the link stage ran).
    ``ids`` restricts the answer to those groups (and the reading to their rows).
    """
    if "groups" not in db.table_names():
        return []
    where, params = "", []
    if ids is not None:
        if not ids:
            return []
        where, params = f" IN ({', '.join('?' * len(ids))})", list(ids)
    rules: dict[str, list[str]] = {}
    if "group_rules" in db.table_names():
        sql = "SELECT group_id, rule FROM group_rules"
        sql += f" WHERE group_id{where}" if where else ""
        for row in db.query(sql + " ORDER BY group_id, rank", params):
            rules.setdefault(row["group_id"], []).append(row["rule"])
    members: dict[str, list[dict]] = {}
    sql = """
        SELECT r.*, c.name AS card, m.group_id, m.score, m.weak, m.evidence,
               m.source AS is_source,
               ci.identity AS card_identity, ci.english_name, ci.known AS card_known
        FROM memberships m JOIN rulings r ON r.id = m.ruling_id
        JOIN cards c ON c.id = r.card_id LEFT JOIN card_identities ci ON ci.card_id = c.id
    """ + (f" WHERE m.group_id{where}" if where else "")
    for row in db.query(sql, params):
        row = dict(row)
        row["evidence"] = json.loads(row["evidence"] or "{}")
        row["weak"] = bool(row["weak"])
        row["is_source"] = bool(row["is_source"])
        members.setdefault(row.pop("group_id"), []).append(row)
    out = []
    for g in db.query("SELECT * FROM groups" + (f" WHERE id{where}" if where else ""), params):
        mine = sorted(
            members.get(g["id"], []),
            key=lambda r: (lang_order(r["lang"]), r["card"], r["source"], r["position"]),
        )
        out.append(
            {
                "id": g["id"],
                "fingerprint": g["fingerprint"],
                "signature": json.loads(g["signature"]),
                "rules": rules.get(g["id"], []),
                "source": g.get("source"),
                "members": mine,
            }
        )
    return sorted(out, key=lambda g: id_order(g["id"]))


def find_group(db: sqlite_utils.Database, key: str) -> dict | None:
    """The group whose id is ``key``, or whose fingerprint ends ``key`` (rule prefix ignored).

    Data that names a group (examples) keeps working when a group's primary rule changes.
    Only the matching group's rows are read (the store may hold 100,000 rulings).
    """
    found = find_group_id(db, key)
    return groups(db, [found])[0] if found is not None else None


def find_group_id(db: sqlite_utils.Database, key: str) -> str | None:
    """The id of the group :func:`find_group` finds, without reading its rulings (a ruling
    printed on every card makes a group of 10,000): by id, else the first group in the usual
    order with the key's fingerprint."""
    if "groups" not in db.table_names():
        return None
    if db.execute("SELECT 1 FROM groups WHERE id = ?", [key]).fetchone():
        return key
    fp = key.rsplit("-", 1)[-1] if "-" in key else key
    same = [gid for (gid,) in db.execute("SELECT id FROM groups WHERE fingerprint = ?", [fp])]
    return min(same, key=id_order, default=None)
