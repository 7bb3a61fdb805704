"""Scoring a ruling group against every carried rule, and the links that follow.

A group's **votes**: for each concept, the share of the group's languages whose texts mention
it (a concept one translation happens to use counts for little; one every language uses counts
fully). A concept is *mentioned* by the group when at least half of its languages vote for it,
as in the group's signature.

For each carried rule (its evidence: :mod:`kb.link.evidence`; steps 0 and 1 are
:mod:`kb.link.gates`, 2 and 3 :mod:`kb.link.coverage`, 4 and 5 :mod:`kb.link.dominance`):

0. A group that mentions a designation whose rules the core does not carry (the glossary's
   contrast concepts name their section; its other designations, the city's blessing or
   day and night, have none carried) is about something else: no link at all. So is a
   group whose languages mostly lead with the ruling's own card (``own_card``,
   :func:`kb.reference.names.leads`): it is about that card's own effect.
1. **Gates.** The group must mention one concept of the rule's family topic that the rule
   names (any of the topic when it names none), or a kind of it the family lists (a room
   ability is a triggered ability); every contrast concept the rule names (the
   monarch, the initiative); whatever the rule's hint requires; and nothing its hint
   excludes. A gate that fails is a refusal, with its reason.
2. **Strength**: the weights of the rule's own concepts (its evidence less its family's
   subject) the group mentions, each times the group's vote. Rarer concepts weigh more, so a
   rule's distinctive concepts count most. A rule is a candidate only when the group mentions
   at least one of its distinctive concepts (:meth:`EvidenceTable.distinctive`: its own
   concepts that at most :data:`kb.link.evidence.FEW` carried rules name, those its hint
   requires, or else its rarest): generic words ("ability", "the stack") add strength but
   never make a link alone.
3. **Score**: the share of the rule's whole weighted evidence the group's votes cover (0 to 1).
   A group whose every candidate scores under :data:`WEAKEST` only names the rules' words in
   passing: it gets no link.
4. **Dominance.** A candidate is dropped when another rule explains all it explains and
   more: the other's mentioned concepts strictly contain its own (a ruling that restates
   726.4 also names what 800.4k names; the other need only pass the gates: a ruling on a
   player leaving the game with their dungeon is 800.4a's, not 309.2b's), or it names beyond
   another candidate only generic concepts while the other's score is higher (a ruling on
   room abilities names the stack, which 309.6 names and 309.4c does not). Of candidates
   with the same mentioned concepts, the one whose unmentioned distinctive concepts weigh
   less wins: rules that say one thing twice are linked together (309.6 and 704.5t; 309.5a
   and 701.49b), while a ruling on starting a dungeon links 701.49a and not 309.5b or
   701.49c, whose removal from the game it never mentions (a group naming one of the ways a
   hint's ``requires`` entry names the point lacks none of the others). A rule the group
   restates never takes the place of a rule its description refers to by number, as the
   Comprehensive Rules do (701.49c's "completes that dungeon (309.7)"), and a rule the group
   only touches never takes the place of one it restates wholly (a ruling on when a dungeon
   is completed says all 309.7 says, and names 701.49c's venture from the last room too).
   Nor does a rule of one designation drop a rule of the other: combat damage to a player
   who is the monarch and has the initiative is 725.2's and 726.2's, though 726.2 names all
   that 725.2 names there and more. A candidate drops another only if it stays itself: one
   that step 5 drops in its turn drops none, and those it had dropped are weighed again
   against the candidates that stay (``kb links --group`` never says a rule gave way to one
   that is not linked).
5. **Support.** A candidate the group names by one of its distinctive concepts only (and not
   by one its hint requires) gives way to a rule of its family that the group names by two
   or more and covers more of: "you draw only one card" in a ruling on the monarch's
   combat-damage trigger (725.2) does not make it a ruling on 725.3's only one monarch. A
   rule whose description refers to the thin one keeps it (701.49d's venture into a dungeon
   already started is 701.49b's), and a case of one rule that the group restates gives way
   to no other case of it (a ruling that walks through the whole venture restates 701.49a,
   701.49b and 701.49c, the next room alone naming 701.49b). So does one covered less than
   :data:`GLANCED` beside a rule of its family the group restates: the next player's venture
   into Undercity in a ruling on 726.4 (the initiative's holder leaving) is not 726.2's.
6. **Restatements.** A rule whose hint names another that states the same from another side
   (``also``: the dungeon card's 309.5a is the keyword action's 701.49b) brings that rule in
   when the group mentions what the hint's ``when`` names (venturing) and it passes the gates.

Links are ordered most specific first: the rules the group restates (score at least one half)
before those it touches, each part by rule number. By raw score, a group's first rule, which
names the group (``726.4-f90a33``), would flip between near-equal rules at each rewording.

>>> [l.rule for l in rules_for(["initiative", "take_initiative", "leave_game",
...                              "active_player", "turn_order", "simultaneously"])]
['726.4']
>>> rules_for(["monarch", "become_monarch", "leave_game", "active_player", "turn_order"],
...           carried={"726.4"})
[]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kb.core.rule_history import rule_key
from kb.link.coverage import GLANCED, RESTATES, WEAKEST, RuleLink, candidates, link_to, votes_of
from kb.link.dominance import containing, settle
from kb.link.evidence import EvidenceTable, evidence_table
from kb.link.gates import about_its_card, gate, mentioned_in, passing, untracked

#: Steps 2 and 3 live in :mod:`kb.link.coverage`, 4 and 5 in :mod:`kb.link.dominance`; this
#: module is the linker's entry point and names what callers read from all three.
__all__ = [
    "GLANCED",
    "RESTATES",
    "WEAKEST",
    "Fate",
    "RuleLink",
    "candidates",
    "decide",
    "link_to",
    "restated",
    "rules_for",
    "votes_of",
]


def rules_for(
    found: Mapping[str, float] | Iterable[str],
    carried: set[str] | None = None,
    table: EvidenceTable | None = None,
) -> list[RuleLink]:
    """The carried rules a group explains, most specific first.

    ``found``: the group's votes ({concept: share of its languages}) or its signature (a list
    of concepts). ``carried``: the rules to consider (default: every rule the core carries);
    ``table``: their evidence, if not the carried rules' own."""
    return [fate.link for fate in decide(found, carried, table, every=False) if fate.linked]


@dataclass(frozen=True)
class Fate:
    """What became of one rule for a group, and why (:func:`decide`).

    ``kind``, the step of the module's doc that settled it: ``linked``; ``restated`` (linked
    because ``by`` says the same from another side); ``untracked`` (the group is about a
    designation the core does not carry); ``own_card`` (the group leads with its card and is
    about the card's own effect); ``refused`` (a gate: ``gate``); ``generic`` (the
    group names none of the rule's distinctive concepts); ``weak`` (every candidate is named
    in passing); ``dominated`` (``by`` explains all it explains and more); ``contained``
    (``by`` passes the gates and names all it names and more); ``outweighed`` (named by one
    word of its own beside ``by``, of its family, named by more); ``overshadowed`` (barely
    covered beside ``by``, of its family, which the group restates)."""

    rule: str
    kind: str
    #: How the group explains the rule (its score and concepts), whatever became of it.
    link: RuleLink
    by: str | None = None
    gate: dict | None = None

    @property
    def linked(self) -> bool:
        return self.kind in ("linked", "restated")


def decide(
    found: Mapping[str, float] | Iterable[str],
    carried: set[str] | None = None,
    table: EvidenceTable | None = None,
    every: bool = True,
) -> list[Fate]:
    """The fate of every carried rule naming a concept the group mentions: the linked ones
    first, in :func:`rules_for`'s order, then the others by score. Arguments as
    :func:`rules_for`'s, which keeps the linked ones (and asks, with ``every`` false, only
    for the candidates' fates: scoring every rule a group names costs three times as much).

    >>> [(f.rule, f.kind, f.by) for f in decide(["monarch", "become_monarch", "leave_game",
    ...                                           "active_player", "turn_order"])][:3]
    [('725.4', 'linked', None), ('800.4k', 'dominated', '725.4'), ('726.4', 'refused', None)]
    """
    table = table or evidence_table(carried)
    votes = table.imply(votes_of(found))
    mentioned = mentioned_in(votes)
    naming = (
        [rule for rule, evidence in table.rules.items() if evidence.concepts & mentioned]
        if every
        else []
    )
    if untracked(votes, table):
        return _ordered([Fate(rule, "untracked", link_to(rule, votes, table)) for rule in naming])
    if about_its_card(votes):
        return _ordered([Fate(rule, "own_card", link_to(rule, votes, table)) for rule in naming])
    passed = passing(votes, table)
    links = candidates(votes, table, passed)
    chosen = {link.rule for link in links}
    fates = {
        rule: Fate(
            rule,
            "generic" if rule in passed else "refused",
            link_to(rule, votes, table),
            gate=None if rule in passed else gate(rule, mentioned, table),
        )
        for rule in naming
        if rule not in chosen
    }
    if not links or max(link.score for link in links) < WEAKEST:
        fates.update({link.rule: Fate(link.rule, "weak", link) for link in links})
        return _ordered(list(fates.values()))
    # A rule the group explains less of than another rule that passes the gates is not the
    # group's subject, even when the other is no candidate itself (800.4a's, not 309.2b's);
    # a rule dropped only for a candidate that is dropped in its turn is weighed again
    # against those that stay.
    # Containment does not depend on which candidates stay: it is settled once.
    wider = {
        link.rule: r for link in links if (r := containing(link, passed, votes, table)) is not None
    }
    standing = links
    # Each round can only keep rules that an earlier one dropped for a rule now gone, or drop
    # them again; the bound stops a pair of rounds that undo each other.
    for _ in range(len(links)):
        dropped, strong = settle(links, standing, wider, votes, table)
        if {link.rule for link in strong} == {link.rule for link in standing}:
            break
        standing = strong
    fates.update({rule: Fate(rule, kind, lk, by) for rule, (kind, lk, by) in dropped.items()})
    fates.update({link.rule: Fate(link.rule, "linked", link) for link in strong})
    for link, source in restated(strong, votes, table):
        fates[link.rule] = Fate(link.rule, "restated", link, source)
    return _ordered(list(fates.values()))


def _ordered(fates: list[Fate]) -> list[Fate]:
    """The linked fates most specific first (see the module's doc), then the others by score."""

    def key(fate: Fate) -> tuple:
        if fate.linked:
            return (0, not fate.link.restates, rule_key(fate.rule))
        return (1, -fate.link.score, rule_key(fate.rule))

    return sorted(fates, key=key)


def restated(links: list[RuleLink], votes: Mapping[str, float], table: EvidenceTable):
    """The rules that say what ``links`` say from another side (a hint's ``also``: 309.5a from
    the dungeon card's side is 701.49b from the keyword action's), when the group mentions
    what the hint's ``when`` names and the other rule passes the gates: [(its link, the rule
    of ``links`` that brings it)]."""
    mentioned = mentioned_in(votes)
    linked = {link.rule for link in links}
    out: dict[str, tuple[RuleLink, str]] = {}
    for link in links:
        hint = table.hints.get(link.rule)
        if not hint or hint.also not in table.rules or hint.also in linked:
            continue
        if (not hint.when or hint.when & mentioned) and gate(hint.also, mentioned, table) is None:
            out[hint.also] = (link_to(hint.also, votes, table), link.rule)
    return list(out.values())
