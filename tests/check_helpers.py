"""What the checks' tests (tests/test_check*.py, the ``checks_db`` fixture of tests/conftest.py)
share: a corpus run through the pipeline up to the check stage."""

from __future__ import annotations

from pathlib import Path

import sqlite_utils

from kb.corpus.files import corpus_files
from kb.pipeline import build
from kb.pipeline.context import BuildContext


def store_of(corpus: Path, work: Path) -> sqlite_utils.Database:
    """Run the pipeline up to and including the check stage into ``work``; return the store."""
    return build.run_through(
        BuildContext(corpus=corpus_files([str(corpus)]), work=work), "check"
    ).db
