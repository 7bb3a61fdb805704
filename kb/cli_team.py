"""The commands of those who keep the corpus: build it, check its translations, see what
changed, run the examples, export it for other tools.

Each is a click command registered on :data:`kb.cli.cli` (which also imports them by these
names); like every command, each parses its options and calls one library function.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kb import cli_checks
from kb.cli_checks import DB_OPTION
from kb.corpus.safe import printable


@click.command()
@click.argument("corpus", nargs=-1, type=click.Path(path_type=str))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("_build"),
    show_default=True,
    help="Output folder: rulings.db, index/ and site/ go here.",
)
@click.option(
    "--lang",
    help="State the language of every file (en for English originals; "
    "ru, it, fr, de, es) instead of detecting it.",
)
@click.option(
    "--timings-json",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the seconds each stage took to this file, as JSON.",
)
@click.option(
    "--full",
    is_flag=True,
    help="Build from nothing: do not start from the "
    "previous build's store (by default only changed files are parsed again).",
)
def build(corpus, out, lang, timings_json, full):
    """Build the store, search index and site from ruling files.

    CORPUS is any number of ruling files or folders (searched for *.txt); default ./rulings.
    The output is written to a temporary folder and swapped in whole at the end, so a failed
    or interrupted build leaves the previous output as it was. Every bad file is reported as
    `path:line: problem`, and the build exits with status 2.
    """
    import time

    from kb.pipeline.build import build as run_build

    started = time.perf_counter()
    timings = run_build(list(corpus) or None, out, lang, reuse=not full, timings_json=timings_json)
    total = time.perf_counter() - started  # not the sum: some stages run side by side
    if not timings:
        click.echo(
            f"{printable(str(out))} is up to date: no ruling or suppressions file "
            f"changed since it was built ({total:.2f}s; --full builds it again anyway)",
            err=True,
        )
        return
    click.echo(
        f"built {printable(str(out))} in {total:.2f}s "
        f"({', '.join(f'{k} {v:.2f}s' for k, v in timings.items())})",
        err=True,
    )


@click.group()
def export():
    """Export the store to standard output (json; tmx, tbx and xliff for CAT tools)."""


@export.command("json")
@DB_OPTION
def export_json(db_path):
    """The groups of aligned rulings, their rules and examples, as JSON."""
    from kb import store
    from kb.export import json as json_export

    click.echo(json_export.to_json(store.open_existing(db_path)), nl=False)


@export.command("tmx")
@DB_OPTION
@click.option("--pair", metavar="SRC-TGT", help="Only this language pair, e.g. en-fr.")
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write one file per language pair here instead (rulings.en-fr.tmx, ...).",
)
def export_tmx(db_path, pair, out_dir):
    """The aligned rulings as TMX 1.4b: one <tu> per group, one <tuv> per language.

    srclang is the English original's language when the corpus has originals (else *all*).
    """
    from kb import store
    from kb.export import tmx

    db = store.open_existing(db_path)
    pairs = [tmx.parse_pair(pair)] if pair else None
    if out_dir:
        for path in tmx.write_pairs(db, out_dir, pairs):
            click.echo(str(path), err=True)
        return
    click.echo(tmx.to_tmx(db, pairs[0] if pairs else None), nl=False)


@export.command("tbx")
@DB_OPTION
@click.option("--martif", is_flag=True, help="TBX v2 (MARTIF) instead of TBX-Basic (v3).")
def export_tbx(db_path, martif):
    """The glossary as TBX-Basic: preferred, admitted and deprecated terms per language.

    The glossary ships with the package, so --db is accepted for symmetry but not read.
    """
    from kb.export import tbx

    click.echo(tbx.to_tbx(martif=martif), nl=False)


@export.command("xliff")
@DB_OPTION
@click.option("--source", "source_lang", default="en", show_default=True)
@click.option("--target", "target_lang", required=True, help="e.g. fr")
def export_xliff(db_path, source_lang, target_lang):
    """One language pair as XLIFF 2.0: a unit per ruling in the source language."""
    from kb import store
    from kb.export import xliff

    click.echo(xliff.to_xliff(store.open_existing(db_path), source_lang, target_lang), nl=False)


@click.command()
@click.argument("ids", nargs=-1)
@DB_OPTION
@click.option(
    "--lang",
    type=click.Choice(["en", "ru", "it", "fr", "de", "es"]),
    help="Also write out each step of the examples run, in this language.",
)
@click.pass_context
def examples(ctx, ids, db_path, lang):
    """Run every example (or the IDS given) against the core; exit 1 if any fails.

    One line per example: status, id, the ruling group it shows (when --db holds that corpus),
    its rules and time. A failure names the file, the line of the first step whose state
    differs, and each difference. The store is only read; `kb build` stores the runs.
    """
    from kb import store
    from kb.examples import runs as example_runs

    db = None
    if db_path.is_file() or ctx.get_parameter_source("db_path").name != "DEFAULT":
        db = store.open_existing(db_path)
    chosen = example_runs.select(example_runs.load_examples(), ids)
    results = example_runs.run_examples(chosen, db=db)
    for line in example_runs.report(results, lang):
        click.echo(line)
    if any(not r.run.passed for r in results):
        sys.exit(1)


_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.command()
@click.argument("corpus", nargs=-1, type=click.Path(path_type=str))
@DB_OPTION
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "sarif", "github"]),
    default="text",
    show_default=True,
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info"]),
    default="error",
    show_default=True,
    help="Exit 1 when a new finding is at least this severe.",
)
@click.option(
    "--suppressions",
    "suppressions_path",
    multiple=True,
    type=_FILE,
    help="Accepted findings (default: suppressions.toml next to the corpus files "
    "the store was built from).",
)
@click.option(
    "--checklist",
    "checklist_path",
    multiple=True,
    type=_FILE,
    help="The team's own rules (default: checklist.toml next to the corpus files).",
)
@click.option(
    "--baseline",
    "baseline_path",
    type=_FILE,
    help="Known findings (from --write-baseline): only new findings count.",
)
@click.option(
    "--write-baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the current findings to this file as the baseline; exit 0.",
)
def check(
    corpus, db_path, fmt, fail_on, suppressions_path, checklist_path, baseline_path, write_baseline
):
    """Translator checks on the aligned rulings; exit 1 when a finding is an error.

    With CORPUS (files or folders), the store in --db's folder is built from it first (only
    what changed); without, a store older than its corpus files is refused (exit 2). JSON is
    {"findings": [{id, check, severity, lang, group, card, message, excerpt, start, end,
    line, column, ...}], "accepted": [...], "baselined": [...]}; sarif is SARIF 2.1.0; github
    prints workflow annotations.
    """
    from kb.checks import command

    if corpus:
        from kb.pipeline.build import build as run_build

        run_build(list(corpus), command.build_folder(db_path), None, reuse=True)
    done = command.check(
        db_path,
        fmt,
        fail_on,
        suppressions_path,
        checklist_path,
        baseline_path,
        write_baseline,
        color=sys.stdout.isatty(),
    )
    click.echo(done.output, nl=False)
    if done.note:
        click.echo(done.note, err=True)
    sys.exit(done.status)


@click.command()
@DB_OPTION
@click.option("--since", metavar="YYYY-MM-DD", help="Rulings dated on or after this day.")
@click.option(
    "--since-store",
    type=_FILE,
    callback=cli_checks.usable_store,
    help="An earlier build's rulings.db to compare with.",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def changes(db_path, since, since_store, fmt):
    """Rulings new, edited or removed per language, and translations older than their source."""
    from kb import store
    from kb.checks import changes as changes_module

    report = changes_module.changes(store.open_existing(db_path), since, since_store)
    if fmt == "json":
        import json

        click.echo(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        click.echo(changes_module.format_text(report), nl=False)
