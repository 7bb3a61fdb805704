"""Incremental alignment: update the previous build's groups after some ruling files changed.

A full alignment (:func:`kb.align.align_all`) also stores what this module needs to update it
(:func:`kb.align.state.store_state`): each unit's features, blocking keys, component and group
(``align_units``, ``unit_keys``), which rulings it holds (``unit_rulings``), and the corpus
statistics the scorer uses (``align_state``: the number of units and each concept's document
frequency, and the languages' usual lengths).

:func:`update` then redoes only what the changed files touch, and gives what a full alignment
would give, because:

- units are rebuilt only for the (language, normalized text) buckets of the changed rulings,
  the only units whose members or features can differ;
- it goes on only if the scorer's statistics (concept weights, usual lengths) and every
  blocking key's on/off state (:data:`kb.align.KEY_LIMIT`) come out unchanged; then every pair
  of unchanged units has the same score and the same candidacy as before;
- a component (pairs scoring >= :data:`kb.align.THRESHOLD`) without added or removed units
  then has the same clusters; the components holding removed units or joined by added ones are
  re-clustered together (with the added units), exactly as the full clustering would;
- group ids depend on the group's content and its twins (:func:`kb.align.twin_ids`), so only
  the twins of new or gone groups are renamed, and memberships (score, runner-up, partial
  translations) are recomputed for every unit that was, or now is, scored against a changed
  unit or group.

Otherwise it returns None and the caller aligns everything (correct, only slower). This
module decides whether the update can be exact and what changed; :mod:`kb.align.regroup`
re-clusters, renames and writes.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import sqlite_utils

from kb import store
from kb.align import scoring
from kb.align import state as align_state
from kb.align import units as align_units
from kb.align.regroup import delete_groups, group_base, regroup
from kb.align.units import Unit

__all__ = ["RESCORE_SHARE", "delete_groups", "group_base", "moved_concepts", "update"]


def _cannot(reason: str) -> None:
    """Why the update cannot be exact (shown with --verbose style progress lines)."""
    from kb.pipeline.progress import say

    say(f"align: aligning everything ({reason})")
    return None


def update(
    db: sqlite_utils.Database, changed: set[str], glossary, previous: Path | None = None
) -> set[str] | None:
    """Update the alignment tables for the ``changed`` source paths.

    The rulings of changed files are already replaced in the store (and their memberships and
    concept rows deleted with them). ``previous`` is the previous build's store (read only):
    a group whose rulings are all as they were there does not count as changed. Returns the
    ids of the groups whose rows (or whose rulings' rows) changed, were added or went; None
    when this cannot be done exactly (then nothing was written).
    """
    if (
        not set(align_state.STATE_TABLES) <= set(db.table_names())
        or "groups" not in db.table_names()
    ):
        return None
    changed_set, ordered = set(changed), sorted(changed)
    new_rows, old, rebuilt = _rebuild(db, ordered, glossary)
    added = [u for k, u in rebuilt.items() if k not in old or old[k][2] != u.features()]
    removed = [
        Unit.from_features(lang, k, features, bucket)
        for k, (lang, bucket, features, _, _) in old.items()
        if k not in rebuilt or rebuilt[k].features() != features
    ]
    same = [u for k, u in rebuilt.items() if k in old and old[k][2] == u.features()]
    before = _previous_rulings(previous, ordered)
    was: dict[str, set[str]] = {}
    for key, rid in align_state.query(
        db, "SELECT unit, ruling_id FROM unit_rulings WHERE unit IN {}", [u.key for u in same]
    ):
        was.setdefault(key, set()).add(rid)
    # A unit whose rulings are all as they were (a file changed elsewhere) changes no group.
    touched = [
        u
        for u in same
        if before is None
        or was.get(u.key) != {r["id"] for r in u.rulings}
        or any(r["source"] in changed_set and before.get(r["id"]) != r for r in u.rulings)
    ]

    # 2. Exact only if the scorer's statistics and the blocking keys' states are unchanged.
    state, n, df, lang_length = align_state.corpus_statistics(db, old, added, removed)
    old_n = int(state["n"])
    if min(n, old_n) <= scoring.ALL_PAIRS_LIMIT:
        _cannot("small corpus: every pair is scored")
        return None
    weights = scoring.Scorer.corpus_weights(n, df)
    rescored = _holding(
        db,
        moved_concepts(weights, scoring.Scorer.corpus_weights(old_n, json.loads(state["df"]))),
        {u.key for u in added + removed},
    )
    if len(rescored) > n * RESCORE_SHARE:
        _cannot(f"concept weights changed for {len(rescored)} texts")
        return None
    if lang_length != json.loads(state["lang_length"]):
        _cannot("usual lengths changed")
        return None
    delta: Counter = Counter()
    for unit in added:
        delta.update(scoring.block_keys(unit))
    for unit in removed:
        delta.subtract(scoring.block_keys(unit))
    blocks = [b for b, d in delta.items() if d]
    sizes = dict(
        align_state.query(
            db, "SELECT block, COUNT(*) FROM unit_keys WHERE block IN {} GROUP BY block", blocks
        )
    )
    if any(
        (sizes.get(b, 0) <= scoring.KEY_LIMIT) != (sizes.get(b, 0) + delta[b] <= scoring.KEY_LIMIT)
        for b in blocks
    ):
        _cannot("a blocking key crossed its limit")
        return None
    scorer = scoring.Scorer.with_statistics(weights, lang_length)
    return regroup(
        db, scorer, glossary, ordered, new_rows, old, added, removed, same, touched, n, df, rescored
    )


#: Above this share of the units, texts whose scores moved are aligned by a full alignment.
RESCORE_SHARE = 0.25


def moved_concepts(weights: dict[str, float], before: dict[str, float]) -> set[str]:
    return {c for c in weights.keys() | before.keys() if weights.get(c) != before.get(c)}


def _holding(db, concepts: set[str], skip: set[str]) -> list[str]:
    """Keys of the stored units (but ``skip``) whose features name one of ``concepts``: their
    scores against every unit moved with those concepts' weights."""
    if not concepts:
        return []
    # A JSON string match may also catch a number or contrast: rescoring more is still exact.
    where = " OR ".join("instr(features, ?) > 0" for _ in concepts)
    return sorted(
        k
        for (k,) in db.execute(
            f"SELECT key FROM align_units WHERE {where}", [json.dumps(c) for c in sorted(concepts)]
        )
        if k not in skip
    )


def _rebuild(db, changed: list[str], glossary) -> tuple[list[dict], dict, dict[str, Unit]]:
    """(the changed files' rulings, {key: stored row} of the units of the (language, text)
    buckets they were or are in, {key: unit} of those buckets rebuilt from the store)."""
    changed_set = set(changed)
    new_rows = align_state.dicts(db, "SELECT * FROM rulings WHERE source IN {}", changed)
    old_touched = {
        k
        for (k,) in align_state.query(
            db, "SELECT DISTINCT unit FROM unit_rulings WHERE source IN {}", changed
        )
    }
    buckets = {
        align_units.digest(f"{r['lang']}\n{align_units.normalize(r['text'])}") for r in new_rows
    }
    buckets |= {
        b
        for (b,) in align_state.query(
            db, "SELECT bucket FROM align_units WHERE key IN {}", old_touched
        )
    }
    old = {
        key: (lang, bucket, features, comp, gid)
        for key, lang, bucket, features, comp, gid in align_state.query(
            db,
            "SELECT key, lang, bucket, features, component, group_id "
            "FROM align_units WHERE bucket IN {}",
            buckets,
        )
    }
    kept_ids = [
        rid
        for (rid,) in align_state.query(
            db, "SELECT ruling_id FROM unit_rulings WHERE unit IN {}", list(old)
        )
        if rid.rpartition("#")[0] not in changed_set
    ]
    rows = [
        r
        for r in align_state.dicts(db, "SELECT * FROM rulings WHERE id IN {}", kept_ids)
        if r["source"] not in changed_set
    ] + new_rows
    sources = sorted({r["source"] for r in rows})
    by_file = dict(
        align_state.query(
            db,
            "SELECT source, MAX(position) FROM rulings WHERE source IN {} GROUP BY source",
            sources,
        )
    )
    rebuilt = {u.key: u for u in align_units.make_units(rows, glossary, by_file)} if rows else {}
    return new_rows, old, rebuilt


def _previous_rulings(path: Path | None, sources: list[str]) -> dict[str, dict] | None:
    """{id: ruling row} of these files in the previous build's store (opened read only)."""
    if path is None or not path.is_file():
        return None
    with store.read_only(path) as conn:
        return {
            r["id"]: dict(r)
            for chunk in store.chunks(sources)
            for r in conn.execute(
                f"SELECT * FROM rulings WHERE source IN {align_state.placeholders(chunk)}", chunk
            )
        }
