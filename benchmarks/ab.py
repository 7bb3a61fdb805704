"""A/B benchmark: full builds of one corpus by two checkouts, alternating, with paired ratios.

The machine this project is measured on varies by tens of percent from minute to minute, so
"no more than 5% slower than before" is judged on pairs: each round builds the corpus with
both checkouts back to back (which goes first alternates), and the figure is the median of
the rounds' ratios, head over base, of wall time and of CPU (user and system time of the
build and all its workers). Each stage's median seconds come from the builds' own timings.

    python benchmarks/synth.py /tmp/c10k --rulings 10000
    git worktree add /tmp/base 24d6991
    python benchmarks/ab.py --base /tmp/base --head . --corpus /tmp/c10k/rulings --runs 6
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def build(checkout: Path, corpus: Path, work: Path) -> dict[str, float]:
    """One full build of ``corpus`` by the code in ``checkout``: wall, cpu and each stage."""
    out, timings = work / "site", work / "timings.json"
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, PYTHONPATH=str(checkout))
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    command = [sys.executable, "-m", "kb", "build", str(corpus), "--out", str(out)]
    subprocess.run(
        [*command, "--timings-json", str(timings)],
        cwd=checkout,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    stages = json.loads(timings.read_text(encoding="utf-8"))["stages"]
    shutil.rmtree(out, ignore_errors=True)
    return {"wall": wall, "cpu": cpu, **stages}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="checkout of the code before")
    parser.add_argument("--head", type=Path, default=Path("."), help="checkout to compare")
    parser.add_argument("--corpus", type=Path, required=True, help="folder of ruling files")
    parser.add_argument("--runs", type=int, default=5, help="rounds (a build of each)")
    args = parser.parse_args()
    sides = {"base": args.base.resolve(), "head": args.head.resolve()}
    results: dict[str, list[dict[str, float]]] = {"base": [], "head": []}
    with tempfile.TemporaryDirectory(prefix="kb-ab-") as tmp:
        for round_ in range(args.runs):
            order = ["base", "head"] if round_ % 2 == 0 else ["head", "base"]
            for name in order:
                found = build(sides[name], args.corpus.resolve(), Path(tmp))
                results[name].append(found)
                shown = " ".join(f"{k} {v:.2f}" for k, v in found.items())
                print(f"round {round_ + 1} {name}: {shown}", flush=True)
    keys = list(results["head"][0])
    print("median   " + " ".join(f"{k:>9}" for k in keys))
    for name in ("base", "head"):
        row = " ".join(
            f"{statistics.median(r.get(k, 0.0) for r in results[name]):9.2f}" for k in keys
        )
        print(f"{name:8} {row}")
    for measure in ("wall", "cpu"):
        ratios = sorted(h[measure] / b[measure] for b, h in zip(results["base"], results["head"]))
        print(
            f"{measure} head/base: median {statistics.median(ratios):.3f} "
            f"(rounds {', '.join(f'{r:.3f}' for r in ratios)})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
