"""The examples stage: every seed group has a passing example; failures name example and step."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from kb.cli import cli
from kb.core import initiative, venture
from kb.corpus.files import corpus_files
from kb.errors import KbError
from kb.examples import runs as example_runs
from kb.export import json as export
from kb.pipeline import build
from kb.pipeline.context import BuildContext

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "rulings"


def _run_stages(work: Path) -> BuildContext:
    """The pipeline up to and including the examples stage, on the seeds, into a real store."""
    return build.run_through(BuildContext(corpus=corpus_files([str(SEEDS)]), work=work), "examples")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    ctx = _run_stages(tmp_path_factory.mktemp("examples"))
    yield ctx
    ctx.db.close()


@pytest.fixture
def rulings_copy(tmp_path, monkeypatch) -> Path:
    """A writable copy of the ruling examples, used instead of the shipped ones."""
    target = tmp_path / "rulings"
    shutil.copytree(example_runs.RULINGS_DIR, target)
    monkeypatch.setattr(example_runs, "RULINGS_DIR", target)
    return target


def _ruling_failures() -> set[str]:
    examples = [e for e in example_runs.load_examples() if e.kind == "ruling"]
    return {r.example.id for r in example_runs.run_examples(examples) if not r.run.passed}


def test_the_examples_stage_comes_right_after_link():
    names = [name for name, _ in build.STAGES]
    assert names.index("examples") == names.index("link") + 1


def test_run_through_stops_after_the_stage_named(built):
    tables = set(built.db.table_names())
    assert {"example_runs", "group_rules"} <= tables and "findings" not in tables
    with pytest.raises(ValueError, match="no stage 'exampels'"):
        build.run_through(built, "exampels")


def test_every_seed_group_has_a_passing_ruling_example(built):
    runs = list(built.db.query('SELECT * FROM example_runs WHERE kind = "ruling"'))
    groups = {g["id"]: g for g in export.groups(built.db)}
    assert len(groups) == 10
    passing = {r["group"] for r in runs if r["status"] == "passed"}
    assert set(groups) <= passing, f"groups without a passing example: {set(groups) - passing}"
    # Every ruling example found its group, and shows at least one rule the group is linked to.
    for run in runs:
        assert run["group"] in groups, run["id"]
        assert set(json.loads(run["rules"])) & set(groups[run["group"]]["rules"]), run["id"]


def test_rule_scenarios_run_too_and_have_no_group(built):
    rows = list(built.db.query('SELECT * FROM example_runs WHERE kind = "rule"'))
    assert len(rows) == len(list(example_runs.RULES_DIR.glob("*.yaml")))
    assert {r["status"] for r in rows} == {"passed"}
    assert {r["group"] for r in rows} == {None}


def test_stored_steps_hold_the_trace(built):
    row = built.db["example_runs"].get("ruling-take-initiative-while-having-it")
    steps = json.loads(row["steps"])
    assert [s["event"]["kind"] for s in steps] == [
        "take_initiative",
        "resolve_all",
        "take_initiative",
    ]
    first = steps[0]
    assert first["state"]["initiative"] == "Ann"
    assert any(e["kind"] == "takes_initiative" and e["rule"] == "726.5" for e in first["log"])
    assert row["seconds"] > 0 and row["failure"] is None


def test_export_json_shows_each_groups_examples_as_passed(built):
    data = json.loads(export.to_json(built.db))
    for group in data["groups"]:
        assert group["examples"], group["id"]
        assert {e["status"] for e in group["examples"]} == {"passed"}, group["id"]
        assert all({"id", "status", "rules", "steps"} <= set(e) for e in group["examples"])


def test_a_group_found_by_fingerprint_when_its_rule_prefix_changes(built, rulings_copy):
    path = rulings_copy / "726.3-only-one-holder.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("group: 726.3-1df600", "group: 999.9-1df600"),
        encoding="utf-8",
    )
    (result,) = [
        r
        for r in example_runs.run_examples(db=built.db)
        if r.example.id == "ruling-only-one-holder"
    ]
    assert result.group_id == "726.3-1df600"


def test_a_wrong_expectation_fails_naming_example_step_and_line(rulings_copy):
    path = rulings_copy / "726.4-holder-leaves-active-player-takes.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("      initiative: Bruno\n", "      initiative: Ann\n", 1), encoding="utf-8"
    )
    results = example_runs.run_examples()
    (failed,) = [r for r in results if not r.run.passed]
    problem = str(example_runs.failure_problem(failed))
    step_line = text.splitlines().index("  - concede: Dan") + 1
    assert problem.startswith(f"{failed.example.scenario.source}:{step_line}: ")
    assert "ruling-holder-leaves-active-player-takes: step 1 (concede)" in problem
    assert "initiative: expected 'Ann', got 'Bruno'" in problem


def test_a_failing_example_fails_the_build_stage(tmp_path, rulings_copy):
    path = rulings_copy / "726.5-take-initiative-while-having-it.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("room: Lost Well, noted", "room: Stash, noted"),
        encoding="utf-8",
    )
    with pytest.raises(KbError) as caught:
        _run_stages(tmp_path)
    (line,) = caught.value.lines()
    assert "ruling-take-initiative-while-having-it: step 2 (resolve_all)" in line
    assert "players.Ann.room: expected 'Stash', got 'Lost Well'" in line


def test_kb_examples_exits_1_and_names_the_failure(rulings_copy, tmp_path):
    path = rulings_copy / "726.3-only-one-holder.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "expect: {initiative: Cleo, pending", "expect: {initiative: Bruno, pending"
        ),
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["examples", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 2  # an explicit --db that does not exist is a usage error
    result = CliRunner().invoke(cli, ["examples"])
    assert result.exit_code == 1, result.output
    assert "failed  ruling-only-one-holder" in result.output
    assert "step 1 (take_initiative): initiative: expected 'Bruno', got 'Cleo'" in result.output
    assert result.output.splitlines()[-1].endswith("passed, 1 failed")


def test_kb_examples_passes_and_writes_steps_in_a_language():
    result = CliRunner().invoke(cli, ["examples", "ruling-only-one-holder", "--lang", "fr"])
    assert result.exit_code == 0, result.output
    assert "Bruno prend l'initiative" in result.output
    assert result.output.splitlines()[-1] == "1 examples: 1 passed, 0 failed"


def test_an_example_without_group_or_with_a_used_id_is_refused(rulings_copy):
    path = rulings_copy / "726.3-only-one-holder.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    del data["group"]
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(KbError, match="726.3-only-one-holder.yaml: .*missing 'group'"):
        example_runs.load_examples()
    data.update(group="726.3-1df600", id="initiative-take-again")  # a rule scenario's id
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(KbError, match="'initiative-take-again' already used"):
        example_runs.load_examples()


def test_an_example_or_scenario_that_is_not_yaml_names_its_file_and_line(rulings_copy, tmp_path):
    # Whoever adds an example sees where the YAML broke, in one line, not a traceback.
    path = rulings_copy / "726.3-only-one-holder.yaml"
    path.write_text("id: x\ngroup: [726.3-1df600\nsteps: []\n", encoding="utf-8")
    with pytest.raises(KbError, match=r"726.3-only-one-holder.yaml:\d+: not valid YAML") as found:
        example_runs.load_examples()
    assert len(str(found.value).splitlines()) == 1
    scenario_file = tmp_path / "rules" / "broken.yaml"
    scenario_file.parent.mkdir()
    scenario_file.write_text("id: y\nsetup: {players: [Ann\n", encoding="utf-8")
    with pytest.raises(KbError, match=r"broken.yaml:\d+: not valid YAML"):
        example_runs.load_examples(rules_dir=scenario_file.parent, rulings_dir=tmp_path)


# -- breaking a rule in the core makes the matching ruling examples fail, by name ----------------


def _next_seat_after_holder(game, leaving):
    """726.4 done wrong: ignore the active player; the seat after the holder takes it."""
    order = [p for p in game.order if game.players[p].in_game and p not in leaving]
    after = game.order[game.order.index(game.initiative) + 1 :] + game.order
    return next(p for p in after if p in order)


def _plain_venture_allows_undercity(game, player, quality, rule):
    return game.chooser(
        venture.Decision("dungeon", player, ("Undercity", "Tomb of Annihilation"), rule)
    )


def _first_holder_controls(game, ability, player):
    return game.new_trigger(ability, controller=player, player=player)


@pytest.mark.parametrize(
    "target, mutant, must_fail",
    [
        (
            (initiative, "recipient_on_leave"),
            _next_seat_after_holder,
            {
                "ruling-holder-leaves-active-player-takes",
                "ruling-holder-and-active-player-leave-together",
                "ruling-holder-leaves-with-no-active-player",
            },
        ),
        (
            (initiative, "retake"),
            lambda game, player: None,
            {"ruling-take-initiative-while-having-it"},
        ),
        (
            (venture, "choose_dungeon"),
            _plain_venture_allows_undercity,
            {"ruling-plain-venture-never-starts-undercity"},
        ),
        (
            (initiative, "trigger"),
            _first_holder_controls,
            {"ruling-two-headed-giant-ordering", "ruling-the-initiative-two-rules"},
        ),
        (
            (venture, "advance"),
            lambda game, player: venture.complete_and_restart(game, player, None),
            {"ruling-venture-into-undercity-inside-a-dungeon"},
        ),
    ],
    ids=["726.4", "726.5", "205.3p", "726.2", "701.49b"],
)
def test_breaking_a_rule_fails_its_examples_by_name(monkeypatch, target, mutant, must_fail):
    assert _ruling_failures() == set()
    monkeypatch.setattr(*target, mutant)
    failing = _ruling_failures()
    assert must_fail <= failing, f"still passing: {must_fail - failing}"


def test_group_id_is_the_group_find_group_finds(built):
    """The examples find their group's id without reading its rulings (align.find_group_id,
    which find_group uses too): the group with that id, else the first in the usual order
    with that fingerprint, as reading every group whole tells."""
    from kb import align

    db = built.db
    every = align.groups(db)  # whole, in the usual order

    def expected(key):
        if any(g["id"] == key for g in every):
            return key
        fp = key.rsplit("-", 1)[-1]
        return next((g["id"] for g in every if g["fingerprint"] == fp), None)

    groups = list(db.query("SELECT id, fingerprint FROM groups"))
    keys = [e.group for e in example_runs.load_examples() if e.group]
    keys += [g["id"] for g in groups] + [g["fingerprint"] for g in groups]
    keys += [f"999.9-{g['fingerprint']}" for g in groups]  # primary rule changed
    keys += ["999.9-000000", "nothing"]
    find = example_runs.group_finder(db)
    assert any(find(k) not in (None, k) for k in keys)
    for key in keys:
        assert find(key) == expected(key), key
        found = align.find_group(db, key)
        assert (found["id"] if found else None) == expected(key), key
