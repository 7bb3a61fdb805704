"""benchmarks/link_sets.py's comparison of two runs: the pooled figures, and the rulings whose
links changed, each rule marked right or wrong, a held-out set's kept out of sight."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import link_sets  # noqa: E402

STYLE = ROOT / "tests" / "data" / "links" / "rulings_style.yaml"


def row(set_name: str, position: int, rules, linked, second=None, pool="dev") -> dict:
    return {
        "set": set_name,
        "position": position,
        "pool": pool,
        "text": f"ruling {position} of {set_name}",
        "rules": rules,
        "second": second,
        "linked": linked,
    }


def test_pooled_keeps_dev_and_held_out_apart_and_counts_either_reader():
    figures = link_sets.pooled(
        [
            row("a-dev", 1, ["725.1"], ["725.1", "725.2"], second=["725.2"]),
            row("a-dev", 2, ["726.2"], []),
            row("c-held-out", 1, ["309.7"], ["309.7"], pool="held-out"),
        ]
    )
    assert figures["dev"]["precision"] == 0.5  # 725.1 right, 725.2 wrong
    assert figures["dev"]["recall"] == 0.5  # 726.2 missed
    assert figures["dev"]["either"] == 1.0  # the second reader gives 725.2
    assert figures["held-out"] == {
        "precision": 1.0,
        "recall": 1.0,
        "either": None,  # no second reading
        "right": 1,
        "links": 1,
        "expected": 1,
    }


def test_changes_mark_each_rule_added_or_dropped_and_hide_held_out_rulings():
    before = [
        row("a-dev", 1, ["701.49b"], ["309.5a"]),
        row("a-dev", 2, ["725.2"], ["725.2"]),
        row("a-dev", 3, ["726.1"], ["726.1"]),
        row("c-held-out", 1, ["309.7"], [], pool="held-out"),
    ]
    after = [
        row("a-dev", 1, ["701.49b"], ["701.49b"]),
        row("a-dev", 2, ["725.2"], ["725.2", "725.3"]),
        row("a-dev", 3, ["726.1"], ["726.1"]),
        row("c-held-out", 1, ["309.7"], ["309.7"], pool="held-out"),
    ]
    lines = link_sets.changes(before, after, show_held_out=False)
    assert lines[0].startswith("  a-dev#1: +701.49b (right) -309.5a (right);")
    assert lines[1].startswith("  a-dev#2: +725.3 (wrong);")
    assert lines[2] == "  held-out rulings changed: 1 (--show-held-out prints them)"
    assert len(lines) == 3  # a-dev#3 did not change
    shown = link_sets.changes(before, after, show_held_out=True)
    assert shown[-1].startswith("  c-held-out#1: +309.7 (right);")


def test_a_run_saved_with_json_is_compared_with_the_next(tmp_path, capsys):
    data = yaml.safe_load(STYLE.read_text(encoding="utf-8"))
    data["rulings"] = data["rulings"][:3]
    small = tmp_path / "small-dev.yaml"
    small.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    saved = tmp_path / "before.json"
    assert link_sets.main([str(small), "--json", str(saved)]) == 0
    run = json.loads(saved.read_text(encoding="utf-8"))
    rows = run["rulings"]
    assert [r["position"] for r in rows] == [1, 2, 3]
    assert [r["rules"] for r in rows] == [sorted(r["rules"]) for r in data["rulings"]]
    for r in rows:
        linked = [f["rule"] for f in r["fates"] if f["fate"] in ("linked", "restated")]
        assert sorted(linked) == r["linked"]  # the fates say what the links are
    # Pretend the first ruling had another rule before: the comparison finds it.
    rows[0]["linked"] = [*rows[0]["linked"], "999.9z"]
    saved.write_text(json.dumps(run), encoding="utf-8")
    capsys.readouterr()
    assert link_sets.main([str(small), "--against", str(saved)]) == 0
    out = capsys.readouterr().out
    changed = out.split("rulings whose links changed since:\n")[1].splitlines()
    assert changed == [
        f"  small-dev#1: -999.9z (right); expected {rows[0]['rules']}: {rows[0]['text'][:80]}..."
    ]


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "cannot read"),
        ("[1]", "is not what --json writes"),
        ('{"rulings": [{"set": "a-dev"}]}', "is not what --json writes"),
    ],
)
def test_a_comparison_with_no_earlier_run_says_so_before_building(tmp_path, content, message):
    earlier = tmp_path / "before.json"
    if content is not None:
        earlier.write_text(content, encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        link_sets.main(["--against", str(earlier)])
    assert message in str(stop.value.code)


def test_sets_built_without_a_language_leave_its_texts_out_and_still_quote_the_english(
    tmp_path, capsys
):
    # --without en builds the set as rulings/ is (no English), and the report still quotes it.
    data = yaml.safe_load(STYLE.read_text(encoding="utf-8"))
    data["rulings"] = data["rulings"][:2]
    small = tmp_path / "small-dev.yaml"
    small.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    saved = tmp_path / "run.json"
    assert link_sets.main([str(small), "--without", "en", "--json", str(saved)]) == 0
    rows = json.loads(saved.read_text(encoding="utf-8"))["rulings"]
    assert [r["text"] for r in rows] == [r["texts"]["en"] for r in data["rulings"]]
    built = link_sets.without(data, {"en"})
    assert all("en" not in r["texts"] for r in built["rulings"]) and "en" not in built["cards"]
    assert all("en" in r["texts"] for r in data["rulings"])  # the set itself is untouched
    with pytest.raises(SystemExit):
        link_sets.main([str(small), "--without", "xx"])
    assert "invalid choice" in capsys.readouterr().err
