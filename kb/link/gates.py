"""Gates: what a group must mention before a carried rule is weighed for it (steps 0 and 1
of :mod:`kb.link.scoring`).

Inputs: a group's votes ({concept: share of its languages}) and the rules' evidence
(:class:`kb.link.evidence.EvidenceTable`). A group that mentions a designation whose rules the
core does not carry is about something else (:func:`untracked`), and one that leads with its
card is about that card (:func:`about_its_card`); otherwise each rule must pass
its gates (:func:`gate`): a concept of its family's topic, the designation it is about, what
its hint requires and nothing its hint excludes. No table of its own.

>>> from kb.link.evidence import evidence_table
>>> gate("726.4", {"monarch", "become_monarch", "leave_game"}, evidence_table())["kind"]
'family'
"""

from __future__ import annotations

from collections.abc import Mapping

from kb.link.evidence import EvidenceTable
from kb.reference.names import LEAD

#: A group mentions a concept when at least this share of its languages do.
MENTIONED = 0.5


def mentioned_in(votes: Mapping[str, float]) -> set[str]:
    """The concepts a group mentions: those at least :data:`MENTIONED` of its languages name."""
    return {c for c, share in votes.items() if share >= MENTIONED}


def gate(rule: str, mentioned: set[str], table: EvidenceTable) -> dict | None:
    """Which gate refuses ``rule`` for a group mentioning ``mentioned``, or None: {kind,
    concepts, family}; kind is ``family`` (none of its topic: ``concepts``), ``designation``
    (it is about ``concepts``, which the group does not name), ``requires`` (its hint needs
    one of ``concepts``) or ``excludes`` (its hint excludes ``concepts``, and the group names
    none of the hint's ``unless``, listed under that key when the hint has one)."""
    family = table.family_of(rule)
    # The family's topic as this rule names it: 309.2c is about dungeon cards, so a ruling on
    # the initiative that ventures into Undercity (the dungeons' topic too) is not about it.
    if family:
        topic = family.topic & table.rules[rule].concepts or family.topic
        opening = topic | family.kinds
        if topic and not opening & mentioned:
            return {"kind": "family", "concepts": sorted(opening), "family": family.name}
    missing = table.contrast_of(rule) - mentioned
    if missing:
        return {"kind": "designation", "concepts": sorted(missing)}
    hint = table.hints.get(rule)
    if hint:
        for need in hint.requires:
            if not need & mentioned:
                return {"kind": "requires", "concepts": sorted(need)}
        if hint.excludes & mentioned and not hint.unless & mentioned:
            refused = {"kind": "excludes", "concepts": sorted(hint.excludes & mentioned)}
            # What would lift it, so that a maintainer reading the refusal knows.
            return refused | ({"unless": sorted(hint.unless)} if hint.unless else {})
    return None


def untracked(votes: Mapping[str, float], table: EvidenceTable) -> list[tuple[str, str | None]]:
    """(concept, rule section or None) of the designations the group mentions whose rules
    the core does not carry: such a group is about something else, and gets no link at all."""
    out = []
    for concept in sorted(mentioned_in(votes) & set(table.sections)):
        section = table.sections[concept]
        if section is None or not any(
            r == section or r.startswith(section + ".") for r in table.rules
        ):
            out.append((concept, section))
    return out


def about_its_card(votes: Mapping[str, float]) -> bool:
    """Whether most of the group's languages lead with the ruling's own card (``LEAD``, see
    :func:`kb.reference.names.leads`): the group is about that card's own effect, which no
    carried rule is, and gets no link at all.

    >>> about_its_card({"own_card": 0.8, "monarch": 1.0}), about_its_card({"own_card": 0.4})
    (True, False)
    """
    return votes.get(LEAD, 0.0) >= MENTIONED


def passing(votes: Mapping[str, float], table: EvidenceTable) -> dict[str, frozenset[str]]:
    """{rule: the concepts of it the group mentions} of every rule that passes the gates and
    names something the group mentions, distinctive or not."""
    mentioned = mentioned_in(votes)
    return {
        rule: evidence.concepts & mentioned
        for rule, evidence in table.rules.items()
        if evidence.concepts & mentioned and not gate(rule, mentioned, table)
    }
