"""Why a group is linked to no rule: a structured reason (:func:`explain`, which the site
renders in the reader's language) and one English line a maintainer can act on
(:func:`why_unlinked`).

The reasons, first that applies (``kind``):

- ``no_rules``: the core carries no rule at all;
- ``no_concepts``: the group names no concept of the glossary;
- ``untracked``: it is about a designation whose rules the core does not carry ("about
  monarch (rule 725), which the core does not carry"; "about citys_blessing, which the core
  does not carry" for one the glossary gives no rule number);
- ``own_card``: its texts lead with their card's name ("Throne Warden's ability checks
  whether you're the monarch"): it is about that card's own effect, which no carried rule
  is (:func:`kb.link.gates.about_its_card`);
- ``unnamed``: no carried rule names any concept it names ("no carried rule names team");
- ``weak``: its concepts are not enough for any carried rule; the closest rule is named with
  what it lacks (a gate of :func:`kb.link.gates.gate`; ``distinctive``: one of the rule's
  own concepts that few rules name; or ``weak``: the group covers less of the rule than
  :data:`kb.link.scoring.WEAKEST`, with that ``score``).

>>> from kb.link.evidence import evidence_table
>>> why_unlinked({"monarch": 1.0, "leave_game": 1.0}, table=evidence_table({"726.4"}))
'about monarch (rule 725), which the core does not carry'
>>> why_unlinked({"team": 1.0, "creature": 0.2}, table=evidence_table({"726.4", "309.3"}))
'no carried rule names team'
>>> explain({"team": 1.0}, table=evidence_table({"726.4"}))
{'kind': 'unnamed', 'concepts': ['team']}
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from kb.link.coverage import GLANCED, WEAKEST, link_to, votes_of
from kb.link.evidence import EvidenceTable, evidence_table
from kb.link.gates import about_its_card, gate, mentioned_in, untracked
from kb.link.scoring import Fate


def explain(
    found: Mapping[str, float] | Iterable[str],
    carried: set[str] | None = None,
    table: EvidenceTable | None = None,
) -> dict:
    """Why a group with these votes (or this signature) has no link: {kind, ...} (see the
    module's doc); ``weak`` carries ``concepts`` (those it names that rules name), ``rule``
    (the closest) and ``lacks`` ({kind, concepts, family})."""
    if table is None and carried is not None and not carried:
        return {"kind": "no_rules"}
    table = table or evidence_table(carried)
    if not table.rules:
        return {"kind": "no_rules"}
    votes = table.imply(votes_of(found))
    mentioned = mentioned_in(votes)
    if not mentioned:
        return {"kind": "no_concepts"}
    missing = untracked(votes, table)
    if missing:
        return {"kind": "untracked", "designations": [list(pair) for pair in missing]}
    if about_its_card(votes):
        return {"kind": "own_card"}
    named = {c for evidence in table.rules.values() for c in evidence.concepts} & mentioned
    if not named:
        return {"kind": "unnamed", "concepts": sorted(mentioned)}
    covers = {
        r: link_to(r, votes, table).score for r, e in table.rules.items() if e.concepts & named
    }
    closest = max(covers, key=lambda r: (covers[r], r))
    own = sorted(table.distinctive(closest))
    lacks = gate(closest, mentioned, table) or {"kind": "distinctive", "concepts": own}
    covered = covers[closest]
    if lacks["kind"] == "distinctive" and set(own) & mentioned and covered < WEAKEST:
        # It passes and names what tells the rule: it covers too little of it.
        # Shown to two decimals, rounded down: 0.2996 is not "0.30, under 0.3" (and 0.29,
        # which is 28.999... hundredths in binary, is 0.29).
        shown = math.floor(round(covered * 100, 6)) / 100
        lacks = {"kind": "weak", "concepts": [], "score": shown, "least": WEAKEST}
    return {"kind": "weak", "concepts": sorted(named), "rule": closest, "lacks": lacks}


def why_unlinked(
    found: Mapping[str, float] | Iterable[str],
    carried: set[str] | None = None,
    table: EvidenceTable | None = None,
) -> str:
    """A one-line reason, in English, that a group with these votes has no link."""
    if table is None and not (carried is not None and not carried):
        table = evidence_table(carried)
    reason = explain(found, carried, table)
    kind = reason["kind"]
    if kind == "no_rules":
        return "the core carries no rule"
    if kind == "no_concepts":
        return "names no concept of the glossary"
    if kind == "untracked":
        return "; ".join(
            f"about {c}{f' (rule {r})' if r else ''}, which the core does not carry"
            for c, r in reason["designations"]
        )
    if kind == "own_card":
        return "about its card's own effect: its texts lead with the card's name"
    if kind == "unnamed":
        return f"no carried rule names {', '.join(reason['concepts'])}"
    return (
        f"names {', '.join(reason['concepts'])}, which is not enough for any carried "
        f"rule (closest: {reason['rule']}, which {gate_phrase(reason['lacks'])})"
    )


def gate_phrase(found: dict) -> str:
    """A refusal (:func:`kb.link.gates.gate`'s answer) as an English phrase: "needs
    leave_game (hint)"."""
    named = ", ".join(found["concepts"])
    return {
        "family": f"names no concept of {found.get('family')} ({named})",
        "designation": f"is about {named}, which the group does not name",
        "requires": f"needs {' or '.join(found['concepts'])} (hint)",
        "excludes": f"excludes {named}"
        + (f" unless it names {' or '.join(found['unless'])}" if found.get("unless") else "")
        + " (hint)",
        "distinctive": f"needs one of {named}" if named else "has no concept of its own",
        "weak": f"is named only in passing (covered {found.get('score', 0)}, under {WEAKEST})",
    }[found["kind"]]


def fate_phrase(fate: Fate, votes: Mapping[str, float], table: EvidenceTable) -> str:
    """What became of a rule for a group with these votes (:func:`kb.link.scoring.decide`'s
    answer), as an English line a maintainer can act on.

    >>> from kb.link.scoring import decide
    >>> found = {"monarch": 1.0, "become_monarch": 1.0, "leave_game": 1.0, "turn_order": 1.0}
    >>> table = evidence_table()
    >>> [fate_phrase(f, found, table) for f in decide(found, table=table)][:2]
    ['linked: restates it (covers 0.51)', 'not linked: 725.4 explains all it explains and more']
    """
    link, by = fate.link, fate.by
    if fate.kind == "linked":
        depth = "restates it" if link.restates else "touches it"
        return f"linked: {depth} (covers {link.score:.2f})"
    if fate.kind == "restated":
        return f"linked: {by} says the same from another side (hint)"
    if fate.kind in ("untracked", "own_card"):
        return "not linked: the group is " + why_unlinked(votes, table=table)
    if fate.kind == "refused" and fate.gate:
        return f"refused: it {gate_phrase(fate.gate)}"
    named = ", ".join(link.distinctive)
    return (
        "not linked: "
        + {
            "generic": "the group names none of its distinctive concepts ("
            + ", ".join(sorted(table.distinctive(fate.rule)))
            + ")",
            "weak": f"every rule is named only in passing (none is covered {WEAKEST} or more)",
            "dominated": f"{by} explains all it explains and more",
            "contained": f"{by} names all it names and more",
            "outweighed": f"named by one concept of its own ({named}); {by}, of its family, is "
            "named by more and covered more",
            "overshadowed": f"covered only {link.score:.2f} (under {GLANCED}) beside {by}, of "
            "its family, which the group restates",
        }[fate.kind]
    )
