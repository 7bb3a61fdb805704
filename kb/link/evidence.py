"""Each carried rule's evidence, derived from its description through the glossary.

A rule's description (``kb/core/descriptions.yaml``, in our own words) names everything the
rule involves; the glossary's matcher finds the concepts it names, and those concepts are the
rule's evidence. Nothing here was written for a particular ruling.

Weights: a concept weighs ``log(N / df)``, where N is the number of carried rules and df the
number of them whose description names the concept (IDF over the rules, not the corpus: a
group's links then depend on its own rulings alone, and an incremental build that relinks only
the changed groups gives what a full build gives).

A small supplement, ``kb/link/hints.yaml``, groups rules into families and gives a few rules a
hint (see :class:`Family` and :class:`Hint`); it names no ruling.

>>> table = evidence_table()
>>> table.rules["726.4"].concepts >= {"initiative", "leave_game", "active_player", "turn_order"}
True
>>> table.family_of("309.2c").name, sorted(table.family_of("726.3").topic)
('dungeons', ['initiative', 'take_initiative'])
>>> round(table.weight["venture_marker"], 2) < round(table.weight["arrow"], 2)
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from kb.errors import KbError, Problem, read_yaml
from kb.reference.glossary import Glossary
from kb.reference.glossary import load as load_glossary

#: A concept at most this many carried rules name is distinctive: the size of a small family
#: (the initiative's five rules), so a concept one family shares still tells it from the rest.
FEW = 5

#: A rule number in a description's text: a reference to that rule.
RULE_NUMBER = re.compile(r"\b\d{3}\.\d+[a-z]?\b")

DESCRIPTIONS_FILE = Path(__file__).resolve().parent.parent / "core" / "descriptions.yaml"
HINTS_FILE = Path(__file__).with_name("hints.yaml")


@dataclass(frozen=True)
class Family:
    """Rules about one thing (``prefixes``: rule numbers or their sections, "726" holds
    726.1-726.5). ``topic``: the concepts that say what the family is about. A group must
    mention one of them (by at least half of its languages) to link any rule of the family;
    those every rule of the family names count as the family's subject, not as a rule's own
    evidence (every rule of the initiative names the initiative: naming it tells which family,
    never which rule). ``kinds``: concepts that are kinds of the topic (a room ability is a
    triggered ability, 309.4c): a group naming one passes the family's gate, though it adds
    nothing to the score of the rules that name the topic, as ``implies`` would."""

    name: str
    prefixes: tuple[str, ...]
    topic: frozenset[str]
    kinds: frozenset[str] = frozenset()

    def holds(self, rule: str) -> bool:
        return any(
            rule == p
            or rule.startswith(p + ".")
            or (rule.startswith(p) and rule[len(p) :].isalpha())
            for p in self.prefixes
        )


@dataclass(frozen=True)
class Hint:
    """A rule's hand-written supplement: ``requires`` (each entry must be mentioned; an entry
    is a set of concepts any one of which will do), ``excludes`` (none may be mentioned,
    unless one of ``unless`` is: the rule's own steps), ``why`` (the reason, from the rule);
    ``also`` (a rule that says the same from another side: a group linked to this rule that
    mentions one of ``when`` explains that one too)."""

    requires: tuple[frozenset[str], ...] = ()
    excludes: frozenset[str] = frozenset()
    why: str = ""
    also: str = ""
    when: frozenset[str] = frozenset()
    unless: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RuleEvidence:
    """One carried rule: its number, its description, the concepts the description names and
    the rules it refers to (701.49d's "as usual (701.49b, 701.49c)")."""

    rule: str
    description: str
    concepts: frozenset[str]
    refers: frozenset[str] = frozenset()


@dataclass
class EvidenceTable:
    """Every carried rule's evidence, the concepts' weights, the families and the hints."""

    rules: dict[str, RuleEvidence]
    weight: dict[str, float]
    families: tuple[Family, ...] = ()
    hints: dict[str, Hint] = field(default_factory=dict)
    #: contrast class -> its concepts (the glossary's: the monarch and the initiative).
    contrasts: dict[str, frozenset[str]] = field(default_factory=dict)
    #: designation -> the rule section it belongs to (the monarch: 725), or None for one the
    #: glossary gives no section (the core carries none of its rules).
    sections: dict[str, str | None] = field(default_factory=dict)
    #: concept -> the concepts it says in the rules' own terms (conceding is leaving the game).
    implies: dict[str, frozenset[str]] = field(default_factory=dict)
    #: Concepts a few rules name in passing and none has as its point: never distinctive.
    general: frozenset[str] = frozenset()
    _topics: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    _named: dict[str, int] = field(default_factory=dict, repr=False)
    _distinctive: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    def family_of(self, rule: str) -> Family | None:
        return next((f for f in self.families if f.holds(rule)), None)

    def topic(self, rule: str) -> frozenset[str]:
        """The concepts that say which family ``rule`` is in rather than which rule: those of
        its family's topic that every rule of the family names."""
        if rule not in self._topics:
            family = self.family_of(rule)
            common = set(family.topic if family else ())
            for number, evidence in self.rules.items():
                if family and family.holds(number):
                    common &= evidence.concepts
            self._topics[rule] = frozenset(common)
        return self._topics[rule]

    def distinctive(self, rule: str) -> frozenset[str]:
        """The rule's own concepts (its evidence less its family's subject) that tell it from
        the other rules: those at most :data:`FEW` carried rules name; the concepts its hint
        requires (the hint says they are its point: 725.4's leaving the game, named by nine
        rules), except its family's topic (701.49c's venturing only opens the gate); and, for
        a rule with none of these, its rarest own concepts (309.2b names only the command zone
        and leaving the game: without them it could never be linked). The hints' general
        concepts (an effect, a creature) are never distinctive, however few rules name them,
        unless the rule's hint requires them."""
        if rule not in self._distinctive:
            own = self.rules[rule].concepts - self.topic(rule)
            telling = own - self.general
            found = {c for c in telling if self.named_by(c) <= FEW}
            # A required concept of the family's topic (701.49c's venturing) is a gate: it says
            # which part of the family, not which rule.
            family = self.family_of(rule)
            gates = set(family.topic) if family else set()
            found |= self.required(rule) & own - gates
            if not found and own:
                pool = telling or own
                rarest = min(self.named_by(c) for c in pool)
                found = {c for c in pool if self.named_by(c) == rarest}
            self._distinctive[rule] = frozenset(found)
        return self._distinctive[rule]

    def required(self, rule: str) -> frozenset[str]:
        """The concepts the rule's hint requires (any entry's), which the hint says are its
        point; empty for a rule without a hint."""
        hint = self.hints.get(rule)
        return frozenset(c for need in (hint.requires if hint else ()) for c in need)

    def named_by(self, concept: str) -> int:
        """How many carried rules' descriptions name ``concept``."""
        if not self._named:
            for evidence in self.rules.values():
                for c in evidence.concepts:
                    self._named[c] = self._named.get(c, 0) + 1
        return self._named.get(concept, 0)

    def imply(self, votes: Mapping[str, float]) -> dict[str, float]:
        """``votes`` with what its concepts imply (:attr:`implies`): a group that concedes
        leaves the game, voted for by at least the languages that say it concedes."""
        out = dict(votes)
        for concept, share in votes.items():
            for implied in self.implies.get(concept, ()):
                out[implied] = max(out.get(implied, 0.0), share)
        return out

    def implied_by(self, concept: str) -> tuple[str, ...]:
        """The concepts that imply ``concept`` (whose words show it when it has none)."""
        return tuple(sorted(c for c, implied in self.implies.items() if concept in implied))

    def contrast_of(self, rule: str) -> frozenset[str]:
        """The contrast concepts (designations) the rule's description names."""
        named = self.rules[rule].concepts
        return frozenset(c for members in self.contrasts.values() for c in members & named)


def build_table(
    descriptions: dict[str, str],
    glossary: Glossary | None = None,
    families: tuple[Family, ...] = (),
    hints: dict[str, Hint] | None = None,
    source: str = "descriptions",
    implies: dict[str, frozenset[str]] | None = None,
    general: frozenset[str] = frozenset(),
) -> EvidenceTable:
    """The evidence of the rules ``descriptions`` ({number: description}) describe.

    KbError when a description names no concept of the glossary (it would never link)."""
    glossary = glossary or load_glossary()
    rules, problems = {}, []
    for number, text in descriptions.items():
        concepts = frozenset(m.concept for m in glossary.find(" ".join(text.split()), "en"))
        if not concepts:
            problems.append(
                Problem(
                    source, 0, f"rule {number}: the description names no concept of the glossary"
                )
            )
        refers = frozenset(RULE_NUMBER.findall(text)) - {number}
        rules[number] = RuleEvidence(number, text, concepts, refers)
    if problems:
        raise KbError(problems)
    df: dict[str, int] = {}
    for evidence in rules.values():
        for concept in evidence.concepts:
            df[concept] = df.get(concept, 0) + 1
    n = max(len(rules), 1)
    weight = {c: math.log(n / k) if n > k else math.log(2) / 2 for c, k in df.items()}
    contrasts: dict[str, set[str]] = {}
    for entry in glossary.concepts:
        if entry.contrast:
            contrasts.setdefault(entry.contrast, set()).add(entry.id)
    sections = {c.id: c.rule for c in glossary.concepts if (c.contrast and c.rule) or c.designation}
    return EvidenceTable(
        rules,
        weight,
        tuple(families),
        dict(hints or {}),
        {k: frozenset(v) for k, v in contrasts.items()},
        sections,
        dict(implies or {}),
        frozenset(general),
    )


def read_descriptions(path: str | Path | None = None) -> dict[str, str]:
    """{rule number: description} from a descriptions file (default :data:`DESCRIPTIONS_FILE`,
    read when called)."""
    data = read_yaml(path or DESCRIPTIONS_FILE) or {}
    return {
        str(number): " ".join(str(text).split())
        for number, text in (data.get("rules") or {}).items()
    }


def read_hints(
    path: str | Path | None = None, glossary: Glossary | None = None
) -> tuple[tuple[Family, ...], dict[str, Hint], dict[str, frozenset[str]], frozenset[str]]:
    """(families, {rule: hint}, {concept: the concepts it implies}, the general concepts) from
    a hints file (default :data:`HINTS_FILE`); KbError names a concept the glossary lacks."""
    glossary = glossary or load_glossary()
    path = path or HINTS_FILE
    data = read_yaml(path) or {}
    problems: list[Problem] = []

    def concepts(values, where: str) -> frozenset[str]:
        found = frozenset(str(v) for v in values or ())
        problems.extend(
            Problem(str(path), 0, f"{where}: unknown concept {c!r}")
            for c in sorted(found - set(glossary.by_id))
        )
        return found

    families = tuple(
        Family(
            str(f["name"]),
            tuple(str(p) for p in f["rules"]),
            concepts(f.get("topic"), f"family {f['name']}"),
            concepts(f.get("kinds"), f"family {f['name']}"),
        )
        for f in data.get("families") or ()
    )
    hints = {
        str(rule): Hint(
            tuple(
                concepts(e if isinstance(e, list) else [e], f"rule {rule}")
                for e in h.get("requires") or ()
            ),
            concepts(h.get("excludes"), f"rule {rule}"),
            str(h.get("why", "")),
            str(h.get("also", "")),
            concepts(h.get("when"), f"rule {rule}"),
            concepts(h.get("unless"), f"rule {rule}"),
        )
        for rule, h in (data.get("rules") or {}).items()
    }
    implies = {
        str(concept): concepts(implied, f"implies {concept}")
        for concept, implied in (data.get("implies") or {}).items()
    }
    concepts(implies, "implies")
    general = concepts(data.get("general"), "general")
    if problems:
        raise KbError(problems)
    return families, hints, implies, general


def carried_rules() -> set[str]:
    """The rule numbers the core carries out."""
    from kb.core import registry

    return set(registry.RULES)


def table_for(carried: set[str], descriptions: dict[str, str] | None = None) -> EvidenceTable:
    """The evidence of the ``carried`` rules (every one needs a description; KbError names a
    carried rule without one). ``descriptions`` defaults to ``kb/core/descriptions.yaml``."""
    descriptions = read_descriptions() if descriptions is None else descriptions
    missing = sorted(set(carried) - set(descriptions))
    if missing:
        raise KbError(
            [
                Problem(
                    str(DESCRIPTIONS_FILE),
                    0,
                    f"rule {number} is carried by the core but has no description",
                )
                for number in missing
            ]
        )
    families, hints, implies, general = read_hints()
    return build_table(
        {n: descriptions[n] for n in sorted(carried)},
        families=families,
        hints={r: h for r, h in hints.items() if r in carried},
        source=str(DESCRIPTIONS_FILE),
        implies=implies,
        general=general,
    )


@lru_cache(maxsize=8)
def _cached(carried: frozenset[str], descriptions: Path, hints: Path) -> EvidenceTable:
    return table_for(set(carried))


def evidence_table(carried: set[str] | frozenset[str] | None = None) -> EvidenceTable:
    """The evidence of the carried rules (the core's registry by default), cached (per set of
    rules and data files)."""
    return _cached(
        frozenset(carried_rules() if carried is None else carried),
        Path(DESCRIPTIONS_FILE),
        Path(HINTS_FILE),
    )
