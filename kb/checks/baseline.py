"""Baselines: the findings a team already knows of, so CI counts only the new ones.

``kb check --write-baseline FILE`` writes every current finding (accepted ones aside) as JSON::

    {"kb-baseline": 1, "findings": [{"fingerprint", "id", "check", "severity", "lang",
                                     "card", "file", "excerpt", "message"}, ...]}

``kb check --baseline FILE`` then sets aside each finding whose fingerprint the file lists (as
many times as it lists it): they are *baselined*, listed apart and not counted for the exit
status. A baseline differs from a suppression: it needs no reason, is written by the tool, and
is meant to shrink as the known findings are fixed.

The fingerprint is what a finding says about which text, not where the text sits: the check,
its severity, the language, the card, the file's name and the excerpt. A ruling moved down its
file or another translation edited (which changes the counts some messages quote) keeps its
findings known; an edit of the words at fault, or a finding that became more severe, is new.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path, PurePath

from kb.checks.findings import Finding
from kb.errors import KbError, Problem

FORMAT_KEY = "kb-baseline"


def file_of(finding: Finding) -> str:
    """The finding's file path, without its ``:line``."""
    path, _, line = finding.source.rpartition(":")
    return path if path and line.isdigit() else finding.source


def fingerprint(finding: Finding) -> str:
    """The finding's identity across edits elsewhere (see the module docstring)."""
    key = json.dumps(
        [
            finding.check,
            finding.severity,
            finding.lang,
            finding.card,
            PurePath(file_of(finding)).name,
            finding.excerpt,
            finding.group if not finding.ruling else "",
        ],
        ensure_ascii=False,
    )
    return hashlib.sha1(key.encode()).hexdigest()[:20]


def write(path: str | Path, findings: list[Finding]) -> None:
    """Write ``findings`` as a baseline file."""
    rows = [
        {
            "fingerprint": fingerprint(f),
            "id": f.id,
            "check": f.check,
            "severity": f.severity,
            "lang": f.lang,
            "card": f.card,
            "file": file_of(f),
            "excerpt": f.excerpt,
            "message": f.message,
        }
        for f in findings
    ]
    Path(path).write_text(
        json.dumps({FORMAT_KEY: 1, "findings": rows}, ensure_ascii=False, indent=1) + "\n",
        encoding="utf-8",
    )


def load(path: str | Path) -> Counter:
    """{fingerprint: how many times the baseline lists it}; KbError for a bad file."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise KbError(
            [Problem(str(path), 0, f"cannot read the baseline: {exc.strerror or exc}")]
        ) from None
    except ValueError as exc:
        raise KbError([Problem(str(path), 0, f"not a baseline (bad JSON: {exc})")]) from None
    if (
        not isinstance(data, dict)
        or data.get(FORMAT_KEY) != 1
        or not isinstance(data.get("findings"), list)
    ):
        raise KbError(
            [Problem(str(path), 0, "not a baseline written by `kb check --write-baseline`")]
        )
    return Counter(str(row.get("fingerprint")) for row in data["findings"] if isinstance(row, dict))


def split(findings: list[Finding], known: Counter) -> tuple[list[Finding], list[Finding]]:
    """(new findings, baselined ones): each fingerprint the baseline lists n times sets
    aside its first n findings."""
    left = Counter(known)
    new, old = [], []
    for finding in findings:
        key = fingerprint(finding)
        if left[key] > 0:
            left[key] -= 1
            old.append(finding)
        else:
            new.append(finding)
    return new, old
