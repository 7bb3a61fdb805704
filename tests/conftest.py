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


@pytest.fixture(scope="session")
def synthetic(tmp_path_factory) -> Path:
    """The search index of 2,000 synthetic rulings (tests/synthetic.py): many near-identical
    card-specific texts, so each language's postings span several blocks and scores tie by
    the thousand."""
    from synthetic import generate

    from kb.pipeline.build import build

    folder = tmp_path_factory.mktemp("synth")
    generate(folder, 2000)
    build([str(folder / "rulings")], folder / "_build")
    return folder / "_build" / "index"
