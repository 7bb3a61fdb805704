"""Which candidates stay: steps 4 (dominance) and 5 (support) of :mod:`kb.link.scoring`.

Inputs: the candidates of one group (:class:`kb.link.coverage.RuleLink`, before dominance),
its votes and the rules' evidence (:class:`kb.link.evidence.EvidenceTable`). :func:`settle`
gives the fate of each candidate a rule that stays explains better (``dominated``,
``contained``, ``outweighed`` or ``overshadowed``, with that rule) and the candidates kept;
:func:`containing` the rule passing the gates that names all a candidate names and more. The
module doc of :mod:`kb.link.scoring` says when each applies and why. No table of its own.
"""

from __future__ import annotations

from collections.abc import Mapping

from kb.link.coverage import GLANCED, RuleLink, link_to
from kb.link.evidence import EvidenceTable


def containing(
    link: RuleLink,
    passed: Mapping[str, frozenset[str]],
    votes: Mapping[str, float],
    table: EvidenceTable,
) -> str | None:
    """The first rule passing the gates (``passed``, :func:`passing`) that names all ``link``
    names and more and does not leave it beside it, or None."""
    return next(
        (
            r
            for r, named in passed.items()
            if set(link.concepts) < named and not spares(r, link, votes, table)
        ),
        None,
    )


def settle(
    links: list[RuleLink],
    standing: list[RuleLink],
    wider: Mapping[str, str],
    votes: Mapping[str, float],
    table: EvidenceTable,
) -> tuple[dict[str, tuple[str, RuleLink, str]], list[RuleLink]]:
    """Steps 4 and 5 of :mod:`kb.link.scoring`'s doc for the candidates ``links``, each
    dominated only by a rule of ``standing`` (the candidates still kept); ``wider``: {rule:
    the rule containing it} (:func:`containing`). ({rule: (its fate's kind, its link, the
    rule it gave way to)}, the rules kept)."""
    fates: dict[str, tuple[str, RuleLink, str]] = {}
    kept = []
    for link in links:
        over = next(
            (
                o.rule
                for o in standing
                if dominates(o, link)
                and not spares(o.rule, link, votes, table)
                and not other_designation(o.rule, link.rule, table)
            ),
            None,
        )
        if over:
            fates[link.rule] = ("dominated", link, over)
        elif link.rule in wider:
            fates[link.rule] = ("contained", link, wider[link.rule])
        else:
            kept.append(link)
    # A rule the group names by one word of its own gives way to a rule of its family that
    # the group names by several and covers more of ("only one card" beside the monarch's
    # combat-damage trigger is not 725.3); one it barely touches, to one of its family it
    # restates; unless that rule refers to it. Only to one still standing.
    still = {o.rule for o in standing}
    strong, givers = [], [o for o in kept if o.rule in still]
    for link in kept:
        given = gives_way(link, givers, table)
        if given:
            fates[link.rule] = (given[0], link, given[1])
        else:
            strong.append(link)
    return fates, strong


def other_designation(first: str, second: str, table: EvidenceTable) -> bool:
    """Whether the two rules are about different designations (the monarch's 725.2 and the
    initiative's 726.2): what one explains, the other never does, whatever words they share,
    so a group that names both designations is weighed for each apart."""
    mine, theirs = table.contrast_of(first), table.contrast_of(second)
    return bool(mine and theirs and mine != theirs)


def dominates(other: RuleLink, link: RuleLink) -> bool:
    """Whether ``other`` explains all that ``link`` does and more (step 4 of
    :mod:`kb.link.scoring`'s doc)."""
    mine, theirs = set(link.concepts), set(other.concepts)
    if mine <= theirs:
        return mine < theirs or link.lacking > other.lacking + 1e-6
    if theirs < mine:  # the other says less: it never drops this one (309.7 and 701.49c)
        return False
    # What it names beyond the other is generic, and the other explains the group better.
    return not (mine - theirs) & set(link.distinctive) and other.score > link.score + 1e-6


def cases_of_one_rule(first: str, second: str) -> bool:
    """Whether two rules are subrules of one rule, its cases (701.49a and 701.49b).

    >>> cases_of_one_rule("701.49a", "701.49b"), cases_of_one_rule("309.6", "309.7")
    (True, False)
    """
    return first[-1].isalpha() and second[-1].isalpha() and first[:-1] == second[:-1]


def gives_way(link: RuleLink, kept: list[RuleLink], table: EvidenceTable) -> tuple | None:
    """(``outweighed`` or ``overshadowed``, the rule of ``kept`` ``link`` gives way to) by
    step 5 of :mod:`kb.link.scoring`'s doc, or None: one of its family named by two
    distinctive concepts or more and covered more, when ``link`` is named thinly; else one
    the group restates."""
    # Thinly named: by one of its distinctive concepts only, and not by one its hint
    # requires (which the hint says is the rule's point).
    thin = len(link.distinctive) == 1 and not set(link.distinctive) & table.required(link.rule)
    family = table.family_of(link.rule)
    if family is None or not thin and link.score >= GLANCED:
        return None
    kin = [
        o
        for o in kept
        if table.family_of(o.rule) == family and link.rule not in table.rules[o.rule].refers
    ]
    if thin:
        over = [
            o
            for o in kin
            if len(o.distinctive) >= 2
            and o.score > link.score + 1e-6
            and not (link.restates and cases_of_one_rule(o.rule, link.rule))
        ]
        if over:
            return ("outweighed", over[0].rule)
    if link.score >= GLANCED:
        return None
    # Nor to one it refers to itself: rules naming each other by number stay together.
    refers = table.rules[link.rule].refers
    glanced = [o for o in kin if o.restates and o.rule not in refers]
    return ("overshadowed", glanced[0].rule) if glanced else None


def spares(rule: str, link: RuleLink, votes: Mapping[str, float], table: EvidenceTable) -> bool:
    """Whether ``rule``, which explains all ``link`` explains and more, leaves ``link`` beside
    it (step 4 of :mod:`kb.link.scoring`'s doc). The cheap tests first: scoring ``rule`` for
    every pair would slow ``rules_for``."""
    refers = link.rule in table.rules[rule].refers
    if not refers and not link.whole:
        return False
    restates = link_to(rule, votes, table).restates
    return (refers and restates) or (link.whole and not restates)
