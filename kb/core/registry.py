"""The rules the core carries out, looked up: by number, on a date, by an old number.

The rules themselves, with the numbers each had over the editions, are the table of
:mod:`kb.core.rule_table`. On a date before the edition a rule's history starts at, the
rule has no number here (:func:`number_on` answers None), so the registry never claims a
number the rule did not have.

>>> get("726.3").title
'One holder'
>>> number_on("726.3", "2022-06-10"), number_on("726.3", "2023-05-01")
('721.3', '722.3')
>>> number_on("701.49d", "2022-06-10")
'701.46d'
>>> number_on("725.4", "2022-06-10"), number_on("725.5", "2022-06-10")
('720.4', None)
>>> rule_for_old_number("721.4", "2022-07-01").number
'726.4'
"""

from __future__ import annotations

from kb.core.rule_table import TABLE, TRACKED_SINCE, Rule

__all__ = ["RULES", "TRACKED_SINCE", "Rule", "get", "number_on", "rule_for_old_number"]

RULES: dict[str, Rule] = {rule.number: rule for rule in TABLE}


def get(number: str) -> Rule:
    """The registered rule with current number ``number``."""
    try:
        return RULES[number]
    except KeyError:
        raise KeyError(
            f"rule {number!r} is not registered in kb.core (registered: {', '.join(RULES)})"
        ) from None


def number_on(number: str, date_iso: str) -> str | None:
    """The number rule ``number`` had in the Comprehensive Rules in force on ``date_iso``.

    None if the registry knows no number for it on that date: the rule did not
    exist yet, or the date is before the edition its history starts at (see the
    rule's ``note``). Callers that list every rule for a date (``kb rules --on``)
    show those as having no number then. KeyError for an unregistered ``number``.
    """
    found = None
    for effective, old in get(number).history:
        if effective <= date_iso:
            found = old
    return found


def rule_for_old_number(old: str, date_iso: str) -> Rule:
    """The registered rule that had number ``old`` on ``date_iso`` (the inverse of number_on)."""
    for rule in RULES.values():
        if number_on(rule.number, date_iso) == old:
            return rule
    raise KeyError(f"no registered rule had number {old!r} on {date_iso}")
