"""The corpus on the command line: folders expanded into their ruling files, shown stably."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from kb.corpus import safe
from kb.errors import KbError, Problem


def corpus_files(paths: list[str]) -> list[str]:
    """Expand folders into their ``*.txt`` files; every path must exist, be a file or a
    folder (a FIFO is never opened: it would wait for a writer), and have a printable UTF-8
    name (the store keeps names as text)."""
    found, problems = [], []
    for raw in paths:
        raw = os.fsdecode(raw)
        kind = _kind(raw)
        if kind == "folder":
            found.extend(_folder_files(Path(raw)))
        elif kind == "file":
            found.append(display(Path(raw)))
        else:
            problems.append(Problem(safe.shown_path(raw), 0, kind))
    for path in dict.fromkeys(found):
        if not safe.utf8_name(path) or safe.printable(path) != path:
            problems.append(
                Problem(
                    safe.shown_path(path),
                    0,
                    "the file name is not printable "
                    "UTF-8 text (control characters or other bytes); rename "
                    "the file",
                )
            )
    if problems:
        raise KbError(problems)
    if not found:
        raise KbError(
            [Problem(safe.shown_path(raw), 0, "no ruling files (*.txt) here") for raw in paths]
        )
    return list(dict.fromkeys(found))


def _kind(path: str) -> str:
    """ "file", "folder", or what is wrong with ``path`` as a corpus path."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link that loops (it leads back to itself)"
        if exc.errno == errno.ENOENT and os.path.islink(path):
            return "a symbolic link to nothing (its target is missing)"
        if exc.errno == errno.ENOENT:
            return "no such file or folder"
        return f"cannot read: {exc.strerror}"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO), not a ruling file"
    return "not a regular file (a device or socket), not a ruling file"


def _folder_files(folder: Path) -> list[str]:
    """The ``*.txt`` files under ``folder`` (symlinked folders not followed, as ``rglob``),
    displayed like :func:`_display` without resolving each of 10,000 paths again."""
    base = display(folder)
    out = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        rel = Path(root).relative_to(folder).as_posix()
        prefix = base if rel == "." else f"{base}/{rel}"
        for name in files:
            if not name.endswith(".txt"):
                continue
            path = Path(root, name)
            if os.path.islink(path):  # a linked file is known by its target, as before
                if path.is_file():
                    out.append((path.relative_to(folder).parts, display(path)))
            elif path.is_file():
                out.append((path.relative_to(folder).parts, f"{prefix}/{name}"))
    return [shown for _, shown in sorted(out)]


def display(path: Path) -> str:
    """A path as users wrote it relative to the working folder, for stable messages and ids."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()
