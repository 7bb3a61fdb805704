"""The ``card:`` filter's table of card names, ``index/cards.json``.

A ``card:"…"`` filter keeps the rulings of the cards whose name has its words, in order
(``card:chasseur`` finds "Chasseur vengeur"). The index's ``cards`` field only tells which
documents have all the words; which names have them in order comes from this table: {name
key: card names}, a name key being the name's folded words (:func:`name_key`). The build
writes it from the store (:func:`card_names`); a query reads it once per index
(:func:`filter_names`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from kb.corpus.languages import LANGUAGES
from kb.search import analysis, folder
from kb.search.query import Query


def name_key(name: str) -> str:
    """A card name as the ``card:`` filter compares it: its folded words, space-separated.

    >>> name_key("Unterkellersäuberung"), name_key("Chasseur  vengeur")
    ('unterkellersauberung', 'chasseur vengeur')
    """
    return " ".join(analysis.card_key(name))


def card_names(db) -> dict[str, list[str]]:
    """{name key: the card names with that key} of every card with an indexed ruling."""
    table: dict[str, set[str]] = {}
    for (name,) in db.execute(
        "SELECT DISTINCT c.name FROM rulings r JOIN cards c ON c.id = r.card_id "
        f"WHERE r.lang IN ({', '.join('?' for _ in LANGUAGES)})",
        list(LANGUAGES),
    ):
        table.setdefault(name_key(name), set()).add(name)
    return {key: sorted(names) for key, names in table.items()}


@lru_cache(maxsize=8)
def _card_table(index_dir: str, identity) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(" key ", names) of every card name in the index (``identity``: the index's, so a
    rebuilt index is read again)."""
    table = folder.read_json(Path(index_dir) / folder.CARDS) or {}
    return tuple((f" {key} ", tuple(names)) for key, names in sorted(table.items()))


def filter_names(query: Query, index_dir: str | Path, identity) -> list[str]:
    """The card names passing every ``card:"…"`` filter of the query: its words, in order,
    anywhere in the name. ``identity``: the opened index's (:mod:`kb.search.handles`)."""
    table = _card_table(str(index_dir), identity)
    passing = None
    for card in query.cards:
        want = f" {name_key(card)} "
        named = {name for padded, names in table if want in padded for name in names}
        passing = named if passing is None else passing & named
    return sorted(passing or ())
