"""kb.search.analysis: folding, stop words, stemming per language, German compounds, the analyzer."""

from __future__ import annotations

import pytest

from kb.search import analysis
from kb.search.analysis import card_key, compound_parts, fold, terms


@pytest.mark.parametrize(
    "lang, a, b",
    [
        ("fr", "dernière", "derniere"),
        ("fr", "DERNIÈRE", "derniere"),
        ("es", "última", "ultima"),
        ("es", "daño", "dano"),
        ("it", "finché", "finche"),
        ("ru", "её", "ее"),
        ("de", "Vorstoß", "vorstoss"),
        ("de", "Säuberung", "saeuberung"),
    ],
)
def test_fold_makes_case_and_accents_match(lang, a, b):
    assert fold(a, lang) == fold(b, lang)
    assert terms(a, lang) == terms(b, lang)


def test_fold_keeps_short_i_apart_from_i():
    # й is a letter of its own in Russian, unlike the diaeresis of ё.
    assert fold("мой", "ru") != fold("мои", "ru")
    assert fold("ё", "ru") == "е"


def test_typographic_and_straight_apostrophes_analyse_alike():
    assert terms("le joueur prend l’initiative", "fr") == terms(
        "le joueur prend l'initiative", "fr"
    )
    assert terms("prende l’iniziativa", "it") == terms("prende l'iniziativa", "it")
    assert "initiative" in fold("l’initiative", "fr")


def test_stop_words_and_elided_articles_give_no_terms():
    assert terms("le la les de", "fr") == []
    assert terms("lorsqu’un qu’il", "fr") == []
    assert terms("dell'iniziativa", "it") == terms("iniziativa", "it")


@pytest.mark.parametrize(
    "lang, forms",
    [
        ("fr", ["joueur", "joueurs"]),
        ("it", ["giocatore", "giocatori"]),
        ("es", ["mazmorra", "mazmorras"]),
        ("de", ["Spieler", "Spielers"]),
        ("ru", ["подземелье", "подземелья", "подземелье"]),
    ],
)
def test_inflected_forms_share_a_term(lang, forms):
    assert len({tuple(terms(f, lang)) for f in forms}) == 1


def test_lemma_method_joins_forms_snowball_keeps_apart():
    # The case the issue names: Snowball alone stems Verlies and Verlieses differently.
    assert terms("Verlies", "de") != terms("Verlieses", "de")
    assert terms("Verlies", "de", "lemma") == terms("Verlieses", "de", "lemma")


def test_unknown_method_is_refused():
    with pytest.raises(ValueError, match="unknown analysis method"):
        terms("joueur", "fr", method="nope")


def test_german_compounds_also_give_their_parts():
    assert compound_parts("Kampfschaden") == ("kampf", "schaden")
    got = terms("Kampfschaden", "de")
    assert got[0] == terms("Kampfschaden", "de", split=False)[0]
    assert terms("Schaden", "de")[0] in got and terms("Kampf", "de")[0] in got


def test_german_verbs_and_known_words_stay_whole():
    assert compound_parts("ergreifen") == ()
    assert compound_parts("Reihenfolge") == ()
    assert terms("ergreifen", "de") == terms("ergreifen", "de", split=False)


def test_positions_skip_stop_words_and_parts_share_the_compound_position():
    tokens = analysis.analyze("der Kampfschaden des Teams", "de")
    assert [t.pos for t in tokens] == [0, 0, 0, 1]
    assert [t.start for t in tokens][:1] == [4]


def test_card_key_matches_umlaut_spellings():
    assert card_key("Unterkellersäuberung") == card_key("unterkellersaeuberung")
    assert card_key("Unterkellersäuberung") == card_key("Unterkellersauberung")
    assert card_key("Chasseur vengeur") == ["chasseur", "vengeur"]


def test_whoosh_analyzer_yields_the_same_terms_with_positions():
    analyzer = analysis.LanguageAnalyzer("fr")
    text = "Le joueur actif prend l’initiative"
    tokens = [
        (t.text, t.pos, t.startchar, t.endchar) for t in analyzer(text, positions=True, chars=True)
    ]
    assert [t[0] for t in tokens] == terms(text, "fr")
    assert [t[1] for t in tokens] == [0, 1, 2, 3]
    assert text[tokens[0][2] : tokens[0][3]] == "joueur"


def test_analyzer_leaves_compounds_whole_in_query_mode():
    analyzer = analysis.LanguageAnalyzer("de")
    assert [t.text for t in analyzer("Kampfschaden", mode="query")] == terms(
        "Kampfschaden", "de", split=False
    )
