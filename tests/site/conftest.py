"""Fixtures of the site tests: the seed corpus and a hostile corpus, each built once per session,
and one headless Chromium per test module (Debian's chromium + chromedriver, through selenium)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from site_helpers import (
    CHROMEDRIVER,
    CHROMIUM,
    CORPUS,
    HOSTILE_CARD,
    HOSTILE_TEXT,
    browser_missing,
    build_site,
)


@pytest.fixture(scope="session")
def seed_site(tmp_path_factory) -> Path:
    """The site built from a copy of the seed corpus."""
    base = tmp_path_factory.mktemp("seeds")
    shutil.copytree(CORPUS, base / "rulings")
    return build_site(base / "rulings", base / "_build")


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory) -> Path:
    """The seed corpus plus a French file with markup in its card name and ruling text."""
    base = tmp_path_factory.mktemp("hostile")
    shutil.copytree(CORPUS, base / "rulings")
    (base / "rulings" / "fr-hostile.txt").write_text(
        f"{HOSTILE_CARD}\n\n10/06/2022\n\n{HOSTILE_TEXT}\n", encoding="utf-8"
    )
    return build_site(base / "rulings", base / "_build")


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the whole module; skipped only when Chromium is absent
    (and never in CI, where KB_REQUIRE_BROWSER=1 turns the skip into a failure)."""
    reason = browser_missing()
    if reason:
        if os.environ.get("KB_REQUIRE_BROWSER"):
            pytest.fail(f"browser tests required but Chromium is {reason}")
        pytest.skip(f"Chromium {reason}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,1100",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()
