"""The site stage after an incremental alignment: only what the changed groups can change is
loaded, rendered and indexed, in this process or in forked workers, and the site, the search
index and the data dump are still the full build's, byte for byte."""

from __future__ import annotations

import functools
import os
import sqlite3
import time
from pathlib import Path

import pytest
from realign_helpers import assert_same_as_full, record, swap_rulings
from test_incremental import edit, linked_copy

from kb.pipeline.build import build
from kb.site.paths import slug

# -- the site stage after an incremental alignment ---------------------------------------------
# It loads and digests only what the changed groups can change (kb.site.changes); the pages,
# the search index and the data dump must still be the full build's, byte for byte.


@pytest.fixture()
def planned(blocked, monkeypatch):
    """``blocked``, recording what the site's incremental plan loaded (None: it fell back)."""
    from kb.site import changes

    return blocked[0], record(monkeypatch, changes, "plan"), blocked[1]


def test_an_edit_of_rulings_printed_on_two_cards_gives_the_full_builds_site(planned):
    """extra-2.txt is fr-chasseur-vengeur.txt under another card name: its texts are printed
    on both cards. Two of one card's copies swapped (each joins the other's group; a text
    edit would move this small corpus' statistics and align everything again): only those
    groups and the cards showing them are loaded."""
    project, plans, updates = planned
    swap_rulings(project / "rulings" / "extra-2.txt", 1, 2)
    build(["rulings"], "out")
    assert updates[0] is not None  # the alignment was updated
    assert len(plans) == 1 and plans[0] is not None
    with sqlite3.connect(project / "out" / "rulings.db") as conn:
        groups = conn.execute("SELECT COUNT(*) FROM groups").fetchone()[0]
    assert plans[0].figures["groups_loaded"] < groups
    assert_same_as_full(project)


def test_a_removed_file_gives_the_full_builds_site_without_its_pages(planned):
    project, plans, _ = planned
    card_page = [
        p.name
        for p in (project / "out" / "site" / "en" / "card").glob("*.html")
        if "ii" in p.name and "vidente" in p.name
    ]
    assert card_page
    (project / "rulings" / "extra-1.txt").unlink()
    build(["rulings"], "out")
    assert plans and plans[0] is not None
    assert not (project / "out" / "site" / "en" / "card" / card_page[0]).exists()
    assert_same_as_full(project)


def test_an_edit_of_the_first_copy_changes_every_page_showing_it(planned):
    """The first card's copy of a shared text is what the other cards' pages show in that
    language: changing it (here: swapping two) changes those pages too (the group's face)."""
    project, plans, _ = planned
    swap_rulings(project / "rulings" / "fr-chasseur-vengeur.txt", 1, 2)
    build(["rulings"], "out")
    assert plans and plans[0] is not None
    assert any(k.startswith("card/fr-chasseur-vengeur-ii") for k in plans[0].render)
    assert_same_as_full(project)


def test_findings_changed_in_groups_the_edit_did_not_change_are_shown(planned):
    """A suppressions file added beside an edit: a finding of a group the alignment did not
    change is accepted now. The plan reads only the findings of the groups it needs, and finds
    those whose findings differ from the previous build's (this group has no example run,
    which would have made it look again anyway)."""
    project, plans, updates = planned
    (project / "rulings" / "fr-solo.txt").write_text(
        "Carte solitaire\n\n10/06/2022\n\nCarte 0042: un joueur qui a l’initiative la "
        "garde jusqu’à ce qu’un autre joueur la prenne.\n",
        encoding="utf-8",
    )
    build(["rulings"], "out")
    with sqlite3.connect(project / "out" / "rulings.db") as conn:
        [(group,)] = conn.execute(
            "SELECT DISTINCT [group] FROM findings WHERE ruling LIKE "
            "'%fr-solo%' AND [check] = 'french-spacing'"
        ).fetchall()
        assert not conn.execute('SELECT 1 FROM example_runs WHERE "group" = ?', [group]).fetchall()
    (project / "rulings" / "suppressions.toml").write_text(
        '[[accept]]\ncheck = "french-spacing"\ncard = "Carte solitaire"\nreason = "test"\n',
        encoding="utf-8",
    )
    swap_rulings(project / "rulings" / "extra-2.txt", 1, 2)
    plans.clear()
    build(["rulings"], "out")
    assert updates[-1] == ("check", False)  # the suppressions changed: checked again whole
    assert plans and plans[0] is not None and group not in updates[-2]
    assert f"ruling/{slug(group)}.html" in plans[0].render
    assert_same_as_full(project)


def test_a_previous_page_gone_missing_is_rendered_from_everything(planned):
    """A page of the previous site that cannot be linked any more (deleted by hand here) is not
    among the plan's pages, so its data was not loaded: the site is built from everything, and
    nothing fails."""
    gone_page_gives_up_the_plan(*planned[:2])


def gone_page_gives_up_the_plan(project: Path, plans: list) -> None:
    victim = next((project / "out" / "site" / "de" / "card").glob("*.html"))
    victim.unlink()
    swap_rulings(project / "rulings" / "extra-2.txt", 1, 2)
    build(["rulings"], "out")
    assert plans and plans[0] is not None  # the plan was made, then given up
    assert (project / "out" / "site" / "de" / "card" / victim.name).is_file()
    assert_same_as_full(project)


# The browser search index of an updated alignment: kept between builds (kb.site.search_state).


def test_unchanged_search_chunks_are_the_previous_builds_files(blocked, monkeypatch):
    from kb.site import search_index

    blocked, updates = blocked
    kept = linked_copy(blocked / "out" / "site" / "search", blocked / "kept")
    made = []
    real = search_index.document
    monkeypatch.setattr(search_index, "document", lambda *a: made.append(a) or real(*a))
    edit(
        blocked / "rulings" / "it-cacciatore-vendicatore.txt",
        "Un giocatore che ha già",
        "Un giocatora che ha già",
    )
    build(["rulings"], "out")
    # Only the summaries of chunks holding the changed groups' documents were made (the
    # edited group, and any whose rows the update rescored beside it: 726.3's, which names
    # only one holder as 726.5's does; each group's members span two chunks); the others
    # were linked without them.
    assert updates[0] is not None  # (else the site is built as from scratch)
    assert 0 < len(made) <= 2 * search_index.DOCS_PER_CHUNK * len(updates[0])
    pages = {f"ruling/{group.replace('.', '-')}-" for group in updates[0]}
    assert all(any(url.startswith(page) for page in pages) for _, url in made)
    chunks = sorted((blocked / "out" / "site" / "search" / "d").glob("*.js"))
    same = {p.name: p.read_bytes() == kept[f"d/{p.name}"] for p in chunks}
    linked = {
        p.name: p.stat().st_ino == (blocked / "kept" / "d" / p.name).stat().st_ino for p in chunks
    }
    assert linked == same  # a chunk is linked exactly when its bytes are the same
    assert list(same.values()).count(False) == 1 and list(same.values()).count(True) > 10
    assert_same_as_full(blocked, {})


def _marking(marks: Path, real, *args):
    with open(marks, "a", encoding="utf-8") as out:
        out.write(f"{os.getpid()}\n")
    return real(*args)


def test_an_index_written_by_a_child_process_is_the_full_builds(blocked, monkeypatch):
    import kb.site.build

    blocked, updates = blocked
    # As at 100k rulings: the index of an incremental build is written by a forked child
    # (which inherits these patches) beside the plan and the pages.
    monkeypatch.setattr(kb.site.build, "PARALLEL_FROM", 1)
    monkeypatch.setattr(kb.site.build.forking, "available", lambda cores=2: True)
    marks = blocked / "marks"
    monkeypatch.setattr(
        kb.site.build,
        "_search_index",
        functools.partial(_marking, marks, kb.site.build._search_index),
    )
    edit(
        blocked / "rulings" / "it-cacciatore-vendicatore.txt",
        "Un giocatore che ha già",
        "Un giocatora che ha già",
    )
    build(["rulings"], "out")
    assert updates[0] is not None
    writers = marks.read_text(encoding="utf-8").split()
    assert len(writers) == 1 and writers[0] != str(os.getpid())
    assert_same_as_full(blocked, {})


@pytest.fixture()
def in_workers(planned, monkeypatch):
    """``planned``, with the trees linked and rendered by forked workers, as at 100k rulings."""
    import kb.site.build

    monkeypatch.setattr(kb.site.build, "PARALLEL_FROM", 1)
    monkeypatch.setattr(kb.site.build.forking, "available", lambda cores=2: True)
    marks = planned[0] / "marks"
    monkeypatch.setattr(
        kb.site.build, "_link_tree", functools.partial(_marking, marks, kb.site.build._link_tree)
    )
    return (*planned, marks)


def test_workers_link_their_trees_beside_the_pages_they_render(in_workers):
    project, plans, updates, marks = in_workers
    swap_rulings(project / "rulings" / "extra-2.txt", 1, 2)
    started = time.time_ns()
    build(["rulings"], "out")
    assert updates[0] is not None and plans and plans[0] is not None
    linkers = marks.read_text(encoding="utf-8").split()
    # Every tree was linked once, and never by the build's own process.
    assert len(linkers) == 6 and str(os.getpid()) not in linkers
    # A linked page is the previous build's file (written before this build); a rendered one
    # is new. (The previous build's folder is deleted in the background, so no link count.)
    site = project / "out" / "site" / "ru"
    unchanged = sorted(set(plans[0].digests) - plans[0].render)
    assert all((site / key).stat().st_mtime_ns < started for key in unchanged)
    assert all((site / key).stat().st_mtime_ns >= started for key in plans[0].render)
    assert_same_as_full(project)


def test_a_page_gone_missing_gives_up_the_workers_plan(in_workers):
    gone_page_gives_up_the_plan(*in_workers[:2])
