"""Applying an incremental alignment (:mod:`kb.align.update` decided it can be exact): the
components the changed units reach clustered again, twins of new and gone groups renamed,
memberships redone for every unit scored against a changed one, and the rows written
(:mod:`kb.align.rewrite`).
"""

from __future__ import annotations

import json
import re

from kb import store
from kb.align import clustering, rewrite, scoring
from kb.align import state as align_state
from kb.align.units import Aligned

_SUFFIX = re.compile(r"-[0-9a-f]{12}$")


def regroup(
    db,
    scorer,
    glossary,
    changed,
    new_rows,
    old,
    added,
    removed,
    same,
    touched,
    n,
    df,
    rescored: list[str],
) -> set[str]:
    """Write the update: ``added``, ``removed`` and ``same`` units of the (language, text)
    buckets the ``changed`` files touch, ``touched`` those whose rulings changed, ``rescored``
    the stored units whose scores moved; ``n`` and ``df`` the new corpus statistics. Returns
    the ids of the groups written or gone."""
    index = align_state.Index(db, scorer)
    removed_keys = {u.key for u in removed}
    added_keys = {u.key for u in added}
    with db.conn:
        # The units as they are now: removed ones out, added ones in (not yet grouped).
        for chunk in store.chunks(removed_keys):
            db.execute(
                f"DELETE FROM align_units WHERE key IN {align_state.placeholders(chunk)}", chunk
            )
            db.execute(
                f"DELETE FROM unit_keys WHERE unit IN {align_state.placeholders(chunk)}", chunk
            )
        align_state.insert_keys(db, added)
        residual = {
            u.key: int(not any(index.active(b) for b in scoring.block_keys(u))) for u in added
        }
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
        clusters, found = _recluster(
            index, sorted(members, key=lambda k: index.cache[k].sort_key), partners
        )

        # 4. Groups: new ones from the re-clustered units; twins of new and gone groups renamed.
        bare = [key for key in members if not index.cache[key].rulings]
        new_groups = clustering.make_groups(clusters, _first_copies(db, bare))
        gone_signatures = [
            set(json.loads(sig))
            for (sig,) in align_state.query(
                db, "SELECT signature FROM groups WHERE id IN {}", list(gone)
            )
        ]
        renamed = _renames(db, new_groups, gone)
        component = {k: min(comp) for comp in found for k in comp}
        group_of = {u.key: g.id for g in new_groups for u in g.units}
        db.conn.executemany(
            "UPDATE align_units SET component = ?, group_id = ? WHERE key = ?",
            [(component[k], group_of[k], k) for k in members],
        )
        for old_id, new_id in renamed.items():
            db.execute("UPDATE align_units SET group_id = ? WHERE group_id = ?", [new_id, old_id])
        for key in list(index.rows):
            res, comp, gid = index.rows[key]
            index.rows[key] = (
                res,
                component.get(key, comp),
                group_of.get(key, renamed.get(gid, gid)),
            )

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
        redo |= _partial_candidates(
            db, index, [set(g.signature) for g in new_groups] + gone_signatures
        )
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
    return (
        [[units[i] for i in c] for c in sorted(clusters)],
        [[keys[i] for i in comp] for comp in found],
    )


def _first_copies(db, keys: list[str]) -> dict[str, list[dict]]:
    """{unit key: the first copy (by id) of each of its texts} of units read back from the
    store, as the link stage reads a group's texts."""
    firsts = align_state.query(
        db,
        "SELECT u.unit, MIN(r.id) FROM unit_rulings u JOIN rulings r ON r.id = u.ruling_id "
        "WHERE u.unit IN {} GROUP BY u.unit, r.text",
        keys,
    )
    rows = {r["id"]: r for r in store.rulings(db, ids=[rid for _, rid in firsts])}
    out: dict[str, list[dict]] = {}
    for unit, ruling_id in firsts:
        out.setdefault(unit, []).append(rows[ruling_id])
    return out


def group_base(group_id: str) -> str:
    """A group id without its twin suffix: ``<rule>-<fingerprint>``."""
    return _SUFFIX.sub("", group_id) if _SUFFIX.search(group_id) else group_id


def _renames(db, new_groups: list[Aligned], gone: set[str]) -> dict[str, str]:
    """Ids of the new groups among their twins, and {old id: new id} of renamed twins."""
    bases = {group_base(g.id) for g in new_groups} | {group_base(g) for g in gone}
    renamed = {}
    for base in bases:
        ids = [
            gid
            for (gid,) in db.execute(
                "SELECT id FROM groups WHERE id = ? OR substr(id, 1, ?) = ?",
                [base, len(base) + 1, base + "-"],
            )
            if gid not in gone and group_base(gid) == base
        ]
        firsts = dict(
            align_state.query(
                db,
                "SELECT group_id, MIN(key) FROM align_units WHERE group_id IN {} GROUP BY group_id",
                ids,
            )
        )
        sizes = dict(
            align_state.query(
                db,
                "SELECT group_id, COUNT(*) FROM memberships WHERE group_id IN {} GROUP BY group_id",
                ids,
            )
        )
        mine = [g for g in new_groups if group_base(g.id) == base]
        keys = [firsts[g] for g in ids] + [min(u.key for u in g.units) for g in mine]
        new_ids = clustering.twin_ids(
            base,
            keys,
            [sizes.get(g, 0) for g in ids] + [sum(len(u.rulings) for u in g.units) for g in mine],
        )
        for gid, new_id in zip(ids, new_ids):
            if gid != new_id:
                renamed[gid] = new_id
        for group, new_id in zip(mine, new_ids[len(ids) :]):
            group.id = new_id
    return renamed


def _partial_candidates(db, index: align_state.Index, signatures: list[set[str]]) -> set[str]:
    """Units alone in their group whose 'partial translation of' may have changed: those
    whose concepts all are in the signature of a new or gone group."""
    if not signatures:
        return set()
    alone = [
        k
        for (k,) in db.execute(
            "SELECT MIN(key) FROM align_units GROUP BY group_id HAVING COUNT(*) = 1"
        )
    ]
    return {
        k
        for k, u in index.load(alone).items()
        if u.concepts and any(u.concepts <= s for s in signatures)
    }


def delete_groups(db, ids: list[str]) -> None:
    """Delete these groups and every row that refers to them (memberships, links, ...)."""
    store.delete_with_dependents(db, "groups", "id", ids)
