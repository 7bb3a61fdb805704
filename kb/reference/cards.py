"""Card identity: which localized card names are one card, and that card's English name.

The catalog is data (``kb/cards.yaml``). A name is looked up case-insensitively after Unicode
normalisation (NFC), in its own language first, then in any language (a card listed under one
language but filed under another is still found). A card the catalog does not know gets an
identity of its own, derived from its language and name, and ``known`` False: pages then show
it alone rather than guessing what it is.

>>> identify("Chasseur vengeur", "fr").english_name
'Avenging Hunter'
>>> identify("Cacciatore Vendicatore", "it").identity == identify("Chasseur vengeur", "fr").identity
True
>>> identify("Carte inconnue", "fr")
Identity(identity='fr-carte-inconnue', english_name=None, known=False)
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kb.errors import KbError, Problem, read_yaml

CATALOG_FILE = Path(__file__).with_name("cards.yaml")


@dataclass(frozen=True)
class Identity:
    identity: str
    english_name: str | None
    known: bool


def _key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def slug(text: str) -> str:
    """A lowercase ASCII-friendly slug that keeps non-Latin letters (Cyrillic stays Cyrillic)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    kept = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[^\w]+", "-", kept).strip("-_")


@lru_cache(maxsize=4)
def catalog(path: str | Path = CATALOG_FILE) -> dict[tuple[str | None, str], Identity]:
    """{(lang, name key): identity}, plus (None, name key) for lookups in any language."""
    data = read_yaml(path) or {}
    index: dict[tuple[str | None, str], Identity] = {}
    problems = []
    for number, card in enumerate(data.get("cards") or [], start=1):
        try:
            ident = Identity(str(card["identity"]), str(card["english_name"]), True)
            names = {"en": [card["english_name"]], **card["names"]}
        except (KeyError, TypeError) as exc:
            problems.append(Problem(str(path), 0, f"card #{number}: missing {exc}"))
            continue
        for lang, values in names.items():
            for name in values:
                earlier = index.get((lang, _key(name)))
                if earlier and earlier != ident:
                    problems.append(
                        Problem(
                            str(path),
                            0,
                            f"{lang} name {name!r} is given to "
                            f"{earlier.identity} and {ident.identity}",
                        )
                    )
                index[(lang, _key(name))] = ident
                index.setdefault((None, _key(name)), ident)
    if problems:
        raise KbError(problems)
    return index


def identify(name: str, lang: str) -> Identity:
    """The identity of the card printed as ``name`` in ``lang``."""
    index = catalog()
    found = index.get((lang, _key(name))) or index.get((None, _key(name)))
    return found or Identity(f"{lang}-{slug(name)}", None, False)


def identity_rows(db, sql: str = "SELECT * FROM cards"):
    """card_identities rows of the cards ``sql`` selects."""
    for row in db.query(sql):
        ident = identify(row["name"], row["lang"])
        yield {
            "card_id": row["id"],
            "identity": ident.identity,
            "english_name": ident.english_name,
            "known": ident.known,
        }
