"""benchmarks/glossary_probes.py's tally: a probe row is found when the glossary finds its
concept, or any of its concepts when it names several (the marker's movement is said as the
next room, as moving on or as the arrows); a near miss found is a false alarm."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from kb.link.evidence import evidence_table
from kb.reference.glossary import load

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import glossary_probes  # noqa: E402

MOVING = ["move_on", "next_room", "arrow"]


def test_a_row_naming_several_concepts_is_found_by_any_of_them():
    rows = [
        {"concept": MOVING, "text": "your marker moves down to Dark Pool", "expect": True},
        {"concept": MOVING, "text": "you choose which arrow to follow", "expect": True},
        {"concept": "move_on", "text": "you choose which arrow to follow", "expect": True},
        {"concept": MOVING, "text": "Dark Pool's ability resolves", "expect": False},
        {"concept": MOVING, "text": "the next room's ability triggers", "expect": False},
    ]
    found, expected, alarms, near, wrong = glossary_probes.tally(load(), "en", rows)
    assert (found, expected, alarms, near) == (2, 3, 1, 2)
    assert [line.split(":")[0].strip() for line in wrong] == [
        "missed move_on",
        "found  ['move_on', 'next_room', 'arrow']",
    ]


def test_every_probe_file_names_known_concepts_in_its_rows():
    ids = set(load().by_id)
    for path in sorted((ROOT / "benchmarks" / "glossary_probes").glob("*.yaml")):
        for row in yaml.safe_load(path.read_text(encoding="utf-8")):
            wanted = glossary_probes.concepts_of(row)
            assert set(wanted) <= ids, (path.name, wanted)


def test_a_concept_the_linker_reads_into_another_counts_as_that_one():
    # "You can't skip rooms" names one_step, which the linker reads as moving on
    # (kb/link/hints.yaml's implies); without the implications it is no move_on.
    rows = [{"concept": "move_on", "text": "You can't skip rooms.", "expect": True}]
    assert glossary_probes.tally(load(), "en", rows)[:2] == (0, 1)
    assert glossary_probes.tally(load(), "en", rows, evidence_table())[:2] == (1, 1)
