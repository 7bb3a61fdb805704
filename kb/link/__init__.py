"""Links: each ruling group -> the Comprehensive Rules numbers it explains, with evidence.

Evidence is data (``kb/links.yaml``): for each rule, the concept sets a group must mention.
A rule is linked only if the core's registry (:mod:`kb.core.registry`) carries it; the number
the rule had on the ruling's date comes from the registry too (726.3 today was 721.3 in June
2022). Rules are listed most specific first: more required concepts first, then by number.

A group about a designation the core does not carry (the monarch, rule 725) is linked to
nothing and listed as such, with the reason; so is a group no rule's evidence fits. The linker
never guesses.

>>> [link.rule for link in rules_for(("initiative", "leave_game", "active_player"),
...                                  carried={"726.4"})]
['726.4']
>>> rules_for(("monarch", "leave_game", "active_player"), carried={"726.4"})
[]
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import sqlite_utils

from kb import store
from kb.errors import KbError, Problem
from kb.pipeline.progress import say
from kb.reference.glossary import load as load_glossary
from kb.store import schema

LINKS_FILE = Path(__file__).with_name("links.yaml")


@dataclass(frozen=True)
class Alternative:
    all: frozenset[str]
    none: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RuleLink:
    """A rule a group explains, and the concepts that show it."""

    rule: str
    concepts: tuple[str, ...]
    specificity: int


@lru_cache(maxsize=4)
def evidence_table(path: str | Path = LINKS_FILE) -> dict[str, tuple[Alternative, ...]]:
    """{rule number: alternatives} from links.yaml; KbError names a concept not in the glossary."""
    import yaml

    with open(path, encoding="utf-8") as handle:
        data = yaml.safe_load(handle) or {}
    known = {c.id for c in load_glossary().concepts}
    table, problems = {}, []
    for entry in data.get("rules") or []:
        rule = str(entry["rule"])
        alts = tuple(Alternative(frozenset(a.get("all") or ()), frozenset(a.get("none") or ()))
                     for a in entry.get("alternatives") or ())
        for alt in alts:
            problems += [Problem(str(path), 0, f"rule {rule}: unknown concept {c!r}")
                         for c in sorted((alt.all | alt.none) - known)]
        table[rule] = alts
    if problems:
        raise KbError(problems)
    return table


def carried_rules() -> set[str]:
    """The rule numbers the core carries out (empty if the core has no registry yet)."""
    try:
        from kb.core import registry
    except ImportError:
        return set()
    return set(registry.RULES)


def number_on(rule: str, date: str | None) -> str:
    """The number ``rule`` had on ``date`` (ISO), as the registry knows it."""
    if not date:
        return rule
    try:
        from kb.core import registry
    except ImportError:
        return rule
    return registry.number_on(rule, date) or rule


def untracked_designations(signature, carried: set[str]) -> list[tuple[str, str]]:
    """(concept, rule section) of designations in ``signature`` whose rules the core lacks."""
    glossary = load_glossary()
    out = []
    for concept_id in signature:
        concept = glossary.by_id.get(concept_id)
        if concept and concept.contrast and concept.rule:
            if not any(r == concept.rule or r.startswith(concept.rule + ".") for r in carried):
                out.append((concept_id, concept.rule))
    return out


def rules_for(signature, carried: set[str] | None = None) -> list[RuleLink]:
    """The carried rules whose evidence ``signature`` meets, most specific first."""
    carried = carried_rules() if carried is None else set(carried)
    present = set(signature)
    if untracked_designations(present, carried):
        return []
    links = []
    for rule, alternatives in evidence_table().items():
        if rule not in carried:
            continue
        fits = [a for a in alternatives if a.all <= present and not (a.none & present)]
        if fits:
            best = max(fits, key=lambda a: (len(a.all), sorted(a.all)))
            links.append(RuleLink(rule, tuple(sorted(best.all)), len(best.all)))
    return sorted(links, key=lambda l: (-l.specificity, _number_key(l.rule)))


def _number_key(rule: str) -> tuple:
    head, _, tail = rule.partition(".")
    digits = "".join(ch for ch in tail if ch.isdigit())
    return (int(head), int(digits or 0), tail.lstrip("0123456789"))


def why_unlinked(signature, carried: set[str] | None = None) -> str:
    """A one-line reason a group has no link."""
    carried = carried_rules() if carried is None else set(carried)
    if not carried:
        return "the core's rule registry is not available"
    missing = untracked_designations(signature, carried)
    if missing:
        return "; ".join(f"about {c} (rule {r}), which the core does not carry"
                         for c, r in missing)
    return "no rule's evidence fits its concepts"


# ---------------------------------------------------------------------------------------------
# Store

def create_schema(db: sqlite_utils.Database) -> None:
    schema.create(db, "group_rules")


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


def link_groups(db: sqlite_utils.Database, carried: set[str] | None = None,
                ids: list[str] | None = None) -> list[str]:
    """Write group_rules for every group (or only for the groups ``ids``, replacing their
    rows); return one line per unlinked group."""
    create_schema(db)
    carried = carried_rules() if carried is None else set(carried)
    rows, unlinked = [], []
    if ids is None:
        found = db.query("SELECT id, signature FROM groups ORDER BY id")
    else:
        found = [g for chunk in store.chunks(ids) for g in db.query(
            f"SELECT id, signature FROM groups WHERE id IN ({', '.join('?' * len(chunk))})",
            chunk)]
    linked = []
    known: dict[str, list[RuleLink]] = {}  # thousands of groups share a few signatures
    for group in found:
        if group["signature"] not in known:
            known[group["signature"]] = rules_for(tuple(json.loads(group["signature"])), carried)
        links = known[group["signature"]]
        if links:
            linked.append((group["id"], links))
        else:
            reason = why_unlinked(tuple(json.loads(group["signature"])), carried)
            unlinked.append(f"link: {group['id']}: no rule ({reason})")
    dates, surfaces_of = _evidence(db, linked, whole=ids is None)
    for group_id, links in linked:
        date = _group_date(dates.get(group_id))
        surfaces = surfaces_of.get(group_id, {})
        for rank, link in enumerate(links, start=1):
            evidence = {"concepts": {c: surfaces.get(c, {}) for c in link.concepts},
                        "specificity": link.specificity}
            rows.append({"group_id": group_id, "rule": link.rule, "rank": rank,
                         "number_then": number_on(link.rule, date),
                         "evidence": json.dumps(evidence, ensure_ascii=False, sort_keys=True)})
    with db.conn:
        if ids is None:
            db["group_rules"].delete_where()
        else:
            for chunk in store.chunks(ids):
                db.execute(f"DELETE FROM group_rules WHERE group_id IN "
                           f"({', '.join('?' * len(chunk))})", chunk)
        db["group_rules"].insert_all(rows)
    return unlinked


def unlinked(db: sqlite_utils.Database) -> list[dict]:
    """Groups without any rule, each {id, reason}."""
    out = []
    for group in db.query("""SELECT id, signature FROM groups WHERE id NOT IN
                             (SELECT group_id FROM group_rules) ORDER BY id"""):
        out.append({"id": group["id"],
                    "reason": why_unlinked(tuple(json.loads(group["signature"])))})
    return out


#: For each (group, concept) asked for (a JSON list of pairs) and each language: the concept's
#: first surface in the group's rulings of that language (first ruling by id, then by place).
#: A ruling's concept rows are the glossary's matches in its text, so copies of one text have
#: the same rows: only the first copy (by id) of each text of a group is looked at (a ruling
#: printed on every card is 10,000 rulings and a handful of texts). SQLite does that work;
#: Python sees one row per group, concept and language. CROSS JOIN keeps the join order
#: (group -> its texts -> their rows of the concept): left to choose, SQLite reads every row
#: of an asked concept for each group. A ruling's matches of one concept never share a start.
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


def _evidence(db: sqlite_utils.Database, linked: list[tuple[str, list[RuleLink]]],
              whole: bool = False):
    """({group: Counter of its rulings' dates}, {group: {concept: {lang: first surface}}}) of
    the ``linked`` groups, for the concepts of their links (``whole``: every stored group is
    in ``linked`` or unlinked, so the dates are read without naming the groups)."""
    dates: dict[str, Counter] = {}
    surfaces: dict[str, dict[str, dict[str, str]]] = {}
    ids = [group_id for group_id, _ in linked]
    for chunk in [None] if whole else store.chunks(ids):
        where, params = ("", []) if chunk is None else (
            f" WHERE m.group_id IN ({', '.join('?' * len(chunk))})", chunk)
        for group_id, date, count in db.execute(
                "SELECT m.group_id, r.date, COUNT(*) FROM memberships m JOIN rulings r ON "
                "r.id = m.ruling_id" + where + " GROUP BY m.group_id, r.date", params):
            dates.setdefault(group_id, Counter())[date] = count
    asked = sorted({(group_id, c) for group_id, links in linked for link in links
                    for c in link.concepts})
    for group_id, concept, lang, surface in db.execute(_SURFACES, [json.dumps(asked)]):
        surfaces.setdefault(group_id, {}).setdefault(concept, {})[lang] = surface
    return dates, surfaces


def _group_date(dates: Counter | None) -> str | None:
    """The group's most common ruling date (the earliest of equals)."""
    return min(dates, key=lambda d: (-dates[d], d)) if dates else None
