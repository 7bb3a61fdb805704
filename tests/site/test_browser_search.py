"""The site's search in a real browser (headless Chromium): what it finds, how results read,
the query in the URL, and the keys, on the seed corpus's site."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from site_helpers import CORPUS, build_site

from kb.site import search_index
from kb.site.paths import slug


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The seed corpus's site, as `kb build` writes it (rules and dates in its search index)."""
    import shutil

    base = tmp_path_factory.mktemp("search-site")
    shutil.copytree(CORPUS, base / "rulings")
    return build_site(base / "rulings", base / "_build")


def page_of(site: Path, lang: str, position: int) -> str:
    """The page (file name) of the group of the ``position``-th ruling of ``lang``'s seed."""
    with sqlite3.connect(site.parent / "rulings.db") as db:
        group = db.execute(
            "SELECT m.group_id FROM rulings r JOIN memberships m "
            "ON m.ruling_id = r.id WHERE r.lang = ? AND r.position = ?",
            (lang, position),
        ).fetchone()[0]
    return f"{slug(group)}.html"


def wait_done(driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 15).until(
        lambda d: d.find_element(By.ID, "search-results").get_attribute("data-state") == "done"
    )


def search(driver, url: str, query: str, enter: bool = True):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get(url)
    box = driver.find_element(By.CSS_SELECTOR, "input[type=search]")
    box.send_keys(query, *([Keys.ENTER] if enter else []))
    wait_done(driver)
    return driver.find_elements(By.CSS_SELECTOR, "#search-results a")


def pages(links) -> list[str]:
    return [a.get_attribute("href").split("#")[0].rsplit("/", 1)[1] for a in links]


def home(site: Path, ui: str) -> str:
    return (site / ui / "index.html").as_uri()


# Held-out queries of issue 21: (tree, query, expected ruling's language and seed position).
FOUND = [
    ("en", "initiative leaves the game", "fr", 2),  # English, through the glossary
    ("es", "jugador dejja el juego inciativa", "es", 2),  # one-letter typos
    ("de", "Initiative verlassen", "de", 2),  # verlassen: a typo of verlässt's stem
    ("fr", "726.4", "fr", 2),  # a rule number
    ("ru", "двухголовый гигант", "ru", 5),  # the Russian text keeps the English name
    ("de", "géant à deux têtes", "de", 5),  # French words, a German reader: the glossary
    ("fr", "joueur quite la partie", "fr", 2),
]


@pytest.mark.parametrize("ui,query,lang,position", FOUND, ids=[q[1] for q in FOUND])
def test_what_kb_search_finds_the_site_finds(browser, site, ui, query, lang, position):
    links = search(browser, home(site, ui), query)
    assert page_of(site, lang, position) in pages(links)[:3]


def test_meaningless_input_finds_nothing(browser, site):
    from selenium.webdriver.common.by import By

    assert search(browser, home(site, "fr"), "xyzzy plugh") == []
    box = browser.find_element(By.ID, "search-results")
    assert box.text == box.get_attribute("data-none")


def shown_langs(driver) -> list[str]:
    from selenium.webdriver.common.by import By

    return [
        s.get_attribute("lang")
        for s in driver.find_elements(By.CSS_SELECTOR, "#search-results a .result-text")
    ]


def test_results_show_the_readers_language(browser, site):
    # German and English words, a French reader: French rulings, a German one nowhere.
    links = search(browser, home(site, "fr"), "Kommandozone command zone")
    assert links and set(shown_langs(browser)) == {"fr"}
    assert all("#fr-" in a.get_attribute("href") for a in links)
    search(browser, home(site, "de"), "initiative")
    assert set(shown_langs(browser)) == {"de"}


def test_filters(browser, site):
    from selenium.webdriver.common.by import By

    search(browser, home(site, "fr"), "initiative lang:de")
    assert set(shown_langs(browser)) == {"de"}
    links = search(browser, home(site, "fr"), "card:chasseur")
    cards = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#search-results .result-card")]
    assert len(links) == 10 and all("Chasseur" in c for c in cards)
    assert pages(search(browser, home(site, "it"), "rule:726.4")) == [page_of(site, "fr", 2)]
    assert search(browser, home(site, "fr"), "initiative date>=2099") == []
    assert search(browser, home(site, "fr"), "initiative date>=10/06/2022")
    search(browser, home(site, "fr"), "initiative")
    texts = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#search-results .result-text")]
    links = search(browser, home(site, "fr"), "initiative -quitte")
    kept = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#search-results .result-text")]
    assert links and len(kept) < len(texts) and not any("quitte" in t for t in kept)


def test_results_read_well(browser, site):
    from selenium.webdriver.common.by import By

    links = search(browser, home(site, "fr"), "initiative")
    titles = [a.find_element(By.CLASS_NAME, "result-title").text for a in links]
    assert len(titles) >= 5 and len(set(titles)) >= len(titles) - 2  # not the card's name
    assert any(t.startswith("726.3") for t in titles)
    # The rulings whose French text has the word come first, the word marked; then those
    # whose German text has it, shown in French.
    marked = [[m.text.lower() for m in a.find_elements(By.TAG_NAME, "mark")] for a in links]
    assert len([m for m in marked if m]) >= 5
    assert all("initiative" in m for ms in marked for m in ms)
    assert marked == sorted(marked, key=lambda ms: not ms)
    status = browser.find_element(By.CSS_SELECTOR, "#search-results .search-status").text
    assert str(len(links)) in status or "+" in status


def test_the_query_is_in_the_url_and_comes_back(browser, site):
    from selenium.webdriver.common.by import By

    search(browser, home(site, "fr"), "donjon", enter=False)  # typed, not submitted
    assert browser.current_url.endswith("index.html?q=donjon")
    first = pages(browser.find_elements(By.CSS_SELECTOR, "#search-results a"))
    browser.refresh()
    wait_done(browser)
    assert browser.find_element(By.ID, "q").get_attribute("value") == "donjon"
    assert pages(browser.find_elements(By.CSS_SELECTOR, "#search-results a")) == first
    from selenium.webdriver.common.keys import Keys

    box = browser.find_element(By.ID, "q")
    box.send_keys(Keys.ENTER)  # "donjon" submitted: the next search is a history entry of its own
    wait_done(browser)
    box.clear()
    box.send_keys("Kommandozone", Keys.ENTER)
    wait_done(browser)
    assert browser.current_url.endswith("?q=Kommandozone")
    browser.back()
    wait_done(browser)
    assert browser.find_element(By.ID, "q").get_attribute("value") == "donjon"
    assert pages(browser.find_elements(By.CSS_SELECTOR, "#search-results a")) == first
    browser.forward()
    wait_done(browser)
    assert browser.find_element(By.ID, "q").get_attribute("value") == "Kommandozone"


def test_the_url_over_http_and_the_switcher_keeps_query_and_place(browser, site):
    from selenium.webdriver.common.by import By

    from kb.site.serve import server

    httpd = server(site.parent, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        port = httpd.server_address[1]
        page = page_of(site, "fr", 2)
        url = f"http://127.0.0.1:{port}/fr/ruling/{page}#top"
        search(browser, url, "initiative")
        assert browser.current_url.endswith(f"/fr/ruling/{page}?q=initiative#top")
        switch = browser.find_element(By.CSS_SELECTOR, "nav.switcher a[hreflang=de]")
        assert switch.get_attribute("href").endswith(f"/de/ruling/{page}?q=initiative#top")
        switch.click()
        wait_done(browser)
        assert browser.current_url.endswith(f"/de/ruling/{page}?q=initiative#top")
        assert browser.find_element(By.ID, "q").get_attribute("value") == "initiative"
        assert set(shown_langs(browser)) == {"de"}
        browser.back()
        wait_done(browser)
        assert "/fr/ruling/" in browser.current_url
        assert browser.find_element(By.ID, "q").get_attribute("value") == "initiative"
    finally:
        httpd.shutdown()
        httpd.server_close()


def focused(driver):
    return driver.switch_to.active_element


def test_keys(browser, site):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(home(site, "fr"))
    ActionChains(browser).send_keys(Keys.TAB).perform()
    skip = focused(browser)
    assert skip.get_attribute("class") == "skip" and skip.get_attribute("href").endswith("#main")
    browser.find_element(By.TAG_NAME, "body").click()
    ActionChains(browser).send_keys("/").perform()
    assert focused(browser).get_attribute("id") == "q"
    ActionChains(browser).send_keys("initiative", Keys.ENTER).perform()
    wait_done(browser)
    assert focused(browser).get_attribute("value") == "initiative"  # "/" was not typed in
    links = browser.find_elements(By.CSS_SELECTOR, "#search-results a")
    ActionChains(browser).send_keys(Keys.ARROW_DOWN).perform()
    assert focused(browser) == links[0]
    ActionChains(browser).send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_UP).perform()
    assert focused(browser) == links[1]
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    assert focused(browser).get_attribute("id") == "q"
    assert focused(browser).get_attribute("value") == ""
    assert browser.find_elements(By.CSS_SELECTOR, "#search-results a") == []
    assert "q=" not in browser.current_url
    ActionChains(browser).send_keys("Kommandozone", Keys.ENTER).perform()
    wait_done(browser)
    target = browser.find_elements(By.CSS_SELECTOR, "#search-results a")[0].get_attribute("href")
    ActionChains(browser).send_keys(Keys.ARROW_DOWN, Keys.ENTER).perform()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda d: d.current_url == target)


# --- a list longer than its first page ------------------------------------------------------

PAGE = """<!doctype html><html lang="en" data-root="" data-tree="en/"><head><meta charset="utf-8">
<title>search</title><script src="static/search.js" defer></script></head><body>
<form role="search"><input type="search" id="q"></form>
<div id="search-results" data-found="Found: %d" data-none="None." data-error="Error."></div>
</body></html>"""


def test_no_result_is_lost_to_a_list_cut(browser, tmp_path):
    """The ruling with both words ranks first though neither word's first page holds it: 120
    short rulings with one word each fill both first pages."""
    from selenium.webdriver.common.by import By

    # BM25: a word weighs less in the longer ruling, which holds both and so scores more.
    docs = (
        [{"lang": "fr", "card": f"Carte {n}", "text": "Le donjon brûle."} for n in range(120)]
        + [{"lang": "fr", "card": f"Carte {n}b", "text": "La salle brûle."} for n in range(120)]
        + [{"lang": "fr", "card": "Cible", "text": "Le donjon et sa salle brûlent vite."}]
    )
    figures = search_index.build(
        docs, [f"ruling/{n}.html" for n in range(len(docs))], tmp_path / "search"
    )
    assert figures["pages"] >= 2
    (tmp_path / "static").mkdir()
    for name in ("search.js", "search-engine.js"):
        (tmp_path / "static" / name).write_bytes(
            (Path(search_index.__file__).parents[2] / "site_templates/static" / name).read_bytes()
        )
    (tmp_path / "index.html").write_text(PAGE, encoding="utf-8")
    links = search(browser, (tmp_path / "index.html").as_uri(), "donjon salle")
    assert pages(links)[0] == f"{len(docs) - 1}.html"
    status = browser.find_element(By.CSS_SELECTOR, "#search-results .search-status").text
    assert status.startswith("Found: ")
