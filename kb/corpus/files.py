"""The corpus on the command line: folders expanded into their ruling files, shown stably."""

from __future__ import annotations

import os
from pathlib import Path

from kb.errors import KbError, Problem


def corpus_files(paths: list[str]) -> list[str]:
    """Expand folders into their ``*.txt`` files; every path must exist."""
    found, problems = [], []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(_folder_files(path))
        elif path.is_file():
            found.append(display(path))
        else:
            problems.append(Problem(raw, 0, "no such file or folder"))
    if problems:
        raise KbError(problems)
    if not found:
        raise KbError([Problem(raw, 0, "no ruling files (*.txt) here") for raw in paths])
    return list(dict.fromkeys(found))


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
