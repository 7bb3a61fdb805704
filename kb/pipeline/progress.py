"""Progress on stderr for long steps: a bar on a terminal, silence otherwise."""

from __future__ import annotations

import contextlib
import sys

import click


@contextlib.contextmanager
def progress(label: str, total: int):
    """Yield ``advance(n=1)``; shows a bar only when stderr is a terminal."""
    if not sys.stderr.isatty() or total <= 1:
        yield lambda n=1: None
        return
    with click.progressbar(length=total, label=label.ljust(10), file=sys.stderr) as bar:
        yield lambda n=1: bar.update(n)  # click's update() has no default step


def say(message: str) -> None:
    """A one-line status note on stderr, only for people watching a terminal."""
    if sys.stderr.isatty():
        click.echo(message, err=True)
