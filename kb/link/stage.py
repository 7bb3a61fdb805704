"""The ``link`` stage: every stored group's votes, its links with their evidence, and the
reason a group has none.

Table ``group_rules`` (declared in :mod:`kb.store.schema`): one row per (group, rule), with
``rank`` (1 = most specific), ``number_then`` (the number on the rulings' date, null when the
rule had none yet), ``score`` and ``evidence`` (JSON: ``concepts`` {concept: {language: the
words that matched}}, ``votes`` {concept: share of the group's languages}, ``strength``).
Unlinked groups have no rows; their reason is derived again from their votes when asked
(:func:`unlinked`), so it is always the linker's own.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING

from kb import store
from kb.errors import KbError
from kb.link.evidence import EvidenceTable, evidence_table
from kb.link.reasons import explain, fate_phrase, why_unlinked
from kb.link.scoring import RuleLink, decide, rules_for
from kb.pipeline.progress import say
from kb.reference.glossary import load as load_glossary
from kb.store import schema

if TYPE_CHECKING:  # kb search reads links without loading sqlite-utils
    import sqlite_utils


def number_on(rule: str, date: str | None) -> str | None:
    """The number ``rule`` had on ``date`` (ISO): None when the registry knows none then (the
    rule did not exist yet), the current number when the date is unknown."""
    if not date:
        return rule
    from kb.core import registry

    return registry.number_on(rule, date)


def build_stage(ctx) -> None:
    """Pipeline stage: link the stored groups (after an incremental alignment, only the groups
    it changed: a group's links depend on its own rows alone); report unlinked groups."""
    changed = ctx.changed_groups
    if changed is None or "group_rules" not in ctx.db.table_names():
        lines = link_groups(ctx.db)
    else:
        link_groups(ctx.db, ids=sorted(changed))
        lines = [f"link: {g['id']}: no rule ({g['reason']})" for g in unlinked(ctx.db)]
    for line in lines:
        say(line)


#: Each (group, concept): how many of the group's languages name it, beside the group's number
#: of languages, counted by SQLite (a row per group and language reached Python before: 0.4 s
#: at 10k). Only the first copy (by id) of each text of a group is read: copies of one text
#: have the same concept rows, and a ruling printed on every card is 10,000 rulings and a
#: handful of texts. A group whose texts name no concept gives one row with a null concept.
_VOTES = """
    WITH texts AS (
        SELECT m.group_id, r.lang, MIN(r.id) AS ruling_id
        FROM memberships m CROSS JOIN rulings r ON r.id = m.ruling_id{where}
        GROUP BY m.group_id, r.lang, r.text),
    langs AS (SELECT group_id, COUNT(DISTINCT lang) AS n FROM texts GROUP BY group_id)
    SELECT l.group_id, l.n, c.concept, c.k FROM langs l LEFT JOIN (
        SELECT t.group_id, rc.concept, COUNT(DISTINCT t.lang) AS k
        FROM texts t CROSS JOIN ruling_concepts rc ON rc.ruling_id = t.ruling_id
        GROUP BY t.group_id, rc.concept) c ON c.group_id = l.group_id
"""


def group_votes(
    db: sqlite_utils.Database, ids: list[str] | None = None
) -> dict[str, dict[str, float]]:
    """{group id: {concept: share of the group's languages whose texts mention it}} of every
    stored group (or of the groups ``ids``)."""
    votes: dict[str, dict[str, float]] = {}
    for where, params in store.wheres("m.group_id", ids):
        for group_id, langs, concept, naming in db.execute(_VOTES.format(where=where), params):
            mine = votes.setdefault(group_id, {})
            if concept is not None:
                mine[concept] = round(naming / langs, 4)
    return {group_id: dict(sorted(mine.items())) for group_id, mine in sorted(votes.items())}


def link_groups(
    db: sqlite_utils.Database,
    carried: set[str] | None = None,
    ids: list[str] | None = None,
    table: EvidenceTable | None = None,
) -> list[str]:
    """Write group_rules for every group (or only for the groups ``ids``, replacing their
    rows); return one line per unlinked group, with the reason.

    ``carried`` (the rules to link to; default: every rule the core carries) and ``table``
    (their evidence; default: from the descriptions) exist for tests and for a registry with
    a rule more (docs/development.md, "How to add a rule")."""
    schema.create(db, "group_rules")
    table = table or evidence_table(carried)
    found = sorted(
        {
            row[0]
            for where, params in store.wheres("id", ids)
            for row in db.execute(f"SELECT id FROM groups{where}", params)
        }
    )
    # What the groups' concepts imply (conceding is leaving the game) counts as their votes.
    votes = {g: table.imply(v) for g, v in group_votes(db, None if ids is None else found).items()}
    known: dict[tuple, list[RuleLink]] = {}  # thousands of groups share a few concept sets
    linked, lines = [], []
    for group_id in found:
        mine = votes.get(group_id, {})
        key = tuple(sorted(mine.items()))
        if key not in known:
            known[key] = rules_for(mine, table=table)
        if known[key]:
            linked.append((group_id, known[key]))
        else:
            lines.append(f"link: {group_id}: no rule ({why_unlinked(mine, table=table)})")
    dates, surfaces_of = _evidence(db, linked, table, whole=ids is None)
    rows = []
    for group_id, links in linked:
        date = _group_date(dates.get(group_id))
        surfaces, mine = surfaces_of.get(group_id, {}), votes.get(group_id, {})
        for rank, link in enumerate(links, start=1):
            evidence = {
                "concepts": {c: _words(c, surfaces, table) for c in link.concepts},
                "votes": {c: mine.get(c, 0.0) for c in link.concepts},
                "strength": link.strength,
            }
            rows.append(
                {
                    "group_id": group_id,
                    "rule": link.rule,
                    "rank": rank,
                    "number_then": number_on(link.rule, date),
                    "score": link.score,
                    "evidence": json.dumps(evidence, ensure_ascii=False, sort_keys=True),
                }
            )
    with db.conn:
        for where, params in store.wheres("group_id", ids):
            db.execute(f"DELETE FROM group_rules{where}", params)
        db.table("group_rules").insert_all(rows)
    return lines


def _words(concept: str, surfaces: dict, table: EvidenceTable) -> dict[str, str]:
    """{language: the words that show ``concept``}: its own, else (in a language that only
    says what implies it, "concedes" for leaving the game) those of a concept implying it."""
    words = dict(surfaces.get(concept, {}))
    for source in table.implied_by(concept):
        for lang, surface in surfaces.get(source, {}).items():
            words.setdefault(lang, surface)
    return words


def link_row(row) -> dict:
    """A ``group_rules`` row as the exports show a link: ``rule``, ``number_then``, ``score``,
    ``concepts`` (those of the rule the group mentions), ``words`` ({language: the words that
    matched, concept by concept}) and ``evidence`` (as stored)."""
    evidence = json.loads(row["evidence"] or "{}")
    concepts = sorted(evidence.get("concepts") or {})
    words: dict[str, list[str]] = {}
    for concept in concepts:
        for lang, surface in sorted(evidence["concepts"][concept].items()):
            if surface not in words.setdefault(lang, []):
                words[lang].append(surface)
    return {
        "rule": row["rule"],
        "number_then": row["number_then"],
        "score": row["score"],
        "concepts": concepts,
        "words": words,
        "evidence": evidence,
    }


def links(db: sqlite_utils.Database, ids: list[str] | None = None) -> dict[str, list[dict]]:
    """{group id: its links (:func:`link_row`), most specific first} of every linked group,
    or of the groups ``ids``."""
    out: dict[str, list[dict]] = {}
    if "group_rules" not in db.table_names():
        return out
    for where, params in store.wheres("group_id", ids):
        for row in db.query(f"SELECT * FROM group_rules{where} ORDER BY group_id, rank", params):
            out.setdefault(row["group_id"], []).append(link_row(row))
    return out


def listing(db: sqlite_utils.Database, unlinked_only: bool = False) -> list[dict]:
    """What ``kb links`` lists: [{group, links: [{rule, number_then, score, concepts, words}]}]
    by group id, or (``unlinked_only``) [{group, reason, concepts}] of the unlinked groups."""
    if unlinked_only:
        return [
            {"group": g["id"], "reason": g["reason"], "concepts": g["concepts"]}
            for g in unlinked(db)
        ]
    return [
        {
            "group": group,
            "links": [{k: v for k, v in found.items() if k != "evidence"} for found in linked],
        }
        for group, linked in sorted(links(db).items())
    ]


def listing_text(rows: list[dict], unlinked_only: bool = False) -> str:
    """:func:`listing`'s rows as lines: group, rule, score, concepts, then an indented line
    per language with the words that matched (or group and reason).

    >>> print(listing_text([{"group": "726.3-1df600", "links": [{"rule": "726.3",
    ...     "score": 1.0, "concepts": ["cease", "only_one"],
    ...     "words": {"fr": ["cesse", "un seul"], "de": ["nur ein"]}}]}]))
    726.3-1df600  726.3  1.00  cease, only_one
        de: nur ein
        fr: cesse · un seul
    """
    if unlinked_only:
        lines = [f"{row['group']}  {row['reason']}" for row in rows]
    else:
        lines = []
        for row in rows:
            for found in row["links"]:
                concepts = ", ".join(found["concepts"])
                lines.append(f"{row['group']}  {found['rule']}  {found['score']:.2f}  {concepts}")
                # The words are what a translator checks: the grep-able line stays whole.
                lines += [
                    f"    {lang}: {' · '.join(words)}"
                    for lang, words in sorted(found.get("words", {}).items())
                    if words
                ]
    return "\n".join(lines) or ("no unlinked groups" if unlinked_only else "no links")


def trace(db: sqlite_utils.Database, group_id: str, table: EvidenceTable | None = None) -> dict:
    """Why a group has the links it has, and not others (``kb links --group``): {group,
    concepts: {concept: share of its languages}, rules: [{rule, fate, score, concepts, by,
    why}]}, one entry per carried rule naming a concept the group mentions, the linked ones
    first (:func:`kb.link.scoring.decide`; ``why`` is :func:`kb.link.reasons.fate_phrase`)."""
    if (
        "groups" not in db.table_names()
        or not db.execute("SELECT 1 FROM groups WHERE id = ?", [group_id]).fetchone()
    ):
        raise KbError(f"no group {group_id!r} in the store: `kb links` lists the groups")
    table = table or evidence_table()
    votes = table.imply(group_votes(db, [group_id]).get(group_id, {}))
    rules = [
        {
            "rule": fate.rule,
            "fate": fate.kind,
            "score": fate.link.score,
            "concepts": list(fate.link.concepts),
            "by": fate.by,
            "why": fate_phrase(fate, votes, table),
        }
        for fate in decide(votes, table=table)
    ]
    return {"group": group_id, "concepts": votes, "rules": rules}


def trace_text(found: dict) -> str:
    """:func:`trace`'s answer as lines: the group's concepts, then one line per rule."""
    shares = ", ".join(f"{c} {share:g}" for c, share in sorted(found["concepts"].items()))
    lines = [f"{found['group']}  mentions (share of its languages): {shares or 'nothing'}"]
    for row in found["rules"]:
        score = f"{row['score']:.2f}"
        lines.append(f"  {row['rule']:<8} {score}  {row['why']}")
    if not found["rules"]:
        lines.append("  no carried rule names a concept it mentions")
    return "\n".join(lines)


def unlinked(db: sqlite_utils.Database, table: EvidenceTable | None = None) -> list[dict]:
    """Groups without any rule, each {id, reason, why, concepts}: the reason in English and
    as :func:`kb.link.reasons.explain` gives it, and what the group mentions (by share of its
    languages)."""
    if "groups" not in db.table_names():
        return []
    linked = (
        "SELECT DISTINCT group_id FROM group_rules"
        if "group_rules" in db.table_names()
        else "SELECT NULL WHERE 0"
    )
    ids = [
        row[0]
        for row in db.execute(f"SELECT id FROM groups WHERE id NOT IN ({linked}) ORDER BY id")
    ]
    votes = group_votes(db, ids)
    table = table or evidence_table()
    return [
        {
            "id": group_id,
            "reason": why_unlinked(votes.get(group_id, {}), table=table),
            "why": explain(votes.get(group_id, {}), table=table),
            "concepts": votes.get(group_id, {}),
        }
        for group_id in ids
    ]


#: For each (group, concept) asked for (a JSON list of pairs) and each language: the concept's
#: first surface in the group's rulings of that language (first ruling by id, then by place).
#: Only the first copy (by id) of each text of a group is looked at, as in _VOTES. SQLite does
#: that work; Python sees one row per group, concept and language. CROSS JOIN keeps the join
#: order (group -> its texts -> their rows of the concept): left to choose, SQLite reads every
#: row of an asked concept for each group. A ruling's matches of one concept never share a start.
_SURFACES = """
    WITH asked(group_id, concept) AS (
        SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)),
    texts AS (
        SELECT m.group_id, r.lang, MIN(r.id) AS ruling_id
        FROM memberships m CROSS JOIN rulings r ON r.id = m.ruling_id
        WHERE m.group_id IN (SELECT group_id FROM asked)
        GROUP BY m.group_id, r.lang, r.text),
    firsts AS (
        SELECT a.group_id, a.concept, t.lang, MIN(t.ruling_id) AS ruling_id
        FROM asked a CROSS JOIN texts t ON t.group_id = a.group_id
        CROSS JOIN ruling_concepts rc ON rc.ruling_id = t.ruling_id AND rc.concept = a.concept
        GROUP BY a.group_id, a.concept, t.lang)
    SELECT group_id, concept, lang, (SELECT surface FROM ruling_concepts rc WHERE
        rc.ruling_id = firsts.ruling_id AND rc.concept = firsts.concept ORDER BY start LIMIT 1)
    FROM firsts
"""


def _evidence(
    db: sqlite_utils.Database,
    linked: list[tuple[str, list[RuleLink]]],
    table: EvidenceTable,
    whole: bool = False,
):
    """({group: Counter of its rulings' dates}, {group: {concept: {lang: first surface}}}) of
    the ``linked`` groups, for the concepts of their links (``whole``: every stored group is
    in ``linked`` or unlinked, so the dates are read without naming the groups)."""
    dates: dict[str, Counter] = {}
    surfaces: dict[str, dict[str, dict[str, str]]] = {}
    ids = [group_id for group_id, _ in linked]
    for where, params in store.wheres("m.group_id", None if whole else ids):
        for group_id, date, count in db.execute(
            "SELECT m.group_id, r.date, COUNT(*) FROM memberships m JOIN rulings r ON "
            "r.id = m.ruling_id" + where + " GROUP BY m.group_id, r.date",
            params,
        ):
            dates.setdefault(group_id, Counter())[date] = count
    asked = sorted(
        {
            (group_id, c)
            for group_id, links in linked
            for link in links
            for concept in link.concepts
            for c in (concept, *table.implied_by(concept))
        }
    )
    glossary = load_glossary()
    for group_id, concept, lang, surface in db.execute(_SURFACES, [json.dumps(asked)]):
        shown = glossary.shown(concept, lang, surface)  # "ziehst … Karte", not its middle field
        surfaces.setdefault(group_id, {}).setdefault(concept, {})[lang] = shown
    return dates, surfaces


def _group_date(dates: Counter | None) -> str | None:
    """The group's most common ruling date (the earliest of equals)."""
    return min(dates, key=lambda d: (-dates[d], d)) if dates else None
