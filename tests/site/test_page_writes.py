"""Writing a tree's pages: a page rendered where a file already is (hard-linked from the
previous build) replaces that file and never writes through it, and the pages are the same
bytes whether the folder was empty or not."""

from __future__ import annotations

import os

from kb import store
from kb.site import data as site_data
from kb.site import pages


def test_a_page_over_a_linked_file_replaces_it(seed_site, tmp_path):
    db = store.open_db(seed_site.parent / "rulings.db")
    try:
        site = site_data.load(db)
    finally:
        db.close()
    counts = site.summary.counts
    fresh = tmp_path / "fresh"
    pages.render_tree(site, "fr", fresh, counts, {"index.html", "rules.html"})

    # A previous build's file, linked into the new tree where the same page goes.
    previous = tmp_path / "previous.html"
    previous.write_bytes(b"the previous build's page")
    again = tmp_path / "again"
    (again / "fr").mkdir(parents=True)
    os.link(previous, again / "fr" / "rules.html")
    pages.render_tree(site, "fr", again, counts, {"index.html", "rules.html"})

    assert previous.read_bytes() == b"the previous build's page"
    assert (again / "fr" / "rules.html").stat().st_ino != previous.stat().st_ino
    for key in ("index.html", "rules.html"):
        assert (again / "fr" / key).read_bytes() == (fresh / "fr" / key).read_bytes()
