"""Example traces in every language: complete catalogs, glossary terms, no fallbacks."""

from __future__ import annotations

import ast
import json
from dataclasses import asdict
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from kb.core import scenario
from kb.corpus.languages import LANGUAGES, UI_LANGUAGES
from kb.examples import runs as example_runs
from kb.examples import text as et
from kb.reference.glossary import load as load_glossary

CORE = Path(et.__file__).resolve().parent.parent / "core"


def _constants(node) -> set[str]:
    return {
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def _core_calls(name: str):
    for path in sorted(CORE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called == name:
                    yield node


def emitted_log_kinds() -> set[str]:
    """Kinds passed to ``game.note(kind, ...)`` or ``rooms.note(game, player, kind, ...)``."""
    kinds = set()
    for call in _core_calls("note"):
        for arg in call.args:
            kinds |= _constants(arg)
    return kinds


def refusal_reasons() -> set[str]:
    return {c for call in _core_calls("Refused") for c in _constants(call.args[0])}


@pytest.fixture(scope="module")
def runs():
    return [r.run for r in example_runs.run_examples()]


def test_the_scan_finds_the_core_log_kinds():
    kinds = emitted_log_kinds()
    assert {"takes_initiative", "ventures", "refused", "scry", "gains_life", "loses_life"} <= kinds


def test_every_log_kind_the_core_emits_has_a_message():
    base = {key.partition(":")[0] for key in et.LOG}
    assert emitted_log_kinds() - base == set()


def test_every_event_and_refusal_reason_has_a_message():
    assert set(scenario.EVENTS) - set(et.EVENTS) == set()
    assert refusal_reasons() - set(et.REASONS) == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalog_translates_every_message_keeping_placeholders(lang):
    with et.po_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    wanted = {m[0] if isinstance(m, tuple) else m for m in et.message_ids()}
    wanted |= set(et.TOKENS) | set(et.CARDS)
    have = {(m.id[0] if isinstance(m.id, tuple) else m.id) for m in catalog if m.id}
    assert wanted - have == set(), "missing"
    assert have - wanted == set(), "stale"
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings) and not message.fuzzy, message.id
    # babel's checkers: the same %(name)s placeholders, the right number of plural forms.
    problems = [(m.id, [str(e) for e in errors]) for m, errors in catalog.check()]
    assert problems == []


def test_catalogs_match_the_template_checked_in():
    with (et.LOCALE_DIR / "examples.pot").open("rb") as handle:
        pot = read_po(handle)
    assert {m.id for m in pot if m.id} == {m.id for m in et.template() if m.id}


def test_a_french_reader_sees_bruno_take_the_initiative():
    entry = {"kind": "takes_initiative", "player": "Bruno", "previous": None, "rule": "726.3"}
    assert et.describe(entry, "fr") == "Bruno prend l'initiative"
    assert et.describe(entry, "en") == "Bruno takes the initiative"
    again = dict(entry, previous="Bruno")
    assert "initiative à nouveau" in et.describe(again, "fr")


# (describe function, item, the glossary concept its translation must use in every language)
GLOSSARY_USE = [
    (
        et.describe_entry,
        {"kind": "takes_initiative", "player": "Bruno", "previous": None},
        "take_initiative",
    ),
    (et.describe_event, {"kind": "venture_into", "player": "Ann"}, "venture_into_undercity"),
    (et.describe_event, {"kind": "venture", "player": "Ann"}, "venture"),
    (
        et.describe_entry,
        {"kind": "starts_dungeon", "player": "Ann", "dungeon": "Undercity"},
        "command_zone",
    ),
    (
        et.describe_entry,
        {"kind": "ventures", "player": "Ann", "dungeon": "Undercity", "room": "Forge"},
        "venture_marker",
    ),
    (et.describe_event, {"kind": "begin_upkeep"}, "upkeep"),
    (
        et.describe_entry,
        {"kind": "combat_damage", "player": "Ann", "to": "Bo", "amount": None},
        "combat_damage",
    ),
    (
        et.describe_entry,
        {"kind": "leaves_game", "player": "Ann", "reason": "concedes"},
        "leave_game",
    ),
    (et.describe_entry, {"kind": "no_active_player"}, "active_player"),
    (et.describe_entry, {"kind": "trigger", "label": "upkeep:Ann@Ann"}, "venture_into_undercity"),
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "write, item, concept", GLOSSARY_USE, ids=[f"{i['kind']}-{c}" for _, i, c in GLOSSARY_USE]
)
def test_translations_use_the_glossary_terms(write, item, concept, lang):
    text = write(item, lang)
    assert concept in load_glossary().concept_ids(text, lang), text


def test_state_lines_use_the_glossary_terms():
    state = {
        "initiative": "Ann",
        "active_player": "Ann",
        "stack": ["taken:Ann@Ann"],
        "players": {"Ann": {"in_game": True, "dungeon": "Undercity", "room": "Forge"}},
    }
    for lang in LANGUAGES:
        text = " ".join(et.describe_state(state, lang))
        found = load_glossary().concept_ids(text, lang)
        assert {"initiative", "active_player", "stack", "room"} <= found, (lang, text)


def test_plurals_follow_each_language():
    draws = [et.describe({"kind": "draws", "player": "Ann", "n": n}, "ru") for n in (1, 3, 5)]
    assert draws == ["Ann берёт 1 карту", "Ann берёт 3 карты", "Ann берёт 5 карт"]
    assert et.describe({"kind": "draws", "player": "Ann", "n": 1}, "de") == "Ann zieht 1 Karte"


def test_names_use_the_glossary_or_the_token_context():
    assert et.name("Undercity", "ru") == "Undercity"  # keep_english
    assert et.name("Treasure #2", "fr") == "Trésor #2"
    assert et.name("Bruno's Wolf", "fr") == "Bruno's Wolf"


@pytest.mark.parametrize("lang", UI_LANGUAGES)
def test_every_step_of_every_example_is_written_without_fallback(runs, lang, monkeypatch):
    def refuse(entry):
        raise AssertionError(f"no message for {entry}")

    def missing(self, key):
        raise AssertionError(f"no value for %({key})s")

    monkeypatch.setattr(et, "_fallback", refuse)
    monkeypatch.setattr(et._Fields, "__missing__", missing)
    for run in runs:
        for step in run.steps:
            text = et.describe(step, lang)
            assert "%(" not in text and text.strip()
            for entry in step.log:
                et.describe_entry(entry, lang)


def test_a_refused_step_says_why():
    run = scenario.run(
        example_runs.RULINGS_DIR / "205.3p-plain-venture-never-starts-undercity.yaml"
    )
    text = et.describe(run.steps[0], "fr")
    assert text.startswith("Un effet instruit Ann de s'aventurer dans le donjon — Refusé")
    assert "s'aventurer dans Undercity" in text
    parts = et.describe_step(run.steps[0], "de")
    assert parts["refused"] and parts["differences"] == []


def test_the_site_entry_point_describes_a_stored_step():
    from kb.examples import describe

    run = scenario.run(example_runs.RULINGS_DIR / "726.3-only-one-holder.yaml")
    stored = json.loads(json.dumps(asdict(run.steps[0])))  # as example_runs.steps holds it
    assert describe(stored, "fr") == et.describe(run.steps[0], "fr")
    assert "Cleo prend l'initiative" in describe(stored, "fr")


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        et.describe({"kind": "shuffle", "player": "Ann"}, "xx")
