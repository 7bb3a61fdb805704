"""``kb check`` as one library call: the store's freshness, the team's files, the report, the
baseline, the output format and the exit status.

A store is checked only if it is as new as its corpus: every ruling file it was built from
must still exist with the bytes it had (SHA-256 in ``sources``), else :func:`stale` says which
and ``kb check`` stops (exit status 2) rather than report on texts that are no longer there.
``kb check CORPUS`` builds first (the command line does, incrementally), so it never meets a
stale store.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from kb import store
from kb.checks import baseline, checklist, formats, run, sarif, suppressions
from kb.errors import KbError

FORMATS = ("text", "json", "sarif", "github")


@dataclass
class Outcome:
    output: str
    status: int
    note: str = ""  # a line for stderr


def stale(db) -> list[str]:
    """The ruling files of this store that changed or went since it was built."""
    if "sources" not in db.table_names():
        return []
    out = []
    for path, digest in db.execute("SELECT path, sha256 FROM sources ORDER BY path"):
        try:
            now = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except OSError:
            now = None
        if now != digest:
            out.append(path)
    return out


def build_folder(db_path: Path) -> Path:
    """The build folder ``kb check CORPUS`` builds into: the one holding ``--db``, which must
    then be its ``rulings.db``."""
    if db_path.name != "rulings.db":
        raise KbError(
            f"--db {db_path}: with CORPUS, --db names a build's rulings.db "
            f"(the build writes its folder)"
        )
    return db_path.parent


def check(
    db_path: Path,
    fmt: str = "text",
    fail_on: str = "error",
    suppressions_files=(),
    checklist_files=(),
    baseline_file: Path | None = None,
    write_baseline: Path | None = None,
    color: bool = False,
) -> Outcome:
    """Run the checks on the store at ``db_path`` and say what ``kb check`` prints and exits
    with. KbError (exit 2) for a stale store or a bad suppressions, checklist or baseline
    file."""
    db = store.open_existing(db_path)
    changed = stale(db)
    if changed:
        raise KbError(
            f"{db_path} is older than its corpus: {changed[0]} changed"
            f"{f' (and {len(changed) - 1} more files)' if len(changed) > 1 else ''}"
            f" since it was built; run `kb build` again, or `kb check CORPUS`"
        )
    accepted = [
        s
        for path in (list(suppressions_files) or suppressions.for_store(db))
        for s in suppressions.load(path)
    ]
    rules = [
        r
        for path in (list(checklist_files) or suppressions.for_store(db, checklist.FILE_NAME))
        for r in checklist.load(path)
    ]
    known = baseline.load(baseline_file) if baseline_file else None
    report = run.run_checks(db, accepted, rules)
    note = ""
    if write_baseline is not None:
        baseline.write(write_baseline, report.findings)
        note = f"kb: wrote {len(report.findings)} findings to the baseline {write_baseline}"
    if known is not None:
        report.findings, report.baselined = baseline.split(report.findings, known)
    output = {
        "json": formats.format_json,
        "sarif": sarif.format_sarif,
        "github": sarif.format_github,
    }.get(fmt)
    text = output(report) if output else formats.format_text(report, color=color)
    status = 0 if write_baseline is not None else report.status(fail_on)
    return Outcome(text, status, note)
