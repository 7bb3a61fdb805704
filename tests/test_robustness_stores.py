"""Every reading command on a file that is not a store, and `kb search` beside a foreign store
or on a damaged index: one line, exit 2, nothing touched (issue 23).
"""

from __future__ import annotations

import pytest
from test_robustness_support import (
    assert_refused,
    changes,
    kb,
    kb_here,
    not_a_store,
    project,
    tree,
)

READERS = [
    ("check",),
    ("export", "json"),
    ("export", "tmx"),
    ("export", "tbx"),
    ("examples",),
    ("links",),
    ("search", "initiative"),
    ("search", "card:x"),
]


@pytest.mark.parametrize("kind", ["garbage", "empty", "truncated", "foreign-schema"])
@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_command_on_a_file_that_is_not_a_store(tmp_path, robustness_build, command, kind):
    db = not_a_store(kind, tmp_path / "store", robustness_build)
    before = tree(tmp_path)
    line = assert_refused(kb_here(*command, "--db", str(db), cwd=tmp_path))
    assert str(db) in line, line
    assert changes(before, tree(tmp_path)) == []


def test_the_real_command_on_a_file_that_is_not_a_store(tmp_path, robustness_build):
    """The same through ``python -m kb``: nothing but the one line reaches stderr."""
    db = not_a_store("garbage", tmp_path / "store", robustness_build)
    assert "not an SQLite file" in assert_refused(kb("export", "json", "--db", db, cwd=tmp_path))


def test_a_store_missing_a_table(tmp_path, robustness_build):
    """A store of kb build whose later tables are gone (an older or damaged build): one line
    naming the store, not "no such table" as a traceback."""
    import shutil
    import sqlite3

    shutil.copy(robustness_build / "rulings.db", tmp_path / "rulings.db")
    with sqlite3.connect(tmp_path / "rulings.db") as con:
        con.execute("PRAGMA foreign_keys = OFF")
        con.execute("DROP TABLE memberships")
    con.close()
    for command in (("export", "json"), ("export", "tmx")):
        line = assert_refused(kb_here(*command, "--db", "rulings.db", cwd=tmp_path))
        assert line.startswith("kb: rulings.db: cannot read the store (no such table"), line


def test_search_next_to_a_foreign_store_with_an_index_folder(tmp_path, robustness_build):
    """A foreign rulings.db beside a folder called index/ that no build wrote."""
    db = not_a_store("foreign-schema", tmp_path / "store", robustness_build)
    (tmp_path / "store" / "index").mkdir()
    (tmp_path / "store" / "index" / "README").write_text("not whoosh\n")
    before = tree(tmp_path)
    assert_refused(kb_here("search", "card:x", "--db", str(db), cwd=tmp_path))
    assert changes(before, tree(tmp_path)) == []


def test_search_next_to_a_foreign_store_beside_a_real_index(tmp_path, robustness_build):
    """A build's rulings.db replaced by another program's SQLite file, its index/ kept: the
    store is what --db names, so it is refused (the index alone used to answer)."""
    proj = project(tmp_path / "proj", robustness_build)
    db = proj / "_build" / "rulings.db"
    db.unlink()
    not_a_store("foreign-schema", db.parent, robustness_build)
    before = tree(tmp_path)
    assert "not a store of kb build" in assert_refused(kb_here("search", "card:x", cwd=proj))
    assert changes(before, tree(tmp_path)) == []


def test_search_on_a_damaged_index(tmp_path, robustness_build):
    proj = project(tmp_path / "proj", robustness_build)
    for segment in (proj / "_build" / "index").glob("*.seg"):
        segment.write_bytes(segment.read_bytes()[: segment.stat().st_size // 3])
    before = tree(tmp_path)
    line = assert_refused(kb("search", "initiative", cwd=proj))  # the real command: no Aborted!
    assert "Aborted" not in line and "damaged" in line, line
    assert changes(before, tree(tmp_path)) == []


def test_changes_since_a_file_that_is_not_a_store(tmp_path, robustness_build):
    """The store to compare with is checked as --db is, and named: not --db."""
    db = not_a_store("garbage", tmp_path / "old", robustness_build)
    line = assert_refused(
        kb_here(
            "changes",
            "--db",
            str(robustness_build / "rulings.db"),
            "--since-store",
            str(db),
            cwd=tmp_path,
        )
    )
    assert line.startswith(f"{db}: not a store"), line
