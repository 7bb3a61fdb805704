"""Accepted findings: ``suppressions.toml`` in the corpus folder.

Each ``[[accept]]`` entry names a check and a reason, and narrows which findings it accepts
with any of ``lang``, ``card``, ``group`` and ``excerpt`` (a substring of the finding's
excerpt)::

    [[accept]]
    check = "quote-style"
    lang = "es"
    reason = "Our Spanish style guide uses “ ” like the official rulings."

An accepted finding is kept in the store with its reason and listed as accepted by ``kb check
--format json``; it does not count for the exit status, and the site leaves it out. An entry
that accepts nothing is reported as ``stale-suppression`` (info), so the file does not collect
dead entries. A bad file is a one-line error naming it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from kb.checks.families import CHECKS
from kb.corpus.files import display
from kb.errors import KbError, Problem, read_toml

FILE_NAME = "suppressions.toml"
FIELDS = ("check", "lang", "card", "group", "excerpt")


@dataclass(frozen=True)
class Suppression:
    check: str
    reason: str
    lang: str | None = None
    card: str | None = None
    group: str | None = None
    excerpt: str | None = None
    where: str = ""  # path and entry number, for messages

    def accepts(self, finding) -> bool:
        if finding.check != self.check:
            return False
        if any(
            getattr(self, key) is not None and getattr(self, key) != getattr(finding, key)
            for key in ("lang", "card", "group")
        ):
            return False
        return self.excerpt is None or self.excerpt in finding.excerpt


def load(path: str | Path) -> list[Suppression]:
    """The entries of one suppressions file; KbError names the file, line or entry at fault."""
    path = Path(path)
    data = read_toml(path)
    extra = set(data) - {"accept"}
    if extra:
        raise KbError(
            [Problem(str(path), 0, f"unknown table {min(extra)!r} (only [[accept]] entries)")]
        )
    entries = data.get("accept", [])
    if not isinstance(entries, list):
        raise KbError([Problem(str(path), 0, "accept must be an array of tables: [[accept]]")])
    return [_entry(path, number, raw) for number, raw in enumerate(entries, start=1)]


def _entry(path: Path, number: int, raw) -> Suppression:
    # Named from the working folder: the entry shows in stale-suppression findings, on the
    # site too, which must not depend on (nor show) where the project lies on this machine.
    where = f"{display(path)} [[accept]] #{number}"
    problem = _problem(raw)
    if problem:
        raise KbError([Problem(str(path), 0, f"[[accept]] #{number}: {problem}")])
    return Suppression(where=where, **{k: raw.get(k) for k in FIELDS + ("reason",)})


def _problem(raw) -> str | None:
    if not isinstance(raw, dict):
        return "not a table"
    unknown = sorted(set(raw) - set(FIELDS) - {"reason"})
    if unknown:
        return f"unknown key {unknown[0]!r} (use {', '.join(FIELDS)}, reason)"
    if not all(isinstance(v, str) for v in raw.values()):
        return "every value must be a string"
    if raw.get("check") not in CHECKS:
        return f"unknown check {raw.get('check')!r}"
    if not (raw.get("reason") or "").strip():
        return "a reason is required"
    return None


def discover(paths, name: str = FILE_NAME) -> list[Path]:
    """Suppressions files (or other files called ``name``) next to the given corpus files, or
    in a folder above them."""
    # A corpus is 10,000 files in a few folders: each folder is resolved once.
    named = dict.fromkeys(
        str(raw) if os.path.isdir(raw) else os.path.dirname(str(raw)) or "." for raw in paths
    )
    folders = [Path(folder).resolve() for folder in named]
    found = []
    for folder in dict.fromkeys(folders):
        for candidate in (folder, *folder.parents)[:2]:
            if (candidate / name).is_file():
                found.append(candidate / name)
                break
    return list(dict.fromkeys(found))


def for_store(db, name: str = FILE_NAME) -> list[Path]:
    """Suppressions files (or other files called ``name``) next to the sources this store (a
    ``sqlite_utils.Database``) was built from, if they still exist: what ``kb check`` applies
    unless told which files."""
    if "sources" not in db.table_names():
        return []
    paths = [Path(row["path"]) for row in db["sources"].rows]
    return discover([p for p in paths if p.exists()], name)


#: The files beside the corpus that decide the checks' findings: suppressions and the team's
#: checklist (kb.checks.checklist.FILE_NAME).
SETTINGS_FILES = (FILE_NAME, "checklist.toml")


def settings_files(paths) -> list[Path]:
    """The suppressions and checklist files next to the corpus files ``paths``: a build whose
    files changed is built again."""
    return [path for name in SETTINGS_FILES for path in discover(paths, name)]
