"""Incremental alignment (kb.align.update) and the stages after it: after a change, the updated
store and site are the same as a full build's, and the update really ran (it did not fall back
to aligning everything).

The site stage after an update: test_realign_site.py; a ruling printed on many cards:
test_realign_shared.py; helpers: realign_helpers.py.
"""

from __future__ import annotations

import shutil
import sqlite3

from realign_helpers import assert_same_as_full, compared_rows, steady_build_key, swap_rulings
from test_incremental import ROOT, edit

from kb.align import scoring as align_scoring
from kb.pipeline.build import build

# -- incremental alignment, link, examples and checks ------------------------------------------
# The seeds are few units: every pair is scored and an incremental alignment would not apply.
# These tests lower the limits so that the blocking path (and the incremental update) runs:
# the ``blocked`` project (tests/conftest.py) is built so.


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
