"""A build reads only the corpus files whose size, times or inode changed since the last one."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from kb.pipeline import incremental
from kb.pipeline.build import build

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def project(tmp_path, monkeypatch):
    """The seeds, built once, with a short racy window (so the test need not wait a second)
    and a spy on the files whose bytes are hashed."""
    shutil.copytree(ROOT / "rulings", tmp_path / "rulings")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(incremental, "RACY_NS", 50_000_000)
    time.sleep(0.06)
    build(["rulings"], "out")
    read = []
    real = incremental.hash_file
    monkeypatch.setattr(incremental, "hash_file", lambda path: read.append(path) or real(path))
    time.sleep(0.06)
    return tmp_path, read


def test_only_the_changed_file_is_read(project):
    tmp_path, read = project
    path = tmp_path / "rulings" / "fr-chasseur-vengeur.txt"
    path.write_text(
        path.read_text(encoding="utf-8").replace("Chasseur vengeur", "Chasseur"), encoding="utf-8"
    )
    time.sleep(0.06)  # out of the racy window: this build's record of it is kept
    assert "parse" in build(["rulings"], "out")
    assert read == ["rulings/fr-chasseur-vengeur.txt"]
    read.clear()
    assert build(["rulings"], "out") == {} and read == []  # up to date, nothing read


def test_bytes_written_back_with_the_old_times_are_read(project):
    """Same size, modification time set back: the change time still moved."""
    tmp_path, read = project
    path = tmp_path / "rulings" / "fr-chasseur-vengeur.txt"
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("nouveau", "NOUVEAU", 1), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    assert "parse" in build(["rulings"], "out")
    assert read == ["rulings/fr-chasseur-vengeur.txt"]
    assert "NOUVEAU" in (tmp_path / "out" / "site" / "data" / "rulings.json").read_text("utf-8")


def test_a_file_changed_just_before_the_build_is_read_again_next_time(project):
    tmp_path, read = project
    path = tmp_path / "rulings" / "fr-chasseur-vengeur.txt"
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    incremental.RACY_NS = 10**12  # the edit is "just before" this build
    build(["rulings"], "out")
    with sqlite3.connect(tmp_path / "out" / "rulings.db") as conn:
        kept = {p for (p,) in conn.execute(f"SELECT path FROM {incremental.STATS_TABLE}")}
    assert kept == set()  # nothing kept: every file of the seeds is "recent" now
    read.clear()
    assert build(["rulings"], "out") == {}  # nothing changed, but every file was read to know
    assert len(read) == 5
