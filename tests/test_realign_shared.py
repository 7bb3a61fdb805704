"""A ruling printed on many cards, after an incremental alignment: an edit of one copy checks
again the groups of every card showing it, a duplicate on another card stays reported, and an
edited copy leaves the other copies their group's id; the output is a full build's."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from realign_helpers import assert_same_as_full, steady_build_key, swap_rulings
from test_incremental import ROOT, edit, first_build

from kb.align import scoring as align_scoring
from kb.align import units as align_units
from kb.pipeline.build import build


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
