"""Scale benchmark: full `kb build` of synthetic corpora at 1k, 10k and 100k rulings.

For each size it generates the corpus (:mod:`benchmarks.synth`, cached in the work folder),
runs ``kb build --timings-json`` as a subprocess and reports:

- wall time and peak memory (summed PSS of the build's processes, sampled from /proc);
- time per stage (from the build's own timings);
- pages per second (HTML pages in ``site/`` over the build's wall time);
- grouping precision/recall (pairwise, over rulings) against ``expected.json``;
- Pagefind's indexing time over the site we produced (``python -m pagefind``, output elsewhere
  so our site stays as built);
- with ``--incremental``: the time of a rebuild after one file changed (a ruling printed on
  every card, then a card's own ruling; see :data:`EDITS`) and after no change, against the
  full build.

Then the goals, each met or missed and by how much: growth of the build time <= 11x per 10x
data, the largest build faster than Pagefind indexing its site, peak memory < 2 GB.

    python benchmarks/scale.py [--sizes 1000 10000 100000] [--work /tmp/kb-scale]
                               [--no-pagefind] [--incremental] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import site_search  # noqa: E402
import synth  # noqa: E402

GROWTH_GOAL = 11.0
MEMORY_GOAL = 2 * 1024**3


def run(command: list[str], cwd: Path, sample: bool = True) -> tuple[float, int, int]:
    """Run ``command``; return (wall seconds, peak memory bytes, exit status).

    Peak memory is the highest *sum* over the build's processes (it forks workers) of their
    proportional set size (PSS: pages shared after a fork counted once in total), sampled
    from /proc (:class:`TreeMemory`); the kernel's max RSS of the child alone would miss the
    workers. Without ``sample``, only that max RSS (the incremental rebuilds: a few seconds
    on both cores, which the sampler's reads of /proc would slow, and no memory goal).
    """
    started = time.perf_counter()
    with open(cwd / "build.log", "ab") as log:
        # The checkout's code, whatever copy of kb is installed.
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(
                filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])
            ),
        }
        child = subprocess.Popen(command, cwd=cwd, stdout=log, stderr=log, env=env)
        sampler = TreeMemory(child.pid)
        if sample:
            sampler.start()
        _, status, usage = os.wait4(child.pid, 0)
        if sample:
            sampler.stop()
    child.returncode = os.waitstatus_to_exitcode(status)
    return (
        time.perf_counter() - started,
        max(sampler.peak, usage.ru_maxrss * 1024),
        child.returncode,
    )


class TreeMemory(threading.Thread):
    """Samples the summed PSS of a process and its descendants every ``every`` seconds; keeps
    the peak.

    Reading a process's PSS (``smaps_rollup``) walks its page tables under its memory lock, so
    reading it ten times a second slows the build being measured (about a fifth of a core at
    100k rulings, and the build's page faults wait on the lock). Each sample therefore reads
    the cheap RSS counters (``statm``) first: PSS <= RSS, so a tree whose summed RSS is not
    above the peak so far cannot hold a new peak, and its PSS is not read."""

    def __init__(self, pid: int, every: float = 0.1):
        super().__init__(daemon=True)
        self.pid, self.every, self.peak = pid, every, 0
        self._done = threading.Event()

    def run(self) -> None:
        while not self._done.wait(self.every):
            tree = _tree(self.pid)
            if sum(_rss(pid) for pid in tree) > self.peak:
                self.peak = max(self.peak, sum(_pss(pid) for pid in tree))

    def stop(self) -> None:
        self._done.set()
        self.join()


def _tree(root: int) -> list[int]:
    """``root`` and its descendants, from each thread's ``children`` list (no /proc scan)."""
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        for children in Path(f"/proc/{pid}/task").glob("*/children"):
            try:
                todo += [int(child) for child in children.read_text().split()]
            except (OSError, ValueError):
                continue
    return found


PAGE = os.sysconf("SC_PAGE_SIZE")


def _rss(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    except (OSError, ValueError, IndexError):
        return 0


def _pss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def kb_build(folder: Path, out: str = "_build", sample: bool = True) -> dict:
    timings = folder / f"{out}.timings.json"
    wall, rss, status = run(
        [
            sys.executable,
            "-m",
            "kb",
            "build",
            "rulings",
            "--out",
            out,
            "--timings-json",
            str(timings),
        ],
        folder,
        sample,
    )
    if status != 0:
        raise SystemExit(f"kb build failed in {folder} (status {status}); see {folder}/build.log")
    stages = json.loads(timings.read_text(encoding="utf-8"))["stages"]
    return {"wall": wall, "rss": rss, "stages": stages}


def grouping_quality(folder: Path, out: str = "_build") -> tuple[float, float]:
    """Pairwise precision and recall of the stored groups against expected.json."""
    import sqlite3

    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))["groups"]
    with sqlite3.connect(folder / out / "rulings.db") as conn:
        predicted = {
            rid.rsplit("/", 1)[-1]: group
            for rid, group in conn.execute("SELECT ruling_id, group_id FROM memberships")
        }
    both = Counter((expected[k], predicted.get(k)) for k in expected)
    true_pos = sum(n * (n - 1) // 2 for (_, g), n in both.items() if g is not None)
    return (
        true_pos / max(1, _pairs(predicted.values())),
        true_pos / max(1, _pairs(expected.values())),
    )


def _pairs(labels) -> int:
    return sum(n * (n - 1) // 2 for n in Counter(labels).values())


#: The incremental edits, each in the middle file of the corpus: a ruling printed on every card
#: (its copy on this card becomes a text of its own, next to a group of thousands) and a ruling
#: of this card only (the usual edit); each gets its first word appended, as a careless edit.
EDITS = {
    "shared ruling": lambda line: not any(line.startswith(w) for w in synth.CARD_WORD.values()),
    "card's own ruling": lambda line: any(line.startswith(w) for w in synth.CARD_WORD.values()),
}


def incremental(folder: Path, full_wall: float) -> dict:
    """Time a rebuild after each of :data:`EDITS` (one file changed; the file restored and
    rebuilt, untimed, after each) and after no change; {edit: figures}."""
    files = sorted((folder / "rulings").glob("*.txt"))
    victim = files[len(files) // 2]
    original = victim.read_text(encoding="utf-8")
    out = {}
    for name, pick in EDITS.items():
        lines = original.split("\n")
        at = next(i for i, line in enumerate(lines) if len(line) > 60 and pick(line))
        lines[at] = f"{lines[at]} {lines[at].split()[0]}"
        victim.write_text("\n".join(lines), encoding="utf-8")
        try:
            figures = kb_build(folder, sample=False)
        finally:
            victim.write_text(original, encoding="utf-8")
        kb_build(folder, sample=False)  # back to the full build's corpus (not timed)
        out[name] = {
            "file": victim.name,
            "wall": figures["wall"],
            "share": figures["wall"] / full_wall,
            "stages": figures["stages"],
        }
    figures = kb_build(folder, sample=False)
    out["no change"] = {
        "file": "-",
        "wall": figures["wall"],
        "share": figures["wall"] / full_wall,
        "stages": figures["stages"],
    }
    return out


def measure(size: int, work: Path, with_pagefind: bool, with_incremental: bool) -> dict:
    folder = work / f"n{size}"
    if not (folder / "expected.json").is_file():
        shutil.rmtree(folder, ignore_errors=True)
        synth.generate(folder, size)
    shutil.rmtree(folder / "_build", ignore_errors=True)  # a full build, nothing to reuse
    figures = kb_build(folder)
    site = folder / "_build" / "site"
    pages = sum(1 for _ in site.rglob("*.html"))
    precision, recall = grouping_quality(folder)
    rulings = json.loads((folder / "expected.json").read_text(encoding="utf-8"))["summary"]
    result = {
        "size": size,
        "rulings": rulings["rulings"],
        "files": rulings["cards"] * 5,
        **figures,
        "pages": pages,
        "pages_per_s": pages / figures["wall"],
        "precision": precision,
        "recall": recall,
    }
    if with_pagefind:
        result["pagefind"] = site_search.pagefind(site, folder / "pagefind-out")
    if with_incremental:
        result["incremental"] = incremental(folder, figures["wall"])
    return result


def report(results: list[dict]) -> list[str]:
    lines = []
    stages = list(results[0]["stages"])
    head = (
        f"{'rulings':>8} {'wall s':>8} {'peak MB':>8} {'pages':>7} {'pages/s':>8} "
        f"{'prec':>6} {'recall':>6} {'pagefind s':>10}  " + " ".join(f"{s:>8}" for s in stages)
    )
    lines.append(head)
    for r in results:
        pf = f"{r['pagefind']:10.1f}" if "pagefind" in r else f"{'-':>10}"
        lines.append(
            f"{r['rulings']:8d} {r['wall']:8.1f} {r['rss'] / 2**20:8.0f} {r['pages']:7d} "
            f"{r['pages_per_s']:8.0f} {r['precision']:6.3f} {r['recall']:6.3f} {pf}  "
            + " ".join(f"{r['stages'].get(s, 0):8.2f}" for s in stages)
        )
    for r in results:
        for name, inc in r.get("incremental", {}).items():
            stages = ", ".join(f"{s} {t:.2f}" for s, t in inc["stages"].items())
            lines.append(
                f"incremental at {r['rulings']}, {name} ({inc['file']}): "
                f"{inc['wall']:.1f}s = {100 * inc['share']:.1f}% of the full build "
                f"({stages})"
            )
    lines.append("")
    lines += goals(results)
    return lines


def goals(results: list[dict]) -> list[str]:
    out = []
    for small, big in zip(results, results[1:]):
        factor = (big["wall"] / small["wall"]) / (big["rulings"] / small["rulings"]) * 10
        out.append(
            _goal(
                f"growth {small['rulings']} -> {big['rulings']}: {factor:.1f}x per 10x "
                f"(goal <= {GROWTH_GOAL:.0f}x)",
                factor <= GROWTH_GOAL,
                f"{factor / GROWTH_GOAL:.2f}x the goal",
            )
        )
    largest = results[-1]
    if "pagefind" in largest:
        ratio = largest["wall"] / largest["pagefind"]
        out.append(
            _goal(
                f"build of {largest['rulings']} in {largest['wall']:.1f}s vs Pagefind "
                f"{largest['pagefind']:.1f}s (goal: faster)",
                ratio < 1,
                f"{ratio:.2f}x Pagefind's time",
            )
        )
    peak = max(r["rss"] for r in results)
    out.append(
        _goal(
            f"peak memory {peak / 2**20:.0f} MB (goal < {MEMORY_GOAL / 2**20:.0f} MB)",
            peak < MEMORY_GOAL,
            f"{peak / MEMORY_GOAL:.2f}x the goal",
        )
    )
    for r in results:
        for name, inc in r.get("incremental", {}).items():
            if r["rulings"] >= 100_000 and name in EDITS:
                share, allowed = inc["share"], 0.05 * r["wall"]
                out.append(
                    _goal(
                        f"incremental rebuild at {r['rulings']} after editing a {name}: "
                        f"{100 * share:.2f}% of a full build, {inc['wall']:.1f}s of "
                        f"{allowed:.1f}s allowed (goal < 5%)",
                        share < 0.05,
                        f"{inc['wall'] - allowed:.1f}s ({share / 0.05:.2f}x the goal)",
                    )
                )
    return out


def _goal(text: str, met: bool, by: str) -> str:
    return f"{'MET   ' if met else 'MISSED'} {text}" + ("" if met else f"; missed by {by}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--work", type=Path, default=Path("/tmp/kb-scale"))
    parser.add_argument("--no-pagefind", action="store_true")
    parser.add_argument("--incremental", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    results = []
    for size in args.sizes:
        results.append(measure(size, args.work, not args.no_pagefind, args.incremental))
        print(f"... {size} rulings: {results[-1]['wall']:.1f}s", file=sys.stderr, flush=True)
    print("\n".join(report(results)))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
