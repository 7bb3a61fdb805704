"""`kb export json` after a real build: aligned groups with ids, rules, evidence, card identity."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kb import store
from kb.export.json import to_json

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    work = tmp_path_factory.mktemp("export")
    (work / "rulings").symlink_to(ROOT / "rulings")
    for args in (["build"], ["export", "json"]):
        result = subprocess.run(
            [sys.executable, "-m", "kb", *args],
            cwd=work,
            check=False,
            capture_output=True,
            text=True,
            encoding="utf-8",
        )
        assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), work


def test_ten_groups_of_five_languages_each_with_rules(exported):
    data, _ = exported
    groups = data["groups"]
    assert len(groups) == 10
    for group in groups:
        assert sorted(r["lang"] for r in group["rulings"]) == sorted(["ru", "it", "fr", "de", "es"])
        assert group["rules"] and group["unlinked"] is None
        assert [link["rule"] for link in group["links"]] == group["rules"]
        assert group["id"].startswith(group["rules"][0] + "-")
        assert isinstance(group["examples"], list)


def test_the_design_contract_fields_are_there(exported):
    data, _ = exported
    for group in data["groups"]:
        assert {"id", "rules", "rulings", "examples"} <= set(group)
        for ruling in group["rulings"]:
            assert {"lang", "card", "date", "text", "source"} <= set(ruling)
            path, line = ruling["source"].rsplit(":", 1)
            assert path.endswith(".txt") and int(line) > 0
            assert ruling["date"] == "2022-06-10"


def test_rulings_carry_card_identity_score_and_evidence(exported):
    data, _ = exported
    for group in data["groups"]:
        by_lang = {r["lang"]: r for r in group["rulings"]}
        assert by_lang["fr"]["card_identity"] == by_lang["it"]["card_identity"] == "avenging-hunter"
        assert by_lang["ru"]["english_name"] == "Underdark Explorer"
        assert all(0 < r["score"] <= 1 and r["weak"] is False for r in group["rulings"])
        assert all(r["evidence"]["concepts"] for r in group["rulings"])


def test_links_show_the_number_on_the_ruling_date_and_the_words_that_show_it(exported):
    data, _ = exported
    links = {l["rule"]: l for g in data["groups"] for l in g["links"]}
    assert links["726.4"]["number_then"] == "721.4"
    assert links["726.4"]["evidence"]["concepts"]["leave_game"]["es"] == "deja el juego"


def test_texts_are_exported_verbatim(exported):
    data, _ = exported
    seed = (ROOT / "rulings" / "fr-chasseur-vengeur.txt").read_text(encoding="utf-8")
    texts = [r["text"] for g in data["groups"] for r in g["rulings"] if r["lang"] == "fr"]
    assert len(texts) == 10 and all(text in seed for text in texts)
    assert any("’" in text for text in texts)


def test_the_export_is_the_same_twice(exported):
    data, work = exported
    again = json.loads(to_json(store.open_existing(work / "_build" / "rulings.db")))
    assert again == data
