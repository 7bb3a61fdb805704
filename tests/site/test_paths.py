"""Safe, distinct file names for any card name or group id, and relative links."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from kb.site.paths import MAX_SLUG, rel, root_of, rule_slug, slug

SAFE = re.compile(r"[a-z0-9][a-z0-9-]*")


@given(st.text())
@settings(max_examples=300)
def test_any_name_gives_a_safe_short_file_name(name):
    stem = slug(name)
    assert SAFE.fullmatch(stem) and len(stem) <= MAX_SLUG
    assert stem == slug(name)  # deterministic


@given(st.text(), st.text())
@settings(max_examples=300)
def test_distinct_names_give_distinct_names_even_ignoring_case(a, b):
    if a != b:
        assert slug(a).lower() != slug(b).lower()


def test_hostile_names():
    names = [
        "../../etc/passwd",
        "a/b",
        "a\x00b",
        "..",
        ".",
        "",
        "x" * 10_000,
        "Card",
        "card",
        "CARD",
        "con",
        "<img src=x onerror=alert(1)>",
        "Исследователь Подземья",
    ]
    stems = [slug(n) for n in names]
    assert len(set(stems)) == len(names)
    for stem in stems:
        assert SAFE.fullmatch(stem) and len(stem) <= MAX_SLUG
    assert slug("Исследователь Подземья").startswith("issledovatel-podzemya-")
    assert slug("Unterkellersäuberung").startswith("unterkellersauberung-")


def test_rule_numbers_stay_readable():
    assert rule_slug("726.3") == "726-3"
    assert rule_slug("704.5t") == "704-5t"
    assert rule_slug("../x") != rule_slug("x") and SAFE.fullmatch(rule_slug("../x"))


def test_relative_links():
    assert rel("en/ruling/a.html", "en/card/b.html") == "../../en/card/b.html"
    assert rel("index.html", "en/index.html") == "en/index.html"
    assert rel("ru/index.html", "static/site.css") == "../static/site.css"
    assert root_of("index.html") == "" and root_of("de/rule/x.html") == "../../"
