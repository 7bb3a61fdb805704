"""A build killed at any point, or fed an unusable output folder, never corrupts `_build/`."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def shape(files) -> set[str]:
    """The file names of a build, whoosh's random segment names made one placeholder."""
    return {re.sub(r"MAIN_[a-z0-9]+\.seg$", "MAIN_*.seg", name) for name in files}


def indexed(build: Path) -> int:
    """How many documents the build's whoosh index holds (opening it proves it whole)."""
    import whoosh.index

    with whoosh.index.open_dir(str(build / "index")).searcher() as searcher:
        return searcher.doc_count()


def run_kb(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "kb", *map(str, args)],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        text=True,
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A project whose corpus is the seeds under 40 card names, so a build takes a while."""
    work = tmp_path_factory.mktemp("kill")
    corpus = work / "rulings"
    corpus.mkdir()
    for i in range(40):
        for seed in sorted((ROOT / "rulings").glob("*.txt")):
            text = seed.read_text(encoding="utf-8")
            name, rest = text.split("\n", 1)
            (corpus / f"{i:02d}-{seed.name}").write_text(f"{name} {i}\n{rest}", encoding="utf-8")
    assert run_kb("build", cwd=work).returncode == 0
    return work


@pytest.mark.parametrize("delay", [0.05, 0.3, 0.8, 1.5, 3.0])
def test_sigkill_leaves_previous_build_intact(project, delay):
    before = snapshot(project / "_build")
    documents = indexed(project / "_build")
    # --full: the corpus has not changed, and a build with nothing to do would end at once.
    process = subprocess.Popen(
        [sys.executable, "-m", "kb", "build", "--full"],
        cwd=project,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    process.wait()
    after = snapshot(project / "_build")
    # Either the kill came after the swap (a complete new build: the same files, but for
    # whoosh's new segment name, and an index that opens whole) or the old build is untouched.
    if after != before:
        assert shape(after) == shape(before)
        assert indexed(project / "_build") == documents
    result = run_kb("build", cwd=project)
    assert result.returncode == 0, result.stderr
    assert not list(project.glob("._build.tmp-*"))


def test_concurrent_build_is_refused_with_a_clear_message(project):
    first = subprocess.Popen(
        [sys.executable, "-m", "kb", "build", "--full"],
        cwd=project,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    # The work folder appears only once the first build holds the lock.
    deadline = time.monotonic() + 60
    while not list(project.glob("._build.tmp-*")):
        assert first.poll() is None and time.monotonic() < deadline, "the first build never started"
        time.sleep(0.01)
    second = run_kb("build", cwd=project)
    first.wait()
    assert first.returncode == 0, first.stderr.read()
    assert second.returncode == 2
    assert second.stderr.strip() == (
        f"{Path('_build')}: another build is writing this folder "
        f"(lock {project / '._build.lock'}); wait for it to finish"
    )


@pytest.fixture(
    params=[pytest.param("ro,size=64k", id="read-only"), pytest.param("size=64k", id="full")]
)
def bad_disk(request, tmp_path):
    """A read-only tmpfs (root ignores permission bits), or a 64 KiB one: room for a lock, not a build."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", request.param, "tmpfs", str(mount)], capture_output=True
        ).returncode
        != 0
    ):
        pytest.skip("cannot mount a tmpfs here (needs root)")
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


def test_unwritable_disk_is_a_clear_error_and_keeps_nothing_half_written(tmp_path, bad_disk):
    result = run_kb("build", ROOT / "rulings", "--out", bad_disk / "out", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.strip().splitlines()
    assert "cannot write the" in line and (
        "Read-only" in line or "No space" in line or "full" in line
    )
    assert not (bad_disk / "out").exists()
    assert not list(bad_disk.glob(".out.tmp-*"))


HOSTILE_NAMES = [
    "../../outside",
    "a/b",
    "..",
    "Chasseur vengeur",
    "CHASSEUR VENGEUR",
    "chasseur vengeur",
    "Chasseur " + "très " * 800 + "long",
    "con",
    "x\\y:z*?",
]


def test_hostile_card_names_give_safe_distinct_files_inside_the_site(tmp_path):
    seed = (ROOT / "rulings" / "fr-chasseur-vengeur.txt").read_text(encoding="utf-8")
    corpus = tmp_path / "rulings"
    corpus.mkdir()
    for i, name in enumerate(HOSTILE_NAMES):
        (corpus / f"fr-{i}.txt").write_text(name + "\n" + seed.split("\n", 1)[1], encoding="utf-8")
    result = run_kb("build", "--out", tmp_path / "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    site = (tmp_path / "out" / "site").resolve()
    # Nothing was written outside the output folder, whatever the names said.
    assert sorted(p.name for p in tmp_path.iterdir()) == [".out.lock", "out", "rulings"]
    files = [p for p in site.rglob("*") if p.is_file()]
    for path in files:
        assert path.resolve().is_relative_to(site)
        assert len(path.name.encode()) <= 255 and "\x00" not in str(path)
    # One page per card in each interface language, none shared, even between names that differ
    # only in case (a case-insensitive disk would otherwise merge them).
    card_pages = [p for p in files if p.parent.name == "card" and p.parent.parent.name == "en"]
    assert len(card_pages) == len(HOSTILE_NAMES)
    assert len({p.name.lower() for p in card_pages}) == len(HOSTILE_NAMES)


def test_a_nul_in_a_card_name_is_a_clear_error(tmp_path):
    seed = (ROOT / "rulings" / "fr-chasseur-vengeur.txt").read_text(encoding="utf-8")
    (tmp_path / "fr-nul.txt").write_text(
        "Chasseur\x00vengeur\n" + seed.split("\n", 1)[1], encoding="utf-8"
    )
    result = run_kb("build", "fr-nul.txt", "--out", tmp_path / "out", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == "fr-nul.txt:1: NUL character in a text file"
    assert not (tmp_path / "out").exists()
