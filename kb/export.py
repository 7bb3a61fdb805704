"""Exports of the store: JSON (the data contract of DESIGN.md)."""

from __future__ import annotations

import json

import sqlite_utils

from kb import store


def groups(db: sqlite_utils.Database) -> list[dict]:
    """The ruling groups with their rulings; one group per ruling until alignment exists."""
    return [
        {"id": ruling["id"], "rules": [], "examples": [],
         "rulings": [_ruling(ruling)]}
        for ruling in store.rulings(db)
    ]


def _ruling(row: dict) -> dict:
    return {"lang": row["lang"], "card": row["card"], "date": row["date"], "text": row["text"],
            "source": f"{row['source']}:{row['line']}"}


def to_json(db: sqlite_utils.Database) -> str:
    return json.dumps({"groups": groups(db)}, ensure_ascii=False, indent=2) + "\n"
