"""Benchmark: which rules the linker gives each ruling group, against a hand-made gold.

The corpus, ``benchmarks/links_corpus/``, is held out from the linker's design (issue 19): the
ten general dungeon rulings of 2021-07-23, eleven rulings about the monarch written from
CR 725 (some are near-twins of the initiative rulings), and five negative controls about rules
the core does not carry (the city's blessing, day and night, commander tax, the Ring). Each is
translated into ru, it, fr, de and es and printed on one to three cards. ``gold.yaml`` gives
every ruling, keyed ``<file name>#<position>``, its true group, its family and the
Comprehensive Rules numbers it explains: ``required`` (must be linked) and ``allowed`` (may be
linked). ``seeds_gold.yaml`` records the links the ten seed groups of ``rulings/`` had before
issue 19, which they must keep.

Only the command line is used, so the script measures any version of the code (``--kb``):
``kb build CORPUS SEEDS --out DIR`` (one build, so the monarch twins meet the initiative
rulings), ``kb export json`` and ``kb rules --format json``.

Scoring (``links_scoring.py``), per group of the export (a group's gold is the union over its
rulings' entries):
- a link (group, rule) is correct when the rule is required or allowed for the group;
  precision = correct links / links;
- recall = required (group, rule) pairs linked / required pairs; "recall (carried)" counts
  only the required rules the measured core carries (``kb rules``), i.e. what a linker that
  never guesses can reach today;
- figures per family (the gold's: dungeon, monarch, none, and initiative, triggers for the
  seeds); a negative control's every link is wrong, and its groups should say why they have
  none (the export's ``unlinked``);
- seeds: how many of the ten seed groups have exactly their recorded links;
- alignment: pairwise precision, recall and F1 over all rulings with gold (a pair is predicted
  when both are in one group, true when both have the same gold group), and the number of
  groups holding rulings of two families (a monarch ruling grouped with an initiative one).

It prints figures and never asserts.

    python benchmarks/links.py [--corpus DIR] [--seeds DIR | --no-seeds] [--out DIR]
                               [--json FILE] [--kb "python -m kb"] [--export FILE]

Before figures with the pristine code of /tmp/wt-base:

    cd /tmp/wt-base && python /work/main/benchmarks/links.py \\
        --kb "env PYTHONPATH=/tmp/wt-base python -m kb" --out /tmp/links-before
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "links_corpus"
SEEDS = HERE.parent / "rulings"
# The gold and the scoring, beside this script.
sys.path.insert(0, str(HERE))
from links_scoring import alignment, load_gold, score, seeds_kept  # noqa: E402

# ---------------------------------------------------------------------------------------------
# Running kb


def kb_run(kb: list[str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*kb, *args], check=False, capture_output=True, text=True, encoding="utf-8"
    )


def carried_rules(kb: list[str]) -> set[str] | None:
    done = kb_run(kb, "rules", "--format", "json")
    if done.returncode:
        return None
    return {str(rule["number"]) for rule in json.loads(done.stdout)}


def build_and_export(kb: list[str], corpora: list[Path], out: Path) -> tuple[dict, dict]:
    """Build ``corpora`` into ``out`` and export it; (export, build facts). Exits 2 on failure."""
    started = time.perf_counter()
    # --full: a build from nothing, whatever an earlier run (of other code) left in ``out``.
    built = kb_run(kb, "build", *map(str, corpora), "--out", str(out), "--full")
    seconds = round(time.perf_counter() - started, 2)
    log = (built.stdout + built.stderr).strip()
    if built.returncode:
        sys.exit(f"kb build failed (exit {built.returncode}):\n{log}")
    exported = kb_run(kb, "export", "json", "--db", str(out / "rulings.db"))
    if exported.returncode:
        sys.exit(f"kb export failed (exit {exported.returncode}):\n{exported.stderr}")
    return json.loads(exported.stdout), {"seconds": seconds, "log": log.splitlines()}


# ---------------------------------------------------------------------------------------------
# Report


def _fmt(value) -> str:
    return "   —  " if value is None else f"{value:6.3f}"


def print_links(title: str, figures: dict) -> None:
    print(f"\n{title}")
    print(
        f"  {'family':<11} {'groups':>6} {'links':>5} {'prec':>6} {'recall':>6} "
        f"{'rec.carried':>11}  unlinked (with a reason)"
    )
    fams = figures["families"]
    for name in sorted(fams, key=lambda n: (n == "all", n)):
        f = fams[name]
        print(
            f"  {name:<11} {f['groups']:>6} {f['links']:>5} {_fmt(f['precision'])} "
            f"{_fmt(f['recall'])} {_fmt(f['recall_carried']):>11}  "
            f"{f['unlinked']} ({f['unlinked_with_reason']})"
        )
    print(
        f"  {'rule family':<11} {'':>6} {'links':>5} {'prec':>6} {'recall':>6} "
        f"{'rec.carried':>11}  (links and required pairs by the rule's family)"
    )
    for name, f in sorted(figures["rule_families"].items()):
        print(
            f"  {name:<11} {'':>6} {f['links']:>5} {_fmt(f['precision'])} "
            f"{_fmt(f['recall'])} {_fmt(f['recall_carried']):>11}"
        )
    for e in figures["errors"]:
        extra = (
            f" (not carried: {', '.join(e['missed_not_carried'])})"
            if e["missed_not_carried"]
            else ""
        )
        print(
            f"  - {e['group']} [{', '.join(e['gold'])}]: wrong {e['wrong'] or '-'}, "
            f"missed {e['missed'] or '-'}{extra}"
        )
    if figures["rulings_without_gold"]:
        print(f"  ! {figures['rulings_without_gold']} rulings of these groups have no gold")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--gold", type=Path, help="default: CORPUS/gold.yaml")
    parser.add_argument(
        "--seeds",
        type=Path,
        default=SEEDS,
        help="the seed corpus built with it (default: rulings/)",
    )
    parser.add_argument("--seeds-gold", type=Path, default=CORPUS / "seeds_gold.yaml")
    parser.add_argument("--no-seeds", action="store_true", help="build the corpus alone")
    parser.add_argument("--out", type=Path, help="build folder (default: a temporary one)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--kb",
        default=f"{shlex.quote(sys.executable)} -m kb",
        help='how to run kb (default: "python -m kb" of this interpreter)',
    )
    parser.add_argument(
        "--export", type=Path, help="score this `kb export json` file instead of building"
    )
    args = parser.parse_args(argv)
    kb = shlex.split(args.kb)
    corpus = args.corpus.resolve()
    gold = load_gold(args.gold or corpus / "gold.yaml")
    seeds_gold = {} if args.no_seeds else load_gold(args.seeds_gold)
    corpora = [corpus] + ([] if args.no_seeds else [args.seeds.resolve()])

    build = None
    if args.export:
        export = json.loads(args.export.read_text(encoding="utf-8"))
    else:
        temporary = args.out is None
        out = Path(tempfile.mkdtemp(prefix="links-bench-")) / "build" if temporary else args.out
        out = out.resolve()
        out.parent.mkdir(parents=True, exist_ok=True)
        try:
            export, build = build_and_export(kb, corpora, out)
        finally:
            if temporary:
                shutil.rmtree(out.parent, ignore_errors=True)
    carried = carried_rules(kb)

    figures = {
        "command": args.kb,
        "corpora": [str(c) for c in corpora],
        "build": build,
        "carried_rules": sorted(carried) if carried is not None else None,
        "corpus": score(export, gold, carried),
        "seeds": (
            score(export, seeds_gold, carried) | {"kept": seeds_kept(export, seeds_gold)}
            if seeds_gold
            else None
        ),
        "alignment": alignment(export, gold | seeds_gold),
    }
    if build:
        print(f"kb build {' '.join(c.name for c in corpora)}: {build['seconds']} s; it said:")
        for line in build["log"][:40]:
            print(f"  | {line}")
        if len(build["log"]) > 40:
            print(f"  | ... {len(build['log']) - 40} more lines (--json has them all)")
    if carried is None:
        print("kb rules --format json failed: no recall over carried rules")
    print_links(f"links on {corpus.name} ({len(gold)} rulings)", figures["corpus"])
    if seeds_gold:
        kept = figures["seeds"]["kept"]
        print_links(
            f"links on the seeds ({len(seeds_gold)} rulings; expected = the links before issue 19)",
            figures["seeds"],
        )
        print(f"  seed groups keeping exactly their links: {kept['kept']}/{kept['groups']}")
        for c in kept["changed"]:
            print(f"  - {c['group']}: expected {c['expected']}, got {c['got']}")
    a = figures["alignment"]
    print(
        f"\nalignment ({a['rulings']} rulings, {a['gold_groups']} gold groups -> "
        f"{a['groups']} groups): pairwise precision {_fmt(a['precision']).strip()}, "
        f"recall {_fmt(a['recall']).strip()}, F1 {_fmt(a['f1']).strip()}"
    )
    for label in ("split", "merged", "families_mixed"):
        if a[label]:
            print(f"  {label.replace('_', ' ')}: {', '.join(a[label])}")
    if args.json:
        args.json.write_text(
            json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
