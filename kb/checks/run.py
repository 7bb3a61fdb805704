"""Running the check families over a corpus: a :class:`Report` of findings and accepted ones.

:func:`check_corpus` runs every family of :mod:`kb.checks.families`, keeps one finding per
span (:func:`dedupe`), sorts them by ruling and applies the suppressions: a finding one of them
accepts goes to :attr:`Report.accepted`; a suppression that accepts nothing becomes a
``stale-suppression`` finding.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import sqlite_utils

from kb.checks.checklist import Rule
from kb.checks.families import FAMILIES
from kb.checks.findings import SEVERITIES, Corpus, Finding
from kb.checks.load import load_corpus
from kb.checks.suppressions import Suppression


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    accepted: list[tuple[Finding, Suppression]] = field(default_factory=list)
    #: Findings a baseline already lists (:mod:`kb.checks.baseline`): known, not counted.
    baselined: list[Finding] = field(default_factory=list)
    #: {ruling id: its text}: where a finding's offsets are, as lines and columns.
    texts: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def exit_status(self) -> int:
        """1 when any finding that was not accepted is an error, else 0."""
        return self.status("error")

    def status(self, fail_on: str = "error") -> int:
        """1 when any finding (not accepted, not in the baseline) is at least as severe as
        ``fail_on`` (error, warning or info), else 0."""
        worst = SEVERITIES.index(fail_on)
        return int(any(SEVERITIES.index(f.severity) <= worst for f in self.findings))

    def counts(self) -> dict[str, int]:
        return {s: sum(f.severity == s for f in self.findings) for s in SEVERITIES}


def run_checks(
    db: sqlite_utils.Database, accepted: Sequence[Suppression] = (), checklist: Iterable[Rule] = ()
) -> Report:
    """Check every aligned ruling in the store; ``accepted`` are suppressions to apply,
    ``checklist`` the team's own rules (:mod:`kb.checks.checklist`)."""
    with no_cycle_collection():
        corpus = load_corpus(db)
        corpus.checklist = list(checklist)
        report = check_corpus(corpus, accepted)
        report.texts = {m.id: m.text for m in corpus.members}
    return report


@contextmanager
def no_cycle_collection():
    """Python's cycle collector paused while the checks run.

    The checks make millions of small objects (matches, spans, findings) beside a large heap
    that lives as long as they do (the corpus, the glossary's caches, wordfreq's word lists):
    each collection walks all of it and finds nothing to free (the checks make next to no
    reference cycles; what they make is freed when the collector runs again after). Paused,
    a check run on 10,000 rulings takes a sixth less time, at the same peak memory.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def check_corpus(corpus: Corpus, accepted: Sequence[Suppression] = ()) -> Report:
    found = dedupe([f for family in FAMILIES for f in family.check(corpus)])
    report = Report()
    used: set[int] = set()
    for finding in sorted(found, key=lambda f: f.key):
        rule = next((i for i, s in enumerate(accepted) if s.accepts(finding)), None)
        if rule is None:
            report.findings.append(finding)
        else:
            used.add(rule)
            report.accepted.append((finding, accepted[rule]))
    report.findings += stale(accepted, used)
    return report


def stale(accepted: Sequence[Suppression], used: set[int]) -> list[Finding]:
    """A ``stale-suppression`` finding for each of ``accepted`` whose index is not in ``used``
    (it accepted no finding): the file should not collect dead entries."""
    return [
        Finding(
            "stale-suppression",
            "info",
            s.lang or "",
            s.group or "",
            s.card or "",
            f"{s.where} accepts no finding of {s.check!r}; remove it",
        )
        for i, s in enumerate(accepted)
        if i not in used
    ]


def dedupe(found: list[Finding]) -> list[Finding]:
    """One finding per span: an English phrase reported as a fragment is not reported again as
    an English term, nor an English glossary term again as an unknown English name."""
    kept = list(dict.fromkeys(found))
    for wider, narrower in (
        ("untranslated-fragment", "english-term"),
        ("untranslated-fragment", "untranslated-name"),
        ("english-term", "untranslated-name"),
    ):
        spans: dict = {}  # by ruling: a corpus has thousands of findings of each kind
        for f in kept:
            if f.check == wider:
                spans.setdefault(f.ruling, []).append((f.start, f.end))
        kept = [
            f
            for f in kept
            if f.check != narrower
            or not any(s < f.end and f.start < e for s, e in spans.get(f.ruling, ()))
        ]
    return kept
