"""The scenario format and runner: traces, failure messages, refusals, loading errors."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import kb.core
from kb.core import scenario
from kb.core.scenario import ScenarioError, diff, load, run

BASE = {
    "id": "demo",
    "title": "demo",
    "rules": ["726.3"],
    "players": ["Ann", "Bruno"],
    "start": {"active": "Ann"},
}


def make(steps, **extra):
    return load({**BASE, **extra, "steps": steps})


def test_trace_has_structured_log_state_and_timing():
    result = run(
        make(
            [{"take_initiative": "Bruno", "then": "resolve_all", "expect": {"initiative": "Bruno"}}]
        )
    )
    assert result.passed and result.failure is None and result.seconds >= 0
    (trace,) = result.steps
    assert trace.index == 1 and trace.event == {"kind": "take_initiative", "player": "Bruno"}
    assert {
        "kind": "takes_initiative",
        "player": "Bruno",
        "previous": None,
        "rule": "726.3",
    } in trace.log
    assert {
        "kind": "ventures",
        "player": "Bruno",
        "dungeon": "Undercity",
        "room": "Secret Entrance",
        "rule": "701.49d",
    } in trace.log
    assert trace.state["players"]["Bruno"]["room"] == "Secret Entrance"
    assert result.initial["initiative"] is None


def test_failure_names_the_scenario_step_and_difference():
    result = run(
        make(
            [
                {"take_initiative": "Bruno"},
                {"resolve_all": None, "expect": {"players": {"Bruno": {"room": "Forge"}}}},
                {"take_initiative": "Ann"},
            ]
        )
    )
    assert not result.passed
    assert result.failure == (
        "demo: step 2 (resolve_all): players.Bruno.room: expected 'Forge', got 'Secret Entrance'"
    )
    assert len(result.steps) == 2  # stops at the first failing step


def test_expected_refusal_must_happen():
    result = run(
        make(
            [
                {
                    "venture": "Ann",
                    "choices": [{"dungeon": "Tomb of Annihilation"}],
                    "expect_refusal": True,
                }
            ]
        )
    )
    assert "expected a refusal" in result.failure


def test_refusal_is_checked_and_rolls_back():
    result = run(
        make(
            [
                {
                    "venture": "Ann",
                    "choices": [{"dungeon": "Undercity"}],
                    "expect_refusal": "undercity_needs_venture_into_undercity",
                }
            ]
        )
    )
    assert result.passed
    assert result.steps[0].refused["reason"] == "undercity_needs_venture_into_undercity"
    assert result.steps[0].log[-1]["kind"] == "refused"


def test_unexpected_refusal_fails():
    result = run(make([{"venture": "Ann", "choices": [{"dungeon": "Undercity"}]}]))
    assert "refused" in result.failure


def test_missing_and_unused_choices_fail():
    assert "asks Ann for 'dungeon'" in run(make([{"venture": "Ann"}])).failure
    extra = run(make([{"venture_into": "Ann", "choices": [{"room": "Forge"}]}]))
    assert "never asked for" in extra.failure


def test_final_expectation():
    result = run(make([{"take_initiative": "Ann"}], expect={"initiative": "Bruno"}))
    assert result.failure == "demo: final state: initiative: expected 'Bruno', got 'Ann'"


@pytest.mark.parametrize(
    "broken, message",
    [
        ({"rules": ["999.1"]}, "not in the registry"),
        ({"steps": [{"jump": "Ann"}]}, "unknown event"),
        ({"steps": [{"venture": {"player": "Ann", "color": "red"}}]}, "takes no"),
        ({"steps": [{"venture": "Ann", "then": "later"}]}, "then must be"),
        ({"steps": [{"venture": "Ann", "take_initiative": "Ann"}]}, "exactly one event"),
    ],
)
def test_bad_scenarios_are_load_errors(broken, message):
    with pytest.raises(ScenarioError, match=message):
        load({**BASE, "steps": [{"venture": "Ann"}], **broken})


def test_bad_starting_state_fails_the_run():
    result = run(
        make(
            [{"venture": "Ann"}],
            start={"players": {"Ann": {"dungeon": "Undercity", "room": "Nowhere"}}},
        )
    )
    assert "bad starting state" in result.failure


def test_load_dir_and_run_all_on_files(tmp_path: Path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.yaml").write_text(
            yaml.safe_dump({**BASE, "id": name, "steps": [{"take_initiative": "Ann"}]})
        )
    assert [s.id for s in scenario.load_dir(tmp_path)] == ["a", "b"]
    assert [r.passed for r in scenario.run_all([tmp_path / "a.yaml", tmp_path])] == [True] * 3
    (tmp_path / "c.yaml").write_text(yaml.safe_dump({**BASE, "id": "a", "steps": []}))
    with pytest.raises(ScenarioError, match="already used"):
        scenario.load_dir(tmp_path)


def test_diff_is_partial_for_mappings_and_whole_for_lists():
    assert diff({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}}) == []
    assert diff({"s": ["x"]}, {"s": ["x", "y"]}) == ["s: expected ['x'], got ['x', 'y']"]
    assert diff({"z": 1}, {}) == ["z: not in the state"]


def test_the_model_does_no_io():
    core = Path(kb.core.__file__).parent
    for path in core.glob("*.py"):
        if path.name == "scenario.py":  # the loader is the one place that reads files
            continue
        text = path.read_text()
        for word in ("open(", "print(", "read_text", "write_text", "import os", "sys.std"):
            assert word not in text, f"{path.name} uses {word}"
