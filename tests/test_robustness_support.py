"""What the robustness tests (issue 23) share: run kb, hash a tree, judge a refusal.

Most cases run the command line in this process (click's runner: a refusal comes before any
work, so it takes milliseconds); the cases that need the real process (a terminal, a server,
a private mount namespace, names of any bytes on stderr) run ``python -m kb``.

A refusal is exit status 2, exactly one line on stderr, no traceback, valid UTF-8 without
control characters (:func:`assert_refused`); "nothing lost" is every folder byte-identical
before and after (:func:`tree` hashes a whole tree: names as bytes, symlinks by target, FIFOs
by kind, nothing opened but regular files). No test here: helpers only.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "rulings"
KB = [sys.executable, "-m", "kb"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
#: Control characters a terminal acts on (tab and line ends are text).
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
SLOW = 300


class Ran:
    """A finished command: exit status, stdout and stderr as bytes."""

    def __init__(self, code: int, out: bytes, err: bytes):
        self.code, self.out, self.err = code, out, err

    def __repr__(self) -> str:
        return f"exit {self.code}, stderr {self.err[-800:]!r}"


def kb(*args, cwd: Path, timeout: float = SLOW, prefix: tuple = ()) -> Ran:
    """Run ``python -m kb`` with ``args`` (str or bytes) in ``cwd``; stdin closed."""
    done = subprocess.run(
        [*prefix, *KB, *args],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        check=False,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def kb_here(*args: str, cwd: Path) -> Ran:
    """Run kb's command line in this process, in ``cwd``; an exception that escapes it is
    reported on stderr as a traceback, as the real command would print it."""
    from kb.cli import cli

    here = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, list(args), prog_name="kb")
    finally:
        os.chdir(here)
    err = result.stderr_bytes
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        err += "".join(traceback.format_exception(result.exception)).encode(
            "utf-8", "backslashreplace"
        )  # begins "Traceback (most recent call last)"
    return Ran(result.exit_code, result.stdout_bytes, err)


def tree(root: Path, skip=lambda rel: False) -> dict[bytes, tuple]:
    """{relative path as bytes: (kind, content digest | link target | mode)} of a whole tree,
    without following symlinks or opening anything but regular files."""
    root_b = os.fsencode(root)
    found: dict[bytes, tuple] = {}
    for here, dirs, files in os.walk(root_b, followlinks=False):
        for name in dirs + files:
            path = os.path.join(here, name)
            rel = os.path.relpath(path, root_b)
            if skip(rel):
                if name in dirs:
                    dirs.remove(name)
                continue
            try:
                found[rel] = _entry(path)
            except FileNotFoundError:  # a previous output a build is deleting meanwhile
                continue
    return found


def _entry(path: bytes) -> tuple:
    mode = os.lstat(path).st_mode
    if stat.S_ISLNK(mode):
        return ("link", os.readlink(path))
    if stat.S_ISDIR(mode):
        return ("dir", mode)
    if stat.S_ISREG(mode):
        with open(path, "rb") as f:
            return ("file", hashlib.sha256(f.read()).hexdigest(), mode)
    return ("other", mode & 0o170000)


def changes(before: dict, after: dict) -> list[bytes]:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


def printable(data: bytes) -> str:
    """``data`` decoded; fails when it is not UTF-8 or carries a control character."""
    text = data.decode("utf-8")
    bad = CONTROL.findall(text)
    assert not bad, f"raw control characters printed: {bad!r}"
    return text


def assert_refused(ran: Ran) -> str:
    """Exit 2, one line on stderr, no traceback, nothing raw; returns the line."""
    assert b"Traceback" not in ran.err, ran
    assert ran.code == 2, ran
    lines = printable(ran.err).splitlines()
    assert len(lines) == 1, ran
    printable(ran.out)
    return lines[0]


def seed_build(tmp_path_factory) -> Path:
    """A build of the seed corpus, made once per session (by whichever module asks first)."""
    root = tmp_path_factory.getbasetemp() / "robustness-seedbuild"
    if not (root / "_build" / "site" / "index.html").is_file():
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(SEEDS, root / "rulings")
        ran = kb("build", "rulings", "--out", "_build", cwd=root)
        assert ran.code == 0, ran
    return root / "_build"


def previous_build(built: Path, root: Path) -> None:
    """A copy of ``built`` as ``root/_build``, with the lock file a build leaves beside it."""
    shutil.copytree(built, root / "_build", symlinks=True)
    shutil.copy2(built.parent / "._build.lock", root / "._build.lock")


def project(root: Path, built: Path) -> Path:
    """A user's project under ``root``: the corpus, a previous build, a .git folder, notes."""
    shutil.copytree(SEEDS, root / "rulings")
    previous_build(built, root)
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "notes.txt").write_text("my notes\n")
    return root


def not_a_store(kind: str, folder: Path, built: Path) -> Path:
    """A file called rulings.db in ``folder`` that no build wrote."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "rulings.db"
    if kind == "garbage":
        db.write_bytes(b"these are my notes, not a database\n" * 50)
    elif kind == "empty":
        db.write_bytes(b"")
    elif kind == "truncated":
        db.write_bytes((built / "rulings.db").read_bytes()[:16384])
    elif kind == "foreign-schema":
        with sqlite3.connect(db) as con:
            con.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
            con.execute("INSERT INTO invoices VALUES (1, 9.5)")
        con.close()
    return db


def on_a_terminal(*args, cwd: Path, timeout: float = 60) -> tuple[int, bytes]:
    """Run kb with stdout and stderr on a pseudo-terminal; (exit status, what it printed)."""
    import pty

    leader, follower = pty.openpty()
    child = subprocess.Popen(
        [*KB, *args], cwd=cwd, env=ENV, stdin=subprocess.DEVNULL, stdout=follower, stderr=follower
    )
    os.close(follower)
    printed = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        printed += chunk
    os.close(leader)
    return child.wait(timeout=timeout), printed


def _unshare_available() -> bool:
    return (
        shutil.which("unshare") is not None
        and subprocess.run(
            ["unshare", "-m", "sh", "-c", "mount -t tmpfs tmpfs /mnt"],
            capture_output=True,
            check=False,
        ).returncode
        == 0
    )


needs_unshare = pytest.mark.skipif(
    not _unshare_available(), reason="needs a private mount namespace (unshare -m, root)"
)
#: Mounts a tmpfs at $1 (options $2) in a private mount namespace, then runs the rest.
MOUNTED = (
    "unshare",
    "-m",
    "sh",
    "-c",
    'mount -t tmpfs -o "$2" tmpfs "$1" || exit 99; shift 2; exec "$@"',
    "sh",
)
