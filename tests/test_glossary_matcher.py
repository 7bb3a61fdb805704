"""The glossary's matcher: matches are offsets into the text as given, whole words only, a
longer term's words are not their own concepts, English left in a translation is found only
when asked, and its shortcuts find exactly what scanning every concept's regex finds."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.corpus import parse
from kb.corpus.languages import UI_LANGUAGES
from kb.reference import glossary


def test_matches_are_offsets_into_the_text_as_given(g, seeds):
    for path in seeds:
        parsed = parse.parse_file(path)
        for ruling in parsed.rulings:
            matches = g.find(ruling.text, parsed.lang, also=("en",))
            assert matches, ruling.text
            for m in matches:
                assert ruling.text[m.start : m.end] == m.surface


def test_straight_and_typographic_apostrophes_match_alike(g):
    for text in ("le joueur qui a l’initiative", "le joueur qui a l'initiative"):
        (m,) = [m for m in g.find(text, "fr") if m.concept == "initiative"]
        assert m.surface == "initiative" and text[m.start : m.end] == m.surface


def test_words_inside_other_words_are_not_matches(g):
    # "start" must not be found in "restart", nor "room" in "bathroom".
    assert g.concept_ids("restart the bathroom", "en") == set()


def test_plain_venture_is_not_venture_into_undercity(g):
    found = g.concept_ids(
        "dich in das Verlies vorzuwagen (nicht, dich in Undercity vorzuwagen)", "de"
    )
    assert {"venture", "venture_into_undercity"} <= found
    assert "venture_into_undercity" not in g.concept_ids("dich in das Verlies vorzuwagen", "de")


@pytest.mark.parametrize(
    "concept, lang, text, longer",
    [
        ("venture", "en", "you venture into Undercity", "venture_into_undercity"),
        ("venture", "en", "move your venture marker", "venture_marker"),
        ("venture", "fr", "votre marqueur d'aventure", "venture_marker"),
        ("venture", "de", "das Vorwagen in Undercity", "venture_into_undercity"),
        ("venture", "es", "te adentras en Undercity", "venture_into_undercity"),
        # Ceasing to exist, or losing the game, is not ceasing to have a designation.
        ("cease", "en", "the ability ceases to exist", "cease_to_exist"),
        ("cease", "fr", "ces capacités cessent d'exister", "cease_to_exist"),
        ("cease", "de", "wenn der Monarch das Spiel verliert", "lose_game"),
    ],
)
def test_a_word_of_a_longer_term_is_not_its_own_concept_there(g, concept, lang, text, longer):
    found = g.concept_ids(text, lang)
    assert longer in found and concept not in found


def test_english_left_in_a_translation_is_found_only_when_asked(g):
    text = "un membro della squadra prende l'iniziativa (and ventures into Undercity)"
    assert "venture_into_undercity" not in g.concept_ids(text, "it")
    english = [m for m in g.find(text, "it", also=("en",)) if m.concept == "venture_into_undercity"]
    assert [(m.lang, m.surface) for m in english] == [("en", "ventures into Undercity")]


def _scan_everything(g, text: str, lang: str, also: tuple[str, ...]) -> list[tuple]:
    """The matcher without its shortcuts: every concept's regex run over the whole text."""
    found = []
    for concept in g.concepts:
        spans = []
        for code in (lang, *also):
            regex = g.compiled(concept, code)
            if regex is not None:
                spans += [
                    glossary.Match(concept.id, m.start(), m.end(), m.group(0), code)
                    for m in regex.finditer(text)
                ]
        found += glossary.non_overlapping(spans)
    found = glossary.yielded(found, g.by_id)
    return sorted((m.start, -m.end, m.concept, m.surface, m.lang) for m in found)


def _surfaces(g) -> list[str]:
    words = {
        p.replace("*", "").replace("'", "’")
        for c in g.concepts
        for lang in UI_LANGUAGES
        for p in c.patterns(lang)
        if "~" not in p
    }
    return sorted(words)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_shortcuts_find_exactly_what_scanning_finds(g, data):
    pieces = st.one_of(
        st.sampled_from(_surfaces(g)),
        st.text(max_size=6),
        st.sampled_from([" ", "’", "'", "-", "İ", "ẞ", "ß", "K", "\u0301"]),
    )
    text = "".join(data.draw(st.lists(pieces, max_size=12)))
    text = data.draw(st.sampled_from([text, text.upper(), text.title()]))
    lang = data.draw(st.sampled_from(UI_LANGUAGES))
    expected = _scan_everything(g, text, lang, ("en",))
    assert (
        sorted(
            (m.start, -m.end, m.concept, m.surface, m.lang)
            for m in g.find(text, lang, also=("en",))
        )
        == expected
    )
