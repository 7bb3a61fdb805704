"""A team's own checks: ``checklist.toml`` beside the corpus, regular expressions per language.

Each ``[[rule]]`` has a ``pattern`` (a Python regular expression), a ``message`` (what is
wrong, and what to write instead), a ``severity`` (error, warning or info), optionally the
``lang`` it applies to (default: every translation language) and an ``id`` (default: its
number) that the message starts with, so a suppression can name it::

    [[rule]]
    id = "fr-tour"
    lang = "fr"
    pattern = "\\\\btour de jeu\\\\b"
    message = "say « tour », as the printed cards do"
    severity = "warning"

Every match in a translation of that language is a ``checklist`` finding whose excerpt is the
matched text. A bad file (bad TOML, an unknown key, a pattern that does not compile, a missing
message) is a one-line error naming the file and the rule, like a bad suppressions file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from kb.checks.findings import SEVERITIES, Corpus, per_text
from kb.corpus.languages import CORPUS_LANGUAGES
from kb.errors import KbError, Problem, read_toml

CHECKS = {"checklist": "a match of one of the team's own rules (checklist.toml)"}
FILE_NAME = "checklist.toml"
_KEYS = ("id", "lang", "pattern", "message", "severity")


@dataclass(frozen=True)
class Rule:
    id: str
    pattern: str
    message: str
    severity: str
    lang: str | None = None

    @property
    def regex(self) -> re.Pattern:
        return re.compile(self.pattern)


def load(path: str | Path) -> list[Rule]:
    """The rules of one checklist file; KbError names the file and the rule at fault."""
    path = Path(path)
    data = read_toml(path)
    if set(data) - {"rule"} or not isinstance(data.get("rule", []), list):
        raise KbError([Problem(str(path), 0, "only [[rule]] entries are allowed")])
    return [_rule(path, number, raw) for number, raw in enumerate(data.get("rule", []), 1)]


def _rule(path: Path, number: int, raw) -> Rule:
    def bad(problem: str) -> KbError:
        return KbError([Problem(str(path), 0, f"[[rule]] #{number}: {problem}")])

    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise bad("every value must be a string")
    unknown = sorted(set(raw) - set(_KEYS))
    if unknown:
        raise bad(f"unknown key {unknown[0]!r} (use {', '.join(_KEYS)})")
    for key in ("pattern", "message"):
        if not raw.get(key, "").strip():
            raise bad(f"a {key} is required")
    if raw.get("severity", "warning") not in SEVERITIES:
        raise bad(f"severity must be one of {', '.join(SEVERITIES)}")
    if raw.get("lang") is not None and raw["lang"] not in CORPUS_LANGUAGES:
        raise bad(f"unknown language {raw['lang']!r}")
    try:
        re.compile(raw["pattern"])
    except re.error as exc:
        raise bad(f"pattern does not compile: {exc}") from None
    return Rule(
        raw.get("id") or str(number),
        raw["pattern"],
        raw["message"],
        raw.get("severity", "warning"),
        raw.get("lang"),
    )


def check(corpus: Corpus):
    rules = corpus.checklist
    if not rules:
        return
    compiled = [(rule, rule.regex) for rule in rules]
    yield from per_text(
        corpus,
        lambda group, member: (
            member.finding(
                "checklist", rule.severity, f"[{rule.id}] {rule.message}", m.start(), m.end()
            )
            for rule, regex in compiled
            if rule.lang in (None, member.lang)
            for m in regex.finditer(member.text)
            if m.end() > m.start()
        ),
        across_groups=True,
    )


def digest(rules: list[Rule]) -> list:
    """What a build compares to know whether the rules changed."""
    return [[r.id, r.pattern, r.message, r.severity, r.lang] for r in rules]
