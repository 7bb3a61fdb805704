"""The `kb` command: a thin click layer, each command calling one library function.

Usage errors and bad data exit with status 2 and one line per problem on stderr; tracebacks
are kept for bugs only. This module holds the command group, the entry point and the
reader's commands (search, rules, links, serve); the translators' and maintainers' commands
(build, check, changes, examples, export) are in :mod:`kb.cli_team`, registered here.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import click

from kb import __version__, cli_checks
from kb.cli_checks import DB_OPTION
from kb.cli_team import (
    build,
    changes,
    check,
    examples,
    export,
    export_json,
    export_tbx,
    export_tmx,
    export_xliff,
)
from kb.corpus.safe import printable
from kb.errors import KbError

__all__ = [
    "DB_OPTION",
    "KbGroup",
    "build",
    "changes",
    "check",
    "cli",
    "examples",
    "export",
    "export_json",
    "export_tbx",
    "export_tmx",
    "export_xliff",
    "links",
    "main",
    "rules",
    "search",
    "serve",
]


class KbGroup(click.Group):
    """Turns user-facing errors into one line each on stderr and exit status 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
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


# The translators' and maintainers' commands (kb/cli_team.py); `kb --help` lists every
# command by name, wherever it is defined.
cli.add_command(build)
cli.add_command(changes)
cli.add_command(check)
cli.add_command(examples)
cli.add_command(export)


@cli.command(cls=cli_checks.QueryCommand)
@click.argument("query")
@DB_OPTION
@click.option(
    "--lang",
    type=click.Choice(["ru", "it", "fr", "de", "es"]),
    help="Show each result in this language (one hit per group).",
)
@click.option("--limit", type=click.IntRange(1, 1000), default=10, show_default=True)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
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


@cli.command()
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("_build"),
    show_default=True,
    help="The build folder whose site/ to serve.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port on 127.0.0.1 (0 picks a free one).",
)
def serve(out, port):
    """Preview the built site at http://127.0.0.1:PORT/ (Ctrl-C stops)."""
    from kb.site.serve import server

    httpd = server(out, port)
    click.echo(
        printable(f"serving {out / 'site'} at http://127.0.0.1:{httpd.server_address[1]}/"),
        err=True,
    )
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()


@cli.command()
@click.option("--unlinked", is_flag=True, help="List the groups linked to no rule, with why.")
@click.option(
    "--group",
    "group_id",
    metavar="ID",
    help="Why this group has its links and not others: each rule naming a concept it "
    "mentions, and what became of it.",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@DB_OPTION
def links(unlinked, group_id, fmt, db_path):
    """List each ruling group's rules and why: score, concepts, words per language.

    With --unlinked, the groups linked to no rule and the reason (a designation the core
    does not carry, no carried rule naming their concepts, or the closest rule and what it
    lacks). With --group ID, one group's concepts and every carried rule naming one of them:
    linked, or refused by a gate, or dropped for a rule that explains more. JSON: [{group,
    links: [{rule, number_then, score, concepts, words}]}]; with --unlinked [{group, reason,
    concepts}]; with --group {group, concepts, rules: [{rule, fate, score, concepts, by, why}]}.
    """
    import json

    from kb import link, store

    if unlinked and group_id:
        raise click.UsageError("--unlinked and --group cannot be used together")
    db = store.open_existing(db_path)
    if group_id:
        found = link.trace(db, group_id)
        click.echo(
            json.dumps(found, ensure_ascii=False, indent=2)
            if fmt == "json"
            else link.trace_text(found)
        )
        return
    rows = link.listing(db, unlinked)
    click.echo(
        json.dumps(rows, ensure_ascii=False, indent=2)
        if fmt == "json"
        else link.listing_text(rows, unlinked)
    )


@cli.command()
@click.argument("numbers", nargs=-1)
@click.option(
    "--on",
    "on_date",
    metavar="YYYY-MM-DD",
    callback=cli_checks.iso_date,
    help="Also show each rule's number in the Comprehensive Rules in force on that date.",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
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
        click.echo(
            f"{row['number']:<9}{then} {row['title']}: {row['summary']}  [{row['carried_by']}]"
        )


def _rule_row(rule, on_date: str | None) -> dict:
    from kb.core import registry

    row = {
        "number": rule.number,
        "title": rule.title,
        "summary": rule.summary,
        "carried_by": rule.carried_by,
        "history": [list(pair) for pair in rule.history],
    }
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
