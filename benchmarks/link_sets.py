"""Benchmark: the linker on evaluation sets written as official rulings read, one YAML per set.

``benchmarks/link_sets/*.yaml`` hold rulings written for this project from the Comprehensive
Rules (never from official rulings), each in English and the five ruling languages, with the
rules each one explains (``rules``; empty for a ruling about something else). The format is
``tests/data/links/rulings_style.yaml``'s; each file's header says who wrote it, how, and
whether the linker was tuned while looking at it (a *dev* set) or not (a *held-out* set).

Each set is built as its own corpus (the parse, store, align and link stages, through the
library), and scored per (ruling, rule) pair:

- precision: linked rules the ruling explains / linked rules;
- recall: rules the ruling explains that are linked / rules it explains; "carried" counts only
  the rules the core carries (what a linker that never guesses can reach);
- negatives: rulings about nothing the core carries that are linked to nothing;
- per family of the expected rules (the monarch, the initiative, dungeons, other);
- the glossary's agreement across languages, which needs no labels: of the (ruling, concept)
  pairs some language of the ruling names, the share that some other language does not (a
  form the glossary lacks in that language, or a translation that says it otherwise; the
  sets' careful translations make it mostly the former), and per language the pairs every
  other language names and it does not (where to look for a missing form first).

Two careful readers do not agree on every ruling. ``link_sets/second/<set>.yaml`` holds a
second annotation of a set (position -> rules), made by a session that saw only the English
texts and the rules; where it exists the script also prints how far that reader agrees with
the set's rules (precision and recall of the second reading against the first: what a linker
can be expected to reach), the linker against the second reading, and the linker against
both (a link is right when either reader gives it; recall over the rules both give).

It prints figures and never asserts.

    python benchmarks/link_sets.py [SET.yaml ...] [--verbose]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

import yaml

from kb import align
from kb.core import registry
from kb.reference.glossary import load as load_glossary

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "benchmarks" / "link_sets"
# The sets are in the format of the linker tests' own (tests/data/links/), built the same way.
sys.path.insert(0, str(ROOT / "tests"))
from link_corpus import build, write_rulings  # noqa: E402

FAMILIES = (("725", "monarch"), ("726", "initiative"), ("309", "dungeon"), ("701.49", "dungeon"))


def family(rules: list[str]) -> str:
    """The family of a ruling, by the first rule it explains ("none" for a negative)."""
    for rule in rules:
        for prefix, name in FAMILIES:
            if rule.startswith(prefix):
                return name
    return "other" if rules else "none"


def linked_rules(data: dict, folder: Path) -> list[list[str]]:
    """The rules the linker gives each ruling of ``data`` (those of the group holding most of
    the ruling's texts), in the set's order."""
    db, _ = build(folder, write_rulings(folder, data, data["rulings"], "set"))
    where: dict[int, Counter] = {}
    rules_of: dict[str, list[str]] = {}
    for group in align.groups(db):
        rules_of[group["id"]] = sorted(group["rules"])
        for member in group["members"]:
            where.setdefault(member["position"], Counter())[group["id"]] += 1
    return [
        rules_of[where[position].most_common(1)[0][0]]
        for position in range(1, len(data["rulings"]) + 1)
    ]


def score(expected: list[list[str]], linked: list[list[str]], carried: set[str]) -> dict:
    """Figures over (ruling, rule) pairs, in all and per family (see the module's doc)."""
    tally: dict[str, Counter] = {}
    for want, got in zip(expected, linked):
        for name in ("all", family(want)):
            t = tally.setdefault(name, Counter())
            t["rulings"] += 1
            t["links"] += len(got)
            t["right"] += len(set(want) & set(got))
            t["expected"] += len(want)
            t["carried"] += len(set(want) & carried)
            t["negatives"] += not want
            t["negatives_clean"] += not want and not got
    return {name: _figures(t) for name, t in sorted(tally.items())}


def disagreement(data: dict) -> tuple[int, int, Counter]:
    """(pairs some but not all of a ruling's languages name, pairs any language names, and per
    language the pairs it alone lacks), over the set's (ruling, concept) pairs (see the
    module's doc). A concept every other language names and one does not is most often a
    form that language's glossary lacks: the count says where to look first."""
    glossary, split, named, lacking = load_glossary(), 0, 0, Counter()
    for ruling in data["rulings"]:
        found = {lang: glossary.concept_ids(text, lang) for lang, text in ruling["texts"].items()}
        every, some = set.intersection(*found.values()), set.union(*found.values())
        split, named = split + len(some - every), named + len(some)
        for lang, mine in found.items():
            others = [theirs for other, theirs in found.items() if other != lang]
            lacking[lang] += len(set.intersection(*others) - mine) if others else 0
    return split, named, lacking


def pairs(references: list[list[str]], found: list[list[str]]) -> tuple[str, str]:
    """(precision, recall) of ``found`` against ``references``, per (ruling, rule) pair, as
    :func:`score` counts them over all rulings, ready to print."""
    figures = score(references, found, set())["all"]
    return _fmt(figures["precision"]).strip(), _fmt(figures["recall"]).strip()


def readers(first: list[list[str]], second: list[list[str]], linked: list[list[str]]) -> str:
    """The lines on a set with a second annotation (see the module's doc)."""
    either = [sorted(set(a) | set(b)) for a, b in zip(first, second)]
    both = [sorted(set(a) & set(b)) for a, b in zip(first, second)]
    lines = [
        ("second reader against the set's rules", pairs(first, second)),
        ("linker against the second reader", pairs(second, linked)),
        ("linker against either reader", (pairs(either, linked)[0], pairs(both, linked)[1])),
    ]
    return "\n".join(f"  {name:<38} precision {p} recall {r}" for name, (p, r) in lines)


def _figures(t: Counter) -> dict:
    def ratio(num: int, den: int) -> float | None:
        return round(num / den, 3) if den else None

    return {
        "rulings": t["rulings"],
        "links": t["links"],
        "precision": ratio(t["right"], t["links"]),
        "recall": ratio(t["right"], t["expected"]),
        "recall_carried": ratio(t["right"], t["carried"]),
        "negatives": f"{t['negatives_clean']}/{t['negatives']}",
    }


def _fmt(value: float | None) -> str:
    return "     —" if value is None else f"{value:6.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", type=Path, help="YAML sets (default: link_sets/)")
    parser.add_argument("--verbose", action="store_true", help="print each wrong or missed rule")
    args = parser.parse_args(argv)
    carried = set(registry.RULES)
    for path in args.sets or sorted(SETS.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        expected = [sorted(r["rules"]) for r in data["rulings"]]
        with tempfile.TemporaryDirectory() as folder:
            linked = linked_rules(data, Path(folder))
        print(f"\n{path.name} ({len(expected)} rulings)")
        print(
            f"  {'family':<11} {'rulings':>7} {'links':>5} {'prec':>6} {'recall':>6} "
            f"{'carried':>7}  negatives unlinked"
        )
        for name, f in sorted(
            score(expected, linked, carried).items(), key=lambda kv: (kv[0] == "all", kv[0])
        ):
            print(
                f"  {name:<11} {f['rulings']:>7} {f['links']:>5} {_fmt(f['precision'])} "
                f"{_fmt(f['recall'])} {_fmt(f['recall_carried']):>7}  {f['negatives']}"
            )
        split, named, lacking = disagreement(data)
        print(
            f"  concepts its languages disagree on: {split} of {named} ruling-concept pairs "
            f"({split / max(named, 1):.3f}); lacking where every other language names them: "
            + (", ".join(f"{lang} {n}" for lang, n in sorted(lacking.items()) if n) or "none")
        )
        second = SETS / "second" / path.name
        if second.exists():
            seen = yaml.safe_load(second.read_text(encoding="utf-8")) or {}
            print(
                readers(
                    expected,
                    [sorted(seen.get(i) or []) for i in range(1, len(expected) + 1)],
                    linked,
                )
            )
        if args.verbose:
            for position, (want, got) in enumerate(zip(expected, linked), 1):
                if want != got:
                    text = data["rulings"][position - 1]["texts"]["en"][:90]
                    print(f"  #{position} expected {want} linked {got}: {text}...")
    return 0


if __name__ == "__main__":
    sys.exit(main())
