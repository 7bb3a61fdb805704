"""The check families, in the order they run, and every check id they define.

Each family module has ``CHECKS`` (check id -> what it looks for) and ``check(corpus)``
yielding :class:`kb.checks.findings.Finding`. Check ids are stable: suppressions, CI scripts and
the site refer to them.
"""

from kb.checks import (
    checklist,
    clauses,
    content,
    coverage,
    dates,
    fragments,
    numbers,
    punctuation,
    terms,
)

FAMILIES = (fragments, content, terms, numbers, clauses, dates, punctuation, coverage, checklist)

#: Every check id -> one line saying what it looks for.
CHECKS: dict[str, str] = {cid: what for family in FAMILIES for cid, what in family.CHECKS.items()}
