"""Benchmark: recall and precision of the translator checks on injected defects.

Copies the seed corpus, injects known defects into some rulings (one per language per round,
each language on a different ruling), runs the pipeline up to the check stage, and matches the
findings with the injections:

- english:  an English phrase inserted after the first comma     -> untranslated-fragment
- dropped:  one sentence removed (rulings of two or more)         -> sentence-count, missing-concept
- number:   a number word changed (2 -> 3) where the text has one -> number-mismatch
- term:     every occurrence of a glossary concept replaced by another concept's term
                                                                  -> missing-concept, extra-concept
- quotes:   a phrase put in quotation marks of another locale     -> quote-style

Recall (per defect): injections with a finding of an expected check on that ruling.
Precision (per check): of the findings not already in the clean seeds' own report, the share
located on a ruling injected with a defect that check is meant to catch.

    python benchmarks/checks.py [--rounds N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb import build, check, parse  # noqa: E402
from kb.checks.content import sentences  # noqa: E402
from kb.glossary import load as load_glossary  # noqa: E402

SEEDS = ROOT / "rulings"
EXPECTED = {
    "english": {"untranslated-fragment"},
    "dropped": {"sentence-count", "missing-concept"},
    "number": {"number-mismatch"},
    "term": {"missing-concept", "extra-concept"},
    "quotes": {"quote-style"},
}
PHRASES = ["as long as the player keeps it", "even if another player has it",
           "at the beginning of the next turn", "which is not the same thing",
           "unless an effect says otherwise", "and then the game goes on"]
TWO_TO_THREE = {"ru": [("два ", "три "), ("оба ", "три ")],
                "it": [("due ", "tre "), ("entrambi ", "tre ")],
                "fr": [("deux ", "trois ")], "de": [("zwei ", "drei "), ("beide ", "drei ")],
                "es": [("dos ", "tres "), ("ambos ", "tres ")]}
FOREIGN_QUOTES = {"ru": ("“", "”"), "it": ("„", "“"), "fr": ("“", "”"), "de": ("«", "»"),
                  "es": ("„", "“")}


def inject(kind: str, text: str, lang: str, rng: random.Random) -> str | None:
    """The text with one defect of ``kind``, or None when this text cannot carry it."""
    if kind == "english":
        at = text.find(", ")
        at = at if at > 0 else text.rfind(".")
        return text[:at] + ", " + rng.choice(PHRASES) + text[at:] if at > 0 else None
    if kind == "dropped":
        spans = sentences(text)
        if len(spans) < 2:
            return None
        a, b = spans[rng.randrange(len(spans))]
        return (text[:a] + text[b:]).strip()
    if kind == "number":
        for old, new in TWO_TO_THREE[lang]:
            hit = re.search(rf"(?<!\w){old}", text, re.IGNORECASE)
            if hit:
                return text[:hit.start()] + new + text[hit.end():]
        return None
    if kind == "term":
        return _swap_term(text, lang, rng)
    if kind == "quotes":
        words = list(re.finditer(r"\w+", text))
        if len(words) < 8:
            return None
        i = rng.randrange(2, len(words) - 4)
        a, b = words[i].start(), words[i + 2].end()
        o, c = FOREIGN_QUOTES[lang]
        return text[:a] + o + text[a:b] + c + text[b:]
    raise ValueError(kind)


def _swap_term(text: str, lang: str, rng: random.Random) -> str | None:
    glossary = load_glossary()
    matches = [m for m in glossary.find(text, lang)
               if not glossary.get(m.concept).keep_english]
    if not matches:
        return None
    victim = rng.choice(sorted({m.concept for m in matches}))
    present = {m.concept for m in matches}
    spare = [c for c in glossary.concepts if c.id not in present and not c.keep_english
             and c.id not in ("rule", "effect", "ability")]
    term = rng.choice(spare).term(lang)
    out, last = [], 0
    for m in (m for m in matches if m.concept == victim):
        out += [text[last:m.start], term]
        last = m.end
    return "".join(out) + text[last:]


def run_corpus(folder: Path) -> list[dict]:
    work = folder.parent / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    names = [name for name, _ in build.STAGES]
    ctx = build.BuildContext(corpus=build.corpus_files([str(folder)]), work=work)
    for _, target in build.STAGES[:names.index("check") + 1]:
        build._resolve(target)(ctx)
    found = [f.to_dict() for f in check.run_checks(ctx.db).findings]
    ctx.db.close()
    return found


def key(finding: dict) -> tuple:
    return (finding["check"], Path(finding["ruling"]).name, finding["excerpt"], finding["message"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    files = {p.name: parse.parse_file(p) for p in sorted(SEEDS.glob("*.txt"))}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "rulings"
        shutil.copytree(SEEDS, corpus, ignore=shutil.ignore_patterns("suppressions.toml"))
        baseline = {key(f) for f in run_corpus(corpus)}
        recall: dict[str, Counter] = {k: Counter() for k in EXPECTED}
        precision: dict[str, Counter] = {}
        for round_ in range(args.rounds):
            for kind in EXPECTED:
                injected = _round(corpus, files, kind, rng)
                findings = [f for f in run_corpus(corpus) if key(f) not in baseline]
                _score(kind, injected, findings, recall, precision)
                shutil.rmtree(corpus)
                shutil.copytree(SEEDS, corpus, ignore=shutil.ignore_patterns("suppressions.toml"))
    _print(recall, precision, args, time.perf_counter() - started)


def _round(corpus: Path, files: dict, kind: str, rng: random.Random) -> set[str]:
    """Inject ``kind`` into one ruling per file (distinct positions); return their ruling keys."""
    injected, used = set(), set()
    positions = list(range(1, 11))
    rng.shuffle(positions)
    for (name, parsed), position in zip(files.items(), positions):
        # A ruling is changed in one language at most: the others must still tell it.
        candidates = [p for p in [position] + positions if p not in used]
        for pos in candidates:
            ruling = parsed.rulings[pos - 1]
            changed = inject(kind, ruling.text, parsed.lang, rng)
            if changed and changed != ruling.text:
                path = corpus / name
                path.write_text(path.read_text(encoding="utf-8").replace(ruling.text, changed, 1),
                                encoding="utf-8")
                injected.add(f"{name}#{pos}")
                used.add(pos)
                break
    return injected


def _score(kind, injected, findings, recall, precision):
    for ruling in injected:
        hit = any(Path(f["ruling"]).name == ruling and f["check"] in EXPECTED[kind]
                  for f in findings)
        recall[kind]["found" if hit else "missed"] += 1
    for f in findings:
        right = Path(f["ruling"]).name in injected and f["check"] in EXPECTED[kind]
        precision.setdefault(f["check"], Counter())["tp" if right else "fp"] += 1


def _print(recall, precision, args, seconds) -> None:
    print(f"checks benchmark: {args.rounds} rounds x {len(EXPECTED)} defect kinds x 5 languages, "
          f"seed {args.seed}, {seconds:.1f}s")
    print(f"\n{'defect':<10} {'injected':>8} {'found':>6} {'recall':>7}  expected checks")
    for kind, c in recall.items():
        total = c["found"] + c["missed"]
        print(f"{kind:<10} {total:>8} {c['found']:>6} {c['found'] / max(total, 1):>7.2f}  "
              f"{', '.join(sorted(EXPECTED[kind]))}")
    print(f"\n{'check':<22} {'findings':>8} {'right':>6} {'precision':>9}")
    for name, c in sorted(precision.items()):
        total = c["tp"] + c["fp"]
        print(f"{name:<22} {total:>8} {c['tp']:>6} {c['tp'] / total:>9.2f}")


if __name__ == "__main__":
    main()
