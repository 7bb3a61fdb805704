"""Synthetic corpus for the scale benchmark: N cards x 5 languages x 10 rulings, from the seeds.

The generator is ``tests/synthetic.py`` (its docstring says what the corpus holds and how
``expected.json`` names the true groups); the tests build their synthetic index with it, so
the benchmarks measure the corpus the tests check. This is its command line, and the names
the benchmarks use (``synth.generate``, ``synth.CARD_WORD``…).

    python benchmarks/synth.py OUT_DIR --rulings 10000 [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "tests"))

from synthetic import (
    CARD_WORD,
    LANGS,
    RULINGS_PER_CARD,
    SHARED,
    card_specific,
    generate,
    seeds,
)

__all__ = ["CARD_WORD", "LANGS", "RULINGS_PER_CARD", "SHARED", "card_specific", "generate", "seeds"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--rulings", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    summary = generate(args.out, args.rulings, args.seed)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
