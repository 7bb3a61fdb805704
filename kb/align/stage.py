"""The ``align`` build stage: align the stored rulings (fully, or through
:mod:`kb.align.update` on a reused store), store the groups, report weak memberships.

Writes the tables ``groups``, ``memberships``, ``ruling_concepts``, ``card_identities``
(declared in :mod:`kb.store.schema`) and the alignment state of :mod:`kb.align.update`.
"""

from __future__ import annotations

import json

import sqlite_utils

from kb import store
from kb.align import state as align_state
from kb.align import update as realign
from kb.align.full import align_all
from kb.align.units import Aligned, source_lang
from kb.corpus.languages import is_source, lang_order
from kb.pipeline.progress import say
from kb.reference import cards, names
from kb.reference.glossary import Glossary
from kb.reference.glossary import load as load_glossary
from kb.store import schema

# ---------------------------------------------------------------------------------------------
# Store


def store_groups(db: sqlite_utils.Database, groups: list[Aligned], glossary: Glossary) -> None:
    """Replace the alignment tables' rows with these groups."""
    schema.create(db, "groups", "memberships", "ruling_concepts", "card_identities")
    with db.conn:
        for table in ("memberships", "ruling_concepts", "card_identities"):
            db.table(table).delete_where()
        if "group_rules" in db.table_names():
            db.table("group_rules").delete_where()
        db.table("groups").delete_where()
        db.table("groups").insert_all(
            {
                "id": g.id,
                "fingerprint": g.fingerprint,
                "signature": json.dumps(list(g.signature)),
                "languages": ",".join(sorted({u.lang for u in g.units}, key=lang_order)),
                "size": len(g.memberships),
                "source": source_lang(g.units),
            }
            for g in groups
        )
        # Plain executemany: 100,000 memberships and a million concept rows are too many for
        # sqlite-utils' per-row dict handling. A unit's rulings share one evidence object.
        dumped: dict[int, str] = {}
        db.conn.executemany(
            "INSERT INTO memberships (ruling_id, group_id, score, evidence, weak, source) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                (
                    m.ruling["id"],
                    g.id,
                    m.score,
                    _dumped(m.evidence, dumped),
                    int(m.weak),
                    int(is_source(m.ruling["lang"])),
                )
                for g in groups
                for m in g.memberships
            ),
        )
        db.conn.executemany(
            'INSERT INTO ruling_concepts (ruling_id, concept, start, "end", surface, lang) '
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                (m.ruling["id"], c.concept, c.start, c.end, c.surface, c.lang)
                for g in groups
                for m in g.memberships
                for c in names.ruling_matches(glossary, m.ruling)
            ),
        )
        db.table("card_identities").insert_all(cards.identity_rows(db), pk="card_id", replace=True)


def _dumped(evidence: dict, done: dict[int, str]) -> str:
    key = id(evidence)  # the evidence objects live as long as the groups: ids stay unique
    if key not in done:
        done[key] = json.dumps(evidence, ensure_ascii=False, sort_keys=True)
    return done[key]


def build_stage(ctx) -> None:
    """Pipeline stage: align the stored rulings and report weak memberships.

    On a reused store (an incremental build) only what the changed files touch is redone
    (:mod:`kb.align.update`); ``ctx.changed_groups`` then names the groups whose rows
    changed or went, for the later stages; None means every group is new.
    """
    from kb.pipeline import incremental

    glossary = load_glossary()
    changed = ctx.changed_sources
    ctx.changed_groups = None
    if ctx.reused and changed is not None:
        done = realign.update(ctx.db, changed, glossary, ctx.previous / "rulings.db")
        if done is not None:
            ctx.changed_groups = done
            for line in weak_lines(ctx.db):
                say(line)
            return
        # Not provably exact: align everything, as a full build, keeping the concept matches
        # of the unchanged texts; the later stages' tables go too.
        known = incremental.concept_matches(ctx.db, changed)
        for (text, lang), matches in known.items():
            glossary.remember(text, lang, ("en",), matches)
        store.drop_derived(ctx.db)
    else:
        known = {}
    alignment = align_all(store.rulings(ctx.db), glossary, set(known))
    store_groups(ctx.db, alignment.groups, glossary)
    align_state.store_state(ctx.db, alignment)
    for line in weak_report(alignment.groups):
        say(line)


def weak_report(groups: list[Aligned]) -> list[str]:
    """One line per weak membership: where the ruling is, its group, score and rival."""
    return [
        _weak_line(
            f"{m.ruling['source']}:{m.ruling['line']}",
            m.ruling["lang"],
            group.id,
            m.score,
            m.evidence,
        )
        for group in groups
        for m in group.memberships
        if m.weak
    ]


def weak_lines(db: sqlite_utils.Database) -> list[str]:
    """:func:`weak_report` of the stored memberships."""
    rows = db.query(
        "SELECT r.source, r.line, r.lang, m.group_id, m.score, m.evidence "
        "FROM memberships m JOIN rulings r ON r.id = m.ruling_id WHERE m.weak = 1 "
        "ORDER BY m.group_id, r.lang, r.source, r.position"
    )
    return [
        _weak_line(
            f"{r['source']}:{r['line']}",
            r["lang"],
            r["group_id"],
            r["score"],
            json.loads(r["evidence"]),
        )
        for r in rows
    ]


def _weak_line(where: str, lang: str, group_id: str, score, evidence: dict) -> str:
    if score is None:
        return (
            f"{where}: not aligned (alone in {group_id}); all its concepts are in "
            f"{', '.join(evidence['partial_of'])}, which lack {lang}: a partial "
            f"translation?"
        )
    rival = evidence.get("runner_up") or {}
    return (
        f"{where}: weak alignment in {group_id} (score {score:.2f}; nearest other "
        f"{rival.get('group')} {rival.get('score', 0):.2f})"
    )
