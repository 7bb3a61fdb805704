"""Incremental checks: after an incremental alignment, check again only the changed groups.

Most checks compare a ruling with the other translations in its group, so a group whose rows
did not change keeps its findings. A few compare a text with the whole corpus: the usual
quotation marks and apostrophes of each language, how often each glossary term renders a
concept, which languages the corpus has, and texts entered twice for one card. The full check
stores those corpus-wide counts (table ``check_state``); an update adjusts them by the changed
files' old and new rulings (the old ones read from the previous build's store, read only), and
goes on only if everything the checks read of them is unchanged (then every unchanged group's
findings are as a full check would make them). Texts entered twice (a finding about a card's
rulings, placed in a ruling's group) are checked again over the cards of the changed files and
the cards with texts twice whose rulings moved to another group: every other card has the
same rulings, and either no text twice or the same groups, so its findings stand, even in a
changed group (a ruling printed on every card is every card's group). Suppressions must be the
same as the previous build's; stale suppressions are recomputed over all stored findings.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import sqlite_utils

from kb import align, store
from kb.checks import checklist, coverage, fragments, punctuation, terms
from kb.checks.families import FAMILIES
from kb.checks.findings import Corpus, Finding
from kb.checks.load import aligned_groups, member_of_row
from kb.checks.load import glossary as load_glossary
from kb.checks.run import dedupe, stale
from kb.checks.table import FIELDS, TABLE, row
from kb.corpus.languages import lang_order
from kb.store import schema

STATE = "check_state"
#: In the build folder: the word frequencies the checks looked up (a cache, not output).
FREQUENCIES_FILE = "word-frequencies.json"
#: Corpus-wide counts: name -> how to count them over some members.
COUNTS = {
    "quote-pairs": lambda corpus, members: punctuation.quote_pairs(members),
    "apostrophes": lambda corpus, members: punctuation.apostrophe_counts(members),
    "term-usage": lambda corpus, members: terms.term_usage(corpus, members),
}


def store_state(db: sqlite_utils.Database, corpus: Corpus, accepted) -> None:
    """Keep a full check's corpus-wide counts and suppressions for the next build."""
    for name, count in COUNTS.items():
        if name != "term-usage" or corpus.glossary is not None:
            corpus.total(name, lambda count=count: count(corpus, corpus.members))
    corpus.total("languages", lambda: sorted(corpus.languages))
    _write_state(db, corpus.totals, accepted, corpus.checklist)


def save_frequencies(folder: Path) -> None:
    """Write the word frequencies the checks looked up, for the next build (a cache)."""
    rows = sorted([word, lang, value] for (word, lang), value in fragments.FREQUENCIES.items())
    (folder / FREQUENCIES_FILE).write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")


def load_frequencies(folder: Path) -> None:
    """Take the word frequencies a previous build looked up (if it saved them)."""
    try:
        rows = json.loads((folder / FREQUENCIES_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    for word, lang, value in rows:
        fragments.FREQUENCIES.setdefault((word, lang), value)


def _write_state(db, totals: dict, accepted, rules) -> None:
    rows = [
        {
            "name": name,
            "value": json.dumps(
                value
                if name == "languages"
                else sorted([list(k), n] for k, n in value.items() if n > 0),
                ensure_ascii=False,
            ),
        }
        for name, value in totals.items()
    ]
    rows.append({"name": "suppressions", "value": _suppression_key(accepted, rules)})
    with db.conn:
        db.execute(f"DROP TABLE IF EXISTS {STATE}")
        schema.create(db, STATE)
        db[STATE].insert_all(rows, pk="name")


def _suppression_key(accepted, rules=()) -> str:
    """A digest of the suppressions and the team's checklist rules: what decides findings
    besides the corpus."""
    raw = json.dumps(
        [[s.check, s.reason, s.lang, s.card, s.group, s.excerpt, s.where] for s in accepted]
        + checklist.digest(list(rules)),
        ensure_ascii=False,
    )
    return hashlib.sha256(raw.encode()).hexdigest()


def _read_state(db) -> dict | None:
    if STATE not in db.table_names():
        return None
    raw = {row["name"]: row["value"] for row in db[STATE].rows}
    out = {"suppressions": raw.pop("suppressions", None)}
    for name, value in raw.items():
        data = json.loads(value)
        out[name] = data if name == "languages" else Counter({tuple(k): n for k, n in data})
    return out


def effective(totals: dict, glossary) -> list:
    """What the checks read of the corpus-wide counts (their findings depend on this only):
    term usage only where a term-variant finding cites it (an alternative term is used, of a
    concept not kept in English), apostrophe counts only where a language mixes them."""
    usage = totals.get("term-usage", Counter())
    variant = {
        (lang, concept)
        for (lang, concept, index), n in usage.items()
        if index and n > 0 and not (glossary and glossary.get(concept).keep_english)
    }
    apostrophes = punctuation.apostrophes_by_lang(totals.get("apostrophes", Counter()))
    return [
        totals.get("languages"),
        sorted(punctuation.corpus_style(totals.get("quote-pairs", Counter())).items()),
        sorted((lang, sorted(c.items())) for lang, c in apostrophes.items() if len(c) >= 2),
        sorted((k, n) for k, n in usage.items() if k[:2] in variant and n > 0),
    ]


def update(ctx, accepted, changed_groups: set[str], rules=()) -> bool:
    """Check the changed groups again; False (nothing written) when it cannot be exact.
    ``rules``: the team's checklist (:mod:`kb.checks.checklist`)."""
    db = ctx.db
    state = _read_state(db)
    previous = ctx.previous
    if (
        state is None
        or TABLE not in db.table_names()
        or previous is None
        or state["suppressions"] != _suppression_key(accepted, rules)
    ):
        return False
    sources = sorted(ctx.changed_sources or ())
    glossary = load_glossary()
    scratch = Corpus(groups=[], glossary=glossary)
    old_members = _members_of(_previous_rows(previous / "rulings.db", sources))
    new_members = _members_of(_rows(db, "r.source", sources))
    totals = {name: value for name, value in state.items() if name != "suppressions"}
    for name, count in COUNTS.items():
        if name in totals:
            counts = Counter(totals[name])
            counts.subtract(count(scratch, old_members))
            counts.update(count(scratch, new_members))
            totals[name] = Counter({k: n for k, n in counts.items() if n > 0})
    totals["languages"] = sorted(r[0] for r in db.execute("SELECT DISTINCT lang FROM rulings"))
    before = {name: value for name, value in state.items() if name != "suppressions"}
    if effective(totals, glossary) != effective(before, glossary):
        return False
    load_frequencies(previous)
    ids = sorted(changed_groups)
    cards = {(m.lang, m.card) for m in old_members + new_members}
    cards |= _moved_cards(db, previous / "rulings.db", _twice_cards(db) - cards)
    _check_groups(db, ids, glossary, totals, accepted, cards, rules)
    _write_state(db, totals, accepted, rules)
    save_frequencies(ctx.work)
    return True


def _twice_cards(db) -> set[tuple[str, str]]:
    """(lang, card) of the stored "entered twice" findings."""
    return {
        tuple(r)
        for r in db.execute(
            f"SELECT DISTINCT lang, card FROM {TABLE} WHERE "
            f"[check] = 'duplicate-text' AND severity = 'warning'"
        )
    }


def _moved_cards(db, previous: Path, cards: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """Those of ``cards`` (unchanged files) with a ruling whose group is not what it was.

    Which texts a card has twice does not depend on groups; which copy is reported (the later
    in group order) and the group named do: only a card with texts twice whose rulings moved
    can have other findings than before (an edit of a ruling printed on every card may move
    the other 10,000 copies to another group).
    """
    ids = sorted(store.card_id(lang, name) for lang, name in cards)
    now = _select(
        db,
        "SELECT r.id, m.group_id, r.lang, c.name FROM rulings r JOIN cards c ON "
        "c.id = r.card_id JOIN memberships m ON m.ruling_id = r.id "
        "WHERE r.card_id IN {}",
        ids,
    )
    with store.read_only(previous) as conn:
        was = dict(
            _select(
                conn,
                "SELECT ruling_id, group_id FROM memberships WHERE ruling_id IN {}",
                [r[0] for r in now],
            )
        )
    return {(lang, card) for rid, gid, lang, card in now if was.get(rid) != gid}


def _check_groups(
    db, ids: list[str], glossary, totals: dict, accepted, cards: set[tuple[str, str]], rules=()
) -> None:
    groups = aligned_groups(db, ids)
    corpus = Corpus(
        groups=groups, glossary=glossary, totals=dict(totals), partial=True, checklist=list(rules)
    )
    found = [f for family in FAMILIES for f in family.check(corpus)]
    # Texts entered twice: over the cards whose rulings or their groups changed.
    found += list(coverage.twice(members_of_cards(db, cards)))
    found = dedupe(found)
    with db.conn:
        _delete(
            db,
            f'DELETE FROM {TABLE} WHERE "group" IN {{}} AND NOT ([check] = '
            f"'duplicate-text' AND severity = 'warning')",
            ids,
        )
        # One scan for the cards' old findings (the table has no index by card).
        twice = db.execute(
            f"SELECT id, lang, card FROM {TABLE} WHERE [check] = "
            f"'duplicate-text' AND severity = 'warning'"
        ).fetchall()
        _delete(
            db,
            f"DELETE FROM {TABLE} WHERE id IN {{}}",
            [fid for fid, lang, card in twice if (lang, card) in cards],
        )
        db.execute(f"DELETE FROM {TABLE} WHERE [check] = 'stale-suppression'")
        rows = []
        for finding in found:
            rule = next((s for s in accepted if s.accepts(finding)), None)
            rows.append(row(finding, rule.reason if rule else None))
        db[TABLE].insert_all(rows)
        db[TABLE].insert_all(row(f, None) for f in _stale(db, accepted))


def _stale(db, accepted) -> list[Finding]:
    """Suppressions that accept no stored finding (the first that accepts one uses it)."""
    used: set[int] = set()
    checks = sorted({s.check for s in accepted})
    for values in _select(
        db,
        f'SELECT {", ".join(f"[{c}]" for c in FIELDS)} FROM {TABLE} WHERE "check" IN {{}}',
        checks,
    ):
        finding = Finding(**dict(zip(FIELDS, values)))
        rule = next((i for i, s in enumerate(accepted) if s.accepts(finding)), None)
        if rule is not None:
            used.add(rule)
    return stale(accepted, used)


def members_of_cards(db, cards: set[tuple[str, str]]):
    """The members of these (lang, card) pairs (every group), in the order a full check meets
    them: where texts entered twice are looked for again."""
    ids = sorted(store.card_id(lang, name) for lang, name in cards)
    rows = _rows(db, "r.card_id", ids)
    rows.sort(
        key=lambda r: (
            align.id_order(r["group_id"]),
            lang_order(r["lang"]),
            r["card"],
            r["source"],
            r["position"],
        )
    )
    return [member_of_row(r, r["group_id"]) for r in rows]


def _rows(db, column: str, values: list[str]) -> list[dict]:
    out = []
    for chunk in store.chunks(values):
        out += [
            dict(r)
            for r in db.query(
                f"SELECT r.*, c.name AS card, m.group_id FROM rulings r JOIN cards c ON "
                f"c.id = r.card_id JOIN memberships m ON m.ruling_id = r.id WHERE {column} IN "
                f"({', '.join('?' * len(chunk))})",
                chunk,
            )
        ]
    return out


def _previous_rows(path, sources: list[str]) -> list[dict]:
    """The changed files' rulings as the previous build stored them (opened read only)."""
    with store.read_only(path) as conn:
        out = []
        for chunk in store.chunks(sources):
            out += [
                dict(r)
                for r in conn.execute(
                    f"SELECT r.*, c.name AS card FROM rulings r JOIN cards c ON c.id = r.card_id "
                    f"WHERE r.source IN ({', '.join('?' * len(chunk))})",
                    chunk,
                )
            ]
        return out


def _members_of(rows: list[dict]):
    return [member_of_row(r, r.get("group_id") or "") for r in rows]


def _select(db, sql: str, values: list) -> list:
    out = []
    for chunk in store.chunks(values):
        out += db.execute(sql.format(f"({', '.join('?' * len(chunk))})"), chunk).fetchall()
    return out


def _delete(db, sql: str, values: list) -> None:
    for chunk in store.chunks(values):
        db.execute(sql.format(f"({', '.join('?' * len(chunk))})"), chunk)
