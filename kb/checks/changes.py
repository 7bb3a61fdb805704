"""``kb changes``: what changed in the corpus since a date or since another build, per language,
and which translations are now older than their source.

Since a store (``--since-store OTHER.db``, an earlier build's ``rulings.db``): each ruling of
each language is matched with the other store's, first by card and text (unchanged), then by
card and group (edited: the same ruling, its text or date changed), then what is left is new
here or removed there. Since a date (``--since YYYY-MM-DD``): the rulings dated on or after
it, new or edited (a ruling file dates each ruling; which were removed only another store can
tell).

Outdated translations: in a group with a source (the English original), a translation dated
before its source; and, since a store, a translation whose source was edited since while the
translation was not.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kb import store
from kb.corpus.languages import is_source, lang_order
from kb.errors import KbError

_ROWS = (
    "SELECT r.id, r.lang, r.card_id, c.name AS card, r.date, r.text, r.source, r.line, "
    "m.group_id FROM rulings r JOIN cards c ON c.id = r.card_id "
    "LEFT JOIN memberships m ON m.ruling_id = r.id"
)


def _rows(conn) -> list[dict]:
    cursor = conn.execute(_ROWS)
    names = [c[0] for c in cursor.description]
    return [dict(zip(names, row)) for row in cursor]


def _entry(row: dict) -> dict:
    return {
        "card": row["card"],
        "date": row["date"],
        "source": f"{row['source']}:{row['line']}",
        "group": row["group_id"],
        "text": row["text"],
    }


def changes(db, since: str | None = None, since_store: Path | None = None) -> dict:
    """{"since", "languages": {lang: {"new", "edited", "removed"}}, "outdated"}: see the module
    docstring. ``since`` (an ISO date) or ``since_store`` (a store's path), not both."""
    if (since is None) == (since_store is None):
        raise KbError("give --since DATE or --since-store OTHER.db (one of them)")
    now = _rows(db.conn)
    report: dict = {"since": since or str(since_store), "languages": {}, "outdated": []}
    edited_sources: set[str] = set()
    if since is not None:
        try:
            dt.date.fromisoformat(since)
        except ValueError:
            raise KbError(f"--since {since!r}: expected a date as YYYY-MM-DD") from None
        for row in now:
            if row["date"] >= since:
                report["languages"].setdefault(row["lang"], {"new or edited": []})[
                    "new or edited"
                ].append(_entry(row))
    elif since_store is not None:  # always, as exactly one of the two is given
        if not Path(since_store).is_file():
            raise KbError(f"--since-store {since_store}: no such store")
        with store.read_only(since_store, rows=False) as conn:
            was = _rows(conn)
        kept_groups = _compare(report, was, now)
        edited_sources = {
            r["group_id"]
            for r in now
            if is_source(r["lang"]) and r["group_id"] in kept_groups["edited"]
        }
        report["unchanged"] = kept_groups["unchanged"]
    report["outdated"] = outdated(now, edited_sources, report)
    report["languages"] = dict(
        sorted(report["languages"].items(), key=lambda kv: lang_order(kv[0]))
    )
    return report


def _compare(report: dict, was: list[dict], now: list[dict]) -> dict:
    """Fill new/edited/removed per language; {"edited": groups of edited rulings,
    "unchanged": how many rulings are the same}."""
    left = {r["id"]: r for r in was}
    same = 0
    edited_groups: set[str] = set()
    pending = []
    by_text: dict[tuple, list[str]] = {}
    for r in was:
        by_text.setdefault((r["lang"], r["card_id"], r["text"]), []).append(r["id"])
    for row in now:
        ids = [i for i in by_text.get((row["lang"], row["card_id"], row["text"]), ()) if i in left]
        if ids and left[ids[0]]["date"] == row["date"]:
            del left[ids[0]]
            same += 1
        else:
            pending.append(row)
    by_group: dict[tuple, list[str]] = {}
    for r in left.values():
        by_group.setdefault((r["lang"], r["card_id"], r["group_id"]), []).append(r["id"])
    for row in pending:
        bucket = report["languages"].setdefault(
            row["lang"], {"new": [], "edited": [], "removed": []}
        )
        ids = [
            i for i in by_group.get((row["lang"], row["card_id"], row["group_id"]), ()) if i in left
        ]
        if ids:
            old = left.pop(ids[0])
            bucket["edited"].append(dict(_entry(row), was=_entry(old)))
            edited_groups.add(row["group_id"])
        else:
            bucket["new"].append(_entry(row))
    for old in left.values():
        report["languages"].setdefault(old["lang"], {"new": [], "edited": [], "removed": []})[
            "removed"
        ].append(_entry(old))
    return {"edited": edited_groups, "unchanged": same}


def outdated(rows: list[dict], edited_sources: set[str], report: dict) -> list[dict]:
    """Translations older than their group's source, or whose source was edited since the
    other store while they were not."""
    sources = {r["group_id"]: r for r in rows if is_source(r["lang"]) and r["group_id"]}
    edited = {
        (e["group"], lang)
        for lang, b in report["languages"].items()
        for e in b.get("edited", []) + b.get("new", [])
    }
    out = []
    for row in sorted(rows, key=lambda r: (lang_order(r["lang"]), r["card"], r["source"])):
        source = sources.get(row["group_id"])
        if source is None or is_source(row["lang"]):
            continue
        why = None
        if row["date"] < source["date"]:
            why = f"dated {row['date']}, its source {source['date']}"
        elif row["group_id"] in edited_sources and (row["group_id"], row["lang"]) not in edited:
            why = "its source was edited since, this translation was not"
        if why:
            out.append(
                dict(
                    _entry(row),
                    lang=row["lang"],
                    reason=why,
                    source_text=f"{source['source']}:{source['line']}",
                )
            )
    return out


def format_text(report: dict) -> str:
    """The report for a terminal: per language what changed, then outdated translations."""
    lines = [f"changes since {report['since']}"]
    for lang, buckets in report["languages"].items():
        for kind, entries in buckets.items():
            if entries:
                lines.append(f"{lang}: {len(entries)} {kind}")
                lines += [
                    f"  {e['source']}  {e['card']}  {e['date']}  {_short(e['text'])}"
                    for e in entries
                ]
    if report["outdated"]:
        lines.append(f"{len(report['outdated'])} translation(s) older than their source:")
        lines += [
            f"  {o['lang']}  {o['source']}  {o['card']}: {o['reason']} ({o['source_text']})"
            for o in report["outdated"]
        ]
    if len(lines) == 1:
        lines.append("nothing changed")
    return "\n".join(lines) + "\n"


def _short(text: str, size: int = 60) -> str:
    text = " ".join(text.split())
    return f"“{text}”" if len(text) <= size else f"“{text[:size].rsplit(' ', 1)[0]}…”"
