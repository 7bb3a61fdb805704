"""Per-page digests: a hash of everything a page shows, so a rebuild renders only pages that differ.

Every page key (``ruling/<slug>.html``, ``card/<slug>.html``, ``index.html``, ...) gets one digest
that covers what its template reads from :class:`kb.site.data.SiteData`, for every interface
language at once (a group's first member in each UI language is part of what other pages show of
it), so one digest serves the six trees. What is not data (templates, catalogs, the rules
registry, the glossary, code) is fixed by the build key: a previous build is only reused when
that key matches (:mod:`kb.incremental`).

Keep this module in step with the templates: each ``_view`` lists exactly the fields its
template shows. tests/test_incremental.py and tests/site/test_digests.py compare incremental
builds with full ones byte for byte.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from kb.languages import UI_LANGUAGES
from kb.site import pages as site_pages
from kb.site.data import SiteData
from kb.site.files import previous_rows, replace_table

TABLE = "site_pages"
#: What _examples.html shows of a run (not its run time, which changes every build).
_RUN_FIELDS = ("id", "title", "status", "failure", "initial", "steps", "rules")
_MEMBER_FIELDS = ("id", "lang", "position", "line", "text", "card_id", "card", "date", "source")


def _hash(view) -> str:
    body = json.dumps(view, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()


def _members(site: SiteData) -> dict[str, str]:
    """{ruling id: digest of what pages show of it}: a text shows on its card's page, its
    group's page and its language's listing, and is hashed once for all three."""
    return {r["id"]: _hash([r.get(name) for name in _MEMBER_FIELDS]) for r in site.rulings}


def page_digests(site: SiteData, counts: dict) -> dict[str, str]:
    """{page key: digest} for every page of a UI tree (the same keys in every tree)."""
    faces = {group["id"]: _face(group) for group in site.groups}
    member = _members(site)
    examples = _Examples(site)
    present = site_pages.present(site)
    out = {
        "index.html": _hash(["home", counts, present, _few_cards(site, counts, present)]),
        "rules.html": _hash(["rules", [[r["number"], r["slug"], r["title"], len(r["groups"])]
                                       for r in site.rules.values()]]),
        "glossary.html": _hash(["glossary", site.concepts, site.glossary_available]),
    }
    chunks = site_pages.parts(site.groups, site_pages.REPORT_PAGE_GROUPS)
    keys = site_pages.part_keys("consistency", len(chunks))
    for (number, key), chunk in zip(keys, chunks):
        out[key] = _hash(["consistency", present, number, keys, [faces[g["id"]] for g in chunk],
                          site.findings if number == 1 else None])  # findings: on the first
    for code in present:
        chunks = site_pages.parts([c for c in site.cards.values() if c["lang"] == code],
                                  site_pages.LANG_PAGE_CARDS)
        keys = site_pages.part_keys(f"lang/{code}", len(chunks))
        for (number, key), chunk in zip(keys, chunks):
            out[key] = _hash(["lang", code, number, keys, [
                [card["id"], card["name"], card["lang"], card["slug"],
                 [[member[r["id"]], site.group_of(r["id"])["slug"]] for r in card["rulings"]]]
                for card in chunk]])
    for card in site.cards.values():
        out[f"card/{card['slug']}.html"] = _hash([
            "card", card["id"], card["name"], card["lang"],
            [[c["id"], c["name"], c["lang"], c["slug"]] for c in site.identity_cards(card)],
            [[member[r["id"]], faces[site.group_of(r["id"])["id"]]] for r in card["rulings"]]])
    for group in site.groups:
        out[f"ruling/{group['slug']}.html"] = _hash([
            "ruling", group["slug"], [member[m["id"]] for m in group["members"]],
            [[n, site.rules[n]["slug"], site.rules[n]["title"]] for n in group["rules"]],
            examples.view(group["examples"]), group["findings"], site.findings is None])
    for rule in site.rules.values():
        out[f"rule/{rule['slug']}.html"] = _hash([
            "rule", rule["number"], rule["slug"], rule["title"], rule["summary"],
            rule["history"], [faces[g["id"]] for g in rule["groups"]],
            examples.view(rule["examples"])])
    return out


def _face(group: dict) -> str:
    """What pages other than its own show of a group: its link, its lead text in each UI
    language (or its first member) with its anchor, and which languages it has."""
    return _hash([group["slug"],
                  [_lead(site_pages.in_reader_lang(group, ui)) for ui in UI_LANGUAGES],
                  _lead(group["members"][0] if group["members"] else None),
                  sorted({m["lang"] for m in group["members"]})])


def _lead(member: dict | None):
    return None if member is None else [member[k] for k in ("lang", "text", "position", "line")]


def _few_cards(site: SiteData, counts: dict, present: list[str]) -> list:
    """The home page names a language's cards when there are few of them."""
    few = []
    for code in present:
        entry = counts["per_lang"].get(code, {"cards": 0})
        if entry["cards"] <= site_pages.FEW_CARDS:
            few.append([code, [[c["slug"], c["name"]] for c in site.cards.values()
                               if c["lang"] == code]])
    return few


class _Examples:
    """Example runs as pages show them: the run, and which of its rules have a page."""

    def __init__(self, site: SiteData):
        self.rules = site.rules
        self.available = site.examples_available

    def view(self, runs: list[dict]) -> list:
        return [self.available, [[{k: run.get(k) for k in _RUN_FIELDS},
                                  [[n, n in self.rules and self.rules[n]["slug"]]
                                   for n in run.get("rules") or []]] for run in runs]]


def previous(build: Path | None) -> dict[str, str]:
    """The digests the previous build folder ``build`` stored ({} if none)."""
    return dict(previous_rows(build, f"SELECT page, digest FROM {TABLE}"))


def store(db, digests: dict[str, str]) -> None:
    """Keep this build's digests in its store for the next build to compare with."""
    replace_table(db, TABLE, "page TEXT PRIMARY KEY, digest TEXT NOT NULL", sorted(digests.items()))
