"""The `kb` command end to end, run as a real subprocess on real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def kb(*args, cwd, check=True):
    result = subprocess.run(
        [sys.executable, "-m", "kb", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if check and result.returncode != 0:
        raise AssertionError(f"kb {args} exited {result.returncode}: {result.stderr}")
    return result


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    work = tmp_path_factory.mktemp("cli")
    (work / "rulings").symlink_to(ROOT / "rulings")
    kb("build", cwd=work)
    return work


def test_build_with_no_arguments_writes_db_and_site(built):
    assert (built / "_build" / "rulings.db").is_file()
    assert "Chasseur vengeur" in (built / "_build" / "site" / "index.html").read_text(
        encoding="utf-8"
    )


def test_export_json_has_all_fifty_rulings(built):
    data = json.loads(kb("export", "json", cwd=built).stdout)
    rulings = [r for g in data["groups"] for r in g["rulings"]]
    assert len(rulings) == 50
    assert {r["lang"] for r in rulings} == {"ru", "it", "fr", "de", "es"}
    assert all(r["date"] == "2022-06-10" for r in rulings)
    assert {"id", "rules", "rulings", "examples"} <= set(data["groups"][0])
    assert {"lang", "card", "date", "text", "source"} <= set(rulings[0])


def test_failed_build_keeps_previous_output_byte_for_byte(built, tmp_path):
    before = snapshot(built / "_build")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(
        b"Chasseur vengeur\n\n31/02/2022\n\nUn joueur qui a l\xe2\x80\x99initiative la garde.\n"
    )
    result = kb("build", ROOT / "rulings", bad, cwd=built, check=False)
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == f"{bad}:3: impossible date '31/02/2022': day is out of range for month"
    )
    assert "Traceback" not in result.stderr
    assert snapshot(built / "_build") == before
    assert not list(built.glob("._build.tmp-*"))


def test_every_bad_file_is_reported_once(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"")
    (tmp_path / "b.txt").write_bytes(b"\xff\xfe")
    result = kb("build", tmp_path, "--out", tmp_path / "out", cwd=tmp_path, check=False)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[0].endswith(
        "a.txt:1: empty file: expected a card name, then dated rulings"
    )
    assert "b.txt:1: not UTF-8" in lines[1]
    assert not (tmp_path / "out").exists()


def test_rebuild_gives_the_same_rows(built, tmp_path):
    import sqlite_utils

    def rows():
        db = sqlite_utils.Database(built / "_build" / "rulings.db")
        return {t: sorted(map(str, db[t].rows)) for t in ("sources", "cards", "rulings")}

    first = rows()
    again = kb("build", cwd=built)  # nothing changed: nothing to do
    assert again.stderr.startswith(
        f"{Path('_build')} is up to date: no ruling or suppressions file changed"
    )
    assert rows() == first
    kb("build", "--full", cwd=built)
    assert rows() == first


def test_missing_store_and_missing_corpus_are_one_line_errors(tmp_path):
    result = kb("export", "json", "--db", tmp_path / "nope.db", cwd=tmp_path, check=False)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "kb build" in result.stderr
    result = kb("build", tmp_path / "missing", cwd=tmp_path, check=False)
    assert result.returncode == 2 and "missing: no such file or folder" in result.stderr


def test_stated_language(tmp_path):
    (tmp_path / "x.txt").write_text(
        "Card\n\n10/06/2022\n\nUndercity Undercity Undercity.\n", encoding="utf-8"
    )
    assert (
        kb(
            "build", tmp_path / "x.txt", "--out", tmp_path / "o", cwd=tmp_path, check=False
        ).returncode
        == 2
    )
    kb("build", tmp_path / "x.txt", "--out", tmp_path / "o", "--lang", "it", cwd=tmp_path)
    data = json.loads(
        kb("export", "json", "--db", tmp_path / "o" / "rulings.db", cwd=tmp_path).stdout
    )
    assert data["groups"][0]["rulings"][0]["lang"] == "it"


@pytest.mark.parametrize(
    "command", [["--help"], ["build", "--help"], ["export", "--help"], ["export", "json", "--help"]]
)
def test_help_explains(command, tmp_path):
    out = kb(*command, cwd=tmp_path).stdout
    assert "Usage:" in out and len(out.splitlines()) > 4


def test_rules_lists_the_registry_with_numbers_of_a_date(tmp_path):
    from kb.core import registry

    rows = json.loads(kb("rules", "--format", "json", cwd=tmp_path).stdout)
    assert [r["number"] for r in rows] == list(registry.RULES)
    [row] = json.loads(
        kb("rules", "726.4", "--on", "2022-06-10", "--format", "json", cwd=tmp_path).stdout
    )
    assert row["number_on_date"] == "721.4" and row["carried_by"].startswith("kb.core.")
    bad = kb("rules", "999.1", cwd=tmp_path, check=False)
    assert bad.returncode == 2 and "999.1" in bad.stderr and "Traceback" not in bad.stderr


def test_search_leaves_at_once_with_its_whole_output_and_status(built):
    """`kb search` ends its process without tearing the interpreter down: everything it
    printed still arrives whole (JSON hits through a pipe), the status is 0, and an error
    still exits 2 with its one line."""
    from click.testing import CliRunner

    from kb.cli import cli

    args = ["search", "initiative", "--format", "json", "--limit", "30"]
    result = kb(*args, cwd=built)
    in_process = CliRunner().invoke(cli, [*args, "--db", str(built / "_build" / "rulings.db")])
    assert result.returncode == 0 and result.stdout == in_process.output
    assert len(json.loads(result.stdout)) >= 5
    failed = kb("search", "lang:xx", cwd=built, check=False)
    assert failed.returncode == 2 and failed.stderr.startswith("query: unknown language")
