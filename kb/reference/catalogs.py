"""Gettext catalogs of the project, compiled in memory from the checked-in ``.po`` files.

Each domain (``site`` for the interface, ``examples`` for example traces) lives as
``kb/locale/<lang>/LC_MESSAGES/<domain>.po``. Compiling at load time with babel means no
``.mo`` file is ever checked in or stale.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def po_path(domain: str, lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


@cache
def translations(domain: str, lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``domain`` for ``lang``; English is the source and needs none."""
    path = po_path(domain, lang)
    if lang == "en" or not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)
