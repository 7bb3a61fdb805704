"""The site's first query against Pagefind's on an existing big build (e.g. 100k rulings).

    python benchmarks/first_query_scale.py BUILD_DIR [--work DIR]

BUILD_DIR is a ``kb build`` output, e.g. the one ``benchmarks/scale.py`` leaves in its work
folder (``/tmp/kb-scale/n100000/_build``). ``benchmarks/site_search.py`` builds its own
corpus, which at 100,000 rulings would mean a second build of several minutes; this one
measures a build already made, the same way:

- the files and bytes of our browser index (``site/search/``);
- Pagefind (``python -m pagefind``) over the English tree of the same site
  (``--glob 'en/**/*.html'``, the tree holding each ruling text once, as our index does),
  written under ``--work``, its indexing time;
- each first query of ``site_search.QUERIES`` in headless Chromium over HTTP with the cache
  off, ours and Pagefind's (``site_search.first_queries``): bytes and files.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import site_search  # noqa: E402


def folder_size(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", type=Path)
    parser.add_argument(
        "--work", type=Path, help="where Pagefind writes (default: a temporary folder, removed)"
    )
    args = parser.parse_args()
    site = args.build.resolve() / "site"
    work = args.work or Path(tempfile.mkdtemp(prefix="first-query-"))
    try:
        files, size = folder_size(site / "search")
        print(f"ours: site/search/ holds {files:,} files, {size / 1e6:,.1f} MB")
        output = work / "pagefind"
        seconds = site_search.pagefind(site, output, glob="en/**/*.html")
        files, size = folder_size(output)
        print(f"pagefind, en/ tree only: {seconds:.1f}s, {files:,} files, {size / 1e6:,.1f} MB")
        (work / "pagefind-probe.html").write_text(site_search.PAGEFIND_PROBE, encoding="utf-8")
        driver = site_search.chromium()
        ours, ours_base = site_search.serve_counting(site)
        theirs, pf_base = site_search.serve_counting(work)
        try:
            site_search.first_queries(driver, site, ours_base, pf_base)
        finally:
            driver.quit()
            ours.shutdown()
            theirs.shutdown()
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
