"""Incremental alignment (kb.align.update) and the stages after it: after a change, the updated
store and site are the same as a full build's, and the update really ran (it did not fall back
to aligning everything)."""

from __future__ import annotations

import functools
import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from test_incremental import ROOT, edit, files, first_build, linked_copy, rows
from test_search_shortcuts import stored_documents

from kb.align import scoring as align_scoring
from kb.align import units as align_units
from kb.pipeline.build import build
from kb.site.paths import slug

#: Not compared: the site stage's own bookkeeping (page digests; its pages are compared byte
#: for byte), and the build key (a hash of the code, which others may edit during the test).
SITE_STATE = {"site_pages", "build_state"}


def compared_rows(db_path: Path) -> dict[str, list[tuple]]:
    return {t: r for t, r in rows(db_path).items() if t not in SITE_STATE}


def assert_same_as_full(project: Path, _timings=None) -> None:
    build(["rulings"], "full", reuse=False)
    assert compared_rows(project / "out" / "rulings.db") == compared_rows(
        project / "full" / "rulings.db"
    )
    assert files(project / "out" / "site") == files(project / "full" / "site")
    # The patched search index holds the same documents as the full build's.
    assert stored_documents(project / "out" / "index") == stored_documents(
        project / "full" / "index"
    )
    for name in ("documents.json", "cards.json"):
        assert (project / "out" / "index" / name).read_bytes() == (
            project / "full" / "index" / name
        ).read_bytes()


# -- incremental alignment, link, examples and checks ------------------------------------------
# The seeds are few units: every pair is scored and an incremental alignment would not apply.
# These tests lower the limits so that the blocking path (and the incremental update) runs.


def steady_build_key(monkeypatch) -> None:
    """Others may edit the code while these tests run: keep one build key for the test."""
    from kb.pipeline import incremental

    key = incremental.build_key(None)
    monkeypatch.setattr(incremental, "build_key", lambda lang: key)


@pytest.fixture()
def blocked(tmp_path, monkeypatch, tmp_path_factory):
    """The ``project`` corpus, aligned by blocking keys, built once; records updates."""
    from kb.align import update as realign
    from kb.checks import update as check_update
    from kb.pipeline import build as kb_build

    monkeypatch.setattr(align_scoring, "ALL_PAIRS_LIMIT", 0)
    # The spies below see only this process: the checks must not run in a forked child.
    monkeypatch.setattr(kb_build, "ALONGSIDE", {})
    steady_build_key(monkeypatch)
    corpus = tmp_path / "rulings"
    shutil.copytree(ROOT / "rulings", corpus)
    for i, seed in enumerate(
        ["de-unterkellersaeuberung.txt", "es-vidente-del-pasaje.txt", "fr-chasseur-vengeur.txt"]
    ):
        name, rest = (ROOT / "rulings" / seed).read_text(encoding="utf-8").split("\n", 1)
        (corpus / f"extra-{i}.txt").write_text(f"{name} II\n{rest}", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    first_build(tmp_path, "blocked", tmp_path_factory)
    updates = record(monkeypatch, realign, "update")
    record(monkeypatch, check_update, "update", into=updates, tag="check")
    return tmp_path, updates


def record(monkeypatch, owner, name: str, into: list | None = None, tag: str | None = None):
    """Spy on ``owner.name``: each call's result is appended to ``into`` (a new list if None),
    as ``(tag, result)`` when tagged; return that list."""
    calls = [] if into is None else into
    real = getattr(owner, name)

    def spy(*args):
        result = real(*args)
        calls.append(result if tag is None else (tag, result))
        return result

    monkeypatch.setattr(owner, name, spy)
    return calls


def swap_rulings(path: Path, first: int, second: int) -> None:
    """Swap the texts of two rulings of a file (1-based): each moves to the other's group."""
    head, *blocks = path.read_text(encoding="utf-8").split("\n\n")
    texts = [i for i, b in enumerate(blocks) if not b.strip()[:2].isdigit()]
    a, b = texts[first - 1], texts[second - 1]
    blocks[a], blocks[b] = blocks[b], blocks[a]
    path.write_text("\n\n".join([head, *blocks]), encoding="utf-8")


def test_a_same_length_edit_is_aligned_incrementally(blocked):
    blocked, updates = blocked
    # A text on one card only (no unit appears or goes): the corpus statistics stay.
    edit(
        blocked / "rulings" / "it-cacciatore-vendicatore.txt",
        "Un giocatore che ha già",
        "Un giocatora che ha già",
    )
    build(["rulings"], "out")
    assert updates[0] is not None  # the alignment was updated, exactly
    assert updates[1] == ("check", True)  # so were the checks
    assert_same_as_full(blocked, {})


def test_a_ruling_moved_to_another_group_gives_the_full_builds_output(blocked):
    blocked, updates = blocked
    swap_rulings(blocked / "rulings" / "extra-0.txt", 1, 2)
    build(["rulings"], "out")
    assert updates[0] is not None
    assert_same_as_full(blocked, {})
    with sqlite3.connect(blocked / "out" / "rulings.db") as conn:
        group = dict(conn.execute("SELECT ruling_id, group_id FROM memberships").fetchall())
    assert group["rulings/extra-0.txt#1"] == group["rulings/de-unterkellersaeuberung.txt#2"]


def test_a_removed_file_gives_the_full_builds_output(blocked):
    blocked, updates = blocked
    (blocked / "rulings" / "extra-2.txt").unlink()
    build(["rulings"], "out")
    assert updates[0] is not None  # its texts are still on the other card: same units
    assert_same_as_full(blocked, {})


def test_a_new_card_gives_the_full_builds_output(blocked):
    blocked, updates = blocked
    text = (ROOT / "rulings" / "it-cacciatore-vendicatore.txt").read_text(encoding="utf-8")
    (blocked / "rulings" / "new.txt").write_text(
        text.replace("Cacciatore Vendicatore", "Cacciatore Nuovo", 1).replace(
            "giocatore", "giocatrice"
        ),
        encoding="utf-8",
    )
    build(["rulings"], "out")
    assert_same_as_full(blocked, {})


def test_moved_concept_weights_rescore_only_the_texts_holding_them(blocked, monkeypatch):
    """An edit that drops a concept from a text changes that concept's weight (a corpus this
    small has few texts per concept): the texts holding it are scored and clustered again,
    the rest kept, and the result is still the full build's."""
    from kb.align import update as realign

    blocked, updates = blocked
    monkeypatch.setattr(realign, "RESCORE_SHARE", 1.0)  # few texts here: most hold one
    moved = []
    real = realign.moved_concepts
    monkeypatch.setattr(realign, "moved_concepts", lambda *a: moved.append(real(*a)) or moved[-1])
    # Same length, so the usual lengths stay; "turn order" is no longer found in this text.
    edit(
        blocked / "rulings" / "it-cacciatore-vendicatore.txt", "ordine di turno", "ordine di turnx"
    )
    build(["rulings"], "out")
    assert moved == [{"turn_order"}]  # the weight did move ...
    assert updates[0] is not None  # ... and the alignment was still updated, not redone
    assert_same_as_full(blocked, {})
    # Over the limit, everything is aligned again, as in a full build.
    monkeypatch.setattr(realign, "RESCORE_SHARE", 0.0)
    edit(
        blocked / "rulings" / "it-cacciatore-vendicatore.txt", "ordine di turnx", "ordine di turno"
    )
    build(["rulings"], "out")
    assert moved[-1] == {"turn_order"} and updates[-1] is None
    assert_same_as_full(blocked, {})


def test_unchanged_corpus_updates_nothing(blocked):
    blocked, updates = blocked
    before = compared_rows(blocked / "out" / "rulings.db")
    assert build(["rulings"], "out") == {} and updates == []  # not a file changed: no stage
    # A file's bytes change (a trailing line), not its rulings: every update is empty.
    path = blocked / "rulings" / "fr-chasseur-vengeur.txt"
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    build(["rulings"], "out")
    assert updates == [set(), ("check", True)]
    after = compared_rows(blocked / "out" / "rulings.db")
    assert after.pop("sources") != before.pop("sources")  # the file's new SHA-256 only
    assert after == before


def test_a_new_card_with_known_texts_is_aligned_incrementally(blocked):
    blocked, updates = blocked
    text = (ROOT / "rulings" / "ru-issledovatel-podzemya.txt").read_text(encoding="utf-8")
    name, rest = text.split("\n", 1)
    (blocked / "rulings" / "ru-copy.txt").write_text(f"{name} II\n{rest}", encoding="utf-8")
    build(["rulings"], "out")
    assert updates[0] is not None and updates[1] == ("check", True)
    assert_same_as_full(blocked, {})


def test_a_ruling_changed_to_another_cards_text_moves_it(blocked):
    """A text edited into the text another card has in its language: the ruling joins that
    unit (and group); its old unit keeps the other card's copy."""
    blocked, updates = blocked
    de = (ROOT / "rulings" / "de-unterkellersaeuberung.txt").read_text(encoding="utf-8")
    third = de.split("\n\n")[6]
    path = blocked / "rulings" / "extra-0.txt"
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    blocks[2] = third
    path.write_text("\n\n".join(blocks), encoding="utf-8")
    build(["rulings"], "out")
    assert_same_as_full(blocked, {})


def test_checks_with_suppressions_give_the_full_builds_findings(tmp_path, monkeypatch):
    """Accepted findings stay accepted, and a suppression that accepts nothing any more is
    reported stale, after an update that checked only the changed groups."""
    from kb.checks import update as check_update
    from kb.pipeline import build as kb_build

    monkeypatch.setattr(align_scoring, "ALL_PAIRS_LIMIT", 0)
    # The spies below see only this process: the checks must not run in a forked child.
    monkeypatch.setattr(kb_build, "ALONGSIDE", {})
    steady_build_key(monkeypatch)
    corpus = tmp_path / "rulings"
    shutil.copytree(ROOT / "rulings", corpus)
    (corpus / "suppressions.toml").write_text(
        '[[accept]]\ncheck = "french-spacing"\nlang = "fr"\nreason = "house style"\n\n'
        '[[accept]]\ncheck = "untranslated-fragment"\nexcerpt = "the first room"\n'
        'reason = "a room name"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    build(["rulings"], "out")
    with sqlite3.connect(tmp_path / "out" / "rulings.db") as conn:
        assert (
            conn.execute(
                "SELECT COUNT(*) FROM findings WHERE accepted IS NOT NULL "
                "AND [check] = 'untranslated-fragment'"
            ).fetchone()[0]
            == 1
        )
    calls = []
    real = check_update.update
    monkeypatch.setattr(check_update, "update", lambda *a: calls.append(real(*a)) or calls[-1])
    edit(corpus / "it-cacciatore-vendicatore.txt", "the first room", "la prima stanza")
    build(["rulings"], "out")
    assert calls == [True]
    assert_same_as_full(tmp_path)
    with sqlite3.connect(tmp_path / "out" / "rulings.db") as conn:
        stale = conn.execute(
            "SELECT message FROM findings WHERE [check] = 'stale-suppression'"
        ).fetchall()
    assert len(stale) == 1 and "#2" in stale[0][0]


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


# -- a ruling printed on many cards ---------------------------------------------------------


@pytest.fixture()
def shared(tmp_path, monkeypatch, tmp_path_factory):
    """Every seed file printed on four more cards (so each seed ruling is a group of copies),
    one of them with a ruling entered twice; built once; records the updates."""
    from kb.align import update as realign
    from kb.checks import update as check_update
    from kb.pipeline import build as kb_build

    monkeypatch.setattr(align_scoring, "ALL_PAIRS_LIMIT", 0)
    monkeypatch.setattr(realign, "RESCORE_SHARE", 1.0)  # few texts: most hold every concept
    # The spies below see only this process: the checks must not run in a forked child.
    monkeypatch.setattr(kb_build, "ALONGSIDE", {})
    steady_build_key(monkeypatch)
    corpus = tmp_path / "rulings"
    shutil.copytree(ROOT / "rulings", corpus)
    for seed in sorted((ROOT / "rulings").glob("*.txt")):
        name, rest = seed.read_text(encoding="utf-8").split("\n", 1)
        for k in range(2, 6):
            (corpus / f"{seed.stem}-{k}.txt").write_text(f"{name} {k}\n{rest}", encoding="utf-8")
    twice = corpus / "de-unterkellersaeuberung-3.txt"
    blocks = twice.read_text(encoding="utf-8").rstrip("\n").split("\n\n")
    twice.write_text("\n\n".join(blocks + blocks[1:3]) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    first_build(tmp_path, "shared", tmp_path_factory)
    updates, checked = [], []
    real = realign.update
    monkeypatch.setattr(realign, "update", lambda *a: updates.append(real(*a)) or updates[-1])
    real_check = check_update.update
    monkeypatch.setattr(
        check_update,
        "update",
        lambda *a: updates.append(("check", real_check(*a))) or updates[-1][1],
    )
    real_members = check_update.members_of_cards
    monkeypatch.setattr(
        check_update,
        "members_of_cards",
        lambda db, cards: checked.append(sorted(cards)) or real_members(db, cards),
    )
    return tmp_path, updates, checked


def test_an_edit_of_one_copy_of_shared_rulings_gives_the_full_builds_output(shared):
    """Two rulings printed on every card swap texts on one card (no text appears or goes, so
    this small corpus's statistics stay and the alignment is updated): the two groups, every
    card's, are checked again; the duplicate on another card stays reported; texts entered
    twice are looked for on the edited card only."""
    folder, updates, checked = shared
    swap_rulings(folder / "rulings" / "fr-chasseur-vengeur-4.txt", 1, 2)
    build(["rulings"], "out")
    assert updates[0] is not None and updates[1] == ("check", True)
    with sqlite3.connect(folder / "out" / "rulings.db") as conn:
        sizes = [
            n
            for (n,) in conn.execute(
                "SELECT COUNT(*) FROM memberships WHERE group_id IN (SELECT group_id FROM "
                "memberships WHERE ruling_id LIKE '%fr-chasseur-vengeur-4.txt#_') GROUP BY group_id"
            )
        ]
        duplicates = conn.execute(
            "SELECT card FROM findings WHERE [check] = 'duplicate-text' AND severity = 'warning'"
        ).fetchall()
    assert min(sizes) >= 25 and len(updates[0]) >= 2
    assert checked == [[("fr", "Chasseur vengeur 4")]]
    assert duplicates == [("Unterkellersäuberung 3",)]
    assert_same_as_full(folder)


def test_an_edit_of_the_card_with_a_duplicate_finds_it_again(shared):
    """The card with a ruling entered twice is edited: its rulings move between groups of
    copies; its texts entered twice are looked for again, and the output is a full build's."""
    folder, updates, checked = shared
    swap_rulings(folder / "rulings" / "de-unterkellersaeuberung-3.txt", 1, 2)
    build(["rulings"], "out")
    assert updates[0] is not None and updates[1] == ("check", True)
    assert checked == [[("de", "Unterkellersäuberung 3")]]
    assert_same_as_full(folder)


def test_an_edited_copy_of_a_shared_ruling_leaves_the_others_their_id(shared, monkeypatch):
    """One card's copy of a ruling printed on five cards has a letter changed (its length
    kept: the corpus statistics stay), chosen so that the edited copy's key sorts before every
    key of the others: it becomes a twin group of its own, and the four other cards' group
    (the larger) keeps its id, in the update as in a full build."""

    folder, updates, _ = shared
    # In this small corpus one more French text moves the usual lengths (a median), which
    # would align everything; here every language's usual length is the same, in both builds.
    monkeypatch.setattr(
        align_scoring, "usual_lengths", lambda lengths: {lang: 1.0 for lang in lengths}
    )
    build(["rulings"], "out", reuse=False)
    updates.clear()
    path = folder / "rulings" / "fr-chasseur-vengeur-4.txt"
    with sqlite3.connect(folder / "out" / "rulings.db") as conn:
        ruling, group = conn.execute(
            "SELECT r.id, m.group_id FROM rulings r JOIN memberships m ON m.ruling_id = r.id "
            "WHERE r.source LIKE '%fr-chasseur-vengeur-4.txt' AND r.position = 1"
        ).fetchone()
        text = conn.execute("SELECT text FROM rulings WHERE id = ?", [ruling]).fetchone()[0]
        first = conn.execute(
            "SELECT MIN(key) FROM align_units WHERE group_id = ?", [group]
        ).fetchone()[0]
    stem = text.rstrip(".")[:-2]  # the last two letters of the last word change
    edited = next(
        t
        for t in (
            f"{stem}{a}{b}{text[len(stem) + 2 :]}"
            for a in "bcdfghjklmnpqrstvwxz"
            for b in "bcdfghjklmnpqrstvwxz"
        )
        if align_units.digest(f"fr\n{align_units.normalize(t)}\n0") < first
    )
    edit(path, text, edited)
    build(["rulings"], "out")
    assert updates[0] is not None
    with sqlite3.connect(folder / "out" / "rulings.db") as conn:
        now = dict(
            conn.execute(
                "SELECT r.source, m.group_id FROM rulings r JOIN memberships m "
                "ON m.ruling_id = r.id WHERE r.position = 1 AND r.lang = 'fr'"
            )
        )
    edited = now.pop(next(s for s in now if s.endswith("fr-chasseur-vengeur-4.txt")))
    assert set(now.values()) == {group} and edited.startswith(f"{group}-")
    assert_same_as_full(folder)


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
