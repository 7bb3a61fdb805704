"""data/rulings.json: the same bytes as ``kb export json``, whether its pieces are encoded anew
or copied from the previous build's dump."""

from __future__ import annotations

import shutil

import sqlite_utils
from hypothesis import given, settings
from hypothesis import strategies as st
from json_values import SCALARS

from kb import align
from kb.export import json as export
from kb.site import dump
from kb.store import schema


def test_dump_is_the_export_and_reuses_the_previous_pieces(seed_site, tmp_path):
    build = seed_site.parent
    shutil.copy(build / "rulings.db", tmp_path / "rulings.db")
    db = sqlite_utils.Database(tmp_path / "rulings.db")
    assert (build / "site" / "data" / "rulings.json").read_text(encoding="utf-8") == export.to_json(
        db
    )
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
    schema.create(db, "cards", "rulings")
    dump.write(db, tmp_path / "d.json")
    assert (tmp_path / "d.json").read_text(encoding="utf-8") == export.to_json(db)


def test_a_group_is_encoded_ruling_by_ruling_as_the_whole_document_encoder_would():
    """Pieces and digests are made one ruling at a time (a group may hold 10,000): the same
    bytes as ``json.dumps`` of the whole group, at its depth, and the same digest."""
    import hashlib
    import json

    ruling = {"id": "de#1", "text": "„Initiative“ – ß, ё\n«x»", "evidence": {"with": {"fr": 1}}}
    groups = [
        {"id": "726.3-abc", "rules": ["726.3"], "examples": [], "rulings": [ruling] * 3},
        {"id": "726.3-abc", "rulings": []},
        {"id": "r", "rulings": [ruling], "after": 1},
        {},
    ]
    for group in groups:
        whole = json.dumps(group, ensure_ascii=False, indent=2).replace("\n", "\n    ")
        assert b"".join(dump.indented(group)) == whole.encode("utf-8")
        compact = json.dumps(group, ensure_ascii=False).encode("utf-8")
        assert dump.piece_digest(group)[0] == hashlib.sha256(compact).hexdigest()


def test_groups_are_read_a_few_rulings_at_a_time_in_order(seed_site):
    db = sqlite_utils.Database(seed_site.parent / "rulings.db")
    ids = sorted((g for (g,) in db.execute("SELECT id FROM groups")), key=align.id_order)
    stale = set(ids[::2])
    for batch in (1, 4, 7, 10_000):
        got = list(dump.groups_of(db, ids, stale, batch=batch))
        assert [g if isinstance(g, str) else g["id"] for g in got] == ids
        assert {g["id"] for g in got if isinstance(g, dict)} == stale


def test_a_truncated_previous_dump_gives_its_lost_pieces_anew(seed_site, tmp_path):
    """Unchanged pieces are copied from the previous dump in runs; those a truncated file no
    longer holds are encoded again, and the bytes are still the export's."""
    previous = tmp_path / "previous"
    shutil.copytree(seed_site.parent, previous)
    dumped = previous / "site" / "data" / "rulings.json"
    dumped.write_bytes(dumped.read_bytes()[: len(dumped.read_bytes()) * 2 // 3])
    db = sqlite_utils.Database(previous / "rulings.db")
    figures = dump.write(db, tmp_path / "again.json", previous)
    assert 0 < figures["dump_reused"] < figures["dump_groups"]
    assert (tmp_path / "again.json").read_text(encoding="utf-8") == export.to_json(db)


def test_without_the_kernel_copy_the_pieces_are_copied_by_hand(seed_site, tmp_path, monkeypatch):
    monkeypatch.setattr(dump, "_KERNEL_COPY", False)
    db = sqlite_utils.Database(seed_site.parent / "rulings.db")
    figures = dump.write(
        sqlite_utils.Database(shutil.copy(seed_site.parent / "rulings.db", tmp_path / "r.db")),
        tmp_path / "again.json",
        seed_site.parent,
    )
    assert figures["dump_reused"] == figures["dump_groups"] > 0
    assert (tmp_path / "again.json").read_text(encoding="utf-8") == export.to_json(db)


_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.dictionaries(st.text(max_size=8), _VALUES, max_size=6), max_size=4),
    st.sampled_from(
        [
            1e-05,
            5e-324,
            1e16,
            1e22,
            -0.0,
            0.0001,
            123456789012345.67,
            float("nan"),
            float("inf"),
            2**64,
            "1e-05 NaN",
        ]
    ),
)
def test_rulings_encoded_by_orjson_are_the_bytes_json_gives(rulings, awkward):
    """orjson writes some numbers otherwise than json (1e-05 as 0.00001, NaN as null); the
    piece is still json's, byte for byte, whatever the rulings hold."""
    import json

    group = {"id": "g", "rulings": [*rulings, {"score": awkward, "text": "ß «x» ё"}]}
    whole = json.dumps(group, ensure_ascii=False, indent=2).replace("\n", "\n    ")
    assert b"".join(dump.indented(group)) == whole.encode("utf-8", "surrogatepass")
