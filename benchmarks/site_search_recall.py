"""The site search benchmark's ``--quality`` measure (run by benchmarks/site_search.py): recall@3
of the site's search in the browser, next to ``kb search``'s, over search_quality.py's queries.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

_KB_SEARCH = """
import json, sys
from kb.search import index_dir_for, search
index = index_dir_for(sys.argv[1])
found = []
for query in json.loads(sys.stdin.read()):
    try:
        found.append([hit.group for hit in search(index, query, limit=10)])
    except Exception as error:  # a query the code refuses counts as nothing found
        found.append([])
print(json.dumps(found))
"""


#: Held-out queries of issue 21 (language of the expected ruling, its position, the query, the
#: tree it is typed on): English words, a stem the corpus never inflects so, a rule number, a
#: name the Russian text keeps in English (the glossary knows the Russian one).
ISSUE = [
    ("fr", 2, "initiative leaves the game", "en"),
    ("de", 2, "Initiative verlassen", "de"),
    ("fr", 2, "726.4", "fr"),
    ("ru", 5, "двухголовый гигант", "ru"),
    ("fr", 2, "le joueur qui a l'initiative quitte", "fr"),
]


def query_sets() -> dict[str, list[tuple[str, int, str, str]]]:
    """{set: [(language, position, query, UI tree typed on)]}: search_quality.py's sets (its
    English queries on the English tree, the others on their language's) and :data:`ISSUE`."""
    import search_quality as sq  # beside this module, on the path of the script importing it

    return {
        "main": [(*q, q[0]) for q in sq.QUERIES],
        "typos": [(*q, q[0]) for q in sq.TYPOS],
        "english": [(*q, "en") for q in sq.ENGLISH],
        "issue": ISSUE,
    }


def expected_groups(db_path: Path, queries) -> dict[tuple[str, int], str]:
    """(language, position in that language's seed file) -> the group of that ruling."""
    import sqlite3

    with sqlite3.connect(db_path) as conn:
        return {
            (lang, position): conn.execute(
                "SELECT m.group_id FROM rulings r JOIN memberships m ON m.ruling_id = r.id "
                "WHERE r.lang = ? AND r.position = ? ORDER BY r.id",
                (lang, position),
            ).fetchone()[0]
            for lang, position, _ in queries
        }


def kb_search_groups(build: Path, queries: list[str], code: Path) -> list[list[str]]:
    """Each query's groups as ``kb search`` (of the checkout ``code``) ranks them."""
    done = subprocess.run(
        [sys.executable, "-c", _KB_SEARCH, str(build / "rulings.db")],
        input=json.dumps(queries),
        capture_output=True,
        text=True,
        check=True,
        cwd=code,
        env={**os.environ, "PYTHONPATH": str(code)},
    )
    return json.loads(done.stdout)


def browser_pages(driver, base: str, ui: str, query: str) -> list[str]:
    """The pages (file names) of the site's results for ``query`` typed on ``ui``'s home."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(f"{base}/{ui}/index.html")
    box = driver.find_element(By.CSS_SELECTOR, "input[type=search]")
    box.send_keys(query, Keys.ENTER)
    WebDriverWait(driver, 20).until(
        lambda d: d.find_element(By.ID, "search-results").get_attribute("data-state") == "done"
    )
    links = driver.find_elements(By.CSS_SELECTOR, "#search-results a")
    return [a.get_attribute("href").split("#")[0].rsplit("/", 1)[-1] for a in links]


def recall(build: Path, code: Path, driver, base: str) -> dict[str, dict[str, list[int]]]:
    """{query set: {language: [1 if found in the top 3 else 0, ...] for kb search, then the
    browser}} over the query sets of ``search_quality.py``."""
    from kb.site.paths import slug

    sets = query_sets()
    expected = expected_groups(build / "rulings.db", [q[:3] for qs in sets.values() for q in qs])
    table: dict[str, dict[str, list]] = {}
    for name, queries in sets.items():
        ranked = kb_search_groups(build, [text for _, _, text, _ in queries], code)
        for (lang, position, text, ui), groups in zip(queries, ranked):
            want = expected[(lang, position)]
            pages = browser_pages(driver, base, ui, text)
            row = table.setdefault(name, {}).setdefault(ui, [[], []])
            row[0].append(int(want in groups[:3]))
            row[1].append(int(f"{slug(want)}.html" in pages[:3]))
    return table


def print_recall(table: dict) -> None:
    print(f"\n{'recall@3':10} {'lang':5} {'n':>3} {'kb search':>10} {'browser':>8}")
    for name, rows in table.items():
        for lang, (ours_cli, ours_site) in sorted(rows.items()):
            print(
                f"{name:10} {lang:5} {len(ours_cli):>3} {statistics.mean(ours_cli):>10.2f} "
                f"{statistics.mean(ours_site):>8.2f}"
            )
    everything = [
        (c, b) for rows in table.values() for cli, site in rows.values() for c, b in zip(cli, site)
    ]
    print(
        f"{'all':10} {'':5} {len(everything):>3} "
        f"{statistics.mean(c for c, _ in everything):>10.2f} "
        f"{statistics.mean(b for _, b in everything):>8.2f}"
    )
