"""Benchmark: how well the glossary finds its concepts in wording it was not written from.

``benchmarks/glossary_probes/<lang>-tune.yaml`` and ``<lang>-check.yaml`` hold probe
sentences written, one session per language, the way official translators write rulings
(inflections, passives, nouns for verbs, paraphrases, the common synonyms of Magic's
localized terms), before any form was added for them: each row a ``concept``, a ``text``
and ``expect`` (true: the text means the concept; false: a near miss, sharing words with it
but meaning something else). ``cross-*.yaml`` come from a pass across the languages (a way of
saying a concept that one language's forms caught and another's missed); each row has its
``lang``; ``movement-*.yaml`` and ``progress-*.yaml`` probe the venture marker's movement
(naming rooms, and not), and each row's ``concept`` is a list, any of which says it. The two
halves were split at random; forms were added while looking at ``tune`` only, and ``check``
was read for its figures only (each file's first lines say when). Keep ``check`` so: read
its figures, never its misses.

For each language and half it prints the expected rows found (recall of the concept
detection; a concept the linker reads into another, kb/link/hints.yaml's ``implies``, counts
as that one too) and the near misses found (false alarms), with the rows in error under
``--verbose`` (the tune halves only, unless ``--show-check``). It can measure another
glossary file (``--glossary``). It prints figures and never asserts.

    python benchmarks/glossary_probes.py [--glossary FILE] [--verbose] [--show-check]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from kb.link.evidence import EvidenceTable, evidence_table
from kb.reference.glossary import GLOSSARY_FILE, load

PROBES = Path(__file__).resolve().parent / "glossary_probes"


def concepts_of(row: dict) -> list[str]:
    """The concepts a probe row names: one, or several any of which says it ("the next room",
    "moves on")."""
    return row["concept"] if isinstance(row["concept"], list) else [row["concept"]]


def tally(
    glossary, lang: str, rows: list[dict], table: EvidenceTable | None = None
) -> tuple[int, int, int, int, list[str]]:
    """(expected found, expected, near misses found, near misses, the rows in error).
    ``table``: the linker's evidence, whose ``imply`` adds what a row's concepts say too, as
    the linker reads a group (kb/link/hints.yaml: one room forward is moving on)."""
    found = expected = false_alarms = near = 0
    wrong = []
    for row in rows:
        named = set(glossary.concept_ids(row["text"], row.get("lang", lang)))
        if table is not None:
            named = set(table.imply(dict.fromkeys(named, 1.0)))
        hit = any(c in named for c in concepts_of(row))
        if row["expect"]:
            expected, found = expected + 1, found + hit
        else:
            near, false_alarms = near + 1, false_alarms + hit
        if hit != bool(row["expect"]):
            wrong.append(
                f"    {'missed' if row['expect'] else 'found '} {row['concept']}: {row['text']}"
            )
    return found, expected, false_alarms, near, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--glossary", type=Path, default=GLOSSARY_FILE, help="glossary YAML")
    parser.add_argument("--verbose", action="store_true", help="print the tune rows in error")
    parser.add_argument("--show-check", action="store_true", help="and the check rows too")
    args = parser.parse_args(argv)
    glossary = load(args.glossary)
    table = evidence_table()
    print(f"{'lang':<12} {'half':<6} {'found':>9} {'recall':>7} {'near misses found':>18}")
    totals: dict[str, list[int]] = {}
    for path in sorted(PROBES.glob("*.yaml")):
        lang, half = path.stem.split("-")
        rows = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        found, expected, alarms, near, wrong = tally(glossary, lang, rows, table)
        total = totals.setdefault(half, [0, 0, 0, 0])
        for i, n in enumerate((found, expected, alarms, near)):
            total[i] += n
        print(
            f"{lang:<12} {half:<6} {found:>4}/{expected:<4} {found / max(expected, 1):7.3f} "
            f"{alarms:>11}/{near}"
        )
        if args.verbose and (half == "tune" or args.show_check):
            print("\n".join(wrong))
    for half, (found, expected, alarms, near) in sorted(totals.items()):
        print(
            f"{'all':<12} {half:<6} {found:>4}/{expected:<4} {found / max(expected, 1):7.3f} "
            f"{alarms:>11}/{near}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
