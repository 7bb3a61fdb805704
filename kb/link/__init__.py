"""Links: each ruling group -> the Comprehensive Rules numbers it explains, with evidence.

Nothing here was written for a particular ruling. Every rule the core carries
(:mod:`kb.core.registry`) has a description in our own words (``kb/core/descriptions.yaml``);
the glossary finds the concepts each description names, and those are the rule's evidence,
weighted by how few rules name them. A group is scored against every carried rule by what its
languages mention, and linked to the rules it explains, most specific first; a small file of
hints (``kb/link/hints.yaml``) groups rules into families and adds what a few rules' concepts
alone do not say. The number a rule had on the ruling's date comes from the registry (726.3
today was 721.3 in June 2022; 725.5 had none then).

A group linked to nothing says why: about a designation the core does not carry, no carried
rule naming its concepts, or the closest rule and what it lacks. The linker never guesses.

Modules, in the order the data goes through them:

- :mod:`kb.link.evidence`  descriptions and hints -> each rule's concepts and their weights
- :mod:`kb.link.gates`     a group's votes -> the rules it may explain (family, designation, hints)
- :mod:`kb.link.scoring`   those rules -> the ones it explains (strength, score, dominance)
- :mod:`kb.link.reasons`   why a group has no rule, and what became of each rule it names
- :mod:`kb.link.stage`     the ``link`` stage and table ``group_rules``; reading links back

>>> [link.rule for link in rules_for(("initiative", "take_initiative", "leave_game",
...                                   "active_player", "turn_order"))]
['726.4']
>>> [link.rule for link in rules_for(("monarch", "become_monarch", "leave_game",
...                                   "active_player", "turn_order"))]
['725.4']
"""

from kb.link.evidence import carried_rules, evidence_table
from kb.link.reasons import explain, why_unlinked
from kb.link.scoring import RuleLink, rules_for
from kb.link.stage import (
    build_stage,
    group_votes,
    link_groups,
    link_row,
    links,
    listing,
    listing_text,
    number_on,
    trace,
    trace_text,
    unlinked,
)

__all__ = [
    "RuleLink",
    "build_stage",
    "carried_rules",
    "evidence_table",
    "explain",
    "group_votes",
    "link_groups",
    "link_row",
    "links",
    "listing",
    "listing_text",
    "number_on",
    "rules_for",
    "trace",
    "trace_text",
    "unlinked",
    "why_unlinked",
]
