"""benchmarks/align_sets.py: the aligner on link sets built as one corpus, scored per pair of
rulings against the sets' true grouping (a ruling's translations are one group)."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import align_sets  # noqa: E402


def test_score_counts_pairs_and_the_rulings_split_over_groups():
    truth = {1: ("a", 1), 2: ("a", 1), 3: ("a", 1), 4: ("a", 2), 5: ("a", 2)}
    # Ruling 1's third translation stands alone; ruling 2 is whole.
    found = align_sets.score(truth, {1: "g1", 2: "g1", 3: "g2", 4: "g3", 5: "g3"})
    assert (found["precision"], found["recall"]) == (1.0, 0.5)  # 2 of 4 true pairs
    assert (found["split"], found["rulings"], found["groups"]) == (1, 2, 3)
    # Two rulings in one group: every pair across them is wrong.
    merged = align_sets.score(truth, {i: "g" for i in truth})
    assert (merged["precision"], merged["recall"], merged["split"]) == (0.4, 1.0, 0)


def test_split_lists_each_dev_ruling_split_with_its_groups_languages():
    truth = {i: ("s00-a-dev", 1) for i in (1, 2, 3)} | {4: ("s00-a-dev", 2), 5: ("s00-a-dev", 2)}
    truth |= {6: ("s01-c-held-out", 1), 7: ("s01-c-held-out", 1)}
    groups = {1: "g1", 2: "g2", 3: "g1", 4: "g3", 5: "g3", 6: "g4", 7: "g5"}
    langs = {1: "ru", 2: "fr", 3: "de", 4: "fr", 5: "de", 6: "fr", 7: "de"}
    # a-dev#2 is whole; c-held-out#1 is split, and only counted.
    assert align_sets.split(truth, groups, langs) == ["s00-a-dev#1: de ru | fr"]
    assert align_sets.score(truth, groups)["split"] == 2


def test_a_set_built_as_one_corpus_groups_each_rulings_translations(tmp_path):
    data = {
        "cards": {"en": "Crown Keeper", "fr": "Gardien de la couronne", "de": "Kronenhüter"},
        "date": "2026-06-12",
        "rulings": [
            {
                "rules": ["725.2"],
                "texts": {
                    "en": "The monarch draws a card at the beginning of their end step.",
                    "fr": "Le monarque pioche une carte au début de son étape de fin.",
                    "de": "Der Monarch zieht zu Beginn seines Endsegments eine Karte.",
                },
            },
            {
                "rules": ["726.3"],
                "texts": {
                    "en": "Only one player can have the initiative at a time.",
                    "fr": "Un seul joueur à la fois peut avoir l'initiative.",
                    "de": "Nur ein Spieler kann gleichzeitig die Initiative haben.",
                },
            },
        ],
    }
    path = tmp_path / "q-dev.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    found = align_sets.measure([path], set())
    assert found == {
        "precision": 1.0,
        "recall": 1.0,
        "f1": 1.0,
        "split": 0,
        "rulings": 2,
        "groups": 2,
        "split_rulings": [],
    }
    assert align_sets.measure([path], {"en"})["groups"] == 2
