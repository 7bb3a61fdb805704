"""Per-page digests: a hash of everything a page shows, so a rebuild renders only pages that differ.

Every page key (``ruling/<slug>.html``, ``card/<slug>.html``, ``index.html``, ...) gets one digest
that covers what its template reads from :class:`kb.site.data.SiteData`, for every interface
language at once (a group's first member in each UI language is part of what other pages show of
it), so one digest serves the six trees. What is not data (templates, catalogs, the rules
registry, the glossary, code) is fixed by the build key: a previous build is only reused when
that key matches (:mod:`kb.pipeline.incremental`).

Pages that list many items (a language's listing, the coverage report, a rule's rulings) are
hashed from their items' digests: a group's *face* (what other pages show of it, :func:`face`)
and a card's *listing* (what a language's listing shows of it, :func:`listing`). Those are kept
in the store (tables ``site_groups``, ``site_cards``) with each group's place in the site's
order and its first member in each language, so an incremental build digests the long pages
without loading the groups and cards that did not change.

Keep this module in step with the templates: each view lists exactly the fields its template
shows. tests/test_incremental.py compares incremental builds with full ones byte for byte.
"""

from __future__ import annotations

import hashlib
import json

from kb.corpus.languages import UI_LANGUAGES
from kb.site import pages as site_pages
from kb.site.data import SiteData, group_order_key
from kb.site.files import replace_table
from kb.site.paths import slug
from kb.store import schema

PAGES = "site_pages"
GROUPS = "site_groups"
CARDS = "site_cards"
#: What _examples.html shows of a run (not its run time, which changes every build).
_RUN_FIELDS = ("id", "title", "status", "failure", "initial", "steps", "rules")
_MEMBER_FIELDS = ("id", "lang", "position", "line", "text", "card_id", "card", "date", "source")


def _hash(view) -> str:
    body = json.dumps(view, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()


def member(ruling: dict) -> str:
    """What pages show of one ruling text (its card's page, its group's, its listing)."""
    return _hash([ruling.get(name) for name in _MEMBER_FIELDS])


def face(group: dict) -> str:
    """What pages other than its own show of a group: its link, its lead text in each UI
    language (or its first member) with its anchor, and which languages it has."""
    first: dict[str, dict] = {}
    for ruling in group["members"]:
        first.setdefault(ruling["lang"], ruling)
    return _hash(
        [
            group["slug"],
            [_lead(first.get(ui)) for ui in UI_LANGUAGES],
            _lead(group["members"][0] if group["members"] else None),
            sorted(first),
        ]
    )


def _lead(ruling: dict | None):
    return (
        None
        if ruling is None
        else [ruling[k] for k in ("lang", "text", "position", "line", "source")]
    )  # source: in the anchor


def leads(group: dict) -> list[str]:
    """The ids of the group's first member in each language: all its face shows."""
    seen, out = set(), []
    for ruling in group["members"]:
        if ruling["lang"] not in seen:
            seen.add(ruling["lang"])
            out.append(ruling["id"])
    return out


def members(rulings: list[dict]) -> dict[str, str]:
    """{ruling id: :func:`member`} of ``rulings``: each ruling shows on three pages (its card's,
    its listing, its group's), so a full build digests it once and passes this to each."""
    return {r["id"]: member(r) for r in rulings}


def _member(ruling: dict, known: dict[str, str] | None) -> str:
    return known[ruling["id"]] if known is not None else member(ruling)


def listing(site: SiteData, card: dict, known: dict[str, str] | None = None) -> str:
    """What a language's listing shows of a card (its rulings must be loaded); ``known``:
    :func:`members` of its rulings, if made."""
    return _hash(
        [
            card["id"],
            card["name"],
            card["lang"],
            card["slug"],
            [[_member(r, known), slug(site.group_id_of(r["id"]))] for r in card["rulings"]],
        ]
    )


def card_page(site: SiteData, card: dict, faces, known: dict[str, str] | None = None) -> str:
    return _hash(
        [
            "card",
            card["id"],
            card["name"],
            card["lang"],
            [[c["id"], c["name"], c["lang"], c["slug"]] for c in site.identity_cards(card)],
            [[_member(r, known), faces[site.group_id_of(r["id"])]] for r in card["rulings"]],
        ]
    )


def ruling_page(site: SiteData, group: dict, known: dict[str, str] | None = None) -> str:
    rules = site.rules
    return _hash(
        [
            "ruling",
            group["slug"],
            [_member(m, known) for m in group["members"]],
            [[n, rules[n]["slug"], rules[n]["title"]] for n in group["rules"]],
            _examples(site.rules, site.examples_available, group["examples"]),
            group["findings"],
            site.findings is None,
        ]
    )


def extras(corpus, rules: dict, group_id: str) -> str:
    """What a group's page shows besides its members: its findings and examples (which may
    change when another group changed: a text entered twice on a card, an example's key), and
    why it explains its rules."""
    return _hash(
        [
            corpus.findings_of(group_id),
            _examples(rules, corpus.examples_available, corpus.examples_of(group_id)),
            corpus.links_of.get(group_id, {}),
        ]
    )


def group_row(group: dict, extra: str) -> tuple:
    """The ``site_groups`` row of a (fully loaded) group; ``extra``: its :func:`extras`."""
    return (
        group["id"],
        face(group),
        json.dumps(group_order_key(group), ensure_ascii=False),
        json.dumps(leads(group)),
        extra,
    )


def shared_pages(site: SiteData, counts: dict, faces, listings, extra) -> dict[str, str]:
    """{key: digest} of the pages built from many items: home, rules, glossary, the coverage
    report's and the languages' parts, every rule page. ``faces``: group id -> face digest,
    ``listings``: card id -> listing digest, ``extra``: group id -> :func:`extras` digest
    (every group's and card's). A part of the coverage report shows its groups' findings:
    their extras stand for them, so an incremental build need not load every finding."""
    present = site_pages.present(site)
    out = {
        "index.html": _hash(["home", counts, present, _few_cards(site, counts, present)]),
        "rules.html": _hash(
            [
                "rules",
                [
                    [r["number"], r["slug"], r["title"], len(r["group_ids"])]
                    for r in site.rules.values()
                ],
                len(site.unlinked),
            ]
        ),
        "glossary.html": _hash(["glossary", site.concepts, site.glossary_available]),
        "unlinked.html": _hash(["unlinked", site.unlinked]),
    }
    chunks = site_pages.parts(site.group_order, site_pages.REPORT_PAGE_GROUPS)
    keys = site_pages.part_keys("consistency", len(chunks))
    listed = set(site.group_order)
    stray = [f for f in site.findings or [] if f.get("group") not in listed]  # on the first
    checked = None if site.findings is None else site.any_findings  # not run, none, some
    for (number, key), chunk in zip(keys, chunks):
        out[key] = _hash(
            [
                "consistency",
                present,
                number,
                keys,
                [faces[g] for g in chunk],
                [extra[g] for g in chunk],
                checked,
                stray if number == 1 else [],
            ]
        )
    for code in present:
        chunks = site_pages.parts(site.cards_in(code), site_pages.LANG_PAGE_CARDS)
        keys = site_pages.part_keys(f"lang/{code}", len(chunks))
        for (number, key), chunk in zip(keys, chunks):
            out[key] = _hash(["lang", code, number, keys, [listings[c["id"]] for c in chunk]])
    for rule in site.rules.values():
        out[f"rule/{rule['slug']}.html"] = _hash(
            [
                "rule",
                rule["number"],
                rule["slug"],
                rule["title"],
                rule["summary"],
                rule["history"],
                [faces[g] for g in rule["group_ids"]],
                # a ruling without a text in the reader's language is titled by its example
                # (kb.site.templating.ruling_title): its groups' extras cover their examples' titles
                [extra[g] for g in rule["group_ids"]],
                _examples(site.rules, site.examples_available, rule["examples"]),
            ]
        )
    return out


def _few_cards(site: SiteData, counts: dict, present: list[str]) -> list:
    """The home page names a language's cards when there are few of them."""
    few = []
    for code in present:
        entry = counts["per_lang"].get(code, {"cards": 0})
        if entry["cards"] <= site_pages.FEW_CARDS:
            few.append([code, [[c["slug"], c["name"]] for c in site.cards_in(code)]])
    return few


def _examples(rules: dict, available: bool, runs: list[dict]) -> list:
    """Example runs as pages show them: the run, and which of its rules have a page."""
    return [
        available,
        [
            [
                {k: run.get(k) for k in _RUN_FIELDS},
                [[n, n in rules and rules[n]["slug"]] for n in run.get("rules") or []],
            ]
            for run in runs
        ],
    ]


# -- the store's tables -----------------------------------------------------------------------


def stored(db, table: str) -> dict[str, tuple]:
    """{key: the rest of its row} of one of this module's tables ({} if it is not there)."""
    if table not in db.table_names():
        return {}
    return {row[0]: tuple(row[1:]) for row in db.execute(f"SELECT * FROM {table}")}


def store(
    db, pages: dict[str, str], groups: list[tuple], cards: list[tuple], held: dict | None = None
) -> None:
    """Keep this build's digests in its store for the next build to compare with; ``held``:
    {table: {key: row}} of what the store's tables hold now (see :func:`replace_table`)."""
    held = held or {}
    replace_table(db, PAGES, schema.columns(PAGES), sorted(pages.items()), held.get(PAGES))
    replace_table(db, GROUPS, schema.columns(GROUPS), sorted(groups), held.get(GROUPS))
    replace_table(db, CARDS, schema.columns(CARDS), sorted(cards), held.get(CARDS))
