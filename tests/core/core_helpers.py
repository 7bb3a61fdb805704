"""Helpers for the core tests: the scenarios failing now, and a chooser that follows a plan."""

from __future__ import annotations

from kb.core import scenario


def failing_ids(scenarios_to_run) -> set[str]:
    """Ids of the scenarios that fail now (used after breaking a rule on purpose)."""
    return {run.scenario_id for run in scenario.run_all(scenarios_to_run) if not run.passed}


class PlanChooser:
    """Answers rooms from a planned path and everything else with a fixed, simple policy."""

    def __init__(self, dungeon: str, path: tuple[str, ...]):
        self.dungeon = dungeon
        self.rooms = set(path)

    def __call__(self, decision):
        if decision.kind == "dungeon":
            return self.dungeon
        if decision.kind == "room":
            # Rooms with one exit are not asked; of two exits exactly one is on the path.
            (room,) = [r for r in decision.options if r in self.rooms]
            return room
        if decision.kind in ("discard_or_lose", "sacrifice_or_lose"):
            return "lose_life"
        if decision.kind in ("throne_creature", "cast_free"):
            return None
        if decision.kind == "order_triggers":
            return list(decision.options)
        return decision.options[0]
