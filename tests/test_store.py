"""Store: schema with declared foreign keys, and idempotent writes."""

from __future__ import annotations

from kb import store
from kb.corpus.parse import parse_file


def _table_rows(db, table):
    return sorted(tuple(sorted(row.items())) for row in db[table].rows)


def test_schema_and_foreign_keys(tmp_path, seeds):
    db = store.open_db(tmp_path / "r.db")
    store.store_files(db, [parse_file(p) for p in seeds])
    assert {"sources", "cards", "rulings"} <= set(db.table_names())
    fks = {(fk.column, fk.other_table, fk.other_column) for fk in db["rulings"].foreign_keys}
    assert fks == {("source", "sources", "path"), ("card_id", "cards", "id")}
    assert {(fk.column, fk.other_table) for fk in db["sources"].foreign_keys} == {
        ("card_id", "cards")
    }
    assert db["rulings"].count == 50 and db["cards"].count == 5 and db["sources"].count == 5
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_storing_twice_gives_the_same_rows(tmp_path, seeds):
    db = store.open_db(tmp_path / "r.db")
    files = [parse_file(p) for p in seeds]
    store.store_files(db, files)
    before = {t: _table_rows(db, t) for t in ("sources", "cards", "rulings")}
    store.store_files(db, files)
    assert {t: _table_rows(db, t) for t in ("sources", "cards", "rulings")} == before


def test_rulings_carry_card_and_stable_order(tmp_path, seeds):
    db = store.open_db(tmp_path / "r.db")
    store.store_files(db, [parse_file(p) for p in reversed(seeds)])
    rows = store.rulings(db, lang="de")
    assert [r["position"] for r in rows] == list(range(1, 11))
    assert {r["card"] for r in rows} == {"Unterkellersäuberung"}
    assert rows[0]["date"] == "2022-06-10"
