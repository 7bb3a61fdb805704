"""``kb export json``: the ruling groups as JSON, the data contract of DESIGN.md.

The site's data dump (:mod:`kb.site.dump`) writes the same groups, read by :func:`groups`.
"""

from __future__ import annotations

import json

import sqlite_utils

from kb import align, link, store
from kb.examples import runs as example_runs


def groups(db: sqlite_utils.Database, ids: list[str] | None = None) -> list[dict]:
    """The ruling groups with their rulings, rules and evidence, in a stable order.

    Each group: ``id`` (stable: primary rule + concept fingerprint), ``rules`` (current
    Comprehensive Rules numbers, most specific first), ``links`` (why each rule: ``rule``,
    ``number_then`` (its number on the rulings' date, null when it had none yet), ``score``,
    ``concepts`` (those of the rule the group mentions), ``words`` ({language: the words that
    matched, in the order of ``concepts``}) and ``evidence`` (per concept and language)),
    ``unlinked`` (why a group has no rule, or null), ``concepts`` (the group's signature),
    ``rulings`` and ``examples``. A store
    built without alignment gives one group per ruling. ``ids``: only these groups (only their
    rows are read; the site's data dump reads a few thousand rulings at a time).
    """
    if "groups" not in db.table_names():
        return [
            {
                "id": r["id"],
                "rules": [],
                "links": [],
                "unlinked": None,
                "concepts": [],
                "examples": [],
                "rulings": [_ruling(r)],
            }
            for r in store.rulings(db)
        ]
    if ids is None:
        found = align.groups(db)
    else:
        found = sorted(
            (g for chunk in store.chunks(ids) for g in align.groups(db, chunk)),
            key=lambda g: align.id_order(g["id"]),
        )
    links = link.links(db, ids)
    linked = "group_rules" in db.table_names()
    reasons = _reasons(db, [g["id"] for g in found if g["id"] not in links]) if linked else {}
    return [
        {
            "id": g["id"],
            "rules": g["rules"],
            "links": links.get(g["id"], []),
            "unlinked": reasons.get(g["id"]),
            "concepts": g["signature"],
            "examples": example_runs.examples_for_group(db, g["id"]),
            "rulings": [_ruling(m) for m in g["members"]],
        }
        for g in found
    ]


def _ruling(row: dict) -> dict:
    out = {
        "lang": row["lang"],
        "card": row["card"],
        "date": row["date"],
        "text": row["text"],
        "source": f"{row['source']}:{row['line']}",
    }
    if "card_identity" in row:
        out.update(
            {
                "card_identity": row["card_identity"],
                "english_name": row["english_name"],
                "score": row["score"],
                "weak": row["weak"],
                "evidence": row["evidence"],
            }
        )
    return out


def _reasons(db: sqlite_utils.Database, ids: list[str]) -> dict[str, str]:
    """{group id: why it has no rule} of the unlinked groups ``ids``."""
    if not ids:
        return {}
    votes = link.group_votes(db, ids)
    return {group_id: link.why_unlinked(votes.get(group_id, {})) for group_id in ids}


def to_json(db: sqlite_utils.Database) -> str:
    return json.dumps({"groups": groups(db)}, ensure_ascii=False, indent=2) + "\n"


def write_json(db: sqlite_utils.Database, handle) -> None:
    """:func:`to_json` written piece by piece to a text file: the same bytes without holding
    the whole text (and its millions of pieces) in memory at 100,000 rulings."""
    json.dump({"groups": groups(db)}, handle, ensure_ascii=False, indent=2)
    handle.write("\n")
