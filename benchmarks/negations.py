"""Benchmark: the negation check on careful translations, and on them with a negator dropped.

The link evaluation sets (``benchmarks/link_sets/*.yaml``, ``tests/data/links/
rulings_style.yaml``) are rulings written in English and the five ruling languages by sessions
that did not read the checks: careful translations, each negating its own way ("dejas de
tenerla" for "you no longer have it"). Every ``negation`` error ``kb check`` reports on them is
a false alarm. Then each ruling loses one negator in one language (the languages in turn), by
``benchmarks/checks.py``'s own negation mistake (``checks_mistakes.py``: "no", "non", "nicht" or
"kein", "ne ... pas", "не", seeded), and the script counts the mutated rulings that get a
negation error, and the negation errors elsewhere.

Each set is built as its own corpus through the library (as ``benchmarks/link_sets.py`` does);
the checks run through the command line, so any version of kb can be measured (``--kb CMD``,
e.g. ``--kb "env PYTHONPATH=<checkout> python -m kb"``). It prints figures and never asserts.

    python benchmarks/negations.py [SET.yaml ...] [--kb CMD] [--seed S]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SETS = sorted((ROOT / "benchmarks" / "link_sets").glob("*.yaml"))
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "benchmarks")]
# The sets are the link tests' format; the mistake is benchmarks/checks.py's own.
from checks_mistakes import TEXT_KINDS  # noqa: E402
from link_corpus import build, write_rulings  # noqa: E402

LANGS = ("es", "it", "de", "fr", "ru")
drop_negation = TEXT_KINDS["negation"]


def negation_errors(kb: list[str], folder: Path) -> list[dict]:
    out = subprocess.run(
        [*kb, "check", "--db", str(folder / "rulings.db"), "--format", "json"],
        capture_output=True,
        text=True,
        cwd=folder,
    )
    if out.returncode not in (0, 1):  # 1: errors found, as expected
        raise SystemExit(f"kb check failed (exit {out.returncode}): {out.stderr.strip()}")
    findings = json.loads(out.stdout)["findings"]
    return [f for f in findings if f["check"] == "negation" and f["severity"] == "error"]


def measure(path: Path, kb: list[str], turn: int, rng: random.Random) -> tuple[dict, int]:
    """Figures of one set; ``turn`` picks the first language to mutate (carried across sets)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    figures = {"rulings": len(data["rulings"])}
    with tempfile.TemporaryDirectory() as tmp:
        clean = Path(tmp) / "clean"
        clean.mkdir()
        build(clean, write_rulings(clean, data, data["rulings"], "set"))
        figures["false"] = len(negation_errors(kb, clean))
        mutated, rulings = set(), []
        for position, ruling in enumerate(data["rulings"], start=1):
            ruling = copy.deepcopy(ruling)
            for lang in (LANGS[(turn + k) % len(LANGS)] for k in range(len(LANGS))):
                new = drop_negation(ruling["texts"].get(lang, ""), lang, rng)
                if new is not None:
                    ruling["texts"][lang] = new
                    mutated.add(f"{lang}-set.txt#{position}")
                    break
            turn += 1
            rulings.append(ruling)
        folder = Path(tmp) / "mutated"
        folder.mkdir()
        build(folder, write_rulings(folder, data, rulings, "set"))
        errors = negation_errors(kb, folder)
        found = {Path(f["ruling"]).name for f in errors} & mutated
        figures["mutated"], figures["found"] = len(mutated), len(found)
        figures["beside"] = sum(1 for f in errors if Path(f["ruling"]).name not in mutated)
    return figures, turn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", type=Path, help="default: benchmarks/link_sets/")
    parser.add_argument("--kb", default=f"{sys.executable} -m kb", help="the command for kb")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    kb, rng = shlex.split(args.kb), random.Random(args.seed)
    print(
        f"{'set':20} {'rulings':>7} {'false errors':>12} {'dropped':>8} {'found':>6} {'beside':>7}"
    )
    turn, total = 0, {"false": 0, "mutated": 0, "found": 0, "beside": 0}
    for path in args.sets or SETS:
        figures, turn = measure(path, kb, turn, rng)
        for key in total:
            total[key] += figures[key]
        print(
            f"{path.stem:20} {figures['rulings']:>7} {figures['false']:>12} "
            f"{figures['mutated']:>8} {figures['found']:>6} {figures['beside']:>7}"
        )
    print(
        f"{'all':20} {'':>7} {total['false']:>12} {total['mutated']:>8} {total['found']:>6} "
        f"{total['beside']:>7}"
    )
    print(f"command: {args.kb}")


if __name__ == "__main__":
    main()
