"""The site's ``data/rulings.json``: the ``kb export json`` bytes, reusing the previous build's.

The dump is ``{"groups": [...]}`` indented by two (:func:`kb.export.to_json`). Python's indenting
encoder is pure Python and most of the dump's cost, so each group is written as its own piece
(exactly the bytes the whole-document encoder gives it at that depth) and remembered by the
digest of its compact encoding (the C encoder: the same content gives the same digest). A later
build copies the pieces whose digest it finds in the previous build's table ``site_dump`` from
the previous file instead of encoding them again.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from kb import export
from kb.site.files import previous_rows, replace_table

TABLE = "site_dump"
_NESTING = "\n    "  # a group sits two levels deep: {"groups": [ group, ... ]}


def write(db, path: Path, previous: Path | None = None) -> dict:
    """Write the dump of ``db`` to ``path``; ``previous``: an earlier build folder whose
    ``site/data/rulings.json`` and store may give unchanged pieces. Returns figures."""
    pieces, figures = encode(db, path, previous)
    store(db, pieces)
    return figures


def encode(db, path: Path, previous: Path | None = None) -> tuple[dict, dict]:
    """Write the dump file only: (its pieces for :func:`store`, figures). Reads ``db`` only,
    so another process may do it on its own connection."""
    before = _previous_pieces(previous) if previous else {}
    old = open(previous / "site" / "data" / "rulings.json", "rb") if before else None
    pieces, reused = {}, 0
    try:
        with open(path, "wb") as handle:
            groups = export.groups(db)
            handle.write(b'{\n  "groups": [' + (b"\n    " if groups else b""))
            for number, group in enumerate(groups):
                if number:
                    handle.write(b",\n    ")
                digest = hashlib.sha256(json.dumps(group, ensure_ascii=False).encode(
                    "utf-8", "surrogatepass")).hexdigest()
                piece = None
                if digest in before:
                    offset, length = before[digest]
                    old.seek(offset)
                    piece = old.read(length)
                    reused += 1
                if piece is None or len(piece) != length:
                    piece = json.dumps(group, ensure_ascii=False, indent=2).replace(
                        "\n", _NESTING).encode("utf-8", "surrogatepass")
                pieces[digest] = (handle.tell(), len(piece))
                handle.write(piece)
            handle.write(b"\n  ]\n}\n" if groups else b"]\n}\n")
    finally:
        if old:
            old.close()
    return pieces, {"dump_groups": len(pieces), "dump_reused": reused}


def _previous_pieces(previous: Path) -> dict[str, tuple[int, int]]:
    if not (previous / "site" / "data" / "rulings.json").is_file():
        return {}
    rows = previous_rows(previous, f"SELECT digest, offset, length FROM {TABLE}")
    return {digest: (offset, length) for digest, offset, length in rows}


def store(db, pieces: dict[str, tuple[int, int]]) -> None:
    """Keep where each piece is, for the next build."""
    replace_table(db, TABLE, "digest TEXT PRIMARY KEY, offset INTEGER NOT NULL, "
                  "length INTEGER NOT NULL", sorted((d, o, n) for d, (o, n) in pieces.items()))
