"""`kb check` in CI and editors: --fail-on, a stale store refused, `kb check CORPUS`, SARIF
2.1.0 (validated against the OASIS schema), GitHub annotations, stable ids, baselines, the
team's checklist, and `kb changes`."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from kb.checks import checklist
from kb.cli import cli
from kb.errors import KbError
from kb.pipeline.build import build

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = Path(__file__).resolve().parent / "data" / "schemas"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A built copy of the seeds (with their suppressions) and its store's path."""
    work = tmp_path_factory.mktemp("ci")
    corpus = work / "rulings"
    shutil.copytree(ROOT / "rulings", corpus)
    build([str(corpus)], work / "_build", None, reuse=False)
    return corpus, work / "_build" / "rulings.db"


def run(*args):
    return CliRunner().invoke(cli, ["check", *map(str, args)])


def test_fail_on_sets_the_severity_that_fails(built):
    _, db = built
    assert run("--db", db).exit_code == 0  # the seeds' errors are accepted
    assert run("--db", db, "--fail-on", "warning").exit_code == 1
    assert run("--db", db, "--fail-on", "info").exit_code == 1
    assert run("--db", db, "--fail-on", "fatal").exit_code == 2


def test_json_findings_have_stable_ids_and_places(built):
    corpus, db = built
    first = json.loads(run("--db", db, "--format", "json").output)
    again = json.loads(run("--db", db, "--format", "json").output)
    assert [f["id"] for f in first["findings"]] == [f["id"] for f in again["findings"]]
    assert len({f["id"] for f in first["findings"]}) == len(first["findings"])
    quote = next(f for f in first["findings"] if f["check"] == "quote-style")
    path, line = quote["source"].rsplit(":", 1)
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    assert (
        quote["line"] == int(line)
        and lines[quote["line"] - 1][quote["column"] - 1 : quote["end_column"] - 1]
        == quote["excerpt"]
    )
    assert sorted(f["excerpt"] for f in first["accepted"]) == [
        "and ventures into",
        "not venture into",
        "the first room",
    ]
    assert all(f["reason"] for f in first["accepted"])


def test_sarif_is_valid_sarif_2_1_0(built):
    _, db = built
    result = run("--db", db, "--format", "sarif")
    assert result.exit_code == 0
    log = json.loads(result.output)
    schema = json.loads((SCHEMAS / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft4Validator(
        schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER
    )
    assert list(validator.iter_errors(log)) == []
    results = log["runs"][0]["results"]
    rules = [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]
    assert {r["level"] for r in results} <= {"error", "warning", "note"}
    assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in results)
    accepted = [r for r in results if r.get("suppressions")]
    assert len(accepted) == 3 and all(r["level"] == "error" for r in accepted)
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] >= 1 and region["startColumn"] >= 1
    # The schema is what it says: a wrong level is caught.
    results[0]["level"] = "fatal"
    assert list(validator.iter_errors(log))


def test_github_annotations_name_file_line_and_column(built):
    _, db = built
    lines = run("--db", db, "--format", "github").output.splitlines()
    assert lines and all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    first = lines[0]
    assert "file=" in first and ",line=" in first and ",col=" in first and "::" in first[2:]


def test_a_store_older_than_its_corpus_is_refused_and_kb_check_corpus_builds_it(built):
    corpus, db = built
    path = corpus / "fr-chasseur-vengeur.txt"
    text = path.read_text(encoding="utf-8")
    try:
        path.write_text(text.replace("Un seul joueur", "Un joueur seul"), encoding="utf-8")
        stale = run("--db", db)
        assert stale.exit_code == 2 and "older than its corpus" in stale.output
        assert "fr-chasseur-vengeur.txt" in stale.output and len(stale.output.splitlines()) == 1
        fresh = run(corpus, "--db", db, "--format", "json")
        assert fresh.exit_code == 0, fresh.output
        assert run("--db", db).exit_code == 0
    finally:
        path.write_text(text, encoding="utf-8")
        build([str(corpus)], db.parent, None)


def test_a_baseline_keeps_known_findings_apart_and_counts_new_ones(built, tmp_path):
    corpus, db = built
    baseline = tmp_path / "baseline.json"
    written = run("--db", db, "--write-baseline", baseline)
    assert written.exit_code == 0 and baseline.is_file()
    known = run("--db", db, "--baseline", baseline, "--fail-on", "info", "--format", "json")
    assert known.exit_code == 0
    data = json.loads(known.output)
    everything = json.loads(run("--db", db, "--format", "json").output)["findings"]
    assert everything and data["findings"] == []
    assert sorted(f["id"] for f in data["baselined"]) == sorted(f["id"] for f in everything)
    path = corpus / "de-unterkellersaeuberung.txt"
    text = path.read_text(encoding="utf-8")
    try:  # a new mistake: a date with day and month swapped
        path.write_text(text.replace("10/06/2022", "06/10/2022", 1), encoding="utf-8")
        result = run(corpus, "--db", db, "--baseline", baseline, "--format", "json")
        new = json.loads(result.output)["findings"]
        assert result.exit_code == 1
        assert [(f["check"], f["severity"], f["lang"]) for f in new] == [
            ("date-mismatch", "error", "de")
        ]
    finally:
        path.write_text(text, encoding="utf-8")
        build([str(corpus)], db.parent, None)
    bad = tmp_path / "bad.json"
    bad.write_text("[]", encoding="utf-8")
    assert run("--db", db, "--baseline", bad).exit_code == 2


def test_the_teams_checklist_reports_its_matches(built, tmp_path):
    _, db = built
    rules = tmp_path / "checklist.toml"
    rules.write_text(
        '[[rule]]\nid = "fr-seul"\nlang = "fr"\npattern = "\\\\bUn seul\\\\b"\n'
        'message = "say « Un unique »"\nseverity = "error"\n',
        encoding="utf-8",
    )
    result = run("--db", db, "--checklist", rules, "--format", "json")
    found = [f for f in json.loads(result.output)["findings"] if f["check"] == "checklist"]
    assert result.exit_code == 1
    assert [(f["lang"], f["excerpt"], f["message"]) for f in found] == [
        ("fr", "Un seul", "[fr-seul] say « Un unique »")
    ]
    rules.write_text('[[rule]]\npattern = "("\nmessage = "x"\n', encoding="utf-8")
    with pytest.raises(KbError, match=r"#1: pattern does not compile"):
        checklist.load(rules)
    assert run("--db", db, "--checklist", rules).exit_code == 2


def test_kb_changes_since_a_store_and_since_a_date(built, tmp_path):
    corpus, db = built
    copy = tmp_path / "rulings"
    shutil.copytree(corpus, copy)
    path = copy / "es-vidente-del-pasaje.txt"
    text = path.read_text(encoding="utf-8").replace("Solo un jugador", "Un solo jugador")
    path.write_text(text.replace("10/06/2022", "24/06/2022", 1), encoding="utf-8")
    (copy / "de-unterkellersaeuberung.txt").unlink()
    build([str(copy)], tmp_path / "_build", None, reuse=False)
    new_db = tmp_path / "_build" / "rulings.db"
    result = CliRunner().invoke(
        cli, ["changes", "--db", str(new_db), "--since-store", str(db), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    es = report["languages"]["es"]
    assert len(es["edited"]) == 2 and es["new"] == [] and es["removed"] == []
    assert len(report["languages"]["de"]["removed"]) == 10
    since = CliRunner().invoke(
        cli, ["changes", "--db", str(new_db), "--since", "2022-06-20", "--format", "json"]
    )
    dated = json.loads(since.output)["languages"]
    assert list(dated) == ["es"] and len(dated["es"]["new or edited"]) == 1
    assert CliRunner().invoke(cli, ["changes", "--db", str(new_db)]).exit_code == 2


def test_a_checklist_beside_the_corpus_is_read_by_the_build(tmp_path):
    corpus = tmp_path / "rulings"
    shutil.copytree(ROOT / "rulings", corpus)
    out = tmp_path / "_build"
    build([str(corpus)], out, None)
    assert build([str(corpus)], out, None) == {}  # up to date
    (corpus / "checklist.toml").write_text(
        '[[rule]]\nid = "de-team"\nlang = "de"\npattern = "Teammitglied"\n'
        'message = "say « Mitspieler »"\n',
        encoding="utf-8",
    )
    assert build([str(corpus)], out, None)  # the checklist changed: built again
    db = out / "rulings.db"
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            'SELECT "check", severity, excerpt FROM findings WHERE "check" = \'checklist\''
        ).fetchall()
    assert rows == [("checklist", "warning", "Teammitglied")] * 2
    assert run("--db", db, "--format", "json").exit_code == 0
