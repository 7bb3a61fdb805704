"""Shared fixtures: paths to the seed corpus and helpers to write ruling files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "rulings"


@pytest.fixture
def seeds() -> list[Path]:
    """The five seed files of the corpus, sorted by name."""
    return sorted(CORPUS.glob("*.txt"))


@pytest.fixture
def corpus_copy(tmp_path) -> Path:
    """A writable copy of the seed corpus."""
    target = tmp_path / "rulings"
    shutil.copytree(CORPUS, target)
    return target


@pytest.fixture
def write(tmp_path):
    """Write bytes or text to a file under tmp_path and return its path."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode("utf-8")
        path.write_bytes(content)
        return path

    return _write
