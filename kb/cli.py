"""The `kb` command: a thin click layer, each command calling one library function.

Usage errors and bad data exit with status 2 and one line per problem on stderr; tracebacks
are kept for bugs only.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import click

from kb import __version__, cli_checks
from kb.corpus.safe import printable
from kb.errors import KbError

DB_OPTION = click.option(
    "--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
    default=Path("_build/rulings.db"), show_default=True, callback=cli_checks.usable_store,
    help="The store written by `kb build`.")


class KbGroup(click.Group):
    """Turns user-facing errors into one line each on stderr and exit status 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):
        # Click's own errors (usage, bad values) as one line too, not its usage block.
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as exc:
            click.echo(cli_checks.usage_line(exc), err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KbError as exc:
            for line in exc.lines():
                line = printable(line)
                click.echo(f"kb: {line}" if ":" not in line.split(" ")[0] else line, err=True)
            sys.exit(2)
        except FileNotFoundError as exc:
            click.echo(printable(f"kb: {exc}"), err=True)
            sys.exit(2)
        except sqlite3.DatabaseError as exc:
            line = cli_checks.store_line(ctx, exc)
            if line is None:
                raise
            click.echo(line, err=True)
            sys.exit(2)


@click.group(cls=KbGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kb")
def cli():
    """rulings-kb: multilingual Magic rulings, aligned, linked to executable rules, searchable.

    Start with `kb build` (reads ./rulings, writes ./_build), then `kb search`, `kb check`,
    `kb export`. Each command's --help says more.
    """


@cli.command()
@click.argument("corpus", nargs=-1, type=click.Path(path_type=str))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("_build"),
              show_default=True, help="Output folder: rulings.db, index/ and site/ go here.")
@click.option("--lang", help="State the language of every file (en for English originals; "
              "ru, it, fr, de, es) instead of detecting it.")
@click.option("--timings-json", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the seconds each stage took to this file, as JSON.")
@click.option("--full", is_flag=True, help="Build from nothing: do not start from the "
              "previous build's store (by default only changed files are parsed again).")
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
        click.echo(f"{printable(str(out))} is up to date: no ruling or suppressions file "
                   f"changed since it was built ({total:.2f}s; --full builds it again anyway)",
                   err=True)
        return
    click.echo(f"built {printable(str(out))} in {total:.2f}s "
               f"({', '.join(f'{k} {v:.2f}s' for k, v in timings.items())})", err=True)


@cli.command(cls=cli_checks.QueryCommand)
@click.argument("query")
@DB_OPTION
@click.option("--lang", type=click.Choice(["ru", "it", "fr", "de", "es"]),
              help="Show each result in this language (one hit per group).")
@click.option("--limit", type=click.IntRange(1, 1000), default=10, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def search(query, db_path, lang, limit, fmt):
    """Find rulings: words in any language, "phrases", and filters.

    Filters: lang:fr  card:"Chasseur vengeur"  rule:726.3  date>=2022-01-01  -word.
    Words may be inflected, unaccented or misspelt. The index is read from index/ next to
    --db. JSON output is a list of hits, best first: group, lang, card, text, score, rules,
    links (why each rule: score, concepts, words per language), ...
    """
    from kb.search import index_dir_for, render_text
    from kb.search import search as run_search

    index = index_dir_for(db_path)
    with cli_checks.damaged_index(index):
        hits = run_search(index, query, lang=lang, limit=limit, mapped=False)
    if fmt == "json":
        import json

        from kb.search.results import with_links

        hits = with_links(hits, index_dir_for(db_path))
        click.echo(json.dumps([h.as_dict() for h in hits], ensure_ascii=False, indent=2))
    else:  # texts of an older store may hold control characters: never raw to a terminal
        click.echo(printable(render_text(hits), one_line=False))
    _LEAVE_AT_ONCE.add("search")


@cli.group()
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
@click.option("--out-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write one file per language pair here instead (rulings.en-fr.tmx, ...).")
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


@cli.command()
@click.argument("ids", nargs=-1)
@DB_OPTION
@click.option("--lang", type=click.Choice(["en", "ru", "it", "fr", "de", "es"]),
              help="Also write out each step of the examples run, in this language.")
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


@cli.command()
@click.argument("corpus", nargs=-1, type=click.Path(path_type=str))
@DB_OPTION
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "github"]),
              default="text", show_default=True)
@click.option("--fail-on", type=click.Choice(["error", "warning", "info"]), default="error",
              show_default=True, help="Exit 1 when a new finding is at least this severe.")
@click.option("--suppressions", "suppressions_path", multiple=True, type=_FILE,
              help="Accepted findings (default: suppressions.toml next to the corpus files "
                   "the store was built from).")
@click.option("--checklist", "checklist_path", multiple=True, type=_FILE,
              help="The team's own rules (default: checklist.toml next to the corpus files).")
@click.option("--baseline", "baseline_path", type=_FILE,
              help="Known findings (from --write-baseline): only new findings count.")
@click.option("--write-baseline", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the current findings to this file as the baseline; exit 0.")
def check(corpus, db_path, fmt, fail_on, suppressions_path, checklist_path, baseline_path,
          write_baseline):
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
    done = command.check(db_path, fmt, fail_on, suppressions_path, checklist_path,
                         baseline_path, write_baseline, color=sys.stdout.isatty())
    click.echo(done.output, nl=False)
    if done.note:
        click.echo(done.note, err=True)
    sys.exit(done.status)


@cli.command()
@DB_OPTION
@click.option("--since", metavar="YYYY-MM-DD", help="Rulings dated on or after this day.")
@click.option("--since-store", type=_FILE, callback=cli_checks.usable_store,
              help="An earlier build's rulings.db to compare with.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
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


@cli.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("_build"),
              show_default=True, help="The build folder whose site/ to serve.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port on 127.0.0.1 (0 picks a free one).")
def serve(out, port):
    """Preview the built site at http://127.0.0.1:PORT/ (Ctrl-C stops)."""
    from kb.site.serve import server

    httpd = server(out, port)
    click.echo(printable(f"serving {out / 'site'} at http://127.0.0.1:{httpd.server_address[1]}/"),
               err=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()


@cli.command()
@click.option("--unlinked", is_flag=True, help="List the groups linked to no rule, with why.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@DB_OPTION
def links(unlinked, fmt, db_path):
    """List each ruling group's rules and why: score, concepts, words per language.

    With --unlinked, the groups linked to no rule and the reason (a designation the core
    does not carry, no carried rule naming their concepts, or the closest rule and what it
    lacks). JSON: [{group, links: [{rule, number_then, score, concepts, words}]}], or with
    --unlinked [{group, reason, concepts}].
    """
    import json

    from kb import link, store

    rows = link.listing(store.open_existing(db_path), unlinked)
    click.echo(json.dumps(rows, ensure_ascii=False, indent=2) if fmt == "json"
               else link.listing_text(rows, unlinked))


@cli.command()
@click.argument("numbers", nargs=-1)
@click.option("--on", "on_date", metavar="YYYY-MM-DD", callback=cli_checks.iso_date,
              help="Also show each rule's number in the Comprehensive Rules in force on that date.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules(numbers, on_date, fmt):
    """List the rules the executable core carries out.

    Each rule: its current Comprehensive Rules number, the number on --on DATE (numbers moved
    between editions, e.g. 726.3 was 721.3 in June 2022), a summary in our own words, and the
    code that carries it out. NUMBERS limits the list (e.g. `kb rules 726.4 701.49d`).
    """
    import json

    from kb.core import registry

    try:
        selected = [registry.get(n) for n in numbers] if numbers else list(registry.RULES.values())
        rows = [_rule_row(rule, on_date) for rule in selected]
    except (KeyError, LookupError) as exc:
        raise KbError(str(exc.args[0] if exc.args else exc)) from None
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for row in rows:
        then = f" (was {row['number_on_date']} on {on_date})" if on_date else ""
        click.echo(f"{row['number']:<9}{then} {row['title']}: {row['summary']}  [{row['carried_by']}]")


def _rule_row(rule, on_date: str | None) -> dict:
    from kb.core import registry

    row = {"number": rule.number, "title": rule.title, "summary": rule.summary,
           "carried_by": rule.carried_by, "history": [list(pair) for pair in rule.history]}
    if on_date:
        row["number_on_date"] = registry.number_on(rule.number, on_date)
    return row


#: Commands that ran to the end and only read: nothing is left to write or tidy, so their
#: process may end without the interpreter tearing every object down (whoosh's index and
#: modules: about 30 ms of a `kb search` command's 220 here).
_LEAVE_AT_ONCE: set[str] = set()


def main():
    try:
        cli(prog_name="kb")
    except SystemExit as exc:
        if _LEAVE_AT_ONCE and exc.code in (0, None):
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except OSError:  # a closed pipe: let Python report it its usual way
                raise exc from None
            os._exit(0)
        raise
