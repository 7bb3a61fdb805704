"""Benchmark: the aligner on the link sets built as one corpus, against their true grouping.

Each ruling of ``benchmarks/link_sets/*.yaml`` is written in six languages (or five, with
``--without en``): its translations are one group. Built as one corpus (the parse, store
and align stages), sets of every kind side by side, the aligner is scored per pair of
rulings:

- precision: pairs grouped together that are translations of one ruling / pairs grouped;
- recall: translations of one ruling grouped together / pairs of translations;
- split: rulings whose translations end in more than one group (what ``kb check`` reports to
  translators as ``missing-translation``), each dev ruling listed with its groups' languages.

A glossary change moves it: the aligner compares the concepts each translation names, and a
concept some translations name and others say otherwise (a form in one language only, a
concept duplicating another's forms) splits groups. Run it before and after such a change
(``link_sets.py`` measures the links, set by set). Two rulings of different sets with the
same text in one language are one text to the aligner; the few such pairs count as wrong.
It prints figures and never asserts (``--help``).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from link_corpus import build, write_rulings  # noqa: E402
from link_errors import held_out  # noqa: E402
from link_sets import without  # noqa: E402

DEFAULT_SETS = sorted((ROOT / "benchmarks" / "link_sets").glob("*-dev.yaml")) + [
    ROOT / "tests" / "data" / "links" / "rulings_style.yaml"
]


def corpus(folder: Path, sets: list[Path], languages: set[str]) -> list[str]:
    """Write every set's rulings into ``folder``, one file per set and language, without the
    texts of ``languages``; the paths."""
    paths = []
    for number, path in enumerate(sets):
        data = without(yaml.safe_load(path.read_text("utf-8")), languages)
        paths += write_rulings(folder, data, data["rulings"], f"s{number:02d}-{path.stem}")
    return paths


def score(truth: dict[int, tuple], groups: dict[int, str]) -> dict:
    """Pairwise precision, recall and F1 of ``groups`` ({ruling id: group id}) against
    ``truth`` ({ruling id: its ruling's key}), and the rulings split over several groups.

    >>> score({1: "a", 2: "a", 3: "b"}, {1: "g", 2: "h", 3: "h"})
    {'precision': 0.0, 'recall': 0.0, 'f1': 0.0, 'split': 1, 'rulings': 2, 'groups': 2}
    """
    together = same = both = 0
    for first, second in itertools.combinations(sorted(truth), 2):
        grouped = groups[first] == groups[second]
        true = truth[first] == truth[second]
        together += grouped
        same += true
        both += grouped and true
    precision = both / together if together else 1.0
    recall = both / same if same else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    spread: dict[tuple, set[str]] = defaultdict(set)
    for ruling, key in truth.items():
        spread[key].add(groups[ruling])
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "split": sum(len(found) > 1 for found in spread.values()),
        "rulings": len(spread),
        "groups": len(set(groups.values())),
    }


def split(truth: dict[int, tuple], groups: dict[int, str], langs: dict[int, str]) -> list[str]:
    """One line per ruling of a dev set split over several groups: ``set#position`` (the set
    as :func:`corpus` names its files, ``s<NN>-<set>``) and the languages of each group
    ("s14-zd-dev#9: de en es it ru | fr"). A held-out set's rulings are only counted (their
    texts are not to be read, even to find a split).

    >>> split({1: ("s00-a-dev", 1), 2: ("s00-a-dev", 1), 3: ("s01-b-held-out", 1),
    ...        4: ("s01-b-held-out", 1)},
    ...       {1: "g", 2: "h", 3: "g", 4: "k"}, {1: "fr", 2: "de", 3: "fr", 4: "de"})
    ['s00-a-dev#1: de | fr']
    """
    spread: dict[tuple, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for ruling, key in truth.items():
        spread[key][groups[ruling]].append(langs[ruling])
    return [
        f"{name}#{position}: " + " | ".join(sorted(" ".join(sorted(v)) for v in found.values()))
        for (name, position), found in sorted(spread.items())
        if len(found) > 1 and not held_out(Path(name))
    ]


def measure(sets: list[Path], languages: set[str]) -> dict:
    """Build the sets as one corpus without the texts of ``languages`` (the stages of the
    link sets' corpora: :func:`link_corpus.build`) and score its alignment (:func:`score`),
    with the dev rulings split (``split_rulings``, :func:`split`)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db, _ = build(folder, corpus(folder, sets, languages))
        rows = db.execute(
            "SELECT r.id, r.source, r.position, m.group_id, r.lang FROM rulings r "
            "JOIN memberships m ON m.ruling_id = r.id"
        ).fetchall()
        db.close()
    # A file is <lang>-s<NN>-<set>.txt: its ruling at a position is that set's ruling.
    truth = {rid: (Path(src).stem.split("-", 1)[1], pos) for rid, src, pos, _, _ in rows}
    groups = {rid: group for rid, _, _, group, _ in rows}
    langs = {rid: lang for rid, _, _, _, lang in rows}
    return score(truth, groups) | {"split_rulings": split(truth, groups, langs)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "sets", nargs="*", type=Path, help="YAML sets (default: the dev sets and the style set)"
    )
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        metavar="LANG",
        help="leave this language's texts out (repeatable; e.g. en, as rulings/ has none)",
    )
    args = parser.parse_args(argv)
    sets = args.sets or DEFAULT_SETS
    found = measure(sets, set(args.without))
    print(
        f"{len(sets)} sets, {found['rulings']} rulings -> {found['groups']} groups: pairwise "
        f"precision {found['precision']:.4f}, recall {found['recall']:.4f}, "
        f"F1 {found['f1']:.4f}; rulings split over several groups: {found['split']}"
    )
    for line in found["split_rulings"]:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
