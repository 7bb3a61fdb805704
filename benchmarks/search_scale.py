"""Search at scale: `kb search` over a big build, end to end and in-process, and the static
site's first-query download at each size.

    python benchmarks/search_scale.py BUILD_DIR [BUILD_DIR ...] [--runs N]

BUILD_DIR is a ``kb build`` output (``rulings.db``, ``index/``, ``site/``), e.g. the folders
``benchmarks/scale.py`` leaves in its work folder (``/tmp/kb-scale/n100000/_build``). For each:

- **command line**: wall time of ``python -m kb search QUERY --db BUILD_DIR/rulings.db`` (a fresh
  process: interpreter start, imports, opening the index, the query, printing), median and max
  over the queries;
- **in-process**: :func:`kb.search.search` on an index opened once, p50 and p95 over every
  query repeated ``--runs`` times (the first run of each query included);
- **site, first query**: the bytes the site's search fetches for one query (``search.js``, the
  manifest, the shards of the query's words, the top results' chunks), in headless Chromium
  over HTTP with the cache off, as ``benchmarks/site_search.py`` measures it.

Goals: command line < 300 ms, in-process p95 < 50 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb import search  # noqa: E402

QUERIES = [
    "initiative",
    "командной зоне",
    "zona di comando",
    "géant à deux têtes",
    "Kommandozone",
    "gigante de dos cabezas",
    "Undercity lang:fr",
    "initiatve",
    '"secret entrance"',
    "рука ход инициатива",
]
#: Filtered queries (informative: the goals are measured on QUERIES).
FILTERED = [
    'card:"Chasseur vengeur 0042"',
    "initiative card:chasseur",
    "initiative date:2022",
    "rule:726",
    "initiative rule:726.3",
    "initiative lang:de",
]
CLI_GOAL, P95_GOAL = 0.300, 0.050


def command_line(build: Path) -> list[float]:
    """Wall seconds of each query in a fresh process. Python may cache the checkout's
    bytecode (``__pycache__``), as an installed copy has it from ``pip install``: an
    environment setting PYTHONDONTWRITEBYTECODE would have every run compile kb's modules
    again (about 30 ms here). One untimed run first writes that cache."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)

    def run(query: str) -> None:
        subprocess.run(
            [sys.executable, "-m", "kb", "search", query, "--db", str(build / "rulings.db")],
            env=env,
            capture_output=True,
            check=False,
        )

    run(QUERIES[0])
    times = []
    for query in QUERIES:
        started = time.perf_counter()
        run(query)
        times.append(time.perf_counter() - started)
    return times


def in_process(build: Path, runs: int, queries: list[str] = QUERIES) -> list[float]:
    index = search.index_dir_for(build / "rulings.db")
    search.search(index, "warm up")  # open the index once, as a server would
    times = []
    for _ in range(runs):
        for query in queries:
            started = time.perf_counter()
            search.search(index, query)
            times.append(time.perf_counter() - started)
    return times


def site_first_query(build: Path) -> list[tuple[str, int, int]]:
    """(query, bytes, files) the site's search fetches for a first query, in headless Chromium
    over HTTP with the cache off (the measurement of ``benchmarks/site_search.py``)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import site_search

    site = build / "site"
    driver = site_search.chromium()
    server, base = site_search.serve_counting(site)
    try:
        return [
            (query, *site_search.first_query_ours(driver, base, site, query)[::2])
            for query in site_search.QUERIES
        ]
    finally:
        driver.quit()
        server.shutdown()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("builds", type=Path, nargs="+")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-browser", action="store_true", help="skip the site measurement")
    args = parser.parse_args(argv)
    for build in args.builds:
        with __import__("sqlite3").connect(build / "rulings.db") as conn:
            rulings = conn.execute("SELECT count(*) FROM rulings").fetchone()[0]
        cli = command_line(build)
        inner = in_process(build, args.runs)
        p50, p95 = percentile(inner, 0.5), percentile(inner, 0.95)
        print(f"{build}: {rulings} rulings")
        print(
            f"  command line   median {1000 * statistics.median(cli):6.0f} ms   max "
            f"{1000 * max(cli):6.0f} ms   goal < {1000 * CLI_GOAL:.0f} ms: "
            f"{'MET' if max(cli) < CLI_GOAL else 'MISSED by %.0f ms' % (1000 * (max(cli) - CLI_GOAL))}"
        )
        print(
            f"  in-process     p50 {1000 * p50:6.1f} ms   p95 {1000 * p95:6.1f} ms   goal p95 < "
            f"{1000 * P95_GOAL:.0f} ms: "
            f"{'MET' if p95 < P95_GOAL else 'MISSED by %.1f ms' % (1000 * (p95 - P95_GOAL))}"
        )
        filtered = in_process(build, args.runs, FILTERED)
        print(
            f"  filtered (informative, {len(FILTERED)} queries)   p50 "
            f"{1000 * percentile(filtered, 0.5):6.1f} ms   p95 "
            f"{1000 * percentile(filtered, 0.95):6.1f} ms"
        )
        if not args.no_browser:
            fetched = site_first_query(build)
            print(
                f"  site first query: mean {statistics.mean(b for _, b, _ in fetched):,.0f} "
                f"bytes, max {max(b for _, b, _ in fetched):,} bytes "
                f"(max {max(f for _, _, f in fetched)} files)"
            )


if __name__ == "__main__":
    main()
