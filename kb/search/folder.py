"""The index folder: where it is, and the JSON tables kb keeps beside whoosh's files.

``index/`` (next to ``rulings.db``) holds whoosh's segment files and:

- ``documents.json`` (:data:`DIGESTS`): {document key: digest}, which documents a rebuild
  that reuses this index must rewrite;
- ``compounds.json`` (:data:`COMPOUNDS`): the German compound splits made so far, so a
  rebuild loads no dictionary for words seen before;
- ``cards.json`` (:data:`CARDS`): the ``card:`` filter's table of card names
  (:mod:`kb.search.cards`);
- ``glossary.json`` (:data:`GLOSSARY`): the glossary's terms analysed per language
  (:mod:`kb.search.glossary`).
"""

from __future__ import annotations

import json
from pathlib import Path

DIGESTS = "documents.json"
CARDS = "cards.json"
COMPOUNDS = "compounds.json"
GLOSSARY = "glossary.json"


def index_dir_for(db_path: str | Path) -> Path:
    """Where the index of a store lives: ``index/`` next to ``rulings.db``.

    >>> index_dir_for("_build/rulings.db").as_posix()
    '_build/index'
    """
    return Path(db_path).parent / "index"


def write_json(path: Path, table: dict) -> None:
    path.write_text(json.dumps(table, sort_keys=True, ensure_ascii=False), encoding="utf-8")


def read_json(path: Path) -> dict | None:
    """The table in ``path``; None when it is missing or unreadable."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
