"""The scenario format: what an example holds, checked as it is parsed.

A scenario names its players (turn order, optional teams), a starting state,
and steps. Each step is one event with the answers to the choices it raises,
optionally what the game does next (``then``), and the partial state expected
afterwards (``expect``) or the refusal expected (``expect_refusal``).
:mod:`kb.core.scenario` reads scenario files into this form and runs them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kb.core import registry

# Event kind -> argument names (the first one is what a scalar shorthand fills in).
EVENTS: dict[str, tuple[str, ...]] = {
    "take_initiative": ("player",),
    "become_monarch": ("player",),
    "monarch_effect": ("effect", "concerns"),
    "begin_turn": ("player",),
    "begin_upkeep": (),
    "begin_end_step": (),
    "combat_damage": ("by", "to", "damage"),
    "venture": ("player",),
    "venture_into": ("player", "quality"),
    "venture_trigger": ("player", "quality"),
    "bring_from_outside": ("player", "card"),
    "concede": ("player",),
    "leave_game": ("players", "reason"),
    "lose_life": ("player", "amount"),
    "gain_life": ("player", "amount"),
    "run_until_priority": (),
    "resolve_top": (),
    "resolve_all": (),
}
# Events that already run the game on to priority themselves.
SELF_ADVANCING = {"run_until_priority", "resolve_top", "resolve_all"}
THEN = ("none", "priority", "resolve_all")
STEP_KEYS = {"event", "choices", "then", "expect", "expect_refusal", "note"}


class ScenarioError(ValueError):
    """A scenario file that does not follow the format (names the scenario and the problem)."""


@dataclass
class Step:
    index: int
    event: dict[str, Any]
    choices: list[dict[str, Any]] = field(default_factory=list)
    then: str = "priority"
    expect: dict[str, Any] | None = None
    expect_refusal: str | bool | None = None
    note: str | None = None


@dataclass
class Scenario:
    id: str
    title: str
    rules: list[str]
    players: list[str]
    teams: dict[str, list[str]] | None
    start: dict[str, Any]
    steps: list[Step]
    expect: dict[str, Any] | None = None
    source: str = "<dict>"  # the file it was read from (load gives every scenario one)


# -- checking --------------------------------------------------------------------------


def parse(data: dict[str, Any], where: str) -> Scenario:
    """A scenario from its parsed YAML mapping, checked; ``where`` names it in errors."""

    def fail(message: str) -> ScenarioError:
        return ScenarioError(f"{where}: {data.get('id', '?')}: {message}")

    for key in ("id", "title", "rules", "players", "steps"):
        if key not in data:
            raise fail(f"missing {key!r}")
    for number in data["rules"]:
        if str(number) not in registry.RULES:
            raise fail(f"rule {number} is not in the registry")
    steps = [_parse_step(i, raw, fail) for i, raw in enumerate(data["steps"], start=1)]
    return Scenario(
        id=str(data["id"]),
        title=data["title"],
        rules=[str(n) for n in data["rules"]],
        players=list(data["players"]),
        teams=data.get("teams"),
        start=data.get("start") or {},
        steps=steps,
        expect=data.get("expect"),
        source=where,
    )


def _parse_step(index: int, raw: dict[str, Any], fail: Callable[[str], ScenarioError]) -> Step:
    if not isinstance(raw, dict):
        raise fail(f"step {index} is not a mapping")
    if "event" in raw:
        event = dict(raw["event"])
    else:
        kinds = [k for k in raw if k not in STEP_KEYS]
        if len(kinds) != 1:
            raise fail(f"step {index}: give exactly one event, found {kinds}")
        shorthand = kinds[0]
        value = raw[shorthand]
        args = EVENTS.get(shorthand, ())
        if value is None:
            value = {}
        elif not isinstance(value, dict):
            value = {args[0] if args else "player": value}
        event = {"kind": shorthand, **value}
    kind = event.get("kind")
    if kind not in EVENTS:
        raise fail(f"step {index}: unknown event {kind!r}")
    unknown = set(event) - {"kind", *EVENTS[kind]}
    if unknown:
        raise fail(f"step {index}: {kind} takes no {sorted(unknown)}")
    then = raw.get("then", "none" if kind in SELF_ADVANCING else "priority")
    if then not in THEN:
        raise fail(f"step {index}: then must be one of {THEN}")
    choices = raw.get("choices") or []
    if any(not isinstance(c, dict) or len(c) != 1 for c in choices):
        raise fail(f"step {index}: each choice is one `kind: answer` pair")
    return Step(
        index, event, choices, then, raw.get("expect"), raw.get("expect_refusal"), raw.get("note")
    )
