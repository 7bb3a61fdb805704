"""What ``kb check`` prints: text for a terminal, JSON for scripts, SARIF for code-scanning
tools and editors, GitHub workflow commands for annotations on a pull request.

JSON: ``{"findings": [...], "accepted": [...], "baselined": [...]}``, each finding with the
keys of :meth:`kb.checks.findings.Finding.to_dict` plus its stable ``id``, ``fingerprint``
(:mod:`kb.checks.baseline`) and place (``line``, ``column``, ``end_line``, ``end_column``:
1-based, in characters, in the ruling's file); an accepted one also its ``reason``. SARIF
2.1.0 and GitHub annotations are in :mod:`kb.checks.sarif`. A new output format is one more
function taking a :class:`kb.checks.run.Report`.
"""

from __future__ import annotations

import json

import click

from kb.checks import baseline
from kb.checks.findings import Finding
from kb.checks.run import Report


def place(finding: Finding, text: str | None) -> dict:
    """Where the finding is in its file: 1-based line and column of its first and last
    character (the column in characters, as SARIF's ``unicodeCodePoints``); empty when the
    finding has no ruling or its file is not known."""
    path = baseline.file_of(finding)
    first = finding.source[len(path) + 1 :]
    if not finding.ruling or not first.isdigit() or text is None:
        return {}

    def at(offset: int) -> tuple[int, int]:
        before = text[:offset]
        return int(first) + before.count("\n"), offset - (before.rfind("\n") + 1) + 1

    line, column = at(finding.start)
    end_line, end_column = at(max(finding.start, finding.end))
    return {"line": line, "column": column, "end_line": end_line, "end_column": end_column}


def as_dict(finding: Finding, report: Report) -> dict:
    """A finding as the JSON lists it: its fields, id, fingerprint and place."""
    return {
        **finding.to_dict(),
        "id": finding.id,
        "fingerprint": baseline.fingerprint(finding),
        **place(finding, report.texts.get(finding.ruling)),
    }


def format_json(report: Report) -> str:
    data = {
        "findings": [as_dict(f, report) for f in report.findings],
        "accepted": [dict(as_dict(f, report), reason=s.reason) for f, s in report.accepted],
        "baselined": [as_dict(f, report) for f in report.baselined],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def format_text(report: Report, color: bool = False) -> str:
    """Findings grouped by ruling, one line each, then a summary line."""
    lines: list[str] = []
    heading = None
    for f in report.findings:
        head = _heading(f)
        if head != heading:
            lines += ([""] if lines else []) + [click.style(head, bold=True) if color else head]
            heading = head
        severity = f"{f.severity:<7}"
        if color:
            severity = click.style(
                severity, fg={"error": "red", "warning": "yellow"}.get(f.severity, "cyan")
            )
        where = f" [{f.start}:{f.end}]" if f.excerpt else ""
        # Whole-ruling findings carry the whole text as excerpt: too long for a terminal.
        excerpt = f"  «{f.excerpt}»" if f.excerpt and len(f.excerpt) <= 80 else ""
        lines.append(f"  {severity} {f.check:<21} {f.message}{excerpt}{where}")
    counts = report.counts()
    summary = f"{counts['error']} error(s), {counts['warning']} warning(s), {counts['info']} info"
    if report.accepted:
        summary += f"; {len(report.accepted)} accepted by suppressions"
    if report.baselined:
        summary += f"; {len(report.baselined)} in the baseline"
    lines += ([""] if lines else []) + [summary]
    return "\n".join(lines) + "\n"


def _heading(f: Finding) -> str:
    if f.ruling:
        return f"{f.source or f.ruling}  {f.lang}  {f.card}  (group {f.group})"
    if f.group:
        return f"group {f.group}"
    return "suppressions"
