"""The site on a phone, in headless Chromium: every page type in every interface language at a
390 px wide screen (no page wider than it, a short header, wide tables in labelled scroll
regions that the keyboard can scroll, examples folded), and axe-core's accessibility rules.

axe-core comes from the npm registry: ``npm install --prefix tests/site`` (tests/site/
package.json; .ci/run does it). Without it these tests skip, and fail in CI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_browser import wait_for

from kb.corpus.languages import UI_LANGUAGES

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
#: The page types every build has (a page of a type added later is checked too).
TYPES = ("index", "rules", "glossary", "consistency", "lang", "card", "ruling", "rule")


def pages_by_type(site: Path, ui: str) -> dict[str, Path]:
    """One page of each type in the tree ``ui`` (its folder, or its name without a part
    number): the largest (most to lay out) of its type."""
    chosen: dict[str, Path] = {}
    for page in (site / ui).rglob("*.html"):
        key = page.relative_to(site / ui).as_posix()
        kind = key.split("/")[0] if "/" in key else key.removesuffix(".html").split("-p")[0]
        if kind not in chosen or page.stat().st_size > chosen[kind].stat().st_size:
            chosen[kind] = page
    assert set(TYPES) <= set(chosen)  # a new type of page is checked as well
    return chosen


@pytest.fixture
def phone(browser):
    """The module's Chromium as a 390 px phone (the screen of many current phones), for one
    test (the others see the 1280 px window)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    yield browser
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.is_file():
        message = "axe-core is not installed: npm install --prefix tests/site"
        if os.environ.get("KB_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE.read_text(encoding="utf-8")


def axe_violations(driver, source: str) -> list[str]:
    driver.set_script_timeout(60)
    driver.execute_script(source)
    found = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document).then(r => done(r.violations.map(v => v.id + ' (' + v.impact + '): '"
        " + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '))));"
    )
    return found


@pytest.mark.parametrize("ui", UI_LANGUAGES)
def test_no_page_is_wider_than_a_phone(phone, seed_site, ui):
    wide = {}
    for kind, page in pages_by_type(seed_site, ui).items():
        phone.get(page.as_uri())
        width = phone.execute_script(
            "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        )
        if width > PHONE["width"]:
            wide[kind] = width
    assert wide == {}


@pytest.mark.parametrize("ui", UI_LANGUAGES)
def test_axe_finds_no_violation_on_a_phone(phone, seed_site, axe_source, ui):
    found = {}
    for kind, page in pages_by_type(seed_site, ui).items():
        phone.get(page.as_uri())
        violations = axe_violations(phone, axe_source)
        if violations:
            found[kind] = violations
    assert found == {}


@pytest.mark.parametrize("kind", ["glossary", "consistency"])
def test_axe_finds_no_violation_on_a_wide_screen(browser, seed_site, axe_source, kind):
    """The issue's scrollable-region-focusable came from a desktop browser."""
    for ui in ("en", "de"):
        browser.get(pages_by_type(seed_site, ui)[kind].as_uri())
        assert axe_violations(browser, axe_source) == [], (ui, kind)


@pytest.mark.parametrize("ui", UI_LANGUAGES)
def test_the_header_is_short(phone, seed_site, ui):
    phone.get((seed_site / ui / "rule" / "726-3.html").as_uri())
    height = phone.execute_script("return document.querySelector('header').offsetHeight")
    assert height <= PHONE["height"] / 4  # it took a third of the screen


def test_wide_tables_scroll_in_labelled_keyboard_regions(phone, seed_site):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    for ui in ("ru", "fr"):
        for kind in ("glossary", "consistency"):
            phone.get(pages_by_type(seed_site, ui)[kind].as_uri())
            scrolling = phone.execute_script(
                "return [...document.querySelectorAll('main *')].filter(e =>"
                " e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')"
            )
            assert scrolling, (ui, kind)  # at 390 px these tables are wider than the screen
            for region in scrolling:
                assert region.get_attribute("role") == "region"
                assert region.get_attribute("tabindex") == "0"
                assert region.get_attribute("aria-label").strip()
            region = scrolling[0]
            first = region.find_element(By.CSS_SELECTOR, "tbody tr > :first-child")
            left = first.rect["x"]
            region.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)  # focuses it, then scrolls
            assert phone.switch_to.active_element == region
            wait_for(
                phone, lambda d, r=region: d.execute_script("return arguments[0].scrollLeft", r)
            )
            assert abs(first.rect["x"] - left) <= 1  # the first column stays in view


def test_the_glossary_fits_a_wide_screen(browser, seed_site):
    """At 1280 px the glossary showed all but its last column."""
    for ui in UI_LANGUAGES:
        browser.get((seed_site / ui / "glossary.html").as_uri())
        overflow = browser.execute_script(
            "const r = document.querySelector('.wide'); return r.scrollWidth - r.clientWidth"
        )
        assert overflow <= 1, ui


def test_examples_are_folded_with_their_outcome_in_view(phone, seed_site):
    from selenium.webdriver.common.by import By

    phone.get((seed_site / "it" / "rule" / "726-3.html").as_uri())
    examples = phone.find_elements(By.CSS_SELECTOR, "article.example")
    assert len(examples) >= 3
    for example in examples:
        details = example.find_element(By.TAG_NAME, "details")
        assert details.get_attribute("open") is None
        summary = example.find_element(By.TAG_NAME, "summary").text
        assert summary.startswith(("superato", "non superato")), summary
        assert not example.find_element(By.CSS_SELECTOR, "ol.steps").is_displayed()
    summary = examples[0].find_element(By.TAG_NAME, "summary")
    summary.click()
    assert examples[0].find_element(By.CSS_SELECTOR, "ol.steps").is_displayed()
    height = phone.execute_script("return document.documentElement.scrollHeight")
    assert height < 20000  # every log open made it 50,000 px
