"""The site in a real browser: headless Chromium, from file:// and over `kb serve`."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from site_helpers import HOSTILE_CARD, HOSTILE_TEXT

from kb.site.paths import slug

# One query per ruling language, with the exact phrase of the ruling it must find. Some words
# are inflected differently from the corpus (командной зоне / командную зону).
QUERIES = [
    ("ru", "командной зоне", "командную зону"),
    ("it", "zona di comando", "zona di comando"),
    ("fr", "géant à deux têtes", "deux têtes"),
    ("de", "Kommandozone", "Kommandozone"),
    ("es", "gigante de dos cabezas", "dos cabezas"),
]


def wait_for(driver, condition, timeout=10):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


def console_errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def search(driver, page_url: str, query: str):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get(page_url)
    box = driver.find_element(By.CSS_SELECTOR, "input[type=search]")
    box.clear()
    box.send_keys(query, Keys.ENTER)
    wait_for(
        driver,
        lambda d: d.find_element(By.ID, "search-results").get_attribute("data-state") == "done",
    )
    return driver.find_elements(By.CSS_SELECTOR, "#search-results a")


def ruling_page_with(site: Path, lang: str, phrase: str) -> Path:
    """The English ruling page whose `lang` translation contains ``phrase``."""
    import html5lib

    for page in sorted((site / "en" / "ruling").glob("*.html")):
        doc = html5lib.parse(page.read_bytes(), namespaceHTMLElements=False)
        for quote in doc.iter("blockquote"):
            if quote.get("lang") == lang and phrase in "".join(quote.itertext()):
                return page
    raise AssertionError(f"no {lang} ruling with {phrase!r}")


@pytest.mark.parametrize("lang,query,phrase", QUERIES, ids=[q[0] for q in QUERIES])
def test_search_from_home_leads_to_the_ruling(browser, seed_site, lang, query, phrase):
    from selenium.webdriver.common.by import By

    browser.get_log("browser")
    links = search(browser, (seed_site / "index.html").as_uri(), query)
    expected = ruling_page_with(seed_site, lang, phrase)
    links[0].click()
    wait_for(browser, lambda d: d.current_url.split("#")[0] == expected.as_uri())
    article = browser.find_element(By.CSS_SELECTOR, f"article.translation[lang={lang}]")
    assert phrase in article.text
    assert console_errors(browser) == []


@pytest.mark.parametrize("lang,query,phrase", QUERIES, ids=[q[0] for q in QUERIES])
def test_site_and_kb_search_agree_on_the_top_ruling(browser, seed_site, lang, query, phrase):
    from kb.search import search as kb_search

    hits = kb_search(seed_site.parent / "index", query)
    links = search(browser, (seed_site / "ru" / "index.html").as_uri(), query)
    top_page = links[0].get_attribute("href").split("#")[0].rsplit("/", 1)[1]
    assert top_page == f"{slug(hits[0].group)}.html"


def test_language_switcher_keeps_the_page(browser, seed_site):
    from selenium.webdriver.common.by import By

    page = sorted((seed_site / "en" / "ruling").glob("*.html"))[0]
    browser.get(page.as_uri())
    browser.find_element(By.CSS_SELECTOR, "nav.switcher a[hreflang=de]").click()
    wait_for(browser, lambda d: d.current_url == (seed_site / "de" / "ruling" / page.name).as_uri())
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
    browser.find_element(By.CSS_SELECTOR, "nav.switcher a[hreflang=ru]").click()
    wait_for(browser, lambda d: d.current_url == (seed_site / "ru" / "ruling" / page.name).as_uri())
    assert console_errors(browser) == []


def test_typing_shows_results_as_you_type(browser, seed_site):
    from selenium.webdriver.common.by import By

    browser.get((seed_site / "fr" / "glossary.html").as_uri())
    browser.find_element(By.CSS_SELECTOR, "input[type=search]").send_keys("initiat")
    wait_for(
        browser,
        lambda d: d.find_element(By.ID, "search-results").get_attribute("data-state") == "done",
    )
    results = browser.find_elements(By.CSS_SELECTOR, "#search-results a")
    assert results and all(
        r.get_attribute("href").startswith((seed_site / "fr").as_uri()) for r in results
    )


def test_hostile_texts_show_as_text_and_run_nothing(browser, hostile_site):
    from selenium.webdriver.common.by import By

    browser.get_log("browser")
    links = search(browser, (hostile_site / "index.html").as_uri(), "désignation sans aventurer")
    assert browser.execute_script("return window.__pwned === undefined")
    assert not browser.find_elements(By.CSS_SELECTOR, "#search-results img, #search-results b")
    hostile = [a for a in links if HOSTILE_CARD in a.text]
    assert hostile, [a.text for a in links]
    hostile[0].click()
    wait_for(browser, lambda d: "/ruling/" in d.current_url)
    quotes = [q.text for q in browser.find_elements(By.CSS_SELECTOR, "blockquote[lang=fr]")]
    assert HOSTILE_TEXT in quotes
    assert browser.execute_script("return window.__pwned === undefined")
    assert not browser.find_elements(By.CSS_SELECTOR, "main img, blockquote b")
    assert console_errors(browser) == []


def test_served_over_http_by_kb_serve(browser, seed_site):
    from kb.site.serve import server

    httpd = server(seed_site.parent, 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = httpd.server_address
        assert host == "127.0.0.1"
        browser.get_log("browser")
        links = search(browser, f"http://127.0.0.1:{port}/", "Kommandozone")
        links[0].click()
        wait_for(browser, lambda d: "/en/ruling/" in d.current_url)
        assert console_errors(browser) == []
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_screenshots_of_home_and_a_ruling(browser, seed_site, tmp_path_factory):
    shots = tmp_path_factory.mktemp("screenshots")
    browser.get((seed_site / "index.html").as_uri())
    assert browser.save_screenshot(str(shots / "home.png"))
    search(browser, (seed_site / "fr" / "index.html").as_uri(), "initiative quitte la partie")
    assert browser.save_screenshot(str(shots / "search.png"))
    page = ruling_page_with(seed_site, "de", "Kommandozone")
    browser.get((seed_site / "es" / "ruling" / page.name).as_uri())
    assert browser.save_screenshot(str(shots / "ruling.png"))
    for name in ("home.png", "search.png", "ruling.png"):
        assert (shots / name).stat().st_size > 10_000
