"""The glossary's data: every required concept has a term in every language and each term is
found by its own forms; a concept missing a language, a bad id or a misplaced form is a clear
error."""

from __future__ import annotations

import re

import pytest

from kb.core import dungeons
from kb.corpus.languages import UI_LANGUAGES
from kb.errors import KbError
from kb.reference import glossary

REQUIRED = [
    "initiative",
    "take_initiative",
    "venture",
    "venture_into_undercity",
    "dungeon",
    "room",
    "venture_marker",
    "command_zone",
    "upkeep",
    "combat_damage",
    "team",
    "two_headed_giant",
    "leave_game",
    "active_player",
    "turn_order",
    "triggered_ability",
    "designation",
    "monarch",
    "permanent",
    "stack",
    "complete_dungeon",
    "undercity",
    "secret_entrance",
]


def test_every_required_concept_has_a_term_in_every_language(g):
    ids = [c.id for c in g.concepts]
    assert set(REQUIRED) <= set(ids)
    assert len(ids) == len(set(ids))
    for concept in g.concepts:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", concept.id)
        for lang in UI_LANGUAGES:
            assert concept.terms[lang], (concept.id, lang)


def test_every_term_is_found_by_its_own_forms(g):
    unfound = [
        (c.id, lang, term)
        for c in g.concepts
        for lang, terms in c.terms.items()
        for term in terms
        if c.id not in g.concept_ids(term, lang)
    ]
    assert unfound == []


def _concept_x(folder, fields: str = "", forms: str = ""):
    """A glossary file of one concept ``x``, a term in every language, with ``fields`` (YAML
    lines of the concept) and ``forms`` (lines of its forms)."""
    bad = folder / "glossary.yaml"
    terms = "".join(f"      {lang}: [x]\n" for lang in UI_LANGUAGES)
    forms = f"    forms:\n{forms}" if forms else ""
    bad.write_text(f"concepts:\n  - id: x\n{fields}    terms:\n{terms}{forms}", encoding="utf-8")
    return bad


def test_yielding_to_an_unknown_concept_is_a_clear_error(tmp_path):
    bad = _concept_x(tmp_path, "    yields_to: [nowhere]\n")
    with pytest.raises(KbError, match="'x' yields to 'nowhere', which is not in the glossary"):
        glossary.load(bad)


def test_a_variant_word_gives_every_form_holding_it_a_twin(tmp_path):
    # variants: the printed products' word beside the seeds' ("Gewölbe" for "Verlies"), in
    # every form that holds it, its comma kept; a malformed table is one clear error.
    path = _concept_x(tmp_path, forms='      de: [verlies*, "verlies*, das ~ abgeschlossen"]\n')
    path.write_text("variants:\n  de: {verlies*: gewölbe*}\n" + path.read_text(), "utf-8")
    g = glossary.load(path)
    assert g.get("x").forms["de"][2:] == ["gewölbe*", "gewölbe*, das ~ abgeschlossen"]
    assert g.concept_ids("Das Gewölbe, das du abgeschlossen hast", "de") == {"x"}
    bad = tmp_path / "bad.yaml"  # load() caches by path
    bad.write_text("variants: [gewölbe]\n" + path.read_text().split("\n", 2)[2], "utf-8")
    with pytest.raises(KbError, match="variants"):
        glossary.load(bad)


# A "!word" comes after the words it follows; a gap joins two words (in a YAML list,
# "[auf, ~3 zu sein]" is two patterns, "auf" and "~3 zu sein", and the first finds every "auf").
@pytest.mark.parametrize(
    "form, problem",
    [
        ("!in avventur*", "'!word' comes after the words it follows"),
        ("avventur* !in nel", "'!word' comes after the words it follows"),
        ("!in", "'!word' comes after the words it follows"),
        ("~3 zu sein", "'~N' comes between two words"),
        ("avventur* ~2", "'~N' comes between two words"),
        ("~1", "'~N' comes between two words"),
        ("abgeschlossen ~", "'~N' comes between two words"),
        ("spost* ~4 <stanza>", "'<stanza>' is no placeholder (known: <dungeon>, <room>, "),
        ("<stanza> ~2 spost*", "'<stanza>' is no placeholder (known: <dungeon>, <room>, "),
        ("spost* su<room>", "'su<room>' holds a placeholder inside a word"),
    ],
)
def test_a_misplaced_word_to_exclude_or_gap_is_a_clear_error(tmp_path, form, problem):
    bad = _concept_x(tmp_path, forms=f"      it: ['{form}']\n")
    with pytest.raises(KbError, match=re.escape(f"x: '{form}': {problem}")):
        glossary.load(bad)


def test_names_kept_in_english(g):
    assert g.get("undercity").keep_english and g.get("secret_entrance").keep_english
    assert not g.get("dungeon").keep_english
    assert g.get("secret_entrance").term("ru") == "Secret Entrance"
    assert "secret_entrance" in g.concept_ids("vers Entrée secrète (la première salle)", "fr")
    assert "secret_entrance" in g.concept_ids("в Secret Entrance (первую комнату)", "ru")


def test_a_room_at_a_dungeons_end_is_named_by_the_core(g):
    """last_room's form <last_room> is every bottommost room of the core's room graphs, in
    every language (room names are printed in English); a room on the way is no last room."""
    for dungeon in dungeons.DUNGEONS.values():
        for lang in UI_LANGUAGES:
            assert "last_room" in g.concept_ids(f"{dungeon.bottommost} ability", lang)
            assert "last_room" not in g.concept_ids(f"{dungeon.topmost} ability", lang)
            middle = dungeon.next_rooms(dungeon.topmost)[0]
            assert "last_room" not in g.concept_ids(f"{middle} ability", lang)


@pytest.mark.parametrize(
    "lang, sentence",
    [
        ("en", "you complete {}"),
        ("ru", "вы завершаете {}"),
        ("it", "completi {}"),
        ("fr", "vous terminez {}"),
        ("de", "schließt du {} ab"),
        ("es", "completas {}"),
    ],
)
def test_a_form_names_every_dungeon_of_the_core(g, lang, sentence):
    # "<dungeon>" in a form stands for each dungeon's name: a dungeon added to the core is
    # completed, started and chosen by name with no glossary edit.
    for name in dungeons.DUNGEONS:
        assert "complete_dungeon" in g.concept_ids(sentence.format(name), lang), name
    assert "complete_dungeon" not in g.concept_ids(sentence.format("Goblin Lair"), lang)


@pytest.mark.parametrize(
    "lang, sentence",
    [
        ("en", "your venture marker moves down to {}"),
        ("ru", "маркер путешествия перемещается в {}"),
        ("it", "sposti il tuo segnalino avanzamento su {}"),
        ("fr", "vous déplacez votre marqueur d'aventure vers {}"),
        ("de", "bewegst du deinen Vorstoßmarker in {}"),
        ("es", "mueves tu marcador de aventura a {}"),
    ],
)
def test_a_marker_moving_to_any_room_an_arrow_leads_to_goes_to_the_next_room(g, lang, sentence):
    # "<later_room>" in next_room's forms is every room of the core an arrow leads to: a
    # dungeon added to the core brings its rooms. Its topmost room is where a marker is put
    # on entering (701.49a), no room it goes on to (701.49b).
    for dungeon in dungeons.DUNGEONS.values():
        for room in dungeon.rooms[1:]:
            assert "next_room" in g.concept_ids(sentence.format(room.name), lang), room.name
        assert "next_room" not in g.concept_ids(sentence.format(dungeon.topmost), lang)


def test_get_unknown_concept_names_it(g):
    with pytest.raises(KeyError, match="no_such"):
        g.get("no_such")


def test_a_concept_missing_a_language_is_a_clear_error(tmp_path):
    bad = tmp_path / "glossary.yaml"
    bad.write_text("concepts:\n  - id: orphan\n    terms:\n      en: [orphan]\n", encoding="utf-8")
    with pytest.raises(KbError, match=r"orphan: no term in ru, it, fr, de, es"):
        glossary.load(bad)


def test_a_bad_id_is_a_clear_error(tmp_path):
    bad = tmp_path / "glossary.yaml"
    terms = "".join(f"      {lang}: [x]\n" for lang in UI_LANGUAGES)
    bad.write_text(f"concepts:\n  - id: Bad-Id\n    terms:\n{terms}", encoding="utf-8")
    with pytest.raises(KbError, match="not snake_case"):
        glossary.load(bad)
