"""Card identity: localized names of one card, unknown cards, a bad catalog."""

from __future__ import annotations

import pytest

from kb.corpus import parse
from kb.errors import KbError
from kb.reference import cards


def test_every_seed_card_is_known(seeds):
    for path in seeds:
        parsed = parse.parse_file(path)
        ident = cards.identify(parsed.card, parsed.lang)
        assert ident.known and ident.english_name, parsed.card


def test_the_two_seeds_of_one_card_share_its_identity():
    fr = cards.identify("Chasseur vengeur", "fr")
    it = cards.identify("Cacciatore Vendicatore", "it")
    assert fr == it
    assert fr.english_name == "Avenging Hunter"
    assert cards.identify("Unterkellersäuberung", "de").identity != fr.identity


def test_lookup_ignores_case_spacing_and_unicode_composition():
    decomposed = "Исследователь Подземья".replace("й", "и\u0306")
    assert cards.identify(f"  {decomposed.upper()} ", "ru").english_name == "Underdark Explorer"
    assert cards.identify("chasseur  VENGEUR", "fr").known


def test_english_name_and_a_name_filed_under_another_language_are_found():
    assert cards.identify("Avenging Hunter", "en").identity == "avenging-hunter"
    # Filed under Spanish by mistake: still the same card rather than a new one.
    assert cards.identify("Chasseur vengeur", "es").identity == "avenging-hunter"


def test_unknown_cards_get_an_identity_of_their_own():
    ident = cards.identify("Forêt de Brocéliande", "fr")
    assert not ident.known and ident.english_name is None
    assert ident.identity == "fr-foret-de-broceliande"
    assert cards.identify("Forêt de Brocéliande", "it").identity != ident.identity
    assert cards.identify("Неизвестная карта", "ru").identity == "ru-неизвестная-карта"


def test_one_name_given_to_two_cards_is_a_clear_error(tmp_path):
    bad = tmp_path / "cards.yaml"
    bad.write_text(
        "cards:\n"
        "  - {identity: a, english_name: A, names: {fr: [Même nom]}}\n"
        "  - {identity: b, english_name: B, names: {fr: [Même nom]}}\n",
        encoding="utf-8",
    )
    with pytest.raises(KbError, match="Même nom.*given to a and b"):
        cards.catalog(bad)
