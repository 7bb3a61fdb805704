"""benchmarks/link_errors.py: the linker's wrong and missed links per rule, read from
link_sets.py's --json rows, each put down to the step that decided it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import link_errors  # noqa: E402


def fate(rule: str, kind: str, why: str, score: float = 0.5) -> dict:
    return {"rule": rule, "fate": kind, "by": None, "score": score, "why": why}


ROWS = [
    {  # 309.7 right; 309.6 wrong (the second reader gives it); 704.5t wrong for both readers
        "set": "a-dev",
        "position": 1,
        "pool": "dev",
        "text": "You complete a dungeon as it leaves.",
        "rules": ["309.7"],
        "second": ["309.6", "309.7"],
        "linked": ["309.6", "309.7", "704.5t"],
        "fates": [
            fate("309.7", "linked", "linked: restates it (covers 0.90)"),
            fate("309.6", "linked", "linked: touches it (covers 0.40)"),
            fate("704.5t", "restated", "linked: 309.6 says the same from another side"),
        ],
    },
    {  # 309.4a missed, dominated; 701.49b missed, its group names none of its concepts
        "set": "a-dev",
        "position": 2,
        "pool": "dev",
        "text": "Starting a dungeon puts your marker on its topmost room.",
        "rules": ["309.4a", "701.49a", "701.49b"],
        "second": None,
        "linked": ["701.49a"],
        "fates": [
            fate("701.49a", "linked", "linked: restates it (covers 1.00)"),
            fate("309.4a", "dominated", "not linked: 701.49a explains all it explains and more"),
        ],
    },
    {  # a held-out ruling: counted only when asked
        "set": "c-held-out",
        "position": 1,
        "pool": "held-out",
        "text": "Hidden.",
        "rules": ["725.2"],
        "second": None,
        "linked": [],
        "fates": [fate("725.2", "refused", "refused: it needs combat_damage (hint)")],
    },
]


def test_tally_counts_each_rule_and_puts_each_loss_down_to_its_step():
    figures = link_errors.tally(ROWS)
    assert dict(figures["309.7"]["counts"]) == {"links": 1, "right": 1}
    assert dict(figures["309.6"]["counts"]) == {"links": 1, "wrong": 1, "neither": 0}
    assert dict(figures["309.6"]["wrong_how"]) == {"touches": 1}
    assert dict(figures["704.5t"]["counts"]) == {"links": 1, "wrong": 1, "neither": 1}
    assert dict(figures["704.5t"]["wrong_how"]) == {"restated": 1}
    assert dict(figures["309.4a"]["missed_by"]) == {"dominated": 1}
    assert dict(figures["701.49b"]["missed_by"]) == {"unnamed": 1}
    assert "725.2" not in figures  # held out


def test_held_out_rulings_count_only_when_asked():
    figures = link_errors.tally(ROWS, show_held_out=True)
    assert dict(figures["725.2"]["missed_by"]) == {"refused": 1}
    assert link_errors.behind(ROWS, "725.2") == []
    assert "refused: it needs combat_damage" in link_errors.behind(ROWS, "725.2", True)[0]


def test_table_puts_the_worst_rules_first_and_totals_them():
    lines = link_errors.table(link_errors.tally(ROWS))
    rules = [line.split()[0] for line in lines[1:-1]]
    # 309.4a, 309.6, 701.49b and 704.5t lose one link each; 309.7 and 701.49a none
    assert rules == ["309.4a", "309.6", "701.49b", "704.5t", "309.7", "701.49a"]
    assert lines[-1].split() == ["all", "4", "2", "2", "1", "2"]


def test_behind_lists_the_rulings_with_the_linkers_reason(tmp_path, capsys):
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"pooled": {}, "rulings": ROWS}), "utf-8")
    assert link_errors.main([str(run), "--rule", "309.4a"]) == 0
    out = capsys.readouterr().out
    assert "309.4a: 1 wrong or missed on the dev sets" in out
    assert "a-dev#2 missed" in out
    assert "701.49a explains all it explains and more" in out
    assert link_errors.main([str(run)]) == 0
    assert "neither" in capsys.readouterr().out


def test_gaps_list_the_concept_one_language_lacks_and_skip_held_out_sets(tmp_path):
    ruling = {
        "rules": ["725.2"],
        "texts": {
            "en": "The monarch draws a card at the beginning of their end step.",
            "fr": "Le monarque pioche une carte au début de son étape de fin.",
            "de": "Der Monarch zieht zu Beginn seines Endsegments eine Karte.",
            # "the monarch" left out, as a form the glossary lacked would leave it out
            "es": "Roba una carta al comienzo de su paso final.",
        },
    }
    data = {"cards": {"en": "Crown Keeper"}, "date": "2026-06-12", "rulings": [ruling]}
    dev, held = tmp_path / "q-dev.yaml", tmp_path / "q-held-out.yaml"
    for path in (dev, held):
        path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    lines = link_errors.gaps([dev, held])
    assert [line.split(":")[0].strip() for line in lines] == ["q-dev#1 es lacks monarch"]
    assert len(link_errors.gaps([dev, held], show_held_out=True)) == 2


def test_links_are_counted_by_their_rank_in_the_ruling():
    # a-dev#1: three links of one score, ranked in the link stage's order (309.7 right, 309.6
    # the second reader's, 704.5t nobody's); a-dev#2: one right link; the held-out row only
    # when asked.
    ranks = link_errors.by_rank(ROWS)
    assert {rank: dict(counts) for rank, counts in ranks.items()} == {
        "1st": {"links": 2, "right": 2, "either": 2},
        "2nd": {"links": 1, "right": 0, "either": 1},
        "3rd+": {"links": 1, "right": 0, "either": 0},
    }
    scored = json.loads(json.dumps(ROWS[0]))
    scored["fates"][2]["score"] = 0.9
    assert link_errors.by_rank([scored])["1st"] == {"links": 1, "right": 0, "either": 0}
    shown = link_errors.rank_lines(ranks)
    assert shown[1].split() == ["1st", "2", "links", "right", "1.000", "either", "1.000"]
    assert shown[2].split()[-3:] == ["0.000", "either", "1.000"]


def test_readers_set_the_second_reading_and_the_linker_against_the_sets_rules(tmp_path, capsys):
    figures = link_errors.readers(ROWS)
    # Only a-dev#1 has a second reading: it gives 309.6 and 309.7 where the set wants 309.7.
    assert dict(figures["second"]) == {
        "rulings": 1,
        "links": 2,
        "right": 1,
        "expected": 1,
        "exact": 0,
    }
    assert figures["linker"]["links"] == 3 and figures["linker"]["right"] == 1
    lines = link_errors.reader_lines(figures)
    assert lines[1].split()[:5] == ["second", "precision", "0.500", "recall", "1.000"]
    assert lines[2].split()[:5] == ["linker", "precision", "0.333", "recall", "1.000"]
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"pooled": {}, "rulings": ROWS}), "utf-8")
    assert link_errors.main([str(run)]) == 0
    assert "on the 1 rulings with a second reading" in capsys.readouterr().out
    # Without any second reading, no reader section (not precision 0.000 over nothing).
    unread = [{**row, "second": None} for row in ROWS]
    run.write_text(json.dumps({"pooled": {}, "rulings": unread}), "utf-8")
    assert link_errors.main([str(run)]) == 0
    assert "second reading" not in capsys.readouterr().out
