"""What other stages stored that the site shows beside the corpus: each group's rules, the
rules of the core with their example runs, the glossary's concepts, the translator findings.

Read from the store (tables ``group_rules``, ``example_runs``, ``findings``), the core's
registry and the glossary.
"""

from __future__ import annotations

import contextlib
import json
from functools import lru_cache

from kb.core import registry
from kb.core.rule_history import rule_key
from kb.reference import glossary


def group_rules(db) -> dict[str, list[str]]:
    """{group id: its rule numbers} (every linked group)."""
    rules: dict[str, list[str]] = {}
    if "group_rules" in db.table_names():
        for group_id, rule in db.execute(
            "SELECT group_id, rule FROM group_rules ORDER BY group_id, rank"
        ):
            rules.setdefault(group_id, []).append(rule)
    return rules


@lru_cache(maxsize=4096)  # every group lists a few of the same few hundred rules
def sorted_rules(numbers: tuple) -> tuple[str, ...]:
    return tuple(sorted((str(n) for n in numbers), key=rule_key))


def load_examples(db) -> list[dict]:
    """Every stored example run, JSON columns decoded, by id."""
    if "example_runs" not in db.table_names():
        return []
    runs = []
    for row in db.query("SELECT * FROM example_runs ORDER BY id"):
        run = dict(row)
        for key in ("steps", "rules", "initial"):
            if isinstance(run.get(key), str):
                with contextlib.suppress(ValueError):  # a column that holds plain text
                    run[key] = json.loads(run[key])
        runs.append(run)
    return runs


def number_on(number: str, date_iso: str) -> str | None:
    """The number ``number`` had on ``date_iso``: None when the rule had none then (725.5 in
    June 2022: the page says so); unchanged for a rule the registry does not know."""
    try:
        return registry.number_on(number, date_iso)
    except (KeyError, ValueError):
        return number


def group_links(db) -> dict[str, dict[str, dict]]:
    """{group id: {rule: why (score, concepts, words per language)}} of every linked group."""
    from kb import link

    return {
        group: {
            found["rule"]: {k: found[k] for k in ("score", "concepts", "words")} for found in linked
        }
        for group, linked in link.links(db).items()
    }


def unlinked_groups(db) -> list[dict]:
    """The groups linked to no rule, each {id, why, texts}: the linker's reason as
    :func:`kb.link.explain` gives it (the maintainers' page says it in the reader's language)
    and the group's first text in each language, so the page needs no group loaded. Empty
    before the link stage ran."""
    if "group_rules" not in db.table_names():
        return []
    from kb import link, store

    found = link.unlinked(db)
    texts: dict[str, dict[str, str]] = {}
    for chunk in store.chunks([g["id"] for g in found]):
        for group_id, lang, text in db.execute(
            "SELECT m.group_id, r.lang, r.text FROM memberships m JOIN rulings r ON "
            f"r.id = m.ruling_id WHERE m.group_id IN ({', '.join('?' * len(chunk))}) "
            "ORDER BY r.id",
            chunk,
        ):
            texts.setdefault(group_id, {}).setdefault(lang, text)
    return [{"id": g["id"], "why": g["why"], "texts": texts.get(g["id"], {})} for g in found]


def concepts() -> list[dict]:
    """Every glossary concept with its terms per language, by id."""
    return sorted(
        (
            {"id": c.id, "terms": {k: list(v) for k, v in c.terms.items()}}
            for c in glossary.load().concepts
        ),
        key=lambda c: c["id"],
    )


def load_findings(db) -> list[dict] | None:
    """The translator findings the check stage stored (accepted ones left out); None before."""
    check = _checks_run(db)
    if check is None:
        return None
    return sorted_findings(check.findings(db))


def findings_where(db, groups) -> list[dict]:
    """The findings of the groups ``groups``, as :func:`load_findings` gives them (the checks
    have run)."""
    from kb.checks import (
        table,  # the checks' word lists load only when findings are read
    )

    return table.findings_of_groups(db, sorted(groups))


def stray_findings(db) -> list[dict] | None:
    """The findings of no group the store has (the consistency report's first part shows
    them), as :func:`load_findings` gives them; None when the checks have not run."""
    check = _checks_run(db)
    return None if check is None else sorted_findings(check.stray_findings(db))


def _checks_run(db):
    """:mod:`kb.checks.table`, if the check stage stored findings in ``db``; else None."""
    from kb.checks import table

    return table if "findings" in db.table_names() else None


def any_finding(db) -> bool:
    return (
        db.execute("SELECT EXISTS (SELECT 1 FROM findings WHERE accepted IS NULL)").fetchone()[0]
        == 1
    )


def sorted_findings(found: list[dict]) -> list[dict]:
    return sorted(
        found,
        key=lambda f: (
            str(f.get("group")),
            str(f.get("lang")),
            str(f.get("check")),
            str(f.get("message")),
        ),
    )
