"""Alignment's worst case: N near-identical rulings in one ruling file per language.

The corpus has five files (ru, it, fr, de, es), one card each (the seed card of that language).
Every file holds N rulings that are all the same seed ruling (one text, chosen by its position
in the seeds) with a case number written in front of it: ``Fall 00042: <text>``, the same
digits in all five languages. The number is the only thing that tells a ruling from its
thousands of twins; everything the aligner reads besides it (concepts, length, sentences,
date) is equal. With ``--shuffle`` each language lists its rulings in its own random order, so
the position in the file says nothing either.

The truth: the five rulings carrying one number are one group (key ``case-<number>``), and
there are N groups. ``expected.json`` beside the corpus maps ``file name#position`` to the key.

With ``--langs ru`` the corpus is one file of N rulings (issue 23's case: "20,000
near-identical rulings in one file"): every ruling is a group of its own, and each one alone
is checked for a group it may partially translate, which was quadratic in the file's size.

Each size is built through the command line, so the benchmark runs against any version of
the code (``--kb "env PYTHONPATH=/tmp/wt-base python -m kb"`` runs another checkout):

    kb build CORPUS --out OUT --full --timings-json FILE
    kb export json --db OUT/rulings.db

and reports per N: the align stage's seconds and the whole build's (the build's own total and
the wall time of the command), and the groups against the truth: pairwise precision and
recall over rulings (a pair is predicted when both rulings are in one exported group, true
when both carry the same number) and whether the partition is exactly the truth.

    python benchmarks/align_adversarial.py [--sizes 500 1000 2000 4000] [--kb CMD]
                                           [--shuffle] [--langs ru,it,fr,de,es]
                                           [--work /tmp/kb-adversarial] [--json FILE]

The generator reads the seed files as plain text (it does not import kb), so the corpus is
the same whichever code builds it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("ru", "it", "fr", "de", "es")
#: The word before a ruling's case number, per language.
CASE_WORD = {"ru": "Случай", "it": "Caso", "fr": "Cas", "de": "Fall", "es": "Caso"}
#: Seed position of the ruling every file repeats: "only one player has the initiative at a
#: time" (two sentences, short, no digits of its own).
DEFAULT_TEXT = 6
_DIGITS = re.compile(r"\d+")


def read_seeds(folder: Path = ROOT / "rulings") -> dict[str, tuple[str, str, list[str]]]:
    """{lang: (card name, date line, [ruling texts in file order])} from ``lang-*.txt`` seeds.

    The seed format: the card name, then blocks separated by blank lines, alternating a date
    line and a ruling text. The language is taken from the file name's prefix here (the
    generator's choice of files, not the tool's detection: the tool still detects it).
    """
    out: dict[str, tuple[str, str, list[str]]] = {}
    for path in sorted(folder.glob("*.txt")):
        lang = path.name.split("-", 1)[0]
        if lang not in LANGS or lang in out:
            continue
        blocks = [b.strip() for b in re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))]
        blocks = [b for b in blocks if b]
        card, rest = blocks[0], blocks[1:]
        dates, texts = rest[0::2], rest[1::2]
        out[lang] = (card, dates[0], texts)
    missing = set(LANGS) - set(out)
    if missing:
        raise SystemExit(f"seeds lack languages: {', '.join(sorted(missing))}")
    return out


def generate(
    corpus: Path,
    size: int,
    text: int = DEFAULT_TEXT,
    shuffle: bool = False,
    seed: int = 1,
    langs: tuple[str, ...] = LANGS,
) -> dict[str, str]:
    """Write the files (one per language of ``langs``) of ``size`` near-twins under
    ``corpus``; return and write the truth ({file name#position: group key}) as
    ``corpus/../expected.json``."""
    seeds = read_seeds()
    corpus.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    width = max(5, len(str(size)))
    expected: dict[str, str] = {}
    for lang in langs:
        card, date, texts = seeds[lang]
        if _DIGITS.search(texts[text - 1]):
            raise SystemExit(f"seed ruling {text} has digits of its own; choose another")
        numbers = list(range(1, size + 1))
        if shuffle:
            rng.shuffle(numbers)
        name = f"{lang}-adversarial.txt"
        lines = [card, ""]
        for position, number in enumerate(numbers, start=1):
            lines += [date, "", f"{CASE_WORD[lang]} {number:0{width}d}: {texts[text - 1]}", ""]
            expected[f"{name}#{position}"] = f"case-{number}"
        (corpus / name).write_text("\n".join(lines), encoding="utf-8")
    (corpus.parent / "expected.json").write_text(
        json.dumps(expected, indent=0) + "\n", encoding="utf-8"
    )
    return expected


def truth_of(lang: str, text: str) -> str:
    """A ruling's true group: the case number written in front of its text."""
    digits = _DIGITS.findall(text)
    if len(digits) != 1:
        raise ValueError(f"{lang} ruling without exactly one number: {text[:60]!r}")
    return f"case-{int(digits[0])}"


def pairs(sizes) -> int:
    return sum(n * (n - 1) // 2 for n in sizes)


def score(groups: list[dict]) -> dict:
    """Pairwise precision/recall of the exported groups against the case numbers.

    Counted from the contingency table (predicted group x true group), not pair by pair: at
    20,000 near-twins there are five billion pairs.
    """
    cells: Counter = Counter()
    predicted: Counter = Counter()
    true: Counter = Counter()
    for g, group in enumerate(groups):
        for ruling in group["rulings"]:
            key = truth_of(ruling["lang"], ruling["text"])
            cells[g, key] += 1
            predicted[g] += 1
            true[key] += 1
    tp, pp, tt = pairs(cells.values()), pairs(predicted.values()), pairs(true.values())
    exact = len(predicted) == len(true) and all(
        cells[g, k] == predicted[g] == true[k] for g, k in cells
    )
    return {
        "rulings": sum(predicted.values()),
        "groups": len(predicted),
        "true_groups": len(true),
        "precision": tp / pp if pp else 1.0,
        "recall": tp / tt if tt else 1.0,
        "exact": exact,
    }


def run(command: list[str], cwd: Path, env: dict, stdout=subprocess.DEVNULL):
    started = time.perf_counter()
    done = subprocess.run(
        command, cwd=cwd, env=env, stdout=stdout, stderr=subprocess.PIPE, check=False
    )
    return time.perf_counter() - started, done


def measure(
    kb: list[str],
    env: dict,
    work: Path,
    size: int,
    text: int,
    shuffle: bool,
    langs: tuple[str, ...] = LANGS,
) -> dict:
    here = work / (
        f"n{size}{'-shuffled' if shuffle else ''}{'' if langs == LANGS else '-' + '-'.join(langs)}"
    )
    if here.exists():
        shutil.rmtree(here)  # only folders this benchmark made under its work folder
    corpus, out, timings = here / "rulings", here / "out", here / "timings.json"
    generate(corpus, size, text, shuffle, langs=langs)
    wall, built = run(
        kb + ["build", str(corpus), "--out", str(out), "--full", "--timings-json", str(timings)],
        here,
        env,
    )
    result = {"size": size, "shuffled": shuffle, "langs": list(langs), "status": built.returncode}
    if built.returncode != 0:
        result["error"] = built.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        return result
    stages = json.loads(timings.read_text(encoding="utf-8"))
    _, exported = run(
        kb + ["export", "json", "--db", str(out / "rulings.db")], here, env, stdout=subprocess.PIPE
    )
    if exported.returncode != 0:
        result["error"] = exported.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        return result
    result.update(
        {
            "align_s": round(stages["stages"]["align"], 3),
            "build_s": round(stages["total"], 3),
            "wall_s": round(wall, 3),
            "stages": {k: round(v, 3) for k, v in stages["stages"].items()},
        }
    )
    result.update(score(json.loads(exported.stdout)["groups"]))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=[500, 1000, 2000, 4000],
        help="near-twins per file (rulings in the corpus: five times this)",
    )
    parser.add_argument(
        "--kb",
        default=None,
        help="command that runs kb (default: this checkout's, "
        "python -m kb with PYTHONPATH set to it)",
    )
    parser.add_argument(
        "--text",
        type=int,
        default=DEFAULT_TEXT,
        help="seed position of the ruling every file repeats",
    )
    parser.add_argument(
        "--shuffle",
        action="store_true",
        help="each language lists its rulings in its own random order",
    )
    parser.add_argument(
        "--langs",
        default=",".join(LANGS),
        help="the languages with a file (ru alone: issue 23's one-file case)",
    )
    parser.add_argument("--work", type=Path, default=Path("/tmp/kb-adversarial"))
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    langs = tuple(lang for lang in LANGS if lang in args.langs.split(","))
    if not langs:
        parser.error(f"--langs: none of {', '.join(LANGS)}")
    env = dict(os.environ)
    if args.kb:
        kb = shlex.split(args.kb)
    else:
        kb = [sys.executable, "-m", "kb"]
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    args.work.mkdir(parents=True, exist_ok=True)
    print(f"kb: {' '.join(kb)}   shuffled: {args.shuffle}   files: {', '.join(langs)}")
    print(
        f"{'N':>7} {'rulings':>8} {'align s':>8} {'build s':>8} {'wall s':>7} "
        f"{'groups':>7} {'precision':>9} {'recall':>7} {'exact':>6}"
    )
    results = []
    for size in args.sizes:
        r = measure(kb, env, args.work, size, args.text, args.shuffle, langs)
        results.append(r)
        if r["status"] != 0 or "error" in r:
            print(f"{size:>7} failed (exit {r['status']}): {' '.join(r.get('error', []))}")
            continue
        print(
            f"{size:>7} {r['rulings']:>8} {r['align_s']:>8.2f} {r['build_s']:>8.2f} "
            f"{r['wall_s']:>7.2f} {r['groups']:>7} {r['precision']:>9.4f} "
            f"{r['recall']:>7.4f} {r['exact']!s:>6}",
            flush=True,
        )
    ok = [r for r in results if "align_s" in r]
    if len(ok) > 1:
        first, last = ok[0], ok[-1]
        growth = last["align_s"] / first["align_s"] if first["align_s"] else float("inf")
        print(f"align time x{growth:.1f} for x{last['size'] / first['size']:.0f} rulings")
    if args.json:
        args.json.write_text(
            json.dumps(
                {"kb": kb, "shuffled": args.shuffle, "langs": list(langs), "results": results},
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0 if all(r["status"] == 0 and "error" not in r for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
