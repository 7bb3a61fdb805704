"""Why a group is linked to no rule, in one line a maintainer can act on.

The reasons, first that applies:

- the core carries no rule at all;
- the group names no concept of the glossary;
- it is about a designation whose rules the core does not carry ("about the monarch (rule
  725), which the core does not carry");
- no carried rule names any concept it names ("no carried rule names commander, cast");
- otherwise its concepts are not enough for any carried rule, and the closest rule is named
  with what it lacks.

>>> from kb.link.evidence import evidence_table
>>> why_unlinked({"monarch": 1.0, "leave_game": 1.0}, table=evidence_table({"726.4"}))
'about monarch (rule 725), which the core does not carry'
>>> why_unlinked({"team": 1.0, "creature": 0.2}, table=evidence_table({"726.4", "309.3"}))
'no carried rule names team'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from kb.link.evidence import EvidenceTable, evidence_table
from kb.link.scoring import FEW, MENTIONED, refusal, untracked, votes_of


def why_unlinked(found: Mapping[str, float] | Iterable[str], carried: set[str] | None = None,
                 table: EvidenceTable | None = None) -> str:
    """A one-line reason a group with these votes (or this signature) has no link."""
    if table is None and carried is not None and not carried:
        return "the core carries no rule"
    table = table or evidence_table(carried)
    if not table.rules:
        return "the core carries no rule"
    votes = votes_of(found)
    mentioned = {c for c, share in votes.items() if share >= MENTIONED}
    if not mentioned:
        return "names no concept of the glossary"
    missing = untracked(votes, table)
    if missing:
        return "; ".join(f"about {c} (rule {r}), which the core does not carry"
                         for c, r in missing)
    named = {c for evidence in table.rules.values() for c in evidence.concepts} & mentioned
    if not named:
        return f"no carried rule names {', '.join(sorted(mentioned))}"
    closest = max((r for r, e in table.rules.items() if e.concepts & named),
                  key=lambda r: (_covered(votes, r, table), r))
    own = sorted(c for c in table.rules[closest].concepts - table.topic(closest)
                 if table.named_by(c) <= FEW)
    lacks = refusal(closest, mentioned, table) or (
        f"needs one of {', '.join(own)}" if own else "has no concept of its own")
    return (f"names {', '.join(sorted(named))}, which is not enough for any carried rule "
            f"(closest: {closest}, which {lacks})")


def _covered(votes: Mapping[str, float], rule: str, table: EvidenceTable) -> float:
    concepts = table.rules[rule].concepts
    total = sum(table.weight[c] for c in concepts)
    return sum(votes.get(c, 0.0) * table.weight[c] for c in concepts) / total
