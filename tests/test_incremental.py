"""Incremental builds: after a change, a rebuild that reuses the previous store gives exactly
the output of a full build (same rows in every table, same site bytes), and redoes only the
changed files."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from kb.pipeline import incremental
from kb.pipeline.build import build

ROOT = Path(__file__).resolve().parent.parent
#: Columns that measure the machine, not the data (an example's run time).
VOLATILE = {("example_runs", "seconds")}
#: Tables of the machine, not the data: the files' times and inodes as each build found them.
VOLATILE_TABLES = {incremental.STATS_TABLE}


def rows(db_path: Path) -> dict[str, list[tuple]]:
    """Every table's rows, sorted, without the volatile columns."""
    out = {}
    with sqlite3.connect(db_path) as conn:
        tables = [
            r[0]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            if r[0] not in VOLATILE_TABLES
        ]
        for table in tables:
            columns = [
                r[1]
                for r in conn.execute(f"PRAGMA table_info([{table}])")
                if (table, r[1]) not in VOLATILE
            ]
            select = ", ".join(f"[{c}]" for c in columns)
            out[table] = sorted(
                conn.execute(f"SELECT {select} FROM [{table}]").fetchall(), key=repr
            )
    return out


def files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


#: The first build of each kind of project, made once per process (per xdist worker) and
#: copied into the next test's project: a build from scratch costs seconds, and these tests
#: are about the builds after it.
_FIRST_BUILDS: dict[str, Path] = {}


def first_build(project: Path, kind: str, keep: pytest.TempPathFactory) -> None:
    """Build ``project``'s rulings/ into out/, or copy in the first build of this ``kind`` of
    project made in this process: the same corpus, built with the same settings (the caller
    patches them alike before). The corpus is copied too, with its files' times, so the
    copied store finds it unchanged."""
    done = _FIRST_BUILDS.get(kind)
    if done is not None:
        shutil.rmtree(project / "rulings")
        for part in ("rulings", "out"):
            shutil.copytree(done / part, project / part, symlinks=True)
        return
    build(["rulings"], "out")
    done = keep.mktemp(f"first-{kind}")
    for part in ("rulings", "out"):
        shutil.copytree(project / part, done / part, symlinks=True)
    _FIRST_BUILDS[kind] = done


@pytest.fixture()
def project(tmp_path, monkeypatch, tmp_path_factory):
    """The seeds plus two more cards, built once; the working folder is the project."""
    corpus = tmp_path / "rulings"
    shutil.copytree(ROOT / "rulings", corpus)
    for i, seed in enumerate(["de-unterkellersaeuberung.txt", "es-vidente-del-pasaje.txt"]):
        name, rest = (ROOT / "rulings" / seed).read_text(encoding="utf-8").split("\n", 1)
        (corpus / f"extra-{i}.txt").write_text(f"{name} II\n{rest}", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    first_build(tmp_path, "project", tmp_path_factory)
    return tmp_path


def assert_same_as_full(project: Path, timings_reused: dict) -> None:
    build(["rulings"], "full", reuse=False)
    assert rows(project / "out" / "rulings.db") == rows(project / "full" / "rulings.db")
    assert files(project / "out" / "site") == files(project / "full" / "site")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_one_changed_ruling_gives_the_full_builds_output(project, monkeypatch):
    edit(
        project / "rulings" / "fr-chasseur-vengeur.txt",
        "peut la prendre à nouveau",
        "peut la reprendre à nouveau",
    )
    parsed = []
    real = incremental.changed_sources

    def spy(db, hashes):
        found = real(db, hashes)
        parsed.append(found)
        return found

    monkeypatch.setattr(incremental, "changed_sources", spy)
    timings = build(["rulings"], "out")
    assert parsed == [(["rulings/fr-chasseur-vengeur.txt"], [])]
    assert_same_as_full(project, timings)


def test_removed_renamed_and_added_files_give_the_full_builds_output(project):
    (project / "rulings" / "extra-0.txt").unlink()
    edit(project / "rulings" / "extra-1.txt", "Vidente del Pasaje II", "Vidente del Pasaje III")
    shutil.copy(ROOT / "rulings" / "it-cacciatore-vendicatore.txt", project / "rulings" / "z.txt")
    edit(project / "rulings" / "z.txt", "Cacciatore Vendicatore", "Cacciatore Nuovo")
    timings = build(["rulings"], "out")
    assert_same_as_full(project, timings)
    with sqlite3.connect(project / "out" / "rulings.db") as conn:
        cards = {r[0] for r in conn.execute("SELECT name FROM cards")}
    assert "Vidente del Pasaje II" not in cards and "Cacciatore Nuovo" in cards


def test_nothing_changed_leaves_the_build_as_it_is(project):
    """No file changed (same paths, same bytes, same code and options): no stage runs and
    the output folder is not even swapped; a build missing a part or with a file more is
    built again."""
    out = project / "out"
    before = rows(out / "rulings.db")
    stamp = (out.stat().st_ino, (out / "rulings.db").stat().st_mtime_ns)
    assert build(["rulings"], "out") == {}
    assert (out.stat().st_ino, (out / "rulings.db").stat().st_mtime_ns) == stamp
    assert rows(out / "rulings.db") == before and not list(project.glob(".out.tmp-*"))
    shutil.rmtree(out / "site")
    assert build(["rulings"], "out") and (out / "site" / "index.html").is_file()
    shutil.copy(project / "rulings" / "extra-0.txt", project / "rulings" / "extra-2.txt")
    assert "parse" in build(["rulings"], "out")
    assert build(["rulings"], "out") == {}


def test_a_changed_suppressions_file_is_built_again(project):
    """Which findings are accepted shows on the site: a suppressions file added, changed or
    removed (no ruling file changed) is a build, whose output is the full build's."""
    report = project / "out" / "site" / "en" / "consistency.html"
    assert "french-spacing" in report.read_text(encoding="utf-8")
    accept = project / "rulings" / "suppressions.toml"
    accept.write_text(
        '[[accept]]\ncheck = "french-spacing"\nreason = "house style"\n', encoding="utf-8"
    )
    assert build(["rulings"], "out")
    assert "french-spacing" not in report.read_text(encoding="utf-8")
    assert_same_as_full(project, {})
    assert build(["rulings"], "out") == {}
    accept.unlink()
    assert build(["rulings"], "out")
    assert "french-spacing" in report.read_text(encoding="utf-8")


def test_a_project_moved_elsewhere_whole_is_still_up_to_date(project, monkeypatch):
    """The output does not depend on where the project lies: a stale suppression is named
    from the working folder (the site never shows this machine's folders), and the moved
    project's build is the one already there."""
    accept = project / "rulings" / "suppressions.toml"
    accept.write_text(
        accept.read_text(encoding="utf-8")
        + '\n[[accept]]\ncheck = "quote-style"\nexcerpt = "nowhere"\nreason = "stale"\n',
        encoding="utf-8",
    )
    assert build(["rulings"], "out")
    with sqlite3.connect(project / "out" / "rulings.db") as conn:
        stale = conn.execute(
            "SELECT message FROM findings WHERE [check] = ?", ["stale-suppression"]
        ).fetchall()
    assert [m for (m,) in stale] == [
        "rulings/suppressions.toml [[accept]] #4 accepts no finding of 'quote-style'; remove it"
    ]
    site = files(project / "out" / "site")
    assert not [name for name, data in site.items() if str(project).encode() in data]
    moved = project.parent / (project.name + "-moved")
    project.rename(moved)
    monkeypatch.chdir(moved)
    assert build(["rulings"], "out") == {}
    assert files(moved / "out" / "site") == site


def test_a_store_built_otherwise_is_not_reused(project):
    key = incremental.build_key(None)
    assert incremental.build_key("fr") != key
    work = project / "copy.db"
    assert incremental.reuse_store(project / "out" / "rulings.db", work, key)
    assert not incremental.reuse_store(project / "out" / "rulings.db", project / "b.db", "other")
    assert not incremental.reuse_store(project / "missing.db", project / "c.db", key)
    (project / "junk.db").write_bytes(b"not a database")
    assert not incremental.reuse_store(project / "junk.db", project / "d.db", key)


def test_a_bad_file_is_still_reported_when_the_store_is_reused(project):
    from kb.errors import KbError

    text = "Carte\n\n31/02/2022\n\nUn joueur qui a actuellement l’initiative peut la prendre à nouveau.\n"
    (project / "rulings" / "bad.txt").write_text(text, encoding="utf-8")
    with pytest.raises(KbError) as caught:
        build(["rulings"], "out")
    assert "rulings/bad.txt:3:" in str(caught.value.problems[0])


# The site stage: only pages whose digest changed are rendered, the rest are hard-linked.


@pytest.fixture()
def rendered(monkeypatch):
    """The page keys each UI tree rendered during a build ({ui: set}, None meaning all)."""
    from kb.site import pages

    seen: dict = {}
    real = pages.render_tree

    def spy(site, ui, out, counts, only=None):
        seen[ui] = None if only is None else set(only)
        return real(site, ui, out, counts, only)

    monkeypatch.setattr(pages, "render_tree", spy)
    return seen


def linked_copy(folder: Path, to: Path) -> dict[str, bytes]:
    """Hard-link every file of ``folder`` under ``to``; return their bytes now."""
    for path in folder.rglob("*"):
        if path.is_file():
            target = to / path.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(path, target)
    return files(to)


def test_one_changed_ruling_renders_only_the_pages_showing_it(project, rendered):
    kept = linked_copy(project / "out" / "site", project / "kept")
    edit(
        project / "rulings" / "fr-chasseur-vengeur.txt",
        "peut la prendre à nouveau",
        "peut la reprendre à nouveau",
    )
    build(["rulings"], "out")
    assert set(rendered) == {"en", "ru", "it", "fr", "de", "es"}
    keys = rendered["en"]
    assert keys is not None and all(rendered[ui] == keys for ui in rendered)
    assert "glossary.html" not in keys and "rules.html" not in keys
    assert "index.html" not in keys  # same counts, same languages
    assert len([k for k in keys if k.startswith("ruling/")]) == 1  # the group of the ruling
    # (the cards of its translations show it in the reader's language: they are rendered too)
    assert "lang/fr.html" in keys and "lang/de.html" not in keys
    # the files hard-linked into the new build were never written through
    assert files(project / "kept") == kept
    assert_same_as_full(project, {})


def test_a_file_changed_but_not_its_rulings_renders_no_page(project, rendered):
    before = files(project / "out" / "site")
    path = project / "rulings" / "fr-chasseur-vengeur.txt"
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    build(["rulings"], "out")
    assert rendered and all(keys == set() for keys in rendered.values())
    assert files(project / "out" / "site") == before


def test_a_renamed_card_rerenders_its_names_in_other_languages(project, rendered):
    edit(project / "rulings" / "fr-chasseur-vengeur.txt", "Chasseur vengeur", "Chasseur vengeresse")
    build(["rulings"], "out")
    keys = rendered["en"]
    assert any("cacciatore" in k for k in keys if k.startswith("card/"))  # lists its fr name
    assert_same_as_full(project, {})


def test_a_blank_line_more_moves_anchors_and_gives_the_full_builds_output(project, rendered):
    path = project / "rulings" / "de-unterkellersaeuberung.txt"
    path.write_text(path.read_text(encoding="utf-8").replace("\n\n", "\n\n\n", 1), encoding="utf-8")
    build(["rulings"], "out")
    keys = rendered["en"]
    assert "lang/de.html" in keys and "glossary.html" not in keys and "index.html" not in keys
    assert_same_as_full(project, {})


def test_long_listings_come_in_parts_and_one_change_rerenders_one_part(
    project, rendered, monkeypatch
):
    from kb.site import pages

    monkeypatch.setattr(pages, "LANG_PAGE_CARDS", 1)
    monkeypatch.setattr(pages, "REPORT_PAGE_GROUPS", 3)
    build(["rulings"], "out", reuse=False)  # (no file changed: it would have nothing to do)
    site = project / "out" / "site"
    assert (site / "en" / "lang" / "de-p2.html").is_file()
    assert 'href="../../en/lang/de-p2.html"' in (site / "en" / "lang" / "de.html").read_text(
        "utf-8"
    )
    assert (site / "fr" / "consistency-p2.html").is_file()
    edit(project / "rulings" / "extra-0.txt", "Unterkellersäuberung II", "Unterkellersäuberung III")
    build(["rulings"], "out")
    keys = rendered["en"]
    assert "lang/de-p2.html" in keys and "lang/de.html" not in keys
    assert_same_as_full(project, {})


def test_a_new_finding_rerenders_only_the_report_part_listing_its_ruling(
    project, rendered, monkeypatch
):
    from kb.site import pages

    monkeypatch.setattr(pages, "REPORT_PAGE_GROUPS", 3)
    build(["rulings"], "out", reuse=False)  # (no file changed: it would have nothing to do)
    site = project / "out" / "site" / "en"
    assert len(list(site.glob("consistency*.html"))) > 2
    edit(
        project / "rulings" / "fr-chasseur-vengeur.txt",
        "jusqu’à ce qu’un autre joueur",
        "jusqu’à ce qu’un autre joueur (not venture into)",
    )
    build(["rulings"], "out")
    report = {k for k in rendered["en"] if k.startswith("consistency")}
    # Findings were all on the first part, whatever their ruling: this one's is listed later.
    assert len(report) == 1 and report != {"consistency.html"}
    [part] = report
    text = (site / part).read_text(encoding="utf-8")
    assert '<td lang="fr">not venture into</td>' in text
    assert '<td lang="fr">not venture into</td>' not in (site / "consistency.html").read_text(
        encoding="utf-8"
    )
    assert_same_as_full(project, {})


def copied_then_edited(project: Path, text: str, cards: dict[str, str]) -> None:
    """``text`` alone in a French file per card ({file stem: card name}), built; then another
    file edited and built again, which must give the full build's output."""
    for stem, card in cards.items():
        path = project / "rulings" / f"fr-{stem}.txt"
        path.write_text(f"{card}\n\n10/06/2022\n\n{text}\n", encoding="utf-8")
    build(["rulings"], "out")
    edit(
        project / "rulings" / "fr-chasseur-vengeur.txt",
        "peut la prendre à nouveau",
        "peut la reprendre",
    )
    assert_same_as_full(project, build(["rulings"], "out"))


def test_a_text_on_two_cards_one_after_the_other_builds_as_in_full(project):
    """The store read back for an incremental build holds one ruling after another with the
    same text (two cards' files that print it alone): each text's matches are taken once."""
    text = "Un joueur qui a déjà l'initiative peut la prendre à nouveau."
    copied_then_edited(project, text, {"a": "Carte A", "b": "Carte B"})
