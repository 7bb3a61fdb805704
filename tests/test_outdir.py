"""Staged output: atomic swap, cleanup after failures, the lock against concurrent builds, and
which folders --out may replace at all (checked before any work)."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest
from filelock import FileLock

from kb.errors import KbError
from kb.pipeline.outdir import (
    MARKER,
    check_store,
    is_build,
    output_folder,
    staged_output,
    writable_file,
)


def test_swap_replaces_whole_tree(tmp_path):
    out = tmp_path / "out"
    with staged_output(out) as work:
        (work / "a").write_text("1")
    with staged_output(out) as work:
        (work / "b").write_text("2")
    assert sorted(p.name for p in out.iterdir()) == [".kb-build", "b"]  # the marker, and b
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.tmp")] == []


def _settled(folder: Path, name: str) -> list[str]:
    """The names in ``folder`` once the detached process has removed the set-aside previous
    output ``.<name>.old-*`` (it runs after the build returns: waiting up to 10 s)."""
    for _ in range(200):
        if not [p for p in folder.iterdir() if p.name.startswith(f".{name}.old-")]:
            break
        time.sleep(0.05)
    return sorted(p.name for p in folder.iterdir())


def test_the_previous_tree_is_removed_after_the_swap(tmp_path):
    """It goes in a detached process (the command returns at once), not left behind."""
    out = tmp_path / "out"
    for text in ("1", "2"):
        with staged_output(out) as work:
            (work / "a").write_text(text)
    assert _settled(tmp_path, "out") == [".out.lock", "out"]
    assert (out / "a").read_text() == "2"


def test_a_previous_tree_left_over_is_removed_by_the_next_build(tmp_path):
    left = tmp_path / ".out.old-dead" / "tree"
    left.mkdir(parents=True)
    (left / "junk").write_text("x")
    with staged_output(tmp_path / "out"):
        pass
    assert not left.parent.exists()


def test_failure_keeps_previous_tree(tmp_path):
    out = tmp_path / "out"
    with staged_output(out) as work:
        (work / "a").write_text("1")
    with pytest.raises(RuntimeError), staged_output(out) as work:
        (work / "a").write_text("half")
        raise RuntimeError("boom")
    assert (out / "a").read_text() == "1"


def test_second_concurrent_build_is_refused_clearly(tmp_path):
    out = tmp_path / "out"
    with (
        FileLock(str(tmp_path / ".out.lock")),
        pytest.raises(KbError, match="another build is writing"),
        staged_output(out),
    ):
        pass


def test_stale_work_folders_are_removed(tmp_path):
    stale = tmp_path / ".out.tmp-dead"
    stale.mkdir()
    (stale / "junk").write_text("x")
    with staged_output(tmp_path / "out"):
        pass
    assert not stale.exists()


def test_output_path_that_is_a_file(tmp_path):
    (tmp_path / "out").write_text("not a folder")
    with pytest.raises(KbError, match="not a folder"), staged_output(tmp_path / "out"):
        pass


# ---------------------------------------------------------------------------------------------
# Which folders --out may replace (issue 23): a new one, an empty one, a previous build.


def test_a_new_an_empty_and_a_previous_build_folder_are_allowed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert output_folder("new/deeper") == tmp_path / "new" / "deeper"
    (tmp_path / "empty").mkdir()
    assert output_folder("empty") == tmp_path / "empty"
    with staged_output(tmp_path / "built") as work:
        (work / "rulings.db").write_bytes(b"")
    assert (tmp_path / "built" / MARKER).is_file() and is_build(tmp_path / "built")
    assert output_folder("built") == tmp_path / "built"


def test_an_older_build_is_known_by_its_shape(tmp_path):
    old = tmp_path / "old"
    (old / "index").mkdir(parents=True)
    (old / "site").mkdir()
    (old / "rulings.db").write_bytes(b"SQLite format 3\x00" + bytes(100))
    assert is_build(old)
    (old / "rulings.db").write_text("my notes")  # the shape, but no SQLite file
    assert not is_build(old)


@pytest.mark.parametrize("out", [".", "", "..", "./", "sub/.."])
def test_the_current_folder_and_those_above_it_are_refused(tmp_path, monkeypatch, out):
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(KbError, match="current"):
        output_folder(out)


def test_home_and_root_are_refused(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path / "home")
    (home / "work").mkdir()
    monkeypatch.chdir(home / "work")
    with pytest.raises(KbError, match="current"):  # it holds the current folder, too
        output_folder(str(home))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(KbError, match="home folder"):
        output_folder(str(home))
    with pytest.raises(KbError, match="current"):
        output_folder("/")


def test_the_corpus_and_what_holds_it_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    corpus = tmp_path / "proj" / "rulings"
    corpus.mkdir(parents=True)
    (corpus / "a.txt").write_text("x")
    for out in ("proj/rulings", "proj"):
        with pytest.raises(KbError, match="corpus"):
            output_folder(out, ["proj/rulings"])
    with pytest.raises(KbError, match="corpus"):  # named by one of its files
        output_folder("proj", ["proj/rulings/a.txt"])


def test_a_folder_not_built_by_kb_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "thesis.tex").write_text("\\chapter{One}")
    with pytest.raises(KbError, match="not empty and not a previous build"):
        output_folder("docs")
    (tmp_path / "file").write_text("x")
    with pytest.raises(KbError, match="not a folder"):
        output_folder("file")


def test_a_symlink_is_followed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "target").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "target")
    assert output_folder("link") == tmp_path / "target"
    with staged_output(Path("link")) as work:
        (work / "a").write_text("1")
    assert (tmp_path / "link").is_symlink() and (tmp_path / "target" / "a").read_text() == "1"
    # The empty target was set aside and goes in the detached process, as any previous output.
    assert _settled(tmp_path, "target") == [".target.lock", "link", "target"]
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes").write_text("x")
    (tmp_path / "to-docs").symlink_to(tmp_path / "docs")
    with pytest.raises(KbError, match="not empty"):
        output_folder("to-docs")


def test_a_mount_point_is_refused(monkeypatch):
    if not os.path.ismount("/proc") or os.path.realpath("/proc") != "/proc":
        pytest.skip("no /proc mount here")
    monkeypatch.chdir("/")
    with pytest.raises(KbError, match="mount point"):
        output_folder("/proc")


def test_a_bad_timings_file_is_refused_without_creating_anything(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "rulings").mkdir()
    (tmp_path / "rulings" / "a.txt").write_text("x")
    for path, problem in [
        ("missing/t.json", "no folder"),
        ("notes.txt/t.json", "no folder"),
        ("rulings", "is a folder"),
        ("rulings/a.txt", "corpus"),
    ]:
        with pytest.raises(KbError, match=problem):
            writable_file(path, ["rulings/a.txt"])
    assert writable_file("t.json") == tmp_path / "t.json"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "rulings"]


def test_check_store_tells_a_store_from_other_files(tmp_path):
    db = tmp_path / "x.db"
    for data, problem in [(b"", "empty file"), (b"my notes\n" * 20, "not an SQLite file")]:
        db.write_bytes(data)
        with pytest.raises(KbError, match=problem):
            check_store(db)
    db.unlink()
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    con.close()
    with pytest.raises(KbError, match="not a store of kb build"):
        check_store(db)
    with sqlite3.connect(db) as con:
        for table in ("cards", "sources", "rulings"):
            con.execute(f"CREATE TABLE {table} (id TEXT)")
        con.executemany("INSERT INTO invoices VALUES (?)", [(i,) for i in range(3000)])
    con.close()
    check_store(db)
    whole = db.read_bytes()
    db.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(KbError, match="cut short"):
        check_store(db)
