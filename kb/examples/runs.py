"""Run every example against the core: the ``examples`` build stage and ``kb examples``.

Two kinds of examples, both scenario files of :mod:`kb.core.scenario`:

- *rule* scenarios in ``kb/examples/rules/`` (each shows registered rules of the core);
- *ruling* examples in ``kb/examples/rulings/``: the same format plus ``group``, the stable
  key of the ruling group the example shows (``726.3-1df600``: primary rule + concept
  fingerprint, see :func:`kb.align.find_group`, which also finds a group whose primary rule
  changed by its fingerprint alone).

The stage runs them all, stores each run in the table ``example_runs`` (``id`` pk, ``group``
-> ``groups.id`` or null, ``kind`` rule|ruling, ``title``, ``source``, ``rules`` JSON,
``status`` passed|failed, ``seconds``, ``failure``, ``initial`` JSON, ``steps`` JSON: the
:class:`kb.core.scenario.StepTrace` of each step as a dict) and fails the build on the first
failing example, naming the file and line of the step whose state differs.

>>> [e.id for e in load_examples() if e.group == "726.3-1df600"]
['ruling-only-one-holder']
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import sqlite_utils
import yaml

from kb.core import scenario
from kb.corpus.files import display
from kb.errors import KbError, Problem, read_yaml, yaml_error
from kb.pipeline.progress import progress, say
from kb.store import schema

EXAMPLES_DIR = Path(__file__).resolve().parent
RULES_DIR = EXAMPLES_DIR / "rules"
RULINGS_DIR = EXAMPLES_DIR / "rulings"
TABLE = "example_runs"


@dataclass
class Example:
    """A scenario plus what ties it to the corpus (``group`` key, for ruling examples)."""

    scenario: scenario.Scenario
    kind: str
    group: str | None = None

    @property
    def id(self) -> str:
        return self.scenario.id


@dataclass
class Result:
    example: Example
    run: scenario.Run
    group_id: str | None = None  # the group found in the store for example.group

    @property
    def status(self) -> str:
        return "passed" if self.run.passed else "failed"


# -- loading ----------------------------------------------------------------------------------


def load_examples(rules_dir: Path | None = None, rulings_dir: Path | None = None) -> list[Example]:
    """Every rule scenario and ruling example; ids are unique across both (KbError if not)."""
    rules_dir = RULES_DIR if rules_dir is None else rules_dir
    rulings_dir = RULINGS_DIR if rulings_dir is None else rulings_dir
    try:
        examples = [Example(s, "rule") for s in scenario.load_dir(rules_dir)]
        examples += [load_ruling_example(p) for p in sorted(Path(rulings_dir).glob("*.y*ml"))]
    except scenario.ScenarioError as error:
        raise KbError(str(error)) from None
    except yaml.YAMLError as error:  # a scenario's: the parser's mark names its file
        raise yaml_error(error) from None
    seen: dict[str, str] = {}
    for example in examples:
        if example.id in seen:
            raise KbError(
                [
                    Problem(
                        example.scenario.source,
                        1,
                        f"example id {example.id!r} already used in {seen[example.id]}",
                    )
                ]
            )
        seen[example.id] = example.scenario.source
    return examples


def load_ruling_example(path: Path) -> Example:
    """A ruling example: a scenario with a ``group`` key (ScenarioError names the file)."""
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise scenario.ScenarioError(f"{path}: an example file holds one mapping")
    group = data.pop("group", None)
    if not isinstance(group, str) or not group:
        raise scenario.ScenarioError(
            f"{path}: {data.get('id', '?')}: missing 'group' "
            f"(the stable key of the ruling group it shows)"
        )
    parsed = scenario.load(data)
    parsed.source = display(Path(path))
    return Example(parsed, "ruling", group)


def step_line(source: str, index: int) -> int:
    """The 1-based line of step ``index`` in a scenario file (1 if it cannot be found)."""
    try:
        node = yaml.compose(Path(source).read_text(encoding="utf-8"))
        if node is None:  # an empty file
            return 1
        steps = dict((k.value, v) for k, v in node.value)["steps"]
        return steps.value[index - 1].start_mark.line + 1
    except (OSError, TypeError, KeyError, IndexError, AttributeError, yaml.YAMLError):
        return 1


# -- running ----------------------------------------------------------------------------------


def run_examples(
    examples: list[Example] | None = None, db: sqlite_utils.Database | None = None
) -> list[Result]:
    """Run every example; with a store, tie each ruling example to its group's current id."""
    examples = load_examples() if examples is None else examples
    find = group_finder(db)
    results = []
    with progress("examples", len(examples)) as advance:
        for example in examples:
            group_id = find(example.group) if example.group else None
            results.append(Result(example, scenario.run(example.scenario), group_id))
            advance(1)
    return results


def group_finder(db: sqlite_utils.Database | None):
    if db is None or "groups" not in db.table_names():
        return lambda key: None
    from kb import align

    return lambda key: align.find_group_id(db, key)


def failure_problem(result: Result) -> Problem:
    """Where and why an example failed: its file, the line of the first differing step."""
    run = result.run
    index = run.steps[-1].index if run.steps and run.steps[-1].diff else None
    line = step_line(result.example.scenario.source, index) if index else 1
    # A scenario given as a dict has no file; its id then stands in for the path.
    return Problem(
        result.example.scenario.source or result.example.id, line, f"example {run.failure}"
    )


# -- the store --------------------------------------------------------------------------------


def store_results(db: sqlite_utils.Database, results: list[Result], keep: bool = False) -> None:
    """Replace the stored runs with these (or add these to them, with ``keep``)."""
    schema.create(db, TABLE)
    with db.conn:
        if not keep:
            db.table(TABLE).delete_where()
        db.table(TABLE).insert_all(_row(r) for r in results)


def _row(result: Result) -> dict:
    s, run = result.example.scenario, result.run
    return {
        "id": s.id,
        "group": result.group_id,
        "kind": result.example.kind,
        "title": s.title,
        "source": s.source,
        "rules": json.dumps(s.rules),
        "status": result.status,
        "seconds": round(run.seconds, 6),
        "failure": run.failure,
        "initial": json.dumps(run.initial, ensure_ascii=False),
        "steps": json.dumps([asdict(t) for t in run.steps], ensure_ascii=False),
    }


def examples_for_group(db: sqlite_utils.Database, group_id: str) -> list[dict]:
    """The stored runs of a group's examples: ``{id, status, title, rules, failure, source,
    steps}`` (steps as :class:`StepTrace` dicts), by id. Empty before the stage ran.

    The run time stays in the table (and ``kb examples`` prints it) but is left out here: this
    feeds ``kb export json`` and the site's data dump, which must be the same bytes for the
    same corpus.
    """
    if TABLE not in db.table_names():
        return []
    rows = db.query(f'SELECT * FROM {TABLE} WHERE "group" = ? ORDER BY id', [group_id])
    return [
        {
            "id": r["id"],
            "status": r["status"],
            "title": r["title"],
            "rules": json.loads(r["rules"]),
            "failure": r["failure"],
            "source": r["source"],
            "steps": json.loads(r["steps"]),
        }
        for r in rows
    ]


# -- the build stage --------------------------------------------------------------------------


def build_stage(ctx) -> None:
    """Pipeline stage: run every example, store the runs, fail the build on a failure.

    After an incremental alignment (``ctx.changed_groups``) only the ruling examples
    whose group key may now find another group (or whose run went with its group) run again:
    a run depends only on the code and the example's file (both in the build key) and on the
    group its key finds. Which key each example has is kept in ``example_keys``.
    """
    changed = ctx.changed_groups
    if changed is not None and KEYS in ctx.db.table_names() and TABLE in ctx.db.table_names():
        examples = [load_ruling_example(Path(path)) for path in _stale(ctx.db, changed)]
        results = run_examples(examples, db=ctx.db)
        ids = [r.example.id for r in results]
        with ctx.db.conn:
            ctx.db.conn.executemany(f"DELETE FROM {TABLE} WHERE id = ?", [(i,) for i in ids])
        store_results(ctx.db, results, keep=True)
    else:
        results = run_examples(db=ctx.db)
        store_results(ctx.db, results)
        store_keys(ctx.db, [r.example for r in results])
    for row in ctx.db.query(
        f"SELECT k.id, k.key, r.source FROM {KEYS} k JOIN {TABLE} r ON "
        f'r.id = k.id WHERE r."group" IS NULL ORDER BY k.id'
    ):
        say(f"{row['source']}: example {row['id']}: no ruling group {row['key']} in this corpus")
    failed = [failure_problem(r) for r in results if not r.run.passed]
    if failed:
        raise KbError(failed)


KEYS = "example_keys"


def store_keys(db: sqlite_utils.Database, examples: list[Example]) -> None:
    """Which group key each ruling example has, and its file."""
    with db.conn:
        db.execute(f"DROP TABLE IF EXISTS {KEYS}")
        schema.create(db, KEYS)
        db.table(KEYS).insert_all(
            {"id": e.id, "key": e.group, "path": str(Path(e.scenario.source).resolve())}
            for e in examples
            if e.group
        )


def _stale(db: sqlite_utils.Database, changed_groups: set[str]) -> list[str]:
    """Files of the ruling examples to run again: those whose key names a changed group (by
    id or fingerprint, as :func:`kb.align.find_group` looks), and those whose run went."""
    from kb.align.update import group_base

    def fingerprint(key: str) -> str:
        base = group_base(key)
        return base.rsplit("-", 1)[-1] if "-" in base else base

    ids = set(changed_groups)
    prints = {fingerprint(gid) for gid in ids}
    have = {row["id"] for row in db.query(f"SELECT id FROM {TABLE}")}
    return sorted(
        row["path"]
        for row in db.query(f"SELECT id, key, path FROM {KEYS}")
        if row["id"] not in have or row["key"] in ids or fingerprint(row["key"]) in prints
    )


# -- the command line -------------------------------------------------------------------------


def select(examples: list[Example], ids) -> list[Example]:
    """The examples named in ``ids`` (all when empty); KbError names an unknown id."""
    if not ids:
        return examples
    by_id = {e.id: e for e in examples}
    unknown = [i for i in ids if i not in by_id]
    if unknown:
        raise KbError(f"no example {', '.join(map(repr, unknown))} (see `kb examples`)")
    return [by_id[i] for i in ids]


def report(results: list[Result], lang: str | None = None) -> list[str]:
    """Lines for ``kb examples``: one per example, its failure, its steps in ``lang``."""
    lines = []
    for r in results:
        group = r.group_id or (f"{r.example.group}?" if r.example.group else "-")
        lines.append(
            f"{r.status:<7} {r.example.id}  group {group}  rules "
            f"{', '.join(r.example.scenario.rules)}  {r.run.seconds * 1000:.1f} ms"
        )
        if not r.run.passed:
            lines.append(f"        {failure_problem(r)}")
        if lang:
            from kb.examples.text import describe

            lines += [f"        {t.index}. {describe(t, lang)}" for t in r.run.steps]
    failed = sum(1 for r in results if not r.run.passed)
    lines.append(f"{len(results)} examples: {len(results) - failed} passed, {failed} failed")
    return lines
