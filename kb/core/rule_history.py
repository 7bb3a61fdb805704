"""A registered rule and how the table writes it: its number, the history of its numbers,
title, summary and the code that carries it out.

Numbers are those of the Comprehensive Rules in force from 2026-04-17. Rule numbers moved
over the years (the initiative was 721 when it was printed, the monarch 720), so each rule
keeps its ``history``: (effective date, number) pairs, oldest first, from the first edition
the project tracks (2021-07-23, the first with dungeons) or from the edition that introduced
the rule; a rule whose first edition is not known starts at the first edition known to have
it. ``note`` says what the history alone does not (a rule that was worded differently, an
unknown start). The rules themselves are :mod:`kb.core.rule_table` and, for dungeons and
venturing, :mod:`kb.core.dungeon_rules`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

TRACKED_SINCE = "2021-07-23"


@dataclass(frozen=True)
class Rule:
    """One registered rule. ``carried_by`` is the dotted name of the code that carries it out."""

    number: str
    history: tuple[tuple[str, str], ...]
    title: str
    summary: str
    carried_by: str
    note: str = ""


def unchanged(number: str, since: str = TRACKED_SINCE) -> tuple[tuple[str, str], ...]:
    """The history of a rule that kept ``number`` from ``since`` on."""
    return ((since, number),)


def rule(
    number: str,
    title: str,
    summary: str,
    carried_by: str,
    history: tuple[tuple[str, str], ...] | None = None,
    note: str = "",
) -> Rule:
    """A table row: ``carried_by`` relative to ``kb.core``, the history unchanged by default."""
    return Rule(number, history or unchanged(number), title, summary, "kb.core." + carried_by, note)


@lru_cache(maxsize=4096)  # a build sorts the same few hundred numbers again and again
def rule_key(number: str) -> tuple[tuple[int, str], ...]:
    """Rule numbers in the Comprehensive Rules' order, as numbers: 101.4 < 205.3p < 701.46
    < 701.49b < 726.3 < 726.10 (the align, link and site stages all sort by it).

    >>> sorted(["726.10", "205.3p", "726.3", "701.49b", "701.49"], key=rule_key)
    ['205.3p', '701.49', '701.49b', '726.3', '726.10']
    """
    return tuple(
        (int(part), "") if part.isdigit() else (_leading_number(part), part)
        for part in re.split(r"[.\s]+", str(number))
        if part
    )


def _leading_number(part: str) -> int:
    """The digits ``part`` starts with as a number (5 of "5t"); -1 when it starts with none."""
    digits = re.match(r"\d*", part)  # always matches: \d* takes the empty prefix too
    return int(digits.group()) if digits and digits.group() else -1
