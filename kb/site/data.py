"""What the site shows, gathered once from the store and the other stages.

The site is the last stage and reads what the others wrote: the store's rulings and cards,
alignment groups (:func:`kb.align.groups`), card identities, rule links and the rules registry
(:mod:`kb.core.registry`), the glossary (:mod:`kb.glossary`), example runs (table
``example_runs``) and translator findings (:mod:`kb.check`). Each of those may not exist yet in
a given checkout; the site then shows what it has (a group per ruling, no examples, ...) rather
than failing, so every part can land on its own. Everything is sorted so the same corpus gives
the same pages byte for byte.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass, field

from kb import store
from kb.languages import LANGUAGES
from kb.site.paths import rule_slug, slug


@dataclass
class SiteData:
    rulings: list[dict]
    cards: dict[str, dict]  # card id -> {id, name, lang, slug, identity, rulings}
    groups: list[dict]  # {id, slug, rules, members, examples, findings}
    rules: dict[str, dict]  # number -> {number, slug, title, summary, history, groups, examples}
    concepts: list[dict] = field(default_factory=list)
    findings: list[dict] | None = None  # None: the checks are not available in this checkout
    examples_available: bool = False
    glossary_available: bool = False

    def group_of(self, ruling_id: str) -> dict | None:
        return self._group_of.get(ruling_id)

    def identity_cards(self, card: dict) -> list[dict]:
        """The card's names in every language (itself included), in language order."""
        return self._identities.get(card["identity"], [card])

    def __post_init__(self):
        self._group_of = {m["id"]: g for g in self.groups for m in g["members"]}
        self._identities: dict[str, list[dict]] = {}
        for card in sorted(self.cards.values(), key=_card_order):
            self._identities.setdefault(card["identity"], []).append(card)


def _optional(module: str):
    """Import a stage module that may not have landed yet; real import errors still raise."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            return None
        raise


def _card_order(card: dict) -> tuple:
    lang = card["lang"]
    return (LANGUAGES.index(lang) if lang in LANGUAGES else len(LANGUAGES), lang, card["name"])


def _ruling_order(row: dict) -> tuple:
    lang = row["lang"]
    return (LANGUAGES.index(lang) if lang in LANGUAGES else len(LANGUAGES), row["card"],
            row["source"], row["position"])


def load(db) -> SiteData:
    """Gather everything the pages need from the store ``db`` and the other stages."""
    rulings = sorted(store.rulings(db), key=_ruling_order)
    by_id = {r["id"]: r for r in rulings}
    cards = _cards(db, rulings)
    groups = _groups(db, rulings, by_id)
    examples = _examples(db)
    for group in groups:
        group["examples"] = [run for run in examples if str(run.get("group")) == group["id"]]
    rules = _rules(groups, examples)
    concepts = _concepts()
    findings = _findings(db)
    if findings is not None:
        per_group: dict[str, list] = {}
        for finding in findings:
            per_group.setdefault(finding.get("group"), []).append(finding)
        for group in groups:
            group["findings"] = per_group.get(group["id"], [])
    return SiteData(rulings=rulings, cards=cards, groups=groups, rules=rules,
                    concepts=concepts or [], findings=findings,
                    examples_available="example_runs" in db.table_names(),
                    glossary_available=concepts is not None)


def _cards(db, rulings: list[dict]) -> dict[str, dict]:
    cards = {}
    for row in db.query("SELECT id, name, lang FROM cards ORDER BY id"):
        cards[row["id"]] = {**dict(row), "slug": slug(row["id"]), "identity": row["id"],
                            "rulings": []}
    for ruling in rulings:
        cards[ruling["card_id"]]["rulings"].append(ruling)
    for card_id, identity in _identities(db).items():
        if card_id in cards:
            cards[card_id]["identity"] = identity
    return cards


def _identities(db) -> dict[str, str]:
    """card id -> identity key, from the alignment's ``card_identities`` table when present."""
    if "card_identities" not in db.table_names():
        return {}
    columns = set(db["card_identities"].columns_dict)
    card_col = next((c for c in ("card_id", "card") if c in columns), None)
    ident_col = next((c for c in ("identity", "identity_id", "canonical", "key", "id")
                      if c in columns and c != card_col), None)
    if not card_col or not ident_col:
        return {}
    return {row[card_col]: str(row[ident_col])
            for row in db.query(f"SELECT [{card_col}], [{ident_col}] FROM card_identities")}


def _groups(db, rulings: list[dict], by_id: dict[str, dict]) -> list[dict]:
    tables = set(db.table_names())
    if {"groups", "memberships"} <= tables:
        raw = _stored_groups(db, by_id, tables)
    else:
        # Before alignment: every ruling is its own group, keyed by its content-derived id.
        raw = [{"id": r["id"], "rules": [], "members": [r]} for r in rulings]
    groups = []
    for group in raw:
        members = sorted(group["members"], key=_ruling_order)
        groups.append({"id": str(group["id"]), "slug": slug(str(group["id"])),
                       "rules": sorted(group.get("rules") or [], key=_rule_key),
                       "members": members, "examples": [], "findings": []})
    groups.sort(key=lambda g: (_ruling_order(g["members"][0]) if g["members"] else (), g["id"]))
    return groups


def _stored_groups(db, by_id: dict[str, dict], tables: set[str]) -> list[dict]:
    """The alignment's groups (table ``groups``), members as the store's ruling rows (the very
    dicts of ``SiteData.rulings``: pages show nothing of the alignment's evidence, and a
    ruling printed on many cards is then held once)."""
    rules: dict[str, list[str]] = {}
    if "group_rules" in tables:
        for group_id, rule in db.execute(
                "SELECT group_id, rule FROM group_rules ORDER BY group_id, rank"):
            rules.setdefault(group_id, []).append(rule)
    members: dict[str, list[dict]] = {}
    for ruling_id, group_id in db.execute("SELECT ruling_id, group_id FROM memberships"):
        if ruling_id in by_id:
            members.setdefault(group_id, []).append(by_id[ruling_id])
    return [{"id": group_id, "rules": rules.get(group_id, []), "members": members.get(group_id, [])}
            for (group_id,) in db.execute("SELECT id FROM groups")]


def _rule_key(number: str) -> tuple:
    """Sort rule numbers as numbers: 701.46 < 704.5t < 726.3 < 726.10."""
    return tuple((int(part), "") if part.isdigit() else (int(re.match(r"\d*", part).group() or -1),
                                                          part)
                 for part in re.split(r"[.\s]+", str(number)) if part)


def _examples(db) -> list[dict]:
    """Every stored example run, JSON columns decoded, by id."""
    if "example_runs" not in db.table_names():
        return []
    runs = []
    for row in db.query("SELECT * FROM example_runs ORDER BY id"):
        run = dict(row)
        for key in ("steps", "rules", "initial"):
            if isinstance(run.get(key), str):
                try:
                    run[key] = json.loads(run[key])
                except ValueError:
                    pass
        runs.append(run)
    return runs


def _rules(groups: list[dict], examples: list[dict]) -> dict[str, dict]:
    registry = _optional("kb.core.registry")
    known = getattr(registry, "RULES", {}) if registry else {}
    rules: dict[str, dict] = {}
    for number, rule in known.items():
        rules[str(number)] = _rule(str(number), rule)
    for group in groups:
        for number in group["rules"]:
            rules.setdefault(str(number), _rule(str(number), None))["groups"].append(group)
    for run in examples:  # a rule's examples: those of its rulings and its own
        for number in run.get("rules") or []:
            if str(number) in rules:
                rules[str(number)]["examples"].append(run)
    return dict(sorted(rules.items(), key=lambda item: _rule_key(item[0])))


def _rule(number: str, rule) -> dict:
    return {"number": number, "slug": rule_slug(number),
            "title": getattr(rule, "title", "") or "", "summary": getattr(rule, "summary", "") or "",
            "history": tuple(getattr(rule, "history", ()) or ()), "groups": [], "examples": []}


def number_on(number: str, date_iso: str) -> str:
    """The number ``number`` had on ``date_iso`` (the registry knows; else unchanged)."""
    registry = _optional("kb.core.registry")
    if registry is None or not hasattr(registry, "number_on"):
        return number
    try:
        return registry.number_on(number, date_iso) or number
    except (KeyError, ValueError):
        return number


def _concepts() -> list[dict] | None:
    glossary = _optional("kb.glossary")
    if glossary is None:
        return None
    concepts = []
    for concept in glossary.load().concepts:
        terms = getattr(concept, "terms", None)
        if terms is None and isinstance(concept, dict):
            terms = concept.get("terms", {})
        ident = getattr(concept, "id", None) or (concept.get("id") if isinstance(concept, dict)
                                                  else None)
        concepts.append({"id": str(ident), "terms": {k: list(v) for k, v in terms.items()}})
    return sorted(concepts, key=lambda c: c["id"])


def _findings(db) -> list[dict] | None:
    """The translator findings the check stage stored (accepted ones left out); None before."""
    check = _optional("kb.check")
    if check is None or "findings" not in db.table_names():
        return None
    found = [f if isinstance(f, dict) else _as_dict(f) for f in check.findings(db)]
    return sorted(found, key=lambda f: (str(f.get("group")), str(f.get("lang")),
                                        str(f.get("check")), str(f.get("message"))))


def _as_dict(finding) -> dict:
    if hasattr(finding, "to_dict"):
        return finding.to_dict()
    if hasattr(finding, "__dataclass_fields__"):
        from dataclasses import asdict

        return asdict(finding)
    return dict(vars(finding))
