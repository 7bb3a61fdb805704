"""Whole-corpus files of the site: identical ones are hard-linked from the previous build,
changed ones written anew, and the previous build's files never change."""

from __future__ import annotations

import pytest
import sqlite_utils

from kb.site.files import Files


def test_identical_files_are_linked_and_changed_ones_written(tmp_path):
    previous = tmp_path / "previous"
    (previous / "site" / "search").mkdir(parents=True)
    db = sqlite_utils.Database(previous / "rulings.db")
    first = Files(previous / "site")
    first.write(previous / "site" / "search" / "a.js", "kbSearch.a(«ß»);\n")
    first.write(previous / "site" / "search" / "b.js", "kbSearch.b(1);\n")
    first.store(db)
    db.close()

    new = tmp_path / "new" / "site"
    (new / "search").mkdir(parents=True)
    again = Files(new, previous)
    again.write(new / "search" / "a.js", "kbSearch.a(«ß»);\n")
    again.write(new / "search" / "b.js", "kbSearch.b(2);\n")
    assert again.linked == 1
    assert (new / "search" / "a.js").stat().st_ino == (
        previous / "site" / "search" / "a.js"
    ).stat().st_ino
    assert (new / "search" / "b.js").read_text(encoding="utf-8") == "kbSearch.b(2);\n"
    assert (previous / "site" / "search" / "b.js").read_text(encoding="utf-8") == "kbSearch.b(1);\n"


def test_without_a_previous_build_everything_is_written(tmp_path):
    files = Files(tmp_path, tmp_path / "missing")
    files.write(tmp_path / "x.js", "x")
    assert files.linked == 0 and (tmp_path / "x.js").read_text(encoding="utf-8") == "x"


def test_paths_given_as_strings_are_kept_and_linked_alike(tmp_path):
    previous = tmp_path / "previous"
    (previous / "site" / "d").mkdir(parents=True)
    db = sqlite_utils.Database(previous / "rulings.db")
    first = Files(previous / "site")
    first.write(f"{previous / 'site'}/d/0.js", "kbSearch.docs(0,[]);\n")
    first.store(db)
    db.close()

    new = tmp_path / "new" / "site"
    (new / "d").mkdir(parents=True)
    again = Files(new, previous)
    assert again.keep(f"{new}/d/0.js") and not again.keep(f"{new}/d/1.js")
    assert (new / "d" / "0.js").stat().st_ino == (previous / "site" / "d" / "0.js").stat().st_ino
    assert again.digests == first.digests and again.linked == 1
    with pytest.raises(ValueError, match="is not under"):
        again.write(tmp_path / "elsewhere.js", "x")
