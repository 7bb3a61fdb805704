"""kb.pipeline.progress: a bar on a terminal, silence otherwise; advance() steps by one by default."""

from __future__ import annotations

import io
import sys

from kb.pipeline.progress import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_bar_and_advance_defaults_to_one_step(monkeypatch):
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with progress("index", 3) as advance:
        advance()
        advance(2)
    assert "index" in screen.getvalue() and "100%" in screen.getvalue()


def test_no_terminal_no_output(monkeypatch):
    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    with progress("index", 3) as advance:
        advance()
        advance(2)
    assert quiet.getvalue() == ""
