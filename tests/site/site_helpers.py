"""Shared values of the site tests (a plain module: `conftest` names clash across folders)."""

from __future__ import annotations

import os
from pathlib import Path

from kb.pipeline.build import build

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "rulings"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

# A ruling whose text holds markup and a card name with an event handler: both must show as text.
HOSTILE_CARD = 'Chasseur <img src=x onerror="window.__pwned=1">'
HOSTILE_TEXT = (
    "Un joueur qui a l’initiative peut la prendre à nouveau <script>window.__pwned=2"
    "</script> et cela le fait s’aventurer dans Undercity <b>sans</b> désignation."
)


def build_site(corpus: Path, out: Path) -> Path:
    """``kb build`` of ``corpus`` into ``out``, run from the corpus's parent folder so source
    paths in the pages are the same wherever the test builds."""
    cwd = os.getcwd()
    os.chdir(corpus.parent)
    try:
        build([corpus.name], out)
    finally:
        os.chdir(cwd)
    return out / "site"


def browser_missing() -> str | None:
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    return f"not installed: {', '.join(missing)}" if missing else None
