"""What the site reads from the store's tables, in the site's order: cards and their
identities, rulings, memberships, and the corpus-wide figures (:class:`Summary`).

The orders (:func:`ruling_order`, :func:`group_order_key`, :func:`card_order`) are what make
the same corpus give the same pages byte for byte. :mod:`kb.site.data` assembles these rows,
the rule links, examples and findings into what the pages show.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb import store
from kb.corpus.languages import LANGUAGES, lang_order
from kb.site.annotations import load_examples
from kb.site.paths import slug


@dataclass
class Summary:
    """Corpus-wide figures and lists, small enough to read whole on every build."""

    languages: list[str]  # languages with rulings: LANGUAGES' order, then others sorted
    counts: dict  # what the home page counts
    group_ids: set[str]


def card_order(card: dict) -> tuple:
    """A card's place among its identity's: its language (LANGUAGES' order, then others), name."""
    lang = card["lang"]
    return (LANGUAGES.index(lang) if lang in LANGUAGES else len(LANGUAGES), lang, card["name"])


def ruling_order(row: dict) -> tuple:
    """A ruling's place: its language (the English original first, then LANGUAGES' order),
    card name, file, position."""
    return (lang_order(row["lang"]), row["card"], row["source"], row["position"])


def group_order_key(group: dict) -> tuple:
    """A group's place in the site: its first member's place, then its id."""
    return (ruling_order(group["members"][0]) if group["members"] else (), group["id"])


_RULINGS = "SELECT r.*, c.name AS card FROM rulings r JOIN cards c ON c.id = r.card_id"


def load_cards(db) -> dict[str, dict]:
    """Every card (its rulings not attached), by id, with its identity."""
    cards = {}
    for row in db.query("SELECT id, name, lang FROM cards ORDER BY id"):
        cards[row["id"]] = {
            **dict(row),
            "slug": slug(row["id"]),
            "identity": row["id"],
            "rulings": [],
        }
    for card_id, identity in _identities(db).items():
        if card_id in cards:
            cards[card_id]["identity"] = identity
    return cards


def attach_rulings(cards: dict[str, dict], rulings: list[dict]) -> None:
    """Give each card its rulings (``rulings`` in the site's order)."""
    for ruling in rulings:
        cards[ruling["card_id"]]["rulings"].append(ruling)


def detach_rulings(cards: dict[str, dict]) -> None:
    for card in cards.values():
        if card["rulings"]:
            card["rulings"] = []


def rulings_where(db, column: str, values) -> list[dict]:
    """The rulings (rows as :func:`kb.store.rulings` gives them) whose ``column`` (of table
    ``rulings``) is one of ``values``, in the site's order."""
    found = []
    for chunk in store.chunks(sorted(set(values))):
        found += [
            dict(row)
            for row in db.query(
                f"{_RULINGS} WHERE r.[{column}] IN ({', '.join('?' * len(chunk))})", chunk
            )
        ]
    return sorted(found, key=ruling_order)


def members_light(db, order: list[str]) -> list[list[dict]]:
    """The members of the groups ``order`` (each in the site's order) as rows of what the
    search index shows of them only: lang, card, text, source, position, line. Read as
    plain tuples: a dict per row from sqlite-utils cost twice as much at 100k rulings. A few
    groups are looked up by id, many read in one pass over every membership."""
    members: dict[str, list[dict]] = {g: [] for g in order}
    columns = ("lang", "card", "text", "source", "position", "line")
    sql = (
        "SELECT m.group_id, r.lang, c.name, r.text, r.source, r.position, r.line "
        "FROM memberships m JOIN rulings r ON r.id = m.ruling_id "
        "JOIN cards c ON c.id = r.card_id"
    )
    if len(order) > FEW_GROUPS:
        queries: list[tuple[str, list[str]]] = [(sql, [])]
    else:
        queries = [
            (f"{sql} WHERE m.group_id IN ({', '.join('?' * len(chunk))})", chunk)
            for chunk in store.chunks(order)
        ]
    for query, values in queries:
        for group_id, *row in db.execute(query, values):
            group = members.get(group_id)
            if group is not None:
                group.append(dict(zip(columns, row)))
    return [sorted(members[g], key=ruling_order) for g in order]


#: Up to this many groups, :func:`members_light` looks them up by id.
FEW_GROUPS = 2000


def memberships(db, column: str, values) -> dict[str, str]:
    """{ruling id: group id} of the memberships whose ``column`` is one of ``values``."""
    out: dict[str, str] = {}
    if "memberships" not in db.table_names():
        return out
    for chunk in store.chunks(sorted(set(values))):
        out.update(
            db.execute(
                f"SELECT ruling_id, group_id FROM memberships WHERE [{column}] IN "
                f"({', '.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
        )
    return out


def summary(db) -> Summary:
    """The corpus-wide figures, read with a few queries whatever the corpus' size."""
    found = {lang for (lang,) in db.execute("SELECT DISTINCT lang FROM rulings")}
    languages = [code for code in LANGUAGES if code in found] + sorted(found - set(LANGUAGES))
    tables = set(db.table_names())
    aligned = {"groups", "memberships"} <= tables
    group_ids = (
        {g for (g,) in db.execute("SELECT id FROM groups")}
        if aligned
        else {r for (r,) in db.execute("SELECT id FROM rulings")}
    )
    per_lang: dict[str, dict] = {}
    for lang, n in db.execute("SELECT lang, COUNT(*) FROM cards GROUP BY lang"):
        per_lang[lang] = {"cards": n, "rulings": 0}
    for lang, n in db.execute(
        "SELECT c.lang, COUNT(*) FROM rulings r JOIN cards c ON c.id = r.card_id GROUP BY c.lang"
    ):
        per_lang[lang]["rulings"] = n
    linked = 0
    if aligned and "group_rules" in tables:
        linked = db.execute(
            "SELECT COUNT(DISTINCT rule) FROM group_rules WHERE group_id IN (SELECT id FROM groups)"
        ).fetchone()[0]
    runs = [run for run in load_examples(db) if str(run.get("group")) in group_ids]
    counts = {
        "rulings": db.execute("SELECT COUNT(*) FROM rulings").fetchone()[0],
        "groups": len(group_ids),
        "cards": db.execute("SELECT COUNT(*) FROM cards").fetchone()[0],
        "rules": linked,
        "examples": len(runs),
        "examples_passed": sum(1 for run in runs if run.get("status") == "passed"),
        "per_lang": dict(sorted(per_lang.items())),
    }
    return Summary(languages=languages, counts=counts, group_ids=group_ids)


def _identities(db) -> dict[str, str]:
    """card id -> identity key, from the alignment's ``card_identities`` table when present."""
    if "card_identities" not in db.table_names():
        return {}
    columns = set(db["card_identities"].columns_dict)
    card_col = next((c for c in ("card_id", "card") if c in columns), None)
    ident_col = next(
        (
            c
            for c in ("identity", "identity_id", "canonical", "key", "id")
            if c in columns and c != card_col
        ),
        None,
    )
    if not card_col or not ident_col:
        return {}
    return {
        row[card_col]: str(row[ident_col])
        for row in db.query(f"SELECT [{card_col}], [{ident_col}] FROM card_identities")
    }
