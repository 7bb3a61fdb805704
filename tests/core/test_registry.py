"""The registry: numbers, histories, lookups by date, and code that exists for every rule."""

from __future__ import annotations

import importlib

import pytest

from kb.core import registry
from kb.core.registry import RULES, get, number_on, rule_for_old_number

REQUIRED = [
    "726.1",
    "726.2",
    "726.3",
    "726.4",
    "726.5",
    "309.2",
    "309.2a",
    "309.2b",
    "309.2c",
    "309.2d",
    "309.3",
    "309.4a",
    "309.4c",
    "309.5a",
    "309.5b",
    "309.6",
    "309.7",
    "704.5t",
    "701.49a",
    "701.49b",
    "701.49c",
    "701.49d",
    "205.3p",
    "603.3b",
    "805.7",
    "810.9",
    "800.4a",
    "800.4d",
    "800.4j",
    "101.4",
    "725.1",
    "725.2",
    "725.3",
    "725.4",
    "725.5",
]


def resolve(dotted: str):
    module_name, _, rest = dotted.partition(".core.")
    module_part, *attrs = rest.split(".")
    obj = importlib.import_module(f"{module_name}.core.{module_part}")
    for attr in attrs:
        obj = getattr(obj, attr)
    return obj


def test_required_rules_are_registered():
    assert [n for n in REQUIRED if n not in RULES] == []


@pytest.mark.parametrize("number", list(RULES))
def test_rule_is_well_formed(number):
    rule = RULES[number]
    assert rule.number == number
    assert callable(resolve(rule.carried_by)), rule.carried_by
    assert rule.summary and "\n" not in rule.summary and len(rule.summary) < 240
    dates = [date for date, _ in rule.history]
    assert dates == sorted(dates) and len(set(dates)) == len(dates)
    assert rule.history[-1][1] == number  # the last number is the current one
    assert dates[-1] <= "2026-04-17"


def test_initiative_history_matches_the_reference_table():
    assert get("726.3").history == (
        ("2022-06-10", "721.3"),
        ("2022-10-07", "722.3"),
        ("2022-11-18", "723.3"),
        ("2023-04-14", "722.3"),
        ("2024-02-02", "723.3"),
        ("2025-04-04", "724.3"),
        ("2025-07-25", "725.3"),
        ("2026-04-17", "726.3"),
    )


@pytest.mark.parametrize(
    "number, date, old",
    [
        ("726.3", "2022-06-10", "721.3"),
        ("726.4", "2022-09-30", "721.4"),
        ("726.2", "2022-10-07", "722.2"),
        ("726.2", "2022-12-01", "723.2"),
        ("726.5", "2023-04-14", "722.5"),
        ("726.1", "2024-06-07", "723.1"),
        ("726.1", "2025-06-06", "724.1"),
        ("726.1", "2026-01-16", "725.1"),
        ("726.1", "2026-04-17", "726.1"),
        ("701.49d", "2022-06-10", "701.46d"),
        ("701.49c", "2021-07-23", "701.46c"),
        ("701.49c", "2025-06-06", "701.49c"),
        ("704.5t", "2021-07-23", "704.5t"),
        ("309.6", "2026-04-17", "309.6"),
        ("725.4", "2021-07-23", "720.4"),
        ("725.1", "2022-06-10", "720.1"),
        ("725.2", "2022-10-07", "721.2"),
        ("725.3", "2022-11-18", "722.3"),
        ("725.4", "2023-10-13", "721.4"),
        ("725.1", "2024-06-07", "722.1"),  # mtg.wiki quotes the June 7, 2024 CR: 722 The Monarch
        ("725.2", "2025-06-06", "723.2"),
        ("725.3", "2026-01-16", "724.3"),
        ("725.5", "2026-04-17", "725.5"),
    ],
)
def test_number_on(number, date, old):
    assert number_on(number, date) == old
    assert rule_for_old_number(old, date).number == number


@pytest.mark.parametrize(
    "number, date",
    [
        ("726.1", "2022-06-09"),  # the initiative did not exist yet
        ("701.49d", "2022-04-29"),  # venture into [quality] came with CLB
        ("205.3p", "2022-04-29"),  # 205.3p said something else then
        ("725.1", "2020-11-10"),  # the monarch existed, but before the first tracked edition
        ("725.5", "2022-06-10"),  # there was no 720.5
        ("725.5", "2026-01-16"),  # added at an edition not pinned down: no number claimed
    ],
)
def test_no_number_before_the_rule_existed_or_was_tracked(number, date):
    assert number_on(number, date) is None


def test_monarch_history_matches_the_reference_table():
    # Reference 1.1: the monarch's section, one below the initiative's from June 2022 on.
    assert [(d, n.split(".")[0]) for d, n in get("725.3").history] == [
        ("2021-07-23", "720"),
        ("2022-10-07", "721"),
        ("2022-11-18", "722"),
        ("2023-04-14", "721"),
        ("2024-02-02", "722"),
        ("2025-04-04", "723"),
        ("2025-07-25", "724"),
        ("2026-04-17", "725"),
    ]
    for date, number in get("726.3").history:
        assert int(number_on("725.3", date).split(".")[0]) == int(number.split(".")[0]) - 1


def test_the_registry_never_claims_720_5():
    with pytest.raises(KeyError):
        rule_for_old_number("720.5", "2022-06-10")
    assert get("725.5").history == (("2026-04-17", "725.5"),)
    assert "720.5" in get("725.5").note and get("725.4").note


def test_every_rule_has_a_number_or_none_on_any_date():
    # `kb rules --on DATE` lists every rule: no date may make the registry raise.
    for date in ("2016-08-26", "2021-07-23", "2022-06-10", "2024-06-07", "2026-04-17"):
        for rule in RULES.values():
            assert number_on(rule.number, date) in {n for _, n in rule.history} | {None}


def test_unknown_numbers_are_clear_errors():
    with pytest.raises(KeyError, match="not registered"):
        get("999.9")
    with pytest.raises(KeyError, match="no registered rule"):
        rule_for_old_number("726.3", "2022-06-10")  # 726.3 was another rule's number then


def test_registry_order_groups_the_initiative_first_then_the_monarch():
    assert list(RULES)[:10] == [
        "726.1",
        "726.2",
        "726.3",
        "726.4",
        "726.5",
        "725.1",
        "725.2",
        "725.3",
        "725.4",
        "725.5",
    ]
    assert registry.TRACKED_SINCE == "2021-07-23"
