"""The whoosh documents of the store: one per group and language.

A group (a ruling and its translations, :mod:`kb.align`) has at most one text per language,
carried by one or many cards. Its document in a language holds that text in the language's
field (``text_fr``…), the names of the cards carrying it in ``title_<lang>`` and, folded, in
``cards`` (for the ``card:`` filter), the group's id, rule numbers and the rulings' dates
for the filters, and in ``shown`` the ruling a hit shows. A ruling printed word for word on
2,000 cards is one document, scored once.

Reads the tables ``rulings``, ``cards``, ``memberships`` and ``group_rules``; writes nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from kb.corpus.languages import LANGUAGES
from kb.search import analysis


def group_documents(db, only: set[str] | None = None) -> dict[str, list[dict]]:
    """{group id: its whoosh documents, one per language} from the store (of the groups
    ``only``, if given).

    The ruling a hit shows in a language is the first of the group in the store's order (card
    name, file, position); ``shown`` keeps it, with the number of cards carrying the text.
    """
    from kb import store

    groups, rules = group_map(db, only)
    by_group: dict[str, dict[str, list[dict]]] = {}
    rows = store.rulings(db) if only is None else store.rulings(db, ids=sorted(groups))
    for row in rows:
        if row["lang"] in LANGUAGES:
            group = groups.get(row["id"], row["id"])
            by_group.setdefault(group, {}).setdefault(row["lang"], []).append(row)
    return {
        gid: [
            _document(gid, lang, rows, rules.get(gid, ()))
            for lang, rows in sorted(per_lang.items())
        ]
        for gid, per_lang in by_group.items()
    }


_INDEXED = f"r.lang IN ({', '.join(repr(lang) for lang in LANGUAGES)})"


def all_documents(db) -> Iterator[dict]:
    """Every document in key order, read from the store in one pass, group by group, so that
    the corpus is never all in memory (as :func:`group_documents`, when every ruling has a
    group)."""
    names = set(db.table_names())
    orphans = (
        "memberships" not in names
        or db.execute(
            "SELECT EXISTS (SELECT 1 FROM rulings r LEFT JOIN memberships m ON m.ruling_id = r.id "
            "WHERE m.ruling_id IS NULL)"
        ).fetchone()[0]
    )
    if orphans:  # before alignment, a ruling is a group of its own
        docs = {doc["key"]: doc for group in group_documents(db).values() for doc in group}
        yield from (docs[key] for key in sorted(docs))
        return
    rules = _rules(db)
    rows = db.query(
        "SELECT r.*, c.name AS card, m.group_id AS group_id FROM rulings r "
        "JOIN cards c ON c.id = r.card_id JOIN memberships m ON m.ruling_id = r.id "
        f"WHERE {_INDEXED} ORDER BY m.group_id, r.lang, c.name, r.source, r.position"
    )
    for (gid, lang), run in itertools.groupby(rows, key=lambda r: (r["group_id"], r["lang"])):
        yield _document(str(gid), lang, list(run), rules.get(str(gid), ()))


def document_count(db) -> int:
    """How many documents :func:`all_documents` yields (0 before alignment: unknown)."""
    return (
        db.execute(
            "SELECT COUNT(*) FROM (SELECT DISTINCT coalesce(m.group_id, r.id), r.lang "
            "FROM rulings r LEFT JOIN memberships m ON m.ruling_id = r.id "
            f"WHERE {_INDEXED})"
        ).fetchone()[0]
        if "memberships" in db.table_names()
        else 0
    )


def _document(gid: str, lang: str, rows: list[dict], rules) -> dict:
    cards = list(dict.fromkeys(r["card"] for r in rows))
    first = rows[0]
    return {
        "key": f"{gid}\t{lang}",
        "group": gid,
        "lang": lang,
        "rules": " ".join(rules),
        "dates": " ".join(sorted({r["date"] for r in rows})),
        "shown": [
            first["id"],
            first["card"],
            first["date"],
            first["source"],
            first["text"],
            len(cards),
        ],
        f"text_{lang}": "\n".join(dict.fromkeys(r["text"] for r in rows)),
        f"title_{lang}": "\n".join(cards),
        "cards": " ".join(dict.fromkeys(w for card in cards for w in analysis.card_key(card))),
    }


def group_map(db, only: set[str] | None = None) -> tuple[dict[str, str], dict[str, list[str]]]:
    """``({ruling id: group id}, {group id: [rule numbers]})`` from the alignment's tables (of
    the groups ``only``, if given).

    Before alignment has run (no ``memberships`` table) each ruling is its own group.
    """
    groups: dict[str, str] = {}
    if "memberships" in db.table_names():
        for where, params in _groups_where(only):
            groups.update(
                (r, str(g))
                for r, g in db.execute(
                    f"SELECT ruling_id, group_id FROM memberships{where}", params
                )
            )
    return groups, _rules(db, only)


def _rules(db, only: set[str] | None = None) -> dict[str, list[str]]:
    """{group id: its rule numbers, sorted} (of the groups ``only``, if given)."""
    rules: dict[str, list[str]] = {}
    if "group_rules" in db.table_names():
        for where, params in _groups_where(only):
            for g, n in db.execute(
                f"SELECT group_id, rule FROM group_rules{where} ORDER BY 1, 2", params
            ):
                rules.setdefault(str(g), []).append(n)
    return rules


def _groups_where(only: set[str] | None) -> list[tuple[str, list]]:
    """(SQL condition, parameters) pairs that select the groups ``only`` (in chunks, as SQLite
    limits parameters), or one pair selecting every group."""
    from kb import store

    if only is None:
        return [("", [])]
    return [
        (f" WHERE group_id IN ({', '.join('?' for _ in chunk)})", chunk)
        for chunk in store.chunks(sorted(only))
    ]
