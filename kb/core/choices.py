"""Choices come from outside the game: the decision asked, the choosers that answer, refusals.

The game never picks for a player. Whenever the rules let someone choose (a
dungeon, a room, the order of their triggers, a target, discard or lose life)
the game builds a :class:`Decision` and asks the chooser it was given. A
decision with a single option is not asked: there is nothing to choose.

An answer the rules do not allow is *refused*: the event raises
:class:`Refused` and the game is left exactly as it was before the event.

>>> chooser = ScriptedChooser([{"room": "Forge"}])
>>> chooser(Decision("room", "Ann", ("Forge", "Lost Well"), "701.49b"))
'Forge'
>>> chooser.unused()
[]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Decision:
    """A choice the rules give a player: its kind, who makes it, the legal options.

    ``options`` is ``None`` for a free answer the model cannot enumerate (the
    name of the creature card revealed from a library, for instance).
    """

    kind: str
    player: str
    options: tuple[Any, ...] | None
    rule: str
    detail: dict[str, Any] = field(default_factory=dict)


Chooser = Callable[[Decision], Any]


class Refused(Exception):
    """An event or an answer the rules do not allow; the game state is left unchanged.

    ``reason`` is a short code (``"undercity_needs_venture_into_undercity"``),
    ``details`` the values that explain it; neither is prose, so the project can
    translate them.
    """

    def __init__(self, reason: str, **details: Any) -> None:
        super().__init__(reason, details)
        self.reason = reason
        self.details = details


class ChoiceNeeded(Exception):
    """The chooser has no answer for a decision (a script that is too short)."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(
            f"no answer for {decision.kind!r} asked of {decision.player}"
            f" (options: {decision.options})"
        )
        self.decision = decision


class ScriptedChooser:
    """Answers decisions from a list, in order: each item is ``{kind: answer}``.

    Checking the kind catches a script that answers a different question than
    the game asks, which is how a wrong ordering of events shows up in examples.
    """

    def __init__(self, answers: list[dict[str, Any]] | None = None) -> None:
        self._answers = list(answers or [])
        self.asked: list[Decision] = []

    def __call__(self, decision: Decision) -> Any:
        self.asked.append(decision)
        if not self._answers:
            raise ChoiceNeeded(decision)
        ((kind, answer),) = self._answers[0].items()
        if kind != decision.kind:
            raise ChoiceNeeded(decision)
        self._answers.pop(0)
        return answer

    def unused(self) -> list[dict[str, Any]]:
        """Answers the game never asked for."""
        return list(self._answers)


def no_choices(decision: Decision) -> Any:
    """A chooser for runs that must need no choice at all."""
    raise ChoiceNeeded(decision)


def first_option(decision: Decision) -> Any:
    """Always the first legal option (handy for property tests; never used by examples)."""
    if decision.options is None:
        return None
    if decision.kind == "order_triggers":
        return list(decision.options)
    return decision.options[0]
