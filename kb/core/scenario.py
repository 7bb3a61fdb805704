"""Examples as data: load a scenario (YAML or a dict), run it, get a step-by-step trace.

The format (events, steps, what a step expects) is :mod:`kb.core.scenario_format`, whose
names are importable from here too. The runner never prints or writes; it returns a
:class:`Run` whose ``failure`` names the scenario, the first step that differs and the
difference.

The only I/O in :mod:`kb.core` is reading scenario files here.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from kb.core import dungeons, monarch
from kb.core.choices import ChoiceNeeded, Refused, ScriptedChooser
from kb.core.game import Game
from kb.core.scenario_format import (
    EVENTS,
    SELF_ADVANCING,
    STEP_KEYS,
    THEN,
    Scenario,
    ScenarioError,
    Step,
    parse,
)

#: libyaml's parser where PyYAML has it, as kb.errors.load_yaml (core imports nothing from kb).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples" / "rules"

__all__ = [
    "EVENTS",
    "EXAMPLES_DIR",
    "SELF_ADVANCING",
    "STEP_KEYS",
    "THEN",
    "Run",
    "Scenario",
    "ScenarioError",
    "Step",
    "StepTrace",
    "build_game",
    "diff",
    "load",
    "load_dir",
    "parse",
    "perform",
    "run",
    "run_all",
]


@dataclass
class StepTrace:
    index: int
    event: dict[str, Any]
    log: list[dict[str, Any]]
    state: dict[str, Any]
    expected: dict[str, Any] | None
    diff: list[str]
    refused: dict[str, Any] | None = None


@dataclass
class Run:
    scenario_id: str
    passed: bool
    steps: list[StepTrace]
    failure: str | None
    seconds: float
    initial: dict[str, Any] | None = None


# -- loading ---------------------------------------------------------------------------


def load(source: str | Path | dict[str, Any]) -> Scenario:
    """One scenario from a YAML file path or an already-parsed mapping."""
    if isinstance(source, dict):
        return parse(source, where="<dict>")
    path = Path(source)
    # Read from the open file, a YAML error's mark names it (kb.errors.yaml_error says where).
    with open(path, encoding="utf-8") as handle:
        data = yaml.load(handle, Loader=_LOADER)
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a scenario file holds one mapping")
    return parse(data, where=str(path))


def load_dir(path: str | Path = EXAMPLES_DIR) -> list[Scenario]:
    """Every ``*.yaml`` scenario below ``path``, sorted by file name; ids must be unique."""
    scenarios = [load(p) for p in sorted(Path(path).rglob("*.y*ml"))]
    seen: dict[str, str] = {}
    for s in scenarios:
        if s.id in seen:
            raise ScenarioError(f"{s.source}: id {s.id!r} already used in {seen[s.id]}")
        seen[s.id] = s.source
    return scenarios


# -- building the starting game --------------------------------------------------------


def build_game(scenario: Scenario) -> Game:
    """The game in the scenario's starting state."""
    start = scenario.start
    players = {name: dict(fields or {}) for name, fields in (start.get("players") or {}).items()}
    game = Game(
        scenario.players,
        teams=scenario.teams,
        active=start.get("active"),
        turn_of=start.get("turn_of"),
        initiative=start.get("initiative"),
        monarch=start.get("monarch"),
        cant_become_monarch=start.get("cant_become_monarch") or (),
        life=start.get("life"),
        # A dungeon card in a sideboard is refused here (309.2).
        sideboards={n: f.pop("sideboard") for n, f in players.items() if "sideboard" in f},
    )
    for effect, concerns in (start.get("monarch_effects") or {}).items():
        if concerns not in monarch.CONCERNS:
            raise ScenarioError(
                f"{scenario.id}: monarch effect {effect!r} concerns "
                f"{concerns!r}, not one of {monarch.CONCERNS}"
            )
        game.monarch_effects[effect] = concerns
    for team, total in (start.get("team_life") or {}).items():
        game.team_life[team] = total
    creatures_seen: set[str] = set()
    for name, fields in players.items():
        if name not in game.players:
            raise ScenarioError(f"{scenario.id}: start names unknown player {name!r}")
        _set_player(game, scenario, name, fields, creatures_seen)
    for name in start.get("left") or []:
        game.players[name].in_game = False
        p = game.players[name]
        p.dungeon = p.room = p.dungeon_id = None
    return game


def _set_player(
    game: Game, scenario: Scenario, name: str, fields: dict[str, Any], seen: set[str]
) -> None:
    p = game.players[name]
    dungeon, room = fields.pop("dungeon", None), fields.pop("room", None)
    if dungeon is not None:
        d = dungeons.get(dungeon)
        room = room if room is not None else d.topmost
        d.room(room)  # KeyError for a room the dungeon does not have
        p.dungeon, p.room, p.dungeon_id = dungeon, room, game.new_dungeon_id()
    for key, value in fields.items():
        if key not in (
            "life",
            "library",
            "hand",
            "lands",
            "completed",
            "creatures",
            "tokens",
            "counters",
        ):
            raise ScenarioError(f"{scenario.id}: unknown player field {key!r}")
        setattr(p, key, value if not isinstance(value, (list, dict)) else type(value)(value))
    for creature in p.creatures:
        if creature in seen:
            raise ScenarioError(f"{scenario.id}: creature name {creature!r} used twice")
        seen.add(creature)


# -- running ---------------------------------------------------------------------------


def perform(game: Game, event: dict[str, Any], chooser: ScriptedChooser) -> None:
    """Carry out one event dict on the game."""
    kind, args = event["kind"], {k: v for k, v in event.items() if k != "kind"}
    if kind == "leave_game":
        players = args.pop("players")
        players = [players] if isinstance(players, str) else players
        game.leave_game(*players, chooser=chooser, **args)
        return
    getattr(game, kind)(chooser=chooser, **args)


def run(scenario: Scenario | str | Path | dict[str, Any]) -> Run:
    """Run a scenario step by step; stop at the first step that differs from what it expects."""
    if not isinstance(scenario, Scenario):
        scenario = load(scenario)
    began = time.perf_counter()
    traces: list[StepTrace] = []
    failure = None
    try:
        game = build_game(scenario)
    except (ScenarioError, KeyError, ValueError) as error:
        return Run(
            scenario.id,
            False,
            [],
            f"{scenario.id}: bad starting state: {error}",
            time.perf_counter() - began,
        )
    initial = game.snapshot()
    for step in scenario.steps:
        trace = _run_step(game, step)
        traces.append(trace)
        if trace.diff:
            failure = f"{scenario.id}: step {step.index} ({step.event['kind']}): " + "; ".join(
                trace.diff
            )
            break
    else:
        if scenario.expect is not None:
            final = diff(scenario.expect, game.snapshot())
            if final:
                failure = f"{scenario.id}: final state: " + "; ".join(final)
    return Run(scenario.id, failure is None, traces, failure, time.perf_counter() - began, initial)


def _run_step(game: Game, step: Step) -> StepTrace:
    chooser = ScriptedChooser(step.choices)
    log_start = len(game.log)
    before = game.snapshot()
    saved = game.checkpoint()
    refused = None
    problems: list[str] = []
    try:
        perform(game, step.event, chooser)
        if game.game_over:
            pass  # nobody gets priority once the game has ended
        elif step.then == "priority":
            game.run_until_priority(chooser=chooser)
        elif step.then == "resolve_all":
            game.resolve_all(chooser=chooser)
    except Refused as refusal:
        # A refused step leaves the game as it was, even if the refusal came
        # after the event itself (a target chosen as a trigger goes on the stack).
        game.rollback(saved)
        refused = {"reason": refusal.reason, **refusal.details}
        game.note("refused", **refused)
    except ChoiceNeeded as missing:
        d = missing.decision
        problems.append(
            f"the game asks {d.player} for {d.kind!r} (options: "
            f"{list(d.options) if d.options is not None else 'any'}) "
            f"but the step's choices do not give it next"
        )
    except Exception as error:  # a crash in the core is a failed example, not a crashed run
        problems.append(f"error: {type(error).__name__}: {error}")
    state = game.snapshot()
    if refused is not None:
        problems += _check_refusal(step, refused, before, state)
    elif step.expect_refusal:
        problems.append(f"expected a refusal ({step.expect_refusal}) but the event was carried out")
    if not problems and chooser.unused():
        problems.append(f"choices never asked for: {chooser.unused()}")
    if step.expect is not None:
        problems += diff(step.expect, state)
    return StepTrace(
        step.index, dict(step.event), game.log[log_start:], state, step.expect, problems, refused
    )


def _check_refusal(
    step: Step, refused: dict[str, Any], before: dict[str, Any], after: dict[str, Any]
) -> list[str]:
    wanted = step.expect_refusal
    if not wanted:
        return [f"refused: {refused}"]
    problems = []
    if wanted is not True and wanted != refused["reason"]:
        problems.append(f"expected refusal {wanted!r}, got {refused['reason']!r}")
    if before != after:
        problems.append("the refused step changed the state")
    return problems


def run_all(paths: Iterable[str | Path | Scenario] | None = None) -> list[Run]:
    """Run scenarios from files, directories or Scenario objects (default: the shipped examples)."""
    scenarios: list[Scenario] = []
    for item in paths if paths is not None else [EXAMPLES_DIR]:
        if isinstance(item, Scenario):
            scenarios.append(item)
        elif Path(item).is_dir():
            scenarios += load_dir(item)
        else:
            scenarios.append(load(item))
    return [run(s) for s in scenarios]


# -- comparing -------------------------------------------------------------------------


def diff(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Differences between a partial expectation and a snapshot, as ``path: expected X, got Y``.

    Mappings are partial (only the keys given are compared); lists are compared
    whole, element by element.

    >>> diff({"initiative": "Ann", "players": {"Ann": {"room": "Forge"}}},
    ...      {"initiative": "Bo", "players": {"Ann": {"room": "Forge", "life": 20}}})
    ["initiative: expected 'Ann', got 'Bo'"]
    """
    here = path or "state"
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{here}: expected a mapping, got {actual!r}"]
        problems = []
        for key, value in expected.items():
            sub = f"{path}.{key}" if path else str(key)
            if key not in actual:
                problems.append(f"{sub}: not in the state")
            else:
                problems += diff(value, actual[key], sub)
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{here}: expected {expected!r}, got {actual!r}"]
        return [
            p for i, (e, a) in enumerate(zip(expected, actual)) for p in diff(e, a, f"{here}[{i}]")
        ]
    if expected != actual:
        return [f"{here}: expected {expected!r}, got {actual!r}"]
    return []
