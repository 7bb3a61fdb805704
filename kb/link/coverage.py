"""How much of a carried rule a ruling group covers: steps 2 and 3 of :mod:`kb.link.scoring`.

Inputs: a group's votes ({concept: share of its languages}, :func:`votes_of`) and the rules'
evidence (:class:`kb.link.evidence.EvidenceTable`). For one rule, :func:`link_to` gives a
:class:`RuleLink`: the rule's concepts the group mentions, its score (the share of the rule's
weighted evidence the votes cover), its strength (the same over the rule's own concepts) and
what it lacks; :func:`candidates` keeps the rules that pass the gates and that the group names
by a distinctive concept. The thresholds every later step reads are here. No table of its own.

>>> from kb.link.evidence import evidence_table
>>> found = ["initiative", "take_initiative", "leave_game", "active_player"]
>>> link = link_to("726.4", votes_of(found), evidence_table())
>>> link.score, link.restates, link.missing
(0.6335, True, ('simultaneously',))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kb.link.evidence import EvidenceTable
from kb.link.gates import mentioned_in, passing

#: A group restates a rule when it covers at least this share of the rule's weighted evidence.
RESTATES = 0.5
#: A group whose best rule it covers less of than this names the rules' words in passing (a
#: ruling about another card's ability that says "whether or not anyone is the monarch"): no
#: link. A ruling about a rule covers a good part of what the rule names.
WEAKEST = 0.3
#: A rule the group covers less than this of, beside a rule of its family that the group
#: restates (RESTATES), is named on the way to the other's point: between naming the rules'
#: words in passing (WEAKEST) and restating one.
GLANCED = 0.4


@dataclass(frozen=True)
class RuleLink:
    """A rule a group explains: the concepts that show it, and how strongly."""

    rule: str
    concepts: tuple[str, ...]
    score: float
    strength: float
    #: The rule's distinctive concepts the group does not mention.
    missing: tuple[str, ...] = ()
    #: The rule's distinctive concepts the group mentions.
    distinctive: tuple[str, ...] = ()
    #: The weight of ``missing`` (what the rule says that the group does not), less the ways
    #: of naming its point that its hint lists beside one the group names.
    lacking: float = 0.0
    #: Whether the group mentions every concept of the rule: all the rule says.
    whole: bool = False

    @property
    def restates(self) -> bool:
        return self.score >= RESTATES


def votes_of(found: Mapping[str, float] | Iterable[str]) -> dict[str, float]:
    """{concept: share of languages}; a plain list of concepts (a signature) votes 1 each."""
    if isinstance(found, Mapping):
        return {str(c): float(v) for c, v in found.items()}
    return {str(c): 1.0 for c in found}


def candidates(
    votes: Mapping[str, float],
    table: EvidenceTable,
    passed: Mapping[str, frozenset[str]] | None = None,
) -> list[RuleLink]:
    """Every rule that passes the gates and names a distinctive concept, before dominance
    (``passed``: :func:`passing`'s answer, when the caller has it)."""
    mentioned = mentioned_in(votes)
    return [
        link_to(rule, votes, table)
        for rule in (passing(votes, table) if passed is None else passed)
        if table.distinctive(rule) & mentioned
    ]


def link_to(rule: str, votes: Mapping[str, float], table: EvidenceTable) -> RuleLink:
    """``rule`` as a group with ``votes`` explains it: its concepts, score and strength."""
    mentioned = mentioned_in(votes)
    weight, evidence = table.weight, table.rules[rule]
    own = evidence.concepts - table.topic(rule)
    distinctive = table.distinctive(rule)
    hint = table.hints.get(rule)
    # An entry of the hint's requires lists ways of naming the rule's point: a group that
    # names one lacks nothing by not naming the others (701.49a's first room or the dungeon
    # card from outside the game).
    unnamed = (
        distinctive
        - mentioned
        - {c for need in (hint.requires if hint else ()) if need & mentioned for c in need}
    )
    total = sum(weight[c] for c in evidence.concepts)
    return RuleLink(
        rule,
        tuple(sorted(evidence.concepts & mentioned)),
        round(sum(votes.get(c, 0.0) * weight[c] for c in evidence.concepts) / total, 4),
        round(sum(votes.get(c, 0.0) * weight[c] for c in own), 4),
        tuple(sorted(distinctive - mentioned)),
        tuple(sorted(distinctive & mentioned)),
        round(sum(weight[c] for c in unnamed), 4),
        evidence.concepts <= mentioned,
    )
