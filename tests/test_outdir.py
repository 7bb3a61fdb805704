"""Staged output: atomic swap, cleanup after failures, and the lock against concurrent builds."""

from __future__ import annotations

import time

import pytest
from filelock import FileLock

from kb.errors import KbError
from kb.pipeline.outdir import staged_output


def test_swap_replaces_whole_tree(tmp_path):
    out = tmp_path / "out"
    with staged_output(out) as work:
        (work / "a").write_text("1")
    with staged_output(out) as work:
        (work / "b").write_text("2")
    assert sorted(p.name for p in out.iterdir()) == ["b"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.tmp")] == []


def test_the_previous_tree_is_removed_after_the_swap(tmp_path):
    """It goes in a detached process (the command returns at once), not left behind."""
    out = tmp_path / "out"
    for text in ("1", "2"):
        with staged_output(out) as work:
            (work / "a").write_text(text)
    for _ in range(200):
        if not [p for p in tmp_path.iterdir() if p.name.startswith(".out.old-")]:
            break
        time.sleep(0.05)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".out.lock", "out"]
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
    with pytest.raises(RuntimeError):
        with staged_output(out) as work:
            (work / "a").write_text("half")
            raise RuntimeError("boom")
    assert (out / "a").read_text() == "1"


def test_second_concurrent_build_is_refused_clearly(tmp_path):
    out = tmp_path / "out"
    with FileLock(str(tmp_path / ".out.lock")):
        with pytest.raises(KbError, match="another build is writing"):
            with staged_output(out):
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
    with pytest.raises(KbError, match="not a folder"):
        with staged_output(tmp_path / "out"):
            pass
