"""Site search, ours vs Pagefind, on the same built site: indexing time and first-query bytes.

    python benchmarks/site_search.py [--copies N] [--corpus PATH ...]

Builds the corpus (default: the seeds; ``--copies N`` writes N variants of every seed file,
each with its own card name and one word of its own per ruling, so the vocabulary grows) with
``kb build``, then:

- **indexing time**: ours is :func:`kb.site.search_index.build` over the built store (median of
  3); Pagefind's is the wall time of ``pagefind --site`` over a copy of the same site, once over
  the whole site (six UI trees) and once over the English tree only (``--glob 'en/**/*.html'``),
  which holds every ruling text once, as our index does;
- **first-query bytes**: in headless Chromium with its cache disabled, over HTTP, a fresh page
  load then one query; the server counts the body bytes of everything the search fetched
  (for us ``static/search.js``, ``static/search-engine.js`` and the ``search/`` files; for
  Pagefind ``pagefind.js``, its wasm, entry, meta, index chunks and the fragments of the top
  10 results). Pagefind serves gzip-ed files; ours are plain text as kb serve sends them, so
  we also print their gzip -9 size (what a host compressing .js would send).

With ``--quality`` it measures instead what the search finds: the queries of
``benchmarks/search_quality.py`` (main set, one-edit typos, English) typed into the site built
from ``rulings/``, each on the home page of the tree in the query's language (English queries on
the English tree), in headless Chromium over HTTP; recall@3 (the expected ruling's page among
the first three results) per language, next to ``kb search``'s on the same build
(``site_search_recall.py``). ``--code DIR`` builds and searches with another checkout's code
(e.g. ``/tmp/wt-base`` for a "before" figure); the site's first-query bytes are measured on
that build too.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# --quality's recall@3, beside this script.
sys.path.insert(0, str(ROOT / "benchmarks"))
from site_search_recall import print_recall, recall  # noqa: E402

QUERIES = [
    "командной зоне",
    "zona di comando",
    "géant à deux têtes",
    "Kommandozone",
    "gigante de dos cabezas",
    "initiative",
    "Undercity",
]

PAGEFIND_PROBE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>probe</title>
<link rel="icon" href="data:,"></head><body><script type="module">
window.runQuery = async (q) => {
  const pagefind = await import("/pagefind/pagefind.js");
  const search = await pagefind.search(q);
  const top = await Promise.all(search.results.slice(0, 10).map(r => r.data()));
  return top.length;
};
window.probeReady = true;
</script></body></html>
"""


def make_corpus(copies: int, folder: Path) -> Path:
    corpus = folder / "rulings"
    corpus.mkdir(parents=True)
    for seed in sorted((ROOT / "rulings").glob("*.txt")):
        lines = seed.read_text(encoding="utf-8").split("\n")
        for n in range(copies):
            out, ruling = [f"{lines[0]} {n}"], 0
            for line in lines[1:]:
                is_text = line.strip() and not line.strip()[0].isdigit()
                if is_text:
                    ruling += 1
                    line = f"{line} Xq{n}w{ruling}"
                out.append(line)
            (corpus / f"{seed.stem}-{n}.txt").write_text("\n".join(out), encoding="utf-8")
    return corpus


def build_site(corpus: list[str], out: Path, code: Path = ROOT) -> float:
    """``kb build`` of ``corpus`` into ``out`` with the checkout ``code`` (a new process, so
    another checkout's code can be measured the same way); -> seconds."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "kb", "build", *corpus, "--out", str(out)],
        check=True,
        capture_output=True,
        env=env,
        cwd=code,
    )
    return time.perf_counter() - started


def our_indexing(db_path: Path) -> tuple[float, dict]:
    from kb import store  # this checkout's code (the rest runs any checkout's as a process)
    from kb.site import data as site_data
    from kb.site import pages, search_index

    db = store.open_existing(db_path)
    site = site_data.load(db)
    # As the site numbers them: groups in id order, each group's rulings together.
    groups = sorted(site.groups, key=lambda g: g["id"])
    docs = [(n, g, m) for n, g in enumerate(groups) for m in g["members"]]
    rulings = [m for _, _, m in docs]
    urls = [f"ruling/{g['slug']}.html#{pages.anchor_of(m)}" for _, g, m in docs]
    numbers = [n for n, _, _ in docs]
    search_index.terms("warm up the analyzers", "fr")
    times, figures = [], {}
    for _ in range(3):
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            figures = search_index.build(rulings, urls, Path(tmp) / "search", numbers)
            times.append(time.perf_counter() - started)
    return statistics.median(times), figures


def pagefind(site: Path, output: Path | None = None, glob: str | None = None) -> float:
    """Wall seconds of Pagefind indexing ``site``: its index written to ``output`` (emptied
    first; default: inside the site), over the pages ``glob`` matches (default: all)."""
    command = [sys.executable, "-m", "pagefind", "--site", str(site), "--silent"]
    if glob:
        command += ["--glob", glob]
    if output is not None:
        shutil.rmtree(output, ignore_errors=True)
        command += ["--output-path", str(output)]
    started = time.perf_counter()
    subprocess.run(command, check=True)
    return time.perf_counter() - started


def pagefind_indexing(site: Path, target: Path, glob: str | None) -> float:
    """:func:`pagefind` on a copy of ``site`` at ``target``, its index inside the copy."""
    shutil.copytree(site, target)
    return pagefind(target, glob=glob)


def chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # Every query is a first query: nothing may come from the browser's cache.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    return driver


class CountingHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder and records the body bytes of every response (workers' fetches too)."""

    served: list[tuple[str, int]] = []

    def copyfile(self, source, outputfile):
        data = source.read()
        outputfile.write(data)
        self.served.append((self.path.split("?")[0], len(data)))

    def log_message(self, format, *args):
        pass


def serve_counting(folder: Path):
    """Serve ``folder`` on 127.0.0.1; return (server, base URL)."""
    handler = functools.partial(CountingHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def first_query_ours(driver, base: str, site: Path, query: str) -> tuple[int, int, int]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    CountingHandler.served.clear()
    driver.get(f"{base}/en/index.html")
    box = driver.find_element(By.CSS_SELECTOR, "input[type=search]")
    box.send_keys(query, Keys.ENTER)
    WebDriverWait(driver, 20).until(
        lambda d: d.find_element(By.ID, "search-results").get_attribute("data-state") == "done"
    )
    fetched = [
        (path, size)
        for path, size in CountingHandler.served
        if path.startswith(("/static/search", "/search/"))
    ]
    raw = sum(size for _, size in fetched)
    zipped = sum(len(gzip.compress((site / p.lstrip("/")).read_bytes(), 9)) for p, _ in fetched)
    return raw, zipped, len(fetched)


def first_query_pagefind(driver, base: str, query: str) -> tuple[int, int]:
    CountingHandler.served.clear()
    driver.get(f"{base}/pagefind-probe.html")
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return window.probeReady === true"))
    driver.set_script_timeout(30)
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; window.runQuery(arguments[0]).then(done);",
        query,
    )
    fetched = [(p, s) for p, s in CountingHandler.served if p.startswith("/pagefind/")]
    return sum(size for _, size in fetched), len(fetched)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, default=0, help="variants of each seed file")
    parser.add_argument("--corpus", nargs="*", help="ruling files or folders (default: seeds)")
    parser.add_argument(
        "--code",
        type=Path,
        default=ROOT,
        help="the checkout whose kb build (and kb search) is measured",
    )
    parser.add_argument(
        "--quality", action="store_true", help="recall@3 of the site's search next to kb search's"
    )
    parser.add_argument("--no-pagefind", action="store_true", help="our first query only")
    args = parser.parse_args()
    code = args.code.resolve()
    work = Path(tempfile.mkdtemp(prefix="site-search-"))
    try:
        os.chdir(work)
        corpus = (
            [str(make_corpus(args.copies, work))]
            if args.copies
            else [str(Path(c).resolve()) for c in args.corpus or [ROOT / "rulings"]]
        )
        build_seconds = build_site(corpus, work / "_build", code)
        site = work / "_build" / "site"
        html_pages = sum(1 for _ in site.rglob("*.html"))
        print(f"code: {code}; corpus: {html_pages} HTML pages (kb build {build_seconds:.2f}s)")
        driver = chromium()
        ours_http, ours_base = serve_counting(site)
        try:
            if args.quality:
                print_recall(recall(work / "_build", code, driver, ours_base))
                return
            if args.no_pagefind:
                first_queries(driver, site, ours_base, None)
                return
            if code == ROOT:
                ours_seconds, figures = our_indexing(work / "_build" / "rulings.db")
                print(
                    f"indexing   ours (kb.site.search_index.build)   {ours_seconds:8.3f}s "
                    f"({figures['docs']} documents)"
                )
            pf_all = pagefind_indexing(site, work / "pf-all", None)
            pf_en = pagefind_indexing(site, work / "pf-en", "en/**/*.html")
            (work / "pf-en" / "pagefind-probe.html").write_text(PAGEFIND_PROBE, encoding="utf-8")
            print(f"indexing   pagefind, whole site              {pf_all:8.3f}s")
            print(f"indexing   pagefind, en/ tree only           {pf_en:8.3f}s")
            pf_http, pf_base = serve_counting(work / "pf-en")
            try:
                first_queries(driver, site, ours_base, pf_base)
            finally:
                pf_http.shutdown()
        finally:
            driver.quit()
            ours_http.shutdown()
    finally:
        os.chdir(ROOT)
        shutil.rmtree(work, ignore_errors=True)


def first_queries(driver, site: Path, ours_base: str, pf_base: str | None) -> None:
    """Print each first query's bytes, ours (and Pagefind's, given its server)."""
    print(
        f"\n{'first query':28} {'ours raw':>9} {'ours gz':>8} {'files':>5}"
        + (f" {'pagefind':>9} {'files':>5}" if pf_base else "")
    )
    totals: list[list[int]] = [[], [], []]
    for query in QUERIES:
        raw, zipped, files = first_query_ours(driver, ours_base, site, query)
        totals[0].append(raw), totals[1].append(zipped)
        line = f"{query:28} {raw:9,} {zipped:8,} {files:5}"
        if pf_base:
            pf_bytes, pf_files = first_query_pagefind(driver, pf_base, query)
            totals[2].append(pf_bytes)
            line += f" {pf_bytes:9,} {pf_files:5}"
        print(line)
    print(
        f"{'mean':28} {statistics.mean(totals[0]):9,.0f} {statistics.mean(totals[1]):8,.0f}"
        f" {'':5}"
        + (f" {statistics.mean(totals[2]):9,.0f}" if pf_base else "")
        + f"   max {max(totals[0]):,}"
    )


if __name__ == "__main__":
    main()
