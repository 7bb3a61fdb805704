"""An incremental build's pages: which ones can have changed, and only the data they show.

The alignment stage names the groups whose rows changed, were added or went
(``ctx.changed_groups``); the files that changed are known too. From those and the
previous build's digests (kept in the store, :mod:`kb.site.digests`) this module works out:

- the groups to load whole: the changed ones, and those whose findings or examples differ
  (a finding of another card's text may name an unchanged group);
- the cards to load whole: those with a changed ruling, a ruling that moved to another group,
  a ruling in a group whose face (:func:`kb.site.digests.face`) changed, or a card of the same
  identity as a changed file's;
- every page's digest: the long pages (listings, report, rule pages, home) are hashed from the
  items' digests, the unchanged ones read back from the store;
- the pages to render (those whose digest differs), and what they need besides: the cards of
  a listing part, the face of each group a page links to (its first member in each language).

Everything else is as the previous build had it. :func:`plan` returns None when the previous
build kept no digests: the caller then builds everything.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from kb import store
from kb.examples import runs as example_runs
from kb.site import data as site_data
from kb.site import differing, digests
from kb.site import pages as site_pages
from kb.site.data import SiteData
from kb.site.paths import slug


@dataclass
class Plan:
    site: SiteData  # what the pages to render show
    digests: dict[str, str]  # every page key of the new site -> its digest
    render: set[str]  # the keys to render; every other key is the previous build's page
    group_rows: list[tuple]  # the new site_groups table
    card_rows: list[tuple]  # the new site_cards table
    figures: dict
    held: dict  # {table: {key: row}} the digest tables hold now


def plan(db, previous: Path, changed_groups: set[str], changed_sources: set[str]) -> Plan | None:
    tables = set(db.table_names())
    if not {digests.PAGES, digests.GROUPS, digests.CARDS, "groups", "memberships"} <= tables:
        return None
    old_pages = {k: v[0] for k, v in digests.stored(db, digests.PAGES).items()}
    old_groups = digests.stored(db, digests.GROUPS)  # id -> (face, sort, leads, extras)
    old_cards = {k: v[0] for k, v in digests.stored(db, digests.CARDS).items()}
    corpus = site_data.read_corpus(db, findings=False)  # read as groups need them
    now = corpus.summary.group_ids
    rules = site_data.rule_table(corpus, sorted(now))  # for the examples' rule links only

    # 1. Groups loaded whole: their own page may show something new.
    whole = (set(changed_groups) & now) | (now - old_groups.keys())
    maybe = _with_extras(db, previous, corpus) & now
    corpus.add_findings(db, whole | maybe)
    extras = {g: digests.extras(corpus, rules, g) for g in maybe}
    whole |= {g for g, extra in extras.items() if old_groups.get(g, (None,) * 4)[3] != extra}
    members = site_data.memberships(db, "group_id", whole)
    loaded = {r["id"]: r for r in site_data.rulings_where(db, "id", members)}
    raw: dict[str, list[dict]] = {g: [] for g in whole}
    for ruling_id, group_id in members.items():
        raw[group_id].append(loaded[ruling_id])
    full = {g: site_data.new_group(g, rows, corpus.rules_of.get(g, [])) for g, rows in raw.items()}
    faces = {g: row[0] for g, row in old_groups.items() if g in now}
    new_rows = {}
    for g, group in full.items():
        new_rows[g] = digests.group_row(group, extras.get(g) or digests.extras(corpus, rules, g))
        faces[g] = new_rows[g][1]
    reshown = {g for g in full if old_groups.get(g, (None,))[0] != faces[g]}

    # 2. Cards loaded whole: their page or their listing may show something new.
    cards = _touched_cards(db, previous, corpus, changed_groups, changed_sources, members)
    cards |= {r["card_id"] for g in reshown for r in full[g]["members"]}
    cards &= corpus.cards.keys()

    # 3. Every group's place, and the digests of every page.
    sort = {g: json.loads(row[1]) for g, row in old_groups.items() if g in now}
    sort.update({g: json.loads(row[2]) for g, row in new_rows.items()})
    order = sorted(now, key=lambda g: sort[g])
    site, card_rulings = _site(db, corpus, full, {}, cards, order)
    listings = {c: v for c, v in old_cards.items() if c in corpus.cards}
    listings.update({c: digests.listing(site, corpus.cards[c]) for c in cards})
    counts = corpus.summary.counts
    page_of_card = {f"card/{card['slug']}.html": card for card in corpus.cards.values()}
    page_of_group = {f"ruling/{slug(g)}.html": g for g in now}
    new = {k: v for k, v in old_pages.items() if k in page_of_card or k in page_of_group}
    extra = {g: row[3] for g, row in old_groups.items() if g in now}
    extra.update({g: row[4] for g, row in new_rows.items()})
    new.update(digests.shared_pages(site, counts, faces, listings, extra))
    new.update(
        {
            f"card/{corpus.cards[c]['slug']}.html": digests.card_page(site, corpus.cards[c], faces)
            for c in cards
        }
    )
    new.update(
        {f"ruling/{group['slug']}.html": digests.ruling_page(site, group) for group in site.groups}
    )
    render = {k for k, v in new.items() if old_pages.get(k) != v}

    # 4. What the pages to render show besides: a listing part's cards, the groups' faces.
    cards_shown: set[str] = set()
    for code in site_pages.present(site):
        chunks = site_pages.parts(site.cards_in(code), site_pages.LANG_PAGE_CARDS)
        for (_, key), chunk in zip(site_pages.part_keys(f"lang/{code}", len(chunks)), chunks):
            if key in render:
                cards_shown.update(c["id"] for c in chunk)
    chunks = site_pages.parts(order, site_pages.REPORT_PAGE_GROUPS)
    reported = set()
    for (_, key), chunk in zip(site_pages.part_keys("consistency", len(chunks)), chunks):
        if key in render:
            reported.update(chunk)
    corpus.add_findings(db, reported)  # a part of the report lists its groups' findings
    groups_shown = set(reported)
    for rule in site.rules.values():
        if f"rule/{rule['slug']}.html" in render:
            groups_shown.update(rule["group_ids"])
    rendered_cards = {c for c in cards if f"card/{corpus.cards[c]['slug']}.html" in render}
    site_data.detach_rulings(corpus.cards)
    site, _ = _site(db, corpus, full, old_groups, cards_shown | rendered_cards, order, groups_shown)
    group_rows = [new_rows[g] if g in new_rows else (g, *old_groups[g]) for g in sorted(now)]
    card_rows = sorted(listings.items())
    held = {
        digests.PAGES: {k: (k, v) for k, v in old_pages.items()},
        digests.GROUPS: {g: (g, *row) for g, row in old_groups.items()},
        digests.CARDS: {c: (c, v) for c, v in old_cards.items()},
    }
    return Plan(
        site=site,
        digests=new,
        render=render,
        group_rows=group_rows,
        card_rows=card_rows,
        held=held,
        figures={
            "groups_loaded": len(full),
            "cards_loaded": len(cards),
            "faces_loaded": len(site.groups) - len(full),
        },
    )


def _with_extras(db, previous: Path, corpus) -> set[str]:
    """Groups whose :func:`kb.site.digests.extras` may differ from the previous build's:
    those whose findings or example runs are not the same rows (compared by SQLite), and
    those with example runs, now or before (a run links its rules' pages). Every group when
    the checks or examples were there in one build only (every group's extras change)."""
    tables = {"findings", example_runs.TABLE}
    there = tables & differing.tables(previous)
    if there != tables & set(db.table_names()):
        return set(corpus.summary.group_ids)
    ids = {str(run.get("group")) for run in corpus.examples}
    if example_runs.TABLE in there:
        with store.read_only(previous / "rulings.db", rows=False) as old:
            ids |= {str(g) for (g,) in old.execute(f'SELECT "group" FROM {example_runs.TABLE}')}
    return ids | differing.groups(db, previous, tuple((t, '"group"') for t in sorted(there)))


def _touched_cards(
    db,
    previous: Path,
    corpus,
    changed_groups: set[str],
    changed_sources: set[str],
    members: dict[str, str],
) -> set[str]:
    """Cards with a ruling changed or moved to another group, and the cards of the same
    identity as a changed file's card (they list its name)."""
    sources, groups = sorted(changed_sources), sorted(changed_groups)
    cards, before_members, files = set(), {}, set()
    for chunk in store.chunks(sources):
        marks = ", ".join("?" * len(chunk))
        cards |= {
            c
            for (c,) in db.execute(f"SELECT card_id FROM rulings WHERE source IN ({marks})", chunk)
        }
        files |= {
            c for (c,) in db.execute(f"SELECT card_id FROM sources WHERE path IN ({marks})", chunk)
        }
    with store.read_only(previous / "rulings.db", rows=False) as old:
        for chunk in store.chunks(sources):
            marks = ", ".join("?" * len(chunk))
            cards |= {
                c
                for (c,) in old.execute(
                    f"SELECT card_id FROM rulings WHERE source IN ({marks})", chunk
                )
            }
            files |= {
                c
                for (c,) in old.execute(
                    f"SELECT card_id FROM sources WHERE path IN ({marks})", chunk
                )
            }
        for chunk in store.chunks(groups):
            before_members.update(
                old.execute(
                    f"SELECT m.ruling_id, m.group_id FROM memberships m WHERE m.group_id IN "
                    f"({', '.join('?' * len(chunk))})",
                    chunk,
                ).fetchall()
            )
        # A ruling that left a changed group, or joined one: its card lists another group.
        joined = [r for r, g in members.items() if before_members.get(r) != g]
        was = {}
        for chunk in store.chunks(joined):
            was.update(
                old.execute(
                    f"SELECT ruling_id, group_id FROM memberships WHERE ruling_id "
                    f"IN ({', '.join('?' * len(chunk))})",
                    chunk,
                ).fetchall()
            )
        now = site_data.memberships(db, "ruling_id", before_members)
        moved = {r for r, g in before_members.items() if now.get(r) != g}
        moved |= {r for r in joined if was.get(r) != members[r]}
        identities = set()
        for chunk in store.chunks(sorted(moved)):
            marks = ", ".join("?" * len(chunk))
            cards |= {
                c
                for (c,) in old.execute(f"SELECT card_id FROM rulings WHERE id IN ({marks})", chunk)
            }
            cards |= {
                c
                for (c,) in db.execute(f"SELECT card_id FROM rulings WHERE id IN ({marks})", chunk)
            }
        files = {c for c in files if c}
        if files and "card_identities" in {
            r[0] for r in old.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }:
            for chunk in store.chunks(sorted(files)):
                identities |= {
                    i
                    for (i,) in old.execute(
                        f"SELECT identity FROM card_identities WHERE card_id IN "
                        f"({', '.join('?' * len(chunk))})",
                        chunk,
                    )
                }
    identities |= {corpus.cards[c]["identity"] for c in files if c in corpus.cards}
    identities |= files  # a card without a stored identity is its own
    cards |= files
    cards |= {c for c, card in corpus.cards.items() if card["identity"] in identities}
    return cards


def _site(
    db,
    corpus,
    full: dict[str, dict],
    old_groups: dict,
    cards: set[str],
    order: list[str],
    faces: Collection[str] = frozenset(),
):
    """SiteData of the ``full`` groups, the ``cards`` with their rulings and, given the
    previous ``old_groups`` rows, the faces of ``faces`` and of the groups of those rulings."""
    card_rulings = site_data.rulings_where(db, "card_id", cards)
    site_data.attach_rulings(corpus.cards, card_rulings)
    ruling_groups = site_data.memberships(db, "ruling_id", [r["id"] for r in card_rulings])
    shown = (set(faces) | set(ruling_groups.values())) - full.keys() if old_groups else set()
    lead_ids = [r for g in sorted(shown) for r in json.loads(old_groups[g][2])]
    leads = site_data.rulings_where(db, "id", lead_ids)
    by_group: dict[str, list[dict]] = {g: [] for g in shown}
    lead_group = {r: g for g in shown for r in json.loads(old_groups[g][2])}
    for ruling in leads:
        by_group[lead_group[ruling["id"]]].append(ruling)
    raw = [(g, group["members"]) for g, group in full.items()] + sorted(by_group.items())
    rulings = [m for group in full.values() for m in group["members"]] + card_rulings + leads
    site = site_data.assemble(
        corpus, rulings, raw, group_order=order, face_only=shown, ruling_groups=ruling_groups
    )
    return site, card_rulings
