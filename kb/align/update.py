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

Otherwise it returns None and the caller aligns everything (correct, only slower).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import sqlite_utils

from kb import store
from kb.align import clustering, rewrite, scoring
from kb.align import state as align_state
from kb.align import units as align_units
from kb.align.units import Aligned, Unit

_SUFFIX = re.compile(r"-[0-9a-f]{12}$")



def _cannot(reason: str) -> None:
    """Why the update cannot be exact (shown with --verbose style progress lines)."""
    from kb.pipeline.progress import say

    say(f"align: aligning everything ({reason})")
    return None


def update(db: sqlite_utils.Database, changed: set[str], glossary,
           previous: Path | None = None) -> set[str] | None:
    """Update the alignment tables for the ``changed`` source paths.

    The rulings of changed files are already replaced in the store (and their memberships and
    concept rows deleted with them). ``previous`` is the previous build's store (read only):
    a group whose rulings are all as they were there does not count as changed. Returns the
    ids of the groups whose rows (or whose rulings' rows) changed, were added or went; None
    when this cannot be done exactly (then nothing was written).
    """
    if not set(align_state.STATE_TABLES) <= set(db.table_names()) or "groups" not in db.table_names():
        return None
    changed_set, ordered = set(changed), sorted(changed)
    new_rows, old, rebuilt = _rebuild(db, ordered, glossary)
    added = [u for k, u in rebuilt.items() if k not in old or old[k][2] != u.features()]
    removed = [Unit.from_features(lang, k, features, bucket)
               for k, (lang, bucket, features, _, _) in old.items()
               if k not in rebuilt or rebuilt[k].features() != features]
    same = [u for k, u in rebuilt.items() if k in old and old[k][2] == u.features()]
    before = _previous_rulings(previous, ordered)
    was: dict[str, set[str]] = {}
    for key, rid in align_state.query(db, "SELECT unit, ruling_id FROM unit_rulings WHERE unit IN {}",
                           [u.key for u in same]):
        was.setdefault(key, set()).add(rid)
    # A unit whose rulings are all as they were (a file changed elsewhere) changes no group.
    touched = [u for u in same if before is None or was.get(u.key) != {r["id"] for r in u.rulings}
               or any(r["source"] in changed_set and before.get(r["id"]) != r
                      for r in u.rulings)]

    # 2. Exact only if the scorer's statistics and the blocking keys' states are unchanged.
    state, n, df, lang_length = align_state.corpus_statistics(db, old, added, removed)
    old_n = int(state["n"])
    if min(n, old_n) <= scoring.ALL_PAIRS_LIMIT:
        _cannot("small corpus: every pair is scored")
        return None
    weights = scoring.Scorer.corpus_weights(n, df)
    rescored = _holding(db, moved_concepts(weights, scoring.Scorer.corpus_weights(
        old_n, json.loads(state["df"]))), {u.key for u in added + removed})
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
    sizes = dict(align_state.query(db, "SELECT block, COUNT(*) FROM unit_keys WHERE block IN {} "
                            "GROUP BY block", blocks))
    if any((sizes.get(b, 0) <= scoring.KEY_LIMIT) != (sizes.get(b, 0) + delta[b] <= scoring.KEY_LIMIT)
           for b in blocks):
        _cannot("a blocking key crossed its limit")
        return None
    scorer = scoring.Scorer.with_statistics(weights, lang_length)
    return _apply(db, scorer, glossary, ordered, new_rows, old, added, removed, same, touched,
                  n, df, rescored)


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
    return sorted(k for (k,) in db.execute(f"SELECT key FROM align_units WHERE {where}",
                                           [json.dumps(c) for c in sorted(concepts)])
                  if k not in skip)


def _rebuild(db, changed: list[str], glossary) -> tuple[list[dict], dict, dict[str, Unit]]:
    """(the changed files' rulings, {key: stored row} of the units of the (language, text)
    buckets they were or are in, {key: unit} of those buckets rebuilt from the store)."""
    changed_set = set(changed)
    new_rows = align_state.dicts(db, "SELECT * FROM rulings WHERE source IN {}", changed)
    old_touched = {k for (k,) in align_state.query(db, "SELECT DISTINCT unit FROM unit_rulings "
                                            "WHERE source IN {}", changed)}
    buckets = {align_units.digest(f"{r['lang']}\n{align_units.normalize(r['text'])}") for r in new_rows}
    buckets |= {b for (b,) in align_state.query(db, "SELECT bucket FROM align_units WHERE key IN {}",
                                     old_touched)}
    old = {key: (lang, bucket, features, comp, gid) for key, lang, bucket, features, comp, gid
           in align_state.query(db, "SELECT key, lang, bucket, features, component, group_id "
                         "FROM align_units WHERE bucket IN {}", buckets)}
    kept_ids = [rid for (rid,) in align_state.query(
        db, "SELECT ruling_id FROM unit_rulings WHERE unit IN {}", list(old))
        if rid.rpartition("#")[0] not in changed_set]
    rows = [r for r in align_state.dicts(db, "SELECT * FROM rulings WHERE id IN {}", kept_ids)
            if r["source"] not in changed_set] + new_rows
    sources = sorted({r["source"] for r in rows})
    by_file = dict(align_state.query(db, "SELECT source, MAX(position) FROM rulings WHERE source IN {} "
                              "GROUP BY source", sources))
    rebuilt = {u.key: u for u in align_units.make_units(rows, glossary, by_file)} if rows else {}
    return new_rows, old, rebuilt


def _previous_rulings(path: Path | None, sources: list[str]) -> dict[str, dict] | None:
    """{id: ruling row} of these files in the previous build's store (opened read only)."""
    if path is None or not path.is_file():
        return None
    with store.read_only(path) as conn:
        return {r["id"]: dict(r) for chunk in store.chunks(sources) for r in conn.execute(
            f"SELECT * FROM rulings WHERE source IN {align_state.placeholders(chunk)}", chunk)}


def _apply(db, scorer, glossary, changed, new_rows, old, added, removed, same, touched,
           n, df, rescored: list[str]) -> set[str]:
    index = align_state.Index(db, scorer)
    removed_keys = {u.key for u in removed}
    added_keys = {u.key for u in added}
    with db.conn:
        # The units as they are now: removed ones out, added ones in (not yet grouped).
        for chunk in store.chunks(removed_keys):
            db.execute(f"DELETE FROM align_units WHERE key IN {align_state.placeholders(chunk)}", chunk)
            db.execute(f"DELETE FROM unit_keys WHERE unit IN {align_state.placeholders(chunk)}", chunk)
        align_state.insert_keys(db, added)
        residual = {u.key: int(not any(index.active(b) for b in scoring.block_keys(u)))
                    for u in added}
        align_state.insert_units(db, [(u, residual[u.key], None, None) for u in added])
        for unit in added:
            index.cache[unit.key] = unit
            index.rows[unit.key] = (residual[unit.key], None, None)
        for unit in same:  # same features: keep the loaded row, but with the rebuilt rulings
            index.load([unit.key])
            index.cache[unit.key] = unit

        # 3. Components to re-cluster: those of removed units and of units whose scores moved
        # (rescored), and those that added or rescored units now reach.
        affected = {old[k][3] for k in removed_keys}
        moved = list(index.load(rescored).values())
        affected |= {index.rows[u.key][1] for u in moved}
        partners = {u.key: index.partners(u) for u in added + moved}
        for unit in added + moved:
            mates = [k for k in partners[unit.key] if k not in added_keys]
            for key, other in index.load(mates).items():
                if scorer.value(unit, other) >= scoring.THRESHOLD:
                    affected.add(index.rows[key][1])
        gone = {old[k][4] for k in removed_keys}
        members = set(added_keys)
        for comp in affected:
            members.update(index.component(comp))
        index.load(members)
        gone |= {index.rows[k][2] for k in members if k not in added_keys}
        gone.discard(None)
        clusters, found = _recluster(index, sorted(members, key=lambda k: index.cache[k].sort_key),
                                     partners)

        # 4. Groups: new ones from the re-clustered units; twins of new and gone groups renamed.
        new_groups = clustering.make_groups(clusters)
        gone_signatures = [set(json.loads(sig)) for (sig,) in align_state.query(
            db, "SELECT signature FROM groups WHERE id IN {}", list(gone))]
        renamed = _renames(db, new_groups, gone)
        component = {k: min(comp) for comp in found for k in comp}
        group_of = {u.key: g.id for g in new_groups for u in g.units}
        db.conn.executemany("UPDATE align_units SET component = ?, group_id = ? WHERE key = ?",
                            [(component[k], group_of[k], k) for k in members])
        for old_id, new_id in renamed.items():
            db.execute("UPDATE align_units SET group_id = ? WHERE group_id = ?", [new_id, old_id])
        for key in list(index.rows):
            res, comp, gid = index.rows[key]
            index.rows[key] = (res, component.get(key, comp),
                               group_of.get(key, renamed.get(gid, gid)))

        # 5. Memberships to redo: changed units and groups, and every unit scored against them.
        renamed_units = [k for keys in index.group_units(renamed.values()).values() for k in keys]
        index.load(renamed_units)
        redo = set(members) | set(renamed_units) | {u.key for u in same}
        for unit in removed + [index.cache[k] for k in members | set(renamed_units)]:
            redo |= index.partners(unit)
        for key in renamed_units:
            redo.update(index.component(index.rows[key][1]))
        index.load(redo)
        touched = {index.rows[u.key][2] for u in touched}
        written = set(group_of.values()) | set(renamed.values()) | touched
        redo |= _partial_candidates(db, index, [set(g.signature) for g in new_groups]
                                    + gone_signatures)
        rewrite.write_rulings(db, changed, old, added + same)
        delete_groups(db, sorted(gone | set(renamed)))
        groups = rewrite.Groups(db, index, new_groups)
        rewrite.write_groups(db, groups, written, touched - gone - set(renamed))
        rewrite.write_memberships(db, index, groups, redo)
        rewrite.write_derived(db, glossary, new_rows)
        align_state.write_state(db, n, df, scorer.lang_length)
    return gone | set(renamed) | written


def _recluster(index: align_state.Index, keys: list[str], partners: dict[str, set[str]]):
    """Clusters and components of these units, as the full clustering makes them."""
    units = [index.cache[k] for k in keys]
    position = {k: i for i, k in enumerate(keys)}
    scores: dict[int, dict[int, float]] = {i: {} for i in range(len(units))}
    for i, unit in enumerate(units):
        mates = partners.get(unit.key)
        if mates is None:
            mates = partners[unit.key] = index.partners(unit)
        for key in mates:
            j = position.get(key)
            if j is not None and j not in scores[i]:
                scores[i][j] = scores[j][i] = index.scorer.value(unit, units[j])
    rank = [0] * len(units)  # ties go to content (unit keys), as in kb.align.cluster
    for place, i in enumerate(sorted(range(len(units)), key=lambda i: units[i].key)):
        rank[i] = place
    clusters = []
    found = clustering.components(len(units), scores)
    for comp in found:
        if len(comp) == 1:
            clusters.append(comp)
            continue
        for i in comp:
            for j in comp:
                if j > i and units[i].lang != units[j].lang and j not in scores[i]:
                    scores[i][j] = scores[j][i] = index.scorer.value(units[i], units[j])
        clusters += clustering.link_component(units, comp, scores, rank)
    return ([[units[i] for i in c] for c in sorted(clusters)],
            [[keys[i] for i in comp] for comp in found])


def group_base(group_id: str) -> str:
    """A group id without its twin suffix: ``<rule>-<fingerprint>``."""
    return _SUFFIX.sub("", group_id) if _SUFFIX.search(group_id) else group_id


def _renames(db, new_groups: list[Aligned], gone: set[str]) -> dict[str, str]:
    """Ids of the new groups among their twins, and {old id: new id} of renamed twins."""
    bases = {group_base(g.id) for g in new_groups} | {group_base(g) for g in gone}
    renamed = {}
    for base in bases:
        ids = [gid for (gid,) in db.execute(
            "SELECT id FROM groups WHERE id = ? OR substr(id, 1, ?) = ?",
            [base, len(base) + 1, base + "-"]) if gid not in gone and group_base(gid) == base]
        firsts = dict(align_state.query(db, "SELECT group_id, MIN(key) FROM align_units WHERE group_id IN {}"
                                 " GROUP BY group_id", ids))
        sizes = dict(align_state.query(db, "SELECT group_id, COUNT(*) FROM memberships WHERE group_id IN {}"
                                " GROUP BY group_id", ids))
        mine = [g for g in new_groups if group_base(g.id) == base]
        keys = [firsts[g] for g in ids] + [min(u.key for u in g.units) for g in mine]
        new_ids = clustering.twin_ids(base, keys, [sizes.get(g, 0) for g in ids]
                                 + [sum(len(u.rulings) for u in g.units) for g in mine])
        for gid, new_id in zip(ids, new_ids):
            if gid != new_id:
                renamed[gid] = new_id
        for group, new_id in zip(mine, new_ids[len(ids):]):
            group.id = new_id
    return renamed


def _partial_candidates(db, index: align_state.Index, signatures: list[set[str]]) -> set[str]:
    """Units alone in their group whose 'partial translation of' may have changed: those
    whose concepts all are in the signature of a new or gone group."""
    if not signatures:
        return set()
    alone = [k for (k,) in db.execute(
        "SELECT MIN(key) FROM align_units GROUP BY group_id HAVING COUNT(*) = 1")]
    return {k for k, u in index.load(alone).items()
            if u.concepts and any(u.concepts <= s for s in signatures)}


def delete_groups(db, ids: list[str]) -> None:
    """Delete these groups and every row that refers to them (memberships, links, ...)."""
    store.delete_with_dependents(db, "groups", "id", ids)
