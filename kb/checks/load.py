"""The store as the checks see it: aligned groups of members, and the glossary.

:func:`load_corpus` reads every group; :func:`aligned_groups` reads some (the incremental
path's changed groups). Members are read with only the columns the checks use: a ruling
printed on every card makes a group of 10,000 members.
"""

from __future__ import annotations

import sqlite_utils

from kb import align, store
from kb.checks.findings import Corpus, Group, Member
from kb.corpus.languages import is_source, lang_order
from kb.reference import glossary as glossary_module

_MEMBERS = (
    "SELECT m.group_id, r.id, r.lang, c.name, r.text, r.source, r.line, r.position, "
    "r.date, {source} FROM memberships m JOIN rulings r ON r.id = m.ruling_id "
    "JOIN cards c ON c.id = r.card_id"
)


def load_corpus(db: sqlite_utils.Database) -> Corpus:
    """The store's rulings as groups (alignment's when the store has them) and the glossary."""
    return Corpus(groups=_groups(db), glossary=glossary())


def glossary():
    """The glossary the checks compare terms with (the one that ships with the package)."""
    return glossary_module.load()


def _groups(db: sqlite_utils.Database) -> list[Group]:
    if "groups" in db.table_names():
        return aligned_groups(db)
    # Not aligned (the align stage has not run): each ruling stands alone.
    return [
        Group(row["id"], [member_of_row(row, row["id"])], aligned=False)
        for row in store.rulings(db)
    ]


def aligned_groups(db: sqlite_utils.Database, ids: list[str] | None = None) -> list[Group]:
    """The stored groups (or those in ``ids``) as :func:`kb.align.groups` orders them and their
    members, read with only what the checks use (a shared group has 10,000 members)."""
    # A store aligned before sources were marked has no memberships.source: no source then.
    members_sql = _MEMBERS.format(
        source="m.source" if "source" in db["memberships"].columns_dict else "0"
    )
    if ids is None:
        rows = db.execute(members_sql).fetchall()
        names = [r[0] for r in db.execute("SELECT id FROM groups")]
    else:
        rows, names = [], []
        for chunk in store.chunks(ids):
            marks = ", ".join("?" * len(chunk))
            rows += db.execute(f"{members_sql} WHERE m.group_id IN ({marks})", chunk).fetchall()
            names += [
                r[0] for r in db.execute(f"SELECT id FROM groups WHERE id IN ({marks})", chunk)
            ]
    order = {lang: lang_order(lang) for lang in {r[2] for r in rows}}
    rows.sort(key=lambda r: (order[r[2]], r[3], r[5], r[7]))
    members: dict[str, list[Member]] = {}
    for gid, rid, lang, card, text, source, line, _, date, original in rows:
        where = f"{source}:{line}" if line else str(source or "")
        members.setdefault(gid, []).append(
            Member(str(rid), lang, card or "", text, str(gid), where, date or "", bool(original))
        )
    names.sort(key=align.id_order)
    return [Group(str(gid), members.get(gid, [])) for gid in names]


def member_of_row(row: dict, group: str) -> Member:
    """A stored ruling row (with its card's name as ``card``) as a member of ``group``."""
    source = f"{row['source']}:{row['line']}" if row.get("line") else str(row.get("source", ""))
    return Member(
        str(row["id"]),
        row["lang"],
        row.get("card") or "",
        row["text"],
        group,
        source,
        row.get("date") or "",
        is_source(row["lang"]),
    )
