"""What the command line checks before any work, and how it says what it cannot use.

`kb/cli.py` and `kb/cli_team.py` stay lists of commands; this module holds the checks their
options run as they are parsed (a store that is not one, a date that is not one; the --db
option every store-reading command shares), the query argument that may
start with a dash, and the one-line messages for click's usage errors, a store SQLite cannot
read and a damaged search index. Everything printed goes through
:func:`kb.corpus.safe.printable`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import sqlite3
from pathlib import Path

import click

from kb.corpus.safe import printable
from kb.errors import KbError


def usable_store(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """A store option (--db), checked before any work when the file is there (a missing one
    is each command's business: most need it, `kb examples` does without)."""
    if value is None:
        return None
    # Named in the line a store SQLite cannot read gives later.
    ctx.meta.setdefault("kb.stores", []).append(value)
    if value.exists():
        from kb.pipeline.outdir import check_store

        check_store(value)
    return value


#: The --db option of the commands that read a store, checked by :func:`usable_store`.
DB_OPTION = click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("_build/rulings.db"),
    show_default=True,
    callback=usable_store,
    help="The store written by `kb build`.",
)


def iso_date(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An option's date, checked before any work: a real date, written YYYY-MM-DD."""
    if value is None:
        return None
    try:
        return dt.datetime.strptime(value, "%Y-%m-%d").date().isoformat()
    except ValueError:
        raise click.BadParameter(
            f"{value!r} is not a date written YYYY-MM-DD (e.g. 2022-06-10)"
        ) from None


class QueryCommand(click.Command):
    """A command whose one argument is a query, which may start with a dash (``-word``
    leaves a word out, in the query language): any argument that is not one of the
    command's options, nor an option's value, is the query, whatever its first character."""

    def parse_args(self, ctx, args):
        takes_value = {
            name: not (opt.is_flag or opt.count)
            for opt in self.params
            if isinstance(opt, click.Option)
            for name in opt.opts + opt.secondary_opts
        }
        takes_value.update(dict.fromkeys(ctx.help_option_names, False))
        return super().parse_args(ctx, query_apart(args, takes_value))


def query_apart(args: list[str], takes_value: dict[str, bool]) -> list[str]:
    """``args`` with a query that starts with a dash moved after ``--``; ``takes_value``:
    {option: whether a value follows it}.

    >>> options = {"--limit": True, "--lang": True, "-h": False}
    >>> query_apart(["-monarch initiative", "--limit", "3"], options)
    ['--limit', '3', '--', '-monarch initiative']
    >>> query_apart(["--lang", "fr", "-h"], options), query_apart(["--limit=-3", "x"], options)
    (['--lang', 'fr', '-h'], ['--limit=-3', 'x'])
    """
    at = 0
    while at < len(args):
        arg = args[at]
        if arg == "--":
            break
        if arg in takes_value:
            at += 2 if takes_value[arg] else 1
            continue
        if arg.startswith("-") and arg != "-" and arg.split("=", 1)[0] not in takes_value:
            return [*args[:at], *args[at + 1 :], "--", arg]
        at += 1
    return args


def usage_line(exc: click.ClickException) -> str:
    """Click's error as one line, as every error of the tool (not its usage block)."""
    ctx = exc.ctx if isinstance(exc, click.UsageError) else None  # only usage errors have one
    where = ctx.command_path if ctx else "kb"
    hint = f" (see {where} --help)" if isinstance(exc, click.UsageError) else ""
    return printable(f"{where}: {exc.format_message().rstrip('.')}{hint}")


def store_line(ctx: click.Context, exc: sqlite3.DatabaseError) -> str | None:
    """The line for an error SQLite met reading the store (its file or its schema: not a
    database, malformed, a table missing), or None for any other (a bug: a traceback)."""
    if isinstance(exc, sqlite3.OperationalError) and not str(exc).startswith(
        (
            "no such table",
            "no such column",
            "disk I/O error",
            "unable to open",
            "database is locked",
        )
    ):
        return None
    store = " or ".join(map(str, ctx.meta.get("kb.stores", []))) or "the store"
    return printable(
        f"kb: {store}: cannot read the store ({exc}); build it again with `kb build --full`"
    )


@contextlib.contextmanager
def damaged_index(index: Path):
    """A search index whose files are cut short or garbled, as one line: whoosh reports it as
    whatever its reading met (an end of file, a bad pickle or struct)."""
    import pickle
    import struct
    import zlib

    try:
        yield
    except (EOFError, pickle.UnpicklingError, struct.error, zlib.error) as exc:
        raise KbError(
            f"{index}: the search index is damaged ({type(exc).__name__}: {exc}); "
            "build it again with `kb build --full`"
        ) from None
