"""Benchmark: which realistic translator mistakes `kb check` catches, and at what severity.

Each trial copies the corpus, injects one mistake of one kind into one language (languages
seeded, ``--rounds`` per kind; the ruling and words chosen by the kind's own rule), then runs
only the command line, so any version of kb is measured through its contracts: ``KB build COPY
--out DIR``, ``KB check --db DIR/rulings.db --format json``, ``KB export json`` (the groups).

*Detected*: a finding the clean corpus does not have, in the mutated ruling's language, on its
group (the one it landed in, or its translations' one: a changed date or text may split it
off); for a deleted ruling also a new finding on that file's card. A build that fails is
"detected at build". The severity shown is the highest matching one: a CI gate on ``error``
sees only "error". The texts name no card but the dungeon card Undercity and no room but
Secret Entrance, so card-name and room-name change those.

Kinds (``KINDS``; the tables of ``checks_mistakes.py`` say what each changes in each
language): negation, date-swap, synonym, wrong-term (another concept's term), english-word,
english-phrase, number (in digits), number-word, ordinal, deleted, sentence-dropped,
sentence-moved, condition, quotes-wrong (for the locale), quotes-foreign, room-name, card-name.

    python benchmarks/checks.py [--kb CMD] [--rounds N] [--seed S] [--json FILE]
                                [--corpus DIR] [--english] [--kinds a,b]
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RANK = {"error": 3, "warning": 2, "info": 1}
FIRST_LANG = {"negation": "fr", "date-swap": "it", "synonym": "de"}  # the cases of issue 22
# The mistakes and the tables of what each kind changes, beside this script.
sys.path.insert(0, str(ROOT / "benchmarks"))
from checks_mistakes import DATE, KINDS, mutate  # noqa: E402


def read_corpus_file(path: Path) -> tuple[str, list[list[str]]]:
    """A ruling file as (card, [[date, text], ...]); a text's paragraphs stay together."""
    chunks = [c.strip("\n") for c in path.read_text(encoding="utf-8").split("\n\n") if c.strip()]
    rulings: list[list[str]] = []
    for chunk in chunks[1:]:
        if DATE.match(chunk) or not rulings:
            rulings.append([chunk, ""])
        else:
            rulings[-1][1] = f"{rulings[-1][1]}\n\n{chunk}".lstrip("\n")
    return chunks[0], rulings


def build_and_check(kb: list[str], corpus: Path, out: Path):
    """(the build's error line or None, findings, the export's rulings with their group)."""

    def run(*args, ok=(0,)):
        proc = subprocess.run(kb + list(args), check=False, capture_output=True, encoding="utf-8")
        if proc.returncode not in ok and args[0] != "build":
            raise SystemExit(f"kb {args[0]} failed (exit {proc.returncode}): {proc.stderr.strip()}")
        return proc

    shutil.rmtree(out, ignore_errors=True)
    built = run("build", str(corpus), "--out", str(out))
    if built.returncode != 0:
        return (built.stderr.strip().splitlines() or [f"exit {built.returncode}"])[-1], [], []
    db = str(out / "rulings.db")
    findings = json.loads(run("check", "--db", db, "--format", "json", ok=(0, 1)).stdout)
    groups = json.loads(run("export", "json", "--db", db).stdout)["groups"]
    return (
        None,
        findings["findings"],
        [
            dict(r, group=g["id"], file=Path(r["source"].rsplit(":", 1)[0]).name)
            for g in groups
            for r in g["rulings"]
        ],
    )


def finding_key(f: dict, texts: set[str]) -> tuple:
    """A finding across builds: group ids may change, and an excerpt that is a whole ruling
    changes with any edit of that ruling."""
    excerpt = "<whole ruling>" if f["excerpt"].strip() in texts else f["excerpt"]
    return f["check"], f["severity"], f["lang"], f["card"], f["message"], excerpt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--kb",
        default=f"{shlex.quote(sys.executable)} -m kb",
        help="the command that runs kb (default: this Python's kb)",
    )
    parser.add_argument("--corpus", type=Path, default=ROOT / "rulings")
    parser.add_argument(
        "--english",
        action="store_true",
        help="add the English originals of tests/data/english/ to the corpus",
    )
    parser.add_argument("--rounds", type=int, default=2, help="languages per kind")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--kinds", help="a comma-separated subset of: " + ", ".join(KINDS))
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    kb, rng, started = shlex.split(args.kb), random.Random(args.seed), time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="checks-bench-") as tmp:
        clean = Path(tmp) / "clean"
        shutil.copytree(args.corpus, clean)
        for path in sorted((ROOT / "tests/data/english").glob("*.txt")) if args.english else []:
            shutil.copy(path, clean / path.name)
        failed, findings, rulings = build_and_check(kb, clean, Path(tmp) / "out")
        if failed:
            raise SystemExit(f"the clean corpus does not build: {failed}")
        clean_run = {
            "baseline": {finding_key(f, {r["text"].strip() for r in rulings}) for f in findings},
            "files": {r["file"]: (r["lang"], r["card"]) for r in rulings},
            "group": {(r["file"], r["text"].strip()): r["group"] for r in rulings},
        }
        trials = [
            t
            for kind in (args.kinds.split(",") if args.kinds else KINDS)
            for t in run_kind(kind, args, rng, kb, Path(tmp), clean_run)
        ]
    report = {
        "command": args.kb,
        "seed": args.seed,
        "rounds": args.rounds,
        "seconds": round(time.perf_counter() - started, 1),
        "clean": {
            "findings": Counter(f["severity"] for f in findings),
            "errors": [f for f in findings if f["severity"] == "error"],
        },
        "trials": trials,
    }
    print_report(report)
    if args.json:
        args.json.write_text(
            json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )


def run_kind(kind, args, rng, kb, tmp, clean_run):
    """``args.rounds`` trials of one kind, each in another language (issue 22's first)."""
    by_lang = {lang: name for name, (lang, _) in sorted(clean_run["files"].items()) if lang != "en"}
    langs = rng.sample(sorted(by_lang), len(by_lang))
    langs.sort(key=lambda lang: lang != FIRST_LANG.get(kind))
    trials = []
    for lang in langs:
        if len(trials) == args.rounds:
            break
        card, rulings = read_corpus_file(tmp / "clean" / (name := by_lang[lang]))
        if not (done := mutate(kind, rulings, lang, rng)):
            continue
        new, touched, what = done
        shutil.rmtree(corpus := tmp / "corpus", ignore_errors=True)
        shutil.copytree(tmp / "clean", corpus)
        (corpus / name).write_text(
            card + "".join(f"\n\n{d}\n\n{t}" for d, t in new), encoding="utf-8"
        )
        failed, found, now = build_and_check(kb, corpus, tmp / "out")
        trial = {"kind": kind, "lang": lang, "file": name, "positions": touched, "change": what}
        if failed:
            trials.append(dict(trial, detected="build", severity="build", checks=[], build=failed))
            continue
        # Where the mistake should be reported: the group the mutated ruling is in now, and
        # the group its translations are in (found by their text, unchanged since the clean run).
        old = {rulings[p - 1][1].strip() for p in touched}
        mutated = {new[p - 1][1].strip() for p in touched if kind != "deleted"}
        was = {g for (f, t), g in clean_run["group"].items() if f == name and t in old}
        siblings = {t for (f, t), g in clean_run["group"].items() if g in was and f != name}
        groups = {
            r["group"]
            for r in now
            if r["text"].strip() in (mutated if r["file"] == name else siblings)
        }
        texts = {r["text"].strip() for r in now}
        fresh = [
            dict(
                f,
                on_target=f["lang"] == lang
                and (
                    f["group"] in groups
                    or (kind == "deleted" and f["card"] == clean_run["files"][name][1])
                ),
            )
            for f in found
            if finding_key(f, texts) not in clean_run["baseline"]
        ]
        hits = [f for f in fresh if f["on_target"]]
        trials.append(
            dict(
                trial,
                detected="yes" if hits else "no",
                severity=max((f["severity"] for f in hits), key=RANK.get, default="-"),
                checks=sorted({f["check"] for f in hits}),
                new_findings=fresh,
            )
        )
        print(
            f"  {kind} {lang}: {trials[-1]['detected']} {trials[-1]['severity']}",
            file=sys.stderr,
            flush=True,
        )
    return trials


def print_report(report: dict) -> None:
    trials, clean = report["trials"], report["clean"]
    print(
        f"checks benchmark: {len({t['kind'] for t in trials})} kinds, {len(trials)} trials, "
        f"seed {report['seed']}, {report['seconds']}s\ncommand: {report['command']}\n"
        f"\nclean corpus: " + ", ".join(f"{clean['findings'].get(s, 0)} {s}" for s in RANK)
    )
    for f in clean["errors"]:
        print(f"  error {f['check']} [{f['lang']}] {f['excerpt'][:50]!r}")
    print(
        f"\n{'kind':<16} {'lang':<4} {'ruling':<7} {'detected':<8} {'severity':<8} "
        f"{'change':<52} checks"
    )
    for t in trials:
        print(
            f"{t['kind']:<16} {t['lang']:<4} {','.join(f'#{p}' for p in t['positions']):<7} "
            f"{t['detected']:<8} {t['severity']:<8} {t['change'][:52]:<52} "
            f"{', '.join(t['checks']) or t.get('build', '')}"
        )
    print(f"\n{'kind':<16} {'detected':>8} {'error':>6} {'warning':>8} {'info':>5}")
    for kind in dict.fromkeys(t["kind"] for t in trials):
        mine = [t for t in trials if t["kind"] == kind]
        by = Counter(t["severity"] for t in mine)
        print(
            f"{kind:<16} {sum(t['detected'] != 'no' for t in mine):>4}/{len(mine):<3} "
            f"{by['error'] + by['build']:>6} {by['warning']:>8} {by['info']:>5}"
        )
    print(
        f"\n{sum(t['severity'] in ('error', 'build') for t in trials)} of {len(trials)} "
        f"mistakes fail a gate on error-level findings (or the build); "
        f"{sum(t['detected'] != 'no' for t in trials)} are reported at any severity"
    )
    per_check: dict[str, Counter] = {}
    for f in (f for t in trials for f in t.get("new_findings", [])):
        per_check.setdefault(f["check"], Counter())[f["on_target"]] += 1
    print(f"\n{'new findings by check':<24} {'total':>6} {'on the mutated ruling':>22}")
    for name, c in sorted(per_check.items()):
        print(f"{name:<24} {(n := c[True] + c[False]):>6} {c[True]:>12} ({c[True] / n:.2f})")


if __name__ == "__main__":
    main()
