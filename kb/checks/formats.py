"""What ``kb check`` prints: a report as text for a terminal, or as JSON for scripts.

JSON: ``{"findings": [...], "accepted": [...]}``, each finding with the keys of
:meth:`kb.checks.findings.Finding.to_dict` (an accepted one also its ``reason``). A new output
format is one more function here taking a :class:`kb.checks.run.Report`.
"""

from __future__ import annotations

import json

import click

from kb.checks.findings import Finding
from kb.checks.run import Report


def format_json(report: Report) -> str:
    data = {"findings": [f.to_dict() for f in report.findings],
            "accepted": [dict(f.to_dict(), reason=s.reason) for f, s in report.accepted]}
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
            severity = click.style(severity, fg={"error": "red", "warning": "yellow"}.get(
                f.severity, "cyan"))
        where = f" [{f.start}:{f.end}]" if f.excerpt else ""
        # Whole-ruling findings carry the whole text as excerpt: too long for a terminal.
        excerpt = f"  «{f.excerpt}»" if f.excerpt and len(f.excerpt) <= 80 else ""
        lines.append(f"  {severity} {f.check:<21} {f.message}{excerpt}{where}")
    counts = report.counts()
    summary = (f"{counts['error']} error(s), {counts['warning']} warning(s), "
               f"{counts['info']} info")
    if report.accepted:
        summary += f"; {len(report.accepted)} accepted by suppressions"
    lines += ([""] if lines else []) + [summary]
    return "\n".join(lines) + "\n"


def _heading(f: Finding) -> str:
    if f.ruling:
        return f"{f.source or f.ruling}  {f.lang}  {f.card}  (group {f.group})"
    if f.group:
        return f"group {f.group}"
    return "suppressions"
