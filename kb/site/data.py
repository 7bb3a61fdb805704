"""What the site shows, gathered from the store and the other stages: all of it, or a part.

The site is the last stage and reads what the others wrote: the store's rulings and cards,
alignment groups (table ``groups``), card identities, rule links and the rules registry
(:mod:`kb.core.registry`), the glossary (:mod:`kb.reference.glossary`), example runs (table
``example_runs``) and translator findings (:mod:`kb.checks.stage`). Each of those may not exist yet in
a given checkout; the site then shows what it has (a group per ruling, no examples, ...) rather
than failing, so every part can land on its own. Everything is sorted so the same corpus gives
the same pages byte for byte.

The store's rows are read by :mod:`kb.site.reads` (its public names are also importable from
here). :func:`load` gathers everything (a full build). An incremental build (:mod:`kb.site.changes`)
loads only some groups and cards: :class:`SiteData` then still knows every card (a small
table), every group's place in the site's order and the corpus-wide figures (:class:`Summary`),
but holds the members of the groups it loaded only, and of others only their *face* (the first
member in each language: all that pages other than a group's own show of it).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from kb import store
from kb.core import registry
from kb.core.rule_history import rule_key
from kb.site.annotations import (
    any_finding,
    concepts,
    findings_where,
    group_links,
    group_rules,
    load_examples,
    load_findings,
    sorted_findings,
    sorted_rules,
    stray_findings,
    unlinked_groups,
)
from kb.site.paths import rule_slug, slug
from kb.site.reads import (
    FEW_GROUPS,
    Summary,
    attach_rulings,
    card_order,
    detach_rulings,
    group_order_key,
    load_cards,
    members_light,
    memberships,
    ruling_order,
    rulings_where,
    summary,
)

# Read by the other site modules from here since before kb.site.reads was split off.
__all__ = [
    "FEW_GROUPS",
    "Summary",
    "attach_rulings",
    "detach_rulings",
    "group_order_key",
    "load_cards",
    "members_light",
    "memberships",
    "ruling_order",
    "rulings_where",
    "summary",
    "SiteData",
    "Corpus",
    "read_corpus",
    "load",
    "assemble",
    "new_group",
    "rule_table",
]


@dataclass
class SiteData:
    rulings: list[dict]  # the loaded rulings (all of them after load())
    cards: dict[str, dict]  # every card id -> {id, name, lang, slug, identity, rulings (if loaded)}
    groups: list[dict]  # loaded groups, site order: {id, slug, rules, members, examples, findings}
    rules: dict[str, dict]  # number -> {number, slug, title, summary, history, group_ids,
    #                                    groups (those loaded), examples}
    summary: Summary
    concepts: list[dict] = field(default_factory=list)
    findings: list[dict] | None = None  # None: the checks are not available in this checkout
    #: Whether the checks found anything at all (``findings`` may hold some groups' only).
    any_findings: bool = False
    examples_available: bool = False
    glossary_available: bool = False
    #: Every group id in the site's order (default: the loaded groups', i.e. all of them).
    group_order: list[str] = field(default_factory=list)
    #: ruling id -> group id for loaded rulings that are not among their group's loaded members.
    ruling_groups: dict[str, str] = field(default_factory=dict)
    #: The groups linked to no rule, each {id, why} (:func:`kb.site.annotations.unlinked_groups`).
    unlinked: list[dict] = field(default_factory=list)

    @property
    def languages(self) -> list[str]:
        return self.summary.languages

    def group(self, group_id: str) -> dict:
        return self._groups[group_id]

    def group_id_of(self, ruling_id: str) -> str | None:
        return self._group_of.get(ruling_id) or self.ruling_groups.get(ruling_id)

    def group_of(self, ruling_id: str) -> dict | None:
        group_id = self.group_id_of(ruling_id)
        return self._groups.get(group_id) if group_id is not None else None

    def identity_cards(self, card: dict) -> list[dict]:
        """The card's names in every language (itself included), in language order."""
        return self._identities.get(card["identity"], [card])

    def cards_in(self, lang: str) -> list[dict]:
        """Every card of language ``lang``, by id (the order of the language's listing)."""
        return self._by_lang.get(lang, [])

    def __post_init__(self) -> None:
        if not self.group_order:
            self.group_order = [g["id"] for g in self.groups]
        self._groups = {g["id"]: g for g in self.groups}
        self._group_of = {
            m["id"]: g["id"] for g in self.groups if not g.get("face_only") for m in g["members"]
        }
        self._identities: dict[str, list[dict]] = {}
        for card in sorted(self.cards.values(), key=card_order):
            self._identities.setdefault(card["identity"], []).append(card)
        self._by_lang: dict[str, list[dict]] = {}
        for card in self.cards.values():
            self._by_lang.setdefault(card["lang"], []).append(card)


@dataclass
class Corpus:
    """What every build reads whole (small tables): figures, cards, rule links, example runs,
    the glossary; and the translator findings, all of them or (an incremental build's) those
    of the groups asked for (:meth:`add_findings`)."""

    summary: Summary
    cards: dict[str, dict]  # every card, rulings not attached
    rules_of: dict[str, list[str]]  # group id -> its rule numbers
    examples: list[dict]
    findings: list[dict] | None  # in load_findings' order; None: the checks are not available
    examples_available: bool
    concepts: list[dict] | None
    any_findings: bool = False  # whether the store holds findings (read or not)
    read_groups: set[str] | None = None  # the groups whose findings are read; None: all
    #: group id -> {rule: why the group explains it} (score, concepts, words per language)
    links_of: dict[str, dict[str, dict]] = field(default_factory=dict)
    unlinked: list[dict] = field(default_factory=list)  # the groups linked to no rule, and why

    def examples_of(self, group_id: str) -> list[dict]:
        return self._examples.get(group_id, [])

    def findings_of(self, group_id: str) -> list[dict]:
        return self._findings.get(group_id, [])

    def __post_init__(self) -> None:
        self._examples: dict[str, list] = {}
        for run in self.examples:
            self._examples.setdefault(str(run.get("group")), []).append(run)
        self._index_findings()

    def _index_findings(self) -> None:
        self._findings: dict[str | None, list] = {}  # None: findings of no group
        for finding in self.findings or []:
            self._findings.setdefault(finding.get("group"), []).append(finding)

    def add_findings(self, db, groups) -> None:
        """Read the findings of the groups ``groups`` whose findings are not here yet."""
        if self.findings is None or self.read_groups is None:
            return
        wanted = set(groups) - self.read_groups
        if wanted:
            self.read_groups |= wanted
            self.findings = sorted_findings(self.findings + findings_where(db, wanted))
            self._index_findings()


def read_corpus(db, findings: bool = True) -> Corpus:
    """The corpus' small tables; ``findings``: read every finding (else only those of no
    group, the rest as :meth:`Corpus.add_findings` is asked for them)."""
    stored = load_findings(db) if findings else stray_findings(db)
    return Corpus(
        summary=summary(db),
        cards=load_cards(db),
        rules_of=group_rules(db),
        examples=load_examples(db),
        findings=stored,
        examples_available="example_runs" in db.table_names(),
        concepts=concepts(),
        any_findings=bool(stored) or (not findings and stored is not None and any_finding(db)),
        read_groups=None if findings else set(),
        links_of=group_links(db),
        unlinked=unlinked_groups(db),
    )


def load(db, corpus: Corpus | None = None) -> SiteData:
    """Gather everything the pages need from the store ``db`` and the other stages."""
    corpus = corpus or read_corpus(db)
    rulings = sorted(store.rulings(db), key=ruling_order)
    by_id = {r["id"]: r for r in rulings}
    attach_rulings(corpus.cards, rulings)
    tables = set(db.table_names())
    if {"groups", "memberships"} <= tables:
        members: dict[str, list[dict]] = {}
        for ruling_id, group_id in db.execute("SELECT ruling_id, group_id FROM memberships"):
            if ruling_id in by_id:
                members.setdefault(group_id, []).append(by_id[ruling_id])
        raw = [
            (group_id, members.get(group_id, []))
            for (group_id,) in db.execute("SELECT id FROM groups")
        ]
    else:
        # Before alignment: every ruling is its own group, keyed by its content-derived id.
        raw = [(r["id"], [r]) for r in rulings]
    return assemble(corpus, rulings, raw)


def assemble(
    corpus: Corpus,
    rulings: list[dict],
    raw: list[tuple[str, list[dict]]],
    group_order: list[str] | None = None,
    face_only: Collection[str] = frozenset(),
    ruling_groups: dict[str, str] | None = None,
) -> SiteData:
    """SiteData of these groups (``raw``: (id, members)), with their rules, examples and
    findings; ``face_only``: groups whose members are only their first in each language;
    ``group_order``: every group id in the site's order (default: these groups')."""
    groups = [
        new_group(group_id, members, corpus.rules_of.get(group_id, []), group_id in face_only)
        for group_id, members in raw
    ]
    groups.sort(key=group_order_key)
    for group in groups:
        group["examples"] = corpus.examples_of(group["id"])
        group["findings"] = corpus.findings_of(group["id"])
        group["links"] = corpus.links_of.get(group["id"], {})
    order = group_order or [g["id"] for g in groups]
    rules = rule_table(corpus, order)
    for group in groups:
        for number in group["rules"]:
            rules[number]["groups"].append(group)
    for rule in rules.values():  # in the site's order, as their ids
        if len(rule["groups"]) > 1:
            place = {g: n for n, g in enumerate(rule["group_ids"])}
            rule["groups"].sort(key=lambda g: place[g["id"]])
    return SiteData(
        rulings=rulings,
        cards=corpus.cards,
        groups=groups,
        rules=rules,
        summary=corpus.summary,
        concepts=corpus.concepts or [],
        findings=corpus.findings,
        any_findings=corpus.any_findings,
        examples_available=corpus.examples_available,
        glossary_available=corpus.concepts is not None,
        group_order=order,
        ruling_groups=ruling_groups or {},
        unlinked=corpus.unlinked,
    )


def new_group(group_id, members: list[dict], rules: list[str], face_only: bool = False) -> dict:
    group: dict = {
        "id": str(group_id),
        "slug": slug(str(group_id)),
        "rules": sorted(rules, key=rule_key),
        "members": sorted(members, key=ruling_order),
        "examples": [],
        "findings": [],
    }
    if face_only:
        group["face_only"] = True
    return group


def rule_table(corpus: Corpus, order: list[str]) -> dict[str, dict]:
    """Every rule (the registry's and any a group links to), by number, with the ids of its
    groups in the site's order (``order``) and its example runs; no group attached yet."""
    known = registry.RULES
    rules: dict[str, dict] = {}
    for number, rule in known.items():
        rules[str(number)] = _rule(str(number), rule)
    for group_id in order:
        for number in sorted_rules(tuple(corpus.rules_of.get(group_id, ()))):
            if number not in rules:
                rules[number] = _rule(number, None)
            rules[number]["group_ids"].append(group_id)
    for run in corpus.examples:  # a rule's examples: those of its rulings and its own
        for number in run.get("rules") or []:
            if str(number) in rules:
                rules[str(number)]["examples"].append(run)
    return dict(sorted(rules.items(), key=lambda item: rule_key(item[0])))


def _rule(number: str, rule) -> dict:
    return {
        "number": number,
        "slug": rule_slug(number),
        "title": getattr(rule, "title", "") or "",
        "summary": getattr(rule, "summary", "") or "",
        "history": tuple(getattr(rule, "history", ()) or ()),
        "group_ids": [],
        "groups": [],
        "examples": [],
    }
