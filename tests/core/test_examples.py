"""Every shipped scenario runs green, and the example set covers every registered rule."""

from __future__ import annotations

import pytest

from kb.core import registry, scenario

SCENARIOS = scenario.load_dir()


@pytest.mark.parametrize("example", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_example_passes(example):
    run = scenario.run(example)
    assert run.passed, run.failure
    assert len(run.steps) == len(example.steps)
    assert all(trace.diff == [] for trace in run.steps)


def test_every_registered_rule_has_an_example():
    shown = {number for s in SCENARIOS for number in s.rules}
    assert [n for n in registry.RULES if n not in shown] == []


def test_every_example_checks_something():
    for s in SCENARIOS:
        checks = [step for step in s.steps if step.expect or step.expect_refusal]
        assert checks or s.expect, f"{s.id} expects nothing"


def test_logs_are_structured_without_prose():
    for run in scenario.run_all(SCENARIOS):
        for trace in run.steps:
            for entry in trace.log:
                assert isinstance(entry["kind"], str) and entry["kind"].isidentifier()
                for value in entry.values():
                    assert isinstance(value, (str, int, list, type(None), bool))
