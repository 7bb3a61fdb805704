"""data/rulings.json: the same bytes as ``kb export json``, whether its pieces are encoded anew
or copied from the previous build's dump."""

from __future__ import annotations

import shutil

import sqlite_utils

from kb import export
from kb.site import dump


def test_dump_is_the_export_and_reuses_the_previous_pieces(seed_site, tmp_path):
    build = seed_site.parent
    shutil.copy(build / "rulings.db", tmp_path / "rulings.db")
    db = sqlite_utils.Database(tmp_path / "rulings.db")
    assert (build / "site" / "data" / "rulings.json").read_text(encoding="utf-8") == \
        export.to_json(db)
    figures = dump.write(db, tmp_path / "again.json", build)
    assert figures["dump_reused"] == figures["dump_groups"] > 0
    assert (tmp_path / "again.json").read_text(encoding="utf-8") == export.to_json(db)
    # one ruling edited: its group is encoded anew, the others copied, same bytes as the export
    ruling = next(db.query("SELECT id, text FROM rulings ORDER BY id"))
    db.execute("UPDATE rulings SET text = ? WHERE id = ?", [ruling["text"] + " «ß»", ruling["id"]])
    db.conn.commit()
    figures = dump.write(db, tmp_path / "edited.json", build)
    assert figures["dump_reused"] == figures["dump_groups"] - 1
    assert (tmp_path / "edited.json").read_text(encoding="utf-8") == export.to_json(db)


def test_an_empty_store_dumps_like_the_export(tmp_path):
    db = sqlite_utils.Database(tmp_path / "empty.db")
    db["rulings"].create({"id": str, "source": str, "card_id": str, "lang": str, "date": str,
                          "position": int, "text": str, "line": int}, pk="id")
    db["cards"].create({"id": str, "name": str, "lang": str}, pk="id")
    dump.write(db, tmp_path / "d.json")
    assert (tmp_path / "d.json").read_text(encoding="utf-8") == export.to_json(db)
