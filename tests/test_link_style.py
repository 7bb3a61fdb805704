"""The linker on rulings written the way official rulings read (tests/data/links/rulings_style.yaml):
to the player, about a case or a consequence, in English and the five ruling languages.

examples.yaml (tests/test_link_corpora.py) restates the rules almost word for word and must link
exactly; this set measures how far the linker carries beyond that. The floors below are the
figures the linker reached when the set was written; raise them as the linker improves.
``pytest -s`` prints the whole report: each ruling's expected and linked rules, each miss and
wrong link with the concepts its group mentions, and why a group has no rule.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from link_corpus import build, write_rulings

from kb import align, link
from kb.link import gates, reasons, scoring

STYLE = yaml.safe_load(
    (Path(__file__).parent / "data" / "links" / "rulings_style.yaml").read_text(encoding="utf-8")
)

#: Micro-averaged over (ruling, rule) pairs, a little under what the linker reaches (it
#: reached 0.569 and 0.587 when the set was written, 0.774 and 0.762 with 31 of 51 rulings
#: exact after the linker's second round, 0.785 and 0.810 with restatements, 0.812 and 0.825
#: once the keyword action needed a venture, 0.818 and 0.831 with 36 of 53 exact once 309.2
#: and 309.2d were carried, 0.818 and 0.818 once a deck ruling's gold named 309.2 beside
#: 309.2a, one required pair more; 0.824 and 0.848 with a thin rule giving way to its family's
#: better-named rule and cease to exist told from cease; 0.853 and 0.879 once triggered
#: abilities were named by their verb, the turn going on without its player and no legal
#: target were concepts, and 309.4c, 309.2c and 603.3d had hints; 0.838 and 0.864 once the
#: glossary found the bare verb "venture": a ruling on completing a dungeon that says "whether
#: because you ventured on from its last room" then names 701.49c's venture, which takes
#: 309.7's place, while set E gained as much); 0.826 and 0.864 once not being in a dungeon
#: was a concept (701.49a's condition: a ruling on the marker put on the first room as the
#: dungeon comes in then touches 701.49a beside 309.4a, while sets B and K gained five right
#: links and every held-out set kept or raised both figures; 0.838 again once a ruling that
#: sets the active player against the others no longer links one player's venture; 0.808 and
#: 0.881 once choosing a dungeon, a named last room, a path and the marker's direction were
#: concepts and 309.5b needed the last room: this set lost a 309.4c to 701.49b's better naming
#: and gained a 701.49a its second reader gives and a 309.2a neither gives, while the dev
#: sets together gained ten right links for seven wrong); raise them as it improves.
MIN_PRECISION = 0.80
MIN_RECALL = 0.86
#: Rulings whose six texts the aligner must keep in one group (all of them, then).
MIN_WHOLE_GROUPS = 53

#: Rules that say what another says, from the card's side (309) or the keyword action's
#: (701.49). The gold names one or both as the ruling speaks; the report also gives the figures
#: that do not count linking one for the other as wrong, so that a convention is not mistaken
#: for an error of the linker.
TWINS = {"309.2a": "701.49a", "309.4a": "701.49a", "309.5a": "701.49b", "309.5b": "701.49c"}


@dataclass
class Outcome:
    position: int
    expected: list[str]
    linked: list[str]
    group: str
    whole: bool  # all six texts in one group
    concepts: list[str]  # what the group mentions (at least half its languages)
    reason: str | None  # why the group has no rule
    votes: dict[str, float]  # the group's votes, for :func:`why_missed`

    @property
    def missed(self) -> list[str]:
        return sorted(set(self.expected) - set(self.linked))

    @property
    def wrong(self) -> list[str]:
        return sorted(set(self.linked) - set(self.expected))


def outcomes(db) -> list[Outcome]:
    """Per ruling (by position), the group holding most of its texts and that group's links."""
    groups = align.groups(db)
    votes = link.group_votes(db)
    reasons = {g["id"]: g["reason"] for g in link.unlinked(db)}
    where: dict[int, Counter] = {}
    for group in groups:
        for member in group["members"]:
            where.setdefault(member["position"], Counter())[group["id"]] += 1
    by_id = {g["id"]: g for g in groups}
    found = []
    for position, ruling in enumerate(STYLE["rulings"], 1):
        ((group_id, count),) = where[position].most_common(1)
        group = by_id[group_id]
        mentioned = sorted(c for c, share in votes.get(group_id, {}).items() if share >= 0.5)
        found.append(
            Outcome(
                position,
                sorted(ruling["rules"]),
                sorted(group["rules"]),
                group_id,
                count == len(STYLE["cards"]) and len(group["members"]) == count,
                mentioned,
                reasons.get(group_id),
                votes.get(group_id, {}),
            )
        )
    return found


def why_missed(rule: str, votes: dict[str, float]) -> str:
    """Why the linker did not link ``rule`` for a group with ``votes``: a gate, no distinctive
    concept, or another candidate explaining more; and the rule's concepts the group lacks."""
    table = link.evidence_table()
    mentioned = gates.mentioned_in(votes)
    lacking = ", ".join(sorted(table.rules[rule].concepts - mentioned)) or "none"
    found = gates.gate(rule, mentioned, table)
    if found:
        why = reasons.gate_phrase(found)
    else:
        links = scoring.candidates(votes, table)
        mine = [c for c in links if c.rule == rule]
        if not mine:
            why = "needs one of " + ", ".join(sorted(table.distinctive(rule)))
        else:
            kept = [c.rule for c in link.rules_for(votes, table=table)]
            over = [
                c.rule for c in links if c.rule in kept and set(mine[0].concepts) <= set(c.concepts)
            ]
            why = f"a candidate ({', '.join(mine[0].concepts)}) dropped for " + (
                ", ".join(over) or "a candidate explaining the group better"
            )
    return f"{rule} {why}; lacks {lacking}"


def _twin(rule: str) -> str:
    return TWINS.get(rule, rule)


def figures(found: list[Outcome], lenient: bool = False) -> tuple[float, float, int]:
    """(precision, recall, rulings linked exactly as expected), micro over (ruling, rule);
    ``lenient``: a rule and its twin (:data:`TWINS`) count as one."""
    right = linked = expected = exact = 0
    for o in found:
        want, got = set(o.expected), set(o.linked)
        if lenient:
            want, got = {_twin(r) for r in want}, {_twin(r) for r in got}
        right += len(want & got)
        linked += len(got)
        expected += len(want)
        exact += want == got
    return (right / linked if linked else 1.0), (right / expected if expected else 1.0), exact


def report(found: list[Outcome]) -> str:
    precision, recall, exact = figures(found)
    twins = "precision {:.3f}, recall {:.3f}, exact {}".format(*figures(found, lenient=True))
    lines = [
        f"precision {precision:.3f}, recall {recall:.3f}, exact {exact}/{len(found)}, "
        f"whole groups {sum(o.whole for o in found)}/{len(found)} "
        f"(twins as one: {twins})"
    ]
    for o in found:
        if not o.missed and not o.wrong and o.whole:
            continue
        text = STYLE["rulings"][o.position - 1]["texts"]["en"]
        lines.append(
            f"#{o.position} expected {o.expected or '[]'} linked {o.linked or '[]'}"
            + (f" missed {o.missed}" if o.missed else "")
            + (f" wrong {o.wrong}" if o.wrong else "")
            + ("" if o.whole else f" (texts split, group {o.group})")
            + f"\n    {text[:100]}...\n    concepts: {', '.join(o.concepts)}"
            + "".join(f"\n    missed {why_missed(r, o.votes)}" for r in o.missed)
            + (f"\n    unlinked: {o.reason}" if o.reason else "")
        )
    return "\n".join(lines)


@pytest.fixture(scope="module")
def style(tmp_path_factory) -> list[Outcome]:
    folder = tmp_path_factory.mktemp("style")
    db, _ = build(folder, write_rulings(folder, STYLE, STYLE["rulings"], "style"))
    return outcomes(db)


def test_the_set_is_well_formed():
    from kb.core import registry

    assert set(STYLE["cards"]) == {"en", "ru", "it", "fr", "de", "es"}
    named = {rule for r in STYLE["rulings"] for rule in r["rules"]}
    assert named == set(registry.RULES)  # every carried rule, and only those
    assert all(set(r["texts"]) == set(STYLE["cards"]) for r in STYLE["rulings"])


def test_the_linker_keeps_its_floor_on_official_style_rulings(style):
    precision, recall, _ = figures(style)
    print("\n" + report(style))
    assert precision >= MIN_PRECISION and recall >= MIN_RECALL, report(style)


def test_the_aligner_keeps_each_ruling_s_texts_together(style):
    assert sum(o.whole for o in style) >= MIN_WHOLE_GROUPS, report(style)
