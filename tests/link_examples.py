"""The example rulings of tests/data/links/examples.yaml, shared by the linker's tests: each
explains the rules it lists, in the five ruling languages."""

from __future__ import annotations

from pathlib import Path

import yaml
from link_corpus import write_rulings

EXAMPLES = yaml.safe_load(
    (Path(__file__).parent / "data" / "links" / "examples.yaml").read_text(encoding="utf-8")
)


def write_examples(folder: Path, rulings: list[dict]) -> list[str]:
    """One ruling file per language holding ``rulings`` in order; their paths."""
    return write_rulings(folder, EXAMPLES, rulings, "examples")
