"""Never lose a user's files, never show a traceback (issue 23): `kb build --out`. Each case: one
line, exit 2, every folder byte-identical; or, where the case is allowed, a build that works.

Hostile names and text, arguments and `kb serve` requests: test_robustness_input.py; stores and
indexes that cannot be used: test_robustness_stores.py; property tests:
test_robustness_properties.py; helpers: test_robustness_support.py and, for ``proj``,
tests/conftest.py.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from test_robustness_support import (
    KB,
    MOUNTED,
    SLOW,
    Ran,
    assert_refused,
    changes,
    kb,
    kb_here,
    needs_unshare,
    on_a_terminal,
    tree,
)

# ---------------------------------------------------------------------------------------------
# --out: only a new folder, an empty one or a previous build; refused before any work


def test_out_is_the_corpus(proj, tmp_path):
    before = tree(tmp_path)
    assert "corpus" in assert_refused(kb_here("build", "rulings", "--out", "rulings", cwd=proj))
    assert changes(before, tree(tmp_path)) == []


def test_out_is_a_folder_holding_the_corpus(proj, tmp_path):
    before = tree(tmp_path)
    line = assert_refused(kb_here("build", "proj/rulings", "--out", "proj", cwd=tmp_path))
    assert "corpus" in line
    assert changes(before, tree(tmp_path)) == []


def test_out_is_a_folder_not_built_by_kb(proj, tmp_path):
    (proj / "docs").mkdir()
    (proj / "docs" / "thesis.tex").write_text("\\chapter{One}\n")
    before = tree(tmp_path)
    assert "not empty" in assert_refused(kb_here("build", "rulings", "--out", "docs", cwd=proj))
    assert changes(before, tree(tmp_path)) == []


@pytest.mark.parametrize("out", [".", "..", "", "./", "/"])
def test_out_is_the_current_folder_or_above(proj, tmp_path, out):
    before = tree(tmp_path)
    assert_refused(kb_here("build", "rulings", "--out", out, cwd=proj))
    assert changes(before, tree(tmp_path)) == []


def test_out_is_a_file(proj, tmp_path):
    before = tree(tmp_path)
    line = assert_refused(kb_here("build", "--out", "notes.txt", cwd=proj))
    assert re.search("is a file|not a folder", line), line
    assert changes(before, tree(tmp_path)) == []


def test_out_symlink_to_a_foreign_folder_is_refused(proj, tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "thesis.tex").write_text("\\chapter{One}\n")
    (proj / "site-link").symlink_to(tmp_path / "docs")
    before = tree(tmp_path)
    assert_refused(kb_here("build", "rulings", "--out", "site-link", cwd=proj))
    assert changes(before, tree(tmp_path)) == []


def test_out_in_an_empty_folder_then_again_with_the_index_progress(proj):
    """The allowed cases through the real command, on a terminal: an empty folder, then that
    build again (a previous build). The index stage's bar moves through the documents (it sat
    at 0% and then jumped to 100%)."""
    (proj / "empty").mkdir()
    code, printed = on_a_terminal("build", "rulings", "--out", "empty", cwd=proj, timeout=SLOW)
    assert code == 0, printed[-800:]
    assert (proj / "empty" / ".kb-build").is_file() and (proj / "empty" / "rulings.db").is_file()
    shown = {int(m) for m in re.findall(rb"index +\[[#-]+\] +(\d+)%", printed)}
    assert shown and min(shown) < 50 < max(shown) and len(shown) > 5, sorted(shown)
    ran = kb("build", "rulings", "--out", "empty", cwd=proj)  # a previous build of kb
    assert ran.code == 0, ran


def test_out_symlink_is_followed_across_file_systems(proj, tmp_path, robustness_build):
    """The build goes into the link's target, with the lock and the staging folder beside
    the target, so no rename crosses file systems (it was an EXDEV traceback); the link stays
    a link; nothing is left beside it. (A link on the same file system: test_outdir.py.)"""
    if os.stat("/dev/shm").st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("/dev/shm is on the same file system here")
    base = Path(tempfile.mkdtemp(dir="/dev/shm"))
    try:
        target = base / "kb-out"
        shutil.copytree(robustness_build, target, symlinks=True)
        (proj / "out").symlink_to(target)
        changed = proj / "rulings" / "ru-issledovatel-podzemya.txt"
        changed.write_bytes(changed.read_bytes() + b"\n")
        before = tree(tmp_path)
        ran = kb("build", "rulings", "--out", "out", cwd=proj)
        assert b"Traceback" not in ran.err and ran.code == 0, ran
        assert (proj / "out").is_symlink() and os.readlink(proj / "out") == str(target)
        assert (target / "rulings.db").is_file() and (target / "site" / "index.html").is_file()
        assert sorted(p.name for p in base.iterdir() if not p.name.startswith(".kb-out.old-")) == [
            ".kb-out.lock",
            "kb-out",
        ]
        assert changes(before, tree(tmp_path)) == []
    finally:
        shutil.rmtree(base, ignore_errors=True)


@needs_unshare
def test_out_is_a_mount_point(proj, tmp_path):
    """Refused before any work, with one line (a mount point cannot be swapped)."""
    (proj / "mnt").mkdir()
    before = tree(tmp_path)
    ran = kb(
        "build",
        "rulings",
        "--out",
        "mnt",
        cwd=proj,
        prefix=(*MOUNTED, str(proj / "mnt"), "size=64m"),
    )
    assert ran.code != 99, "could not mount"
    assert "mount point" in assert_refused(ran)
    assert changes(before, tree(tmp_path)) == []  # the mount went with its namespace


@needs_unshare
@pytest.mark.parametrize("mode,room", [("incremental", 0.05), ("--full", 0.4)])
def test_disk_fills_during_the_build(proj, tmp_path, robustness_build, mode, room):
    """A build that runs out of space (``room``: free space beside the previous output, as a
    share of its size): one line, exit 2, the previous output byte-identical."""
    size = sum(
        -(-f.stat().st_size // 4096) * 4096 if f.is_file() else 4096
        for f in robustness_build.rglob("*")
    )  # whole 4 KiB pages per file and folder on tmpfs
    disk = tmp_path / "disk"
    disk.mkdir()
    if mode == "incremental":  # one file changed: the build starts from the previous one
        changed = proj / "rulings" / "fr-chasseur-vengeur.txt"
        changed.write_bytes(changed.read_bytes().replace(b"vengeur", b"vengeur ", 1))
    script = tmp_path / "inside.py"
    # Inside the namespace: put the previous build on the small disk, hash it, build, hash.
    script.write_text(
        "import shutil, subprocess, sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from test_robustness_support import tree\n"
        "disk, mode, kb = sys.argv[1], sys.argv[2].split(), sys.argv[3:]\n"
        f"shutil.copytree({str(robustness_build)!r}, disk + '/out', symlinks=True)\n"
        "before = tree(disk + '/out')\n"
        "ran = subprocess.run(kb + ['build', 'rulings', *mode, '--out', disk + '/out'],\n"
        "                     capture_output=True, stdin=subprocess.DEVNULL)\n"
        "after = tree(disk + '/out')\n"
        "sys.stdout.buffer.write(ran.stdout)\n"
        "sys.stderr.buffer.write(ran.stderr)\n"
        "sys.exit(98 if ran.returncode and before != after else ran.returncode)\n"
    )
    done = subprocess.run(
        [
            *MOUNTED,
            str(disk),
            f"size={size + int(size * room)}",
            sys.executable,
            str(script),
            str(disk),
            mode if mode == "--full" else "",
            *KB,
        ],
        cwd=proj,
        capture_output=True,
        timeout=SLOW,
        check=False,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )
    ran = Ran(done.returncode, done.stdout, done.stderr)
    assert ran.code != 99, "could not mount"
    assert ran.code != 98, f"previous output changed: {ran}"
    if ran.code == 0:
        pytest.skip("the build fit on the disk: nothing filled it")
    line = assert_refused(ran)
    assert re.search(r"space|full", line, re.IGNORECASE), line  # the disk filled
