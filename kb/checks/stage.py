"""Translator checks: run every check family over the aligned store and report findings.

Library first: :func:`run_checks` returns a :class:`Report` (findings, accepted findings,
stale suppressions); :func:`findings` gives what the build stored for the site;
:func:`format_text` and :func:`format_json` are what ``kb check`` prints; :func:`build_stage`
is the pipeline's "check" stage, which stores the findings in the ``findings`` table and never
fails the build because of them.

Severity policy (README, "Translator checks"): **error** when the text does not say what the
others say or is not in its language (English phrases, digits that differ, a text copied
untranslated); **warning** when a person should look (missing sentence or concept, terminology,
names, number words, punctuation against the locale); **info** for typography that is not wrong
as such (breaking spaces in French, alternative glossary terms).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import sqlite_utils

from kb import store
from kb.checks import CHECKS, FAMILIES, suppressions as suppress
from kb.checks.findings import SEVERITIES, Corpus, Finding, Group, Member

TABLE = "findings"
COLUMNS = ("check", "severity", "lang", "group", "card", "message", "excerpt", "start", "end")


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    accepted: list[tuple[Finding, suppress.Suppression]] = field(default_factory=list)

    @property
    def exit_status(self) -> int:
        """1 when any finding that was not accepted is an error, else 0."""
        return int(any(f.severity == "error" for f in self.findings))

    def counts(self) -> dict[str, int]:
        return {s: sum(f.severity == s for f in self.findings) for s in SEVERITIES}


def run_checks(db: sqlite_utils.Database, accepted: list[suppress.Suppression] = ()) -> Report:
    """Check every aligned ruling in the store; ``accepted`` are suppressions to apply."""
    return check_corpus(load_corpus(db), accepted)


def check_corpus(corpus: Corpus, accepted: list[suppress.Suppression] = ()) -> Report:
    found = _dedupe([f for family in FAMILIES for f in family.check(corpus)])
    report = Report()
    used: set[int] = set()
    for finding in sorted(found, key=lambda f: f.key):
        rule = next((i for i, s in enumerate(accepted) if s.accepts(finding)), None)
        if rule is None:
            report.findings.append(finding)
        else:
            used.add(rule)
            report.accepted.append((finding, accepted[rule]))
    report.findings += [Finding("stale-suppression", "info", s.lang or "", s.group or "",
                                s.card or "", f"{s.where} accepts no finding of "
                                f"{s.check!r}; remove it") for i, s in enumerate(accepted)
                        if i not in used]
    return report


def _dedupe(found: list[Finding]) -> list[Finding]:
    """One finding per span: an English phrase reported as a fragment is not reported again as
    an English term, nor an English glossary term again as an unknown English name."""
    kept = list(dict.fromkeys(found))
    for wider, narrower in (("untranslated-fragment", "english-term"),
                            ("untranslated-fragment", "untranslated-name"),
                            ("english-term", "untranslated-name")):
        spans: dict = {}  # by ruling: a corpus has thousands of findings of each kind
        for f in kept:
            if f.check == wider:
                spans.setdefault(f.ruling, []).append((f.start, f.end))
        kept = [f for f in kept if f.check != narrower or not any(
            s < f.end and f.start < e for s, e in spans.get(f.ruling, ()))]
    return kept


def load_corpus(db: sqlite_utils.Database) -> Corpus:
    """The store's rulings as groups (alignment's when available) and the glossary."""
    return Corpus(groups=_groups(db), glossary=_glossary())


def _groups(db) -> list[Group]:
    try:
        from kb import align
    except ImportError:  # alignment not available: each ruling stands alone
        align = None
    if align is not None and "groups" in db.table_names():
        return aligned_groups(db)
    return [Group(row["id"], [_member(row, row["id"])], aligned=False)
            for row in store.rulings(db)]


_MEMBERS = ("SELECT m.group_id, r.id, r.lang, c.name, r.text, r.source, r.line, r.position "
            "FROM memberships m JOIN rulings r ON r.id = m.ruling_id JOIN cards c ON "
            "c.id = r.card_id")


def aligned_groups(db, ids: list[str] | None = None) -> list[Group]:
    """The stored groups (or those in ``ids``) as :func:`kb.align.groups` orders them and their
    members, read with only what the checks use (a shared group has 10,000 members)."""
    from kb import align

    if ids is None:
        rows = db.execute(_MEMBERS).fetchall()
        names = [r[0] for r in db.execute("SELECT id FROM groups")]
    else:
        rows, names = [], []
        for chunk in store.chunks(ids):
            marks = ", ".join("?" * len(chunk))
            rows += db.execute(f"{_MEMBERS} WHERE m.group_id IN ({marks})", chunk).fetchall()
            names += [r[0] for r in db.execute(f"SELECT id FROM groups WHERE id IN ({marks})",
                                               chunk)]
    order = {lang: align._lang_order(lang) for lang in {r[2] for r in rows}}
    rows.sort(key=lambda r: (order[r[2]], r[3], r[5], r[7]))
    members: dict[str, list[Member]] = {}
    for gid, rid, lang, card, text, source, line, _ in rows:
        where = f"{source}:{line}" if line else str(source or "")
        members.setdefault(gid, []).append(Member(str(rid), lang, card or "", text, str(gid),
                                                  where))
    names.sort(key=lambda gid: align.id_order(gid))
    return [Group(str(gid), members.get(gid, [])) for gid in names]


def _member(row: dict, group: str) -> Member:
    source = f"{row['source']}:{row['line']}" if row.get("line") else str(row.get("source", ""))
    return Member(str(row["id"]), row["lang"], row.get("card") or "", row["text"], group, source)


def _glossary():
    try:
        from kb.reference import glossary
    except ImportError:
        return None
    return glossary.load()


# -- the build stage and the stored findings ------------------------------------------------

def build_stage(ctx) -> None:
    """Pipeline stage "check": store every finding (accepted ones marked); never fails on them.

    After an incremental alignment only the changed groups are checked again
    (:func:`kb.checks.update.update`), when the corpus-wide counts the checks compare texts with
    came out the same; otherwise every group is.
    """
    from kb.checks import update as check_update

    files = suppress.discover(ctx.corpus)
    accepted = [s for path in files for s in suppress.load(path)]
    changed = ctx.extra.get("changed_groups")
    if changed is not None and check_update.update(ctx, accepted, changed):
        return
    corpus = load_corpus(ctx.db)
    report = check_corpus(corpus, accepted)
    store_report(ctx.db, report)
    check_update.store_state(ctx.db, corpus, accepted)
    check_update.save_frequencies(ctx.work)


def store_report(db: sqlite_utils.Database, report: Report) -> None:
    rows = [_row(f, None) for f in report.findings]
    rows += [_row(f, s.reason) for f, s in report.accepted]
    with db.conn:
        if TABLE in db.table_names():
            db[TABLE].drop()
        db[TABLE].create({"id": str, **{c: str for c in COLUMNS}, "start": int, "end": int,
                          "ruling": str, "source": str, "accepted": str}, pk="id")
        db[TABLE].insert_all(rows)
        db[TABLE].create_index(["group"])
        db[TABLE].create_index(["ruling"])


def _row(finding: Finding, reason: str | None) -> dict:
    row = finding.to_dict()
    key = json.dumps([row[k] for k in ("check", "ruling", "group", "lang", "start", "end",
                                       "message")], ensure_ascii=False)
    return {"id": hashlib.sha1(key.encode()).hexdigest()[:16], **row, "accepted": reason}


def findings(db: sqlite_utils.Database, accepted: bool = False) -> list[dict]:
    """Findings as the build stored them (run the checks now if this store has none).

    Each is a dict with the JSON keys of ``kb check`` plus ``ruling``, ``source`` and
    ``accepted`` (the suppression's reason, or None). Accepted findings are left out unless
    ``accepted`` is true.
    """
    if TABLE not in db.table_names():
        return [dict(f.to_dict(), accepted=None) for f in run_checks(db).findings]
    return _stored(db, "" if accepted else "WHERE accepted IS NULL", [])


def findings_of_groups(db: sqlite_utils.Database, groups: list[str]) -> list[dict]:
    """The stored findings (not accepted) of the groups ``groups``, as :func:`findings` gives
    them. An incremental site build reads these instead of all 36,000 at 100k rulings."""
    found = []
    for chunk in store.chunks(groups):
        found += _stored(db, f'WHERE accepted IS NULL AND "group" IN '
                             f'({", ".join("?" * len(chunk))})', chunk)
    return sorted(found, key=_order)


def stray_findings(db: sqlite_utils.Database) -> list[dict]:
    """The stored findings (not accepted) of no group the store has: corpus-wide ones."""
    if "groups" not in db.table_names():
        return findings(db)
    return _stored(db, 'WHERE accepted IS NULL AND ("group" IS NULL OR "group" NOT IN '
                       "(SELECT id FROM groups))", [])


def _stored(db: sqlite_utils.Database, where: str, values: list) -> list[dict]:
    """Rows of the findings table as dicts, without their id, in :func:`findings`' order."""
    # Plain tuples, not sqlite-utils' dict per row (36,000 rows at 100k rulings); SQLite's
    # order first, then Python's (the same order, found by one pass over sorted input).
    cursor = db.conn.execute(f'SELECT * FROM [{TABLE}] {where} ORDER BY "group", lang, card, '
                             'ruling, start, "end", "check", message', values)
    names = [column[0] for column in cursor.description]
    rows = [dict(zip(names, row)) for row in cursor]
    for row in rows:
        del row["id"]
    return sorted(rows, key=_order)


def _order(r: dict) -> tuple:
    return (r["group"], r["lang"], r["card"], r["ruling"], r["start"], r["end"], r["check"],
            r["message"])


# -- output ----------------------------------------------------------------------------------

def format_json(report: Report) -> str:
    data = {"findings": [_public(f) for f in report.findings],
            "accepted": [dict(_public(f), reason=s.reason) for f, s in report.accepted]}
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _public(finding: Finding) -> dict:
    return finding.to_dict()


def format_text(report: Report, color: bool = False) -> str:
    """Findings grouped by ruling, one line each, then a summary line."""
    import click

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


def suppressions_for_store(db: sqlite_utils.Database) -> list[Path]:
    """Suppressions files next to the sources this store was built from, if they still exist."""
    if "sources" not in db.table_names():
        return []
    paths = [Path(row["path"]) for row in db["sources"].rows]
    return suppress.discover([p for p in paths if p.exists()])
