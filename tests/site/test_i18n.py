"""The interface catalogs: in step with the templates, complete, and well-formed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from kb.corpus.languages import LANGUAGES
from kb.site import i18n

# The checkout holding babel.cfg and the templates (kb itself may be an installed copy).
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """The messages pybabel extracts from the templates now (per babel.cfg)."""
    pot = tmp_path_factory.mktemp("pot") / "site.pot"
    subprocess.run(
        ["pybabel", "-q", "extract", "-F", "babel.cfg", "-o", str(pot), "--no-location", "."],
        cwd=ROOT,
        check=True,
    )
    with pot.open("rb") as handle:
        return {m.id for m in read_po(handle) if m.id}


def catalog(lang):
    with i18n.po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_matches_the_templates_and_is_complete(lang, extracted):
    cat = catalog(lang)
    ids = {m.id for m in cat if m.id}
    assert ids == extracted, "run pybabel extract/update (see babel.cfg)"
    for message in cat:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings) and not message.fuzzy, (lang, message.id)
        assert not list(message.check(cat)), (lang, message.id)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_compiles_and_translates(lang):
    translated = i18n.translations(lang).gettext("Languages")
    assert translated and translated != "Languages"


def test_plural_forms_follow_each_language():
    ru = i18n.translations("ru")
    forms = [
        ru.ngettext("%(count)s translation", "%(count)s translations", n) % {"count": n}
        for n in (1, 3, 5, 21)
    ]
    assert forms == ["1 перевод", "3 перевода", "5 переводов", "21 перевод"]


def test_dates_and_language_names_come_from_cldr():
    assert i18n.date("2022-06-10", "en") == "10 June 2022"
    assert i18n.date("2022-06-10", "fr") == "10 juin 2022"
    assert i18n.date("2022-06-10", "es") == "10 de junio de 2022"
    assert i18n.date("not a date", "en") == "not a date"
    assert i18n.language_name("de", "it") == "Tedesco"
    assert i18n.autonym("ru") == "Русский"
