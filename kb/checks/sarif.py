"""``kb check`` for machines that show findings in place: SARIF 2.1.0 and GitHub annotations.

**SARIF** (OASIS Static Analysis Results Interchange Format 2.1.0, what code-scanning services
and editor extensions read): one run of the tool ``kb check`` whose rules are the check ids
(:data:`kb.checks.families.CHECKS`, with their severity as the default level). Each finding
is a result with its rule, level (error, warning, note), message, the ruling's file with the
region of the excerpt (1-based lines and columns counted in characters: the run says
``columnKind: unicodeCodePoints``), its fingerprint as ``partialFingerprints``
(``kbFinding/v1``: :func:`kb.checks.baseline.fingerprint`, what matches a finding across
runs) and its language, card, group and stable id as properties. Findings in a baseline are results with
``baselineState: unchanged``, new ones ``new``; accepted findings are suppressed results
(``suppressions`` with the reason as justification).

**GitHub** workflow commands (``::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::``)
print one annotation per new finding, which a GitHub Actions run shows on the changed lines
of a pull request. info findings are ``notice``.
"""

from __future__ import annotations

import json
from pathlib import Path

from kb import __version__
from kb.checks import baseline
from kb.checks.families import CHECKS
from kb.checks.findings import Finding
from kb.checks.formats import place
from kb.checks.run import Report

SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def uri(path: str) -> str:
    """A file path as a SARIF artifact URI: relative to the working folder (forward slashes)
    when it is inside it, else a ``file://`` URI."""
    if not path:
        return ""
    absolute = Path(path).resolve()
    try:
        return absolute.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return absolute.as_uri()


def format_sarif(report: Report) -> str:
    rules = sorted(CHECKS)
    results = [_result(f, report, rules, "new") for f in report.findings]
    results += [_result(f, report, rules, "unchanged") for f in report.baselined]
    results += [
        dict(
            _result(f, report, rules, None),
            suppressions=[{"kind": "external", "status": "accepted", "justification": s.reason}],
        )
        for f, s in report.accepted
    ]
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "kb check",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": [
                            {"id": rule, "shortDescription": {"text": CHECKS[rule]}}
                            for rule in rules
                        ],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json.dumps(log, ensure_ascii=False, indent=2) + "\n"


def _result(finding: Finding, report: Report, rules: list[str], state: str | None) -> dict:
    where = place(finding, report.texts.get(finding.ruling))
    result: dict = {
        "ruleId": finding.check,
        "ruleIndex": rules.index(finding.check),
        "level": _LEVEL[finding.severity],
        "message": {"text": finding.message},
        "partialFingerprints": {"kbFinding/v1": baseline.fingerprint(finding)},
        "properties": {
            "id": finding.id,
            "lang": finding.lang,
            "card": finding.card,
            "group": finding.group,
        },
    }
    if state is not None:
        result["baselineState"] = state
    path = baseline.file_of(finding)
    if path:
        physical: dict = {"artifactLocation": {"uri": uri(path)}}
        if where:
            physical["region"] = {
                "startLine": where["line"],
                "startColumn": where["column"],
                "endLine": where["end_line"],
                "endColumn": where["end_column"],
                **({"snippet": {"text": finding.excerpt}} if finding.excerpt else {}),
            }
        result["locations"] = [{"physicalLocation": physical}]
    return result


def format_github(report: Report) -> str:
    """One workflow command per new finding (accepted and baselined ones are not shown)."""
    lines = []
    for f in report.findings:
        where = place(f, report.texts.get(f.ruling))
        props = []
        path = baseline.file_of(f)
        if path:
            relative = uri(path)
            props.append(f"file={_property(path if relative.startswith('file:') else relative)}")
        if where:
            props += [
                f"line={where['line']}",
                f"col={where['column']}",
                f"endLine={where['end_line']}",
                f"endColumn={where['end_column']}",
            ]
        props.append(f"title={_property(f'{f.check} [{f.lang}] {f.id}')}")
        lines.append(f"::{_COMMAND[f.severity]} {','.join(props)}::{_data(f.message)}")
    return "".join(line + "\n" for line in lines)


def _data(text: str) -> str:
    """A workflow command's message, escaped as the runner expects."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value, escaped (also , and :)."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")
