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

At the end it pools every ruling of the sets measured, dev sets apart from held-out ones
(a file whose name says ``held-out``): precision, recall and precision against either reader.

``--without LANG`` builds every set without that language's texts (and card name), as
``rulings/`` and the issue's corpus have no English: the fewer languages vote, the more one
translation's wording counts. The report still quotes the English. ``link_sets/printed/``
holds sets in German and Italian as the printed products say it ("Gewölbe", "esplorare il
dungeon"): run them ``--without en`` (their English is their namesake set's).

To weigh a change to the linker, run the sets with ``--json BEFORE.json`` on the old code
(each ruling's expected and linked rules, and the fate of every rule its group names, as
``kb links --group`` gives them), then with ``--against BEFORE.json`` on the new: it prints
the earlier pooled figures beside today's and each ruling whose links changed, every rule
added or dropped marked right or wrong. ``--verbose`` and ``--against`` print the rulings of
dev sets only: a held-out set's misses need ``--show-held-out`` (read its figures, never its
misses, or it is held out no longer). It prints figures and never asserts (``--help``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

import yaml

from kb import align, link
from kb.core import registry
from kb.corpus.languages import CORPUS_LANGUAGES
from kb.reference.glossary import load as load_glossary

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "benchmarks" / "link_sets"
# The sets are in the format of the linker tests' own (tests/data/links/), built the same way.
sys.path.insert(0, str(ROOT / "tests"))
from link_corpus import build, write_rulings  # noqa: E402
from link_errors import held_out, lacking  # noqa: E402

#: What every ``--json`` row holds (besides ``group``, and ``fates`` when asked).
ROW_KEYS = {"set", "position", "pool", "text", "rules", "second", "linked"}

FAMILIES = (("725", "monarch"), ("726", "initiative"), ("309", "dungeon"), ("701.49", "dungeon"))


def family(rules: list[str]) -> str:
    """The family of a ruling, by the first rule it explains ("none" for a negative)."""
    for rule in rules:
        for prefix, name in FAMILIES:
            if rule.startswith(prefix):
                return name
    return "other" if rules else "none"


def linked_rules(data: dict, folder: Path, fates: bool = False) -> list[dict]:
    """What the linker gives each ruling of ``data``, in the set's order: {group, linked} (the
    group holding most of the ruling's texts, and its rules), with ``fates`` also {fates}:
    the fate of every carried rule naming a concept the group mentions
    (:func:`kb.link.trace`, what ``kb links --group`` prints)."""
    db, _ = build(folder, write_rulings(folder, data, data["rulings"], "set"))
    where: dict[int, Counter] = {}
    rules_of: dict[str, list[str]] = {}
    for group in align.groups(db):
        rules_of[group["id"]] = sorted(group["rules"])
        for member in group["members"]:
            where.setdefault(member["position"], Counter())[group["id"]] += 1
    out = []
    for position in range(1, len(data["rulings"]) + 1):
        group = where[position].most_common(1)[0][0]
        row: dict = {"group": group, "linked": rules_of[group]}
        if fates:
            row["fates"] = [
                {k: fate[k] for k in ("rule", "fate", "by", "score", "why")}
                for fate in link.trace(db, group)["rules"]
            ]
        out.append(row)
    return out


def without(data: dict, languages: set[str]) -> dict:
    """``data`` with neither the texts nor the card names of ``languages``.

    >>> without({"cards": {"en": "A", "fr": "B"}, "rulings": [{"rules": [],
    ...          "texts": {"en": "x", "fr": "y"}}]}, {"en"})["rulings"][0]["texts"]
    {'fr': 'y'}
    """
    return {
        **data,
        "cards": {k: v for k, v in data["cards"].items() if k not in languages},
        "rulings": [
            {**r, "texts": {k: v for k, v in r["texts"].items() if k not in languages}}
            for r in data["rulings"]
        ],
    }


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
    glossary, split, named, lacks = load_glossary(), 0, 0, Counter()
    for ruling in data["rulings"]:
        found = {lang: glossary.concept_ids(text, lang) for lang, text in ruling["texts"].items()}
        every, some = set.intersection(*found.values()), set.union(*found.values())
        split, named = split + len(some - every), named + len(some)
        for lang, missing in lacking(found).items():
            lacks[lang] += len(missing)
    return split, named, lacks


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


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 3) if den else None


def _figures(t: Counter) -> dict:
    return {
        "rulings": t["rulings"],
        "links": t["links"],
        "right": t["right"],
        "expected": t["expected"],
        "precision": _ratio(t["right"], t["links"]),
        "recall": _ratio(t["right"], t["expected"]),
        "recall_carried": _ratio(t["right"], t["carried"]),
        "negatives": f"{t['negatives_clean']}/{t['negatives']}",
    }


def _fmt(value: float | None) -> str:
    return "     —" if value is None else f"{value:6.3f}"


def pooled(records: list[dict]) -> dict[str, dict]:
    """Figures over every ruling of ``records`` (:func:`main`'s ``--json`` rows), per pool
    (``dev``: every set not held out; ``held-out``), counted as :func:`score` counts a set:
    {pool: {precision, recall, either, right, links, expected}}; ``either``: precision against
    either reader, over the rulings of sets with a second reading."""
    pools: dict[str, list[dict]] = {}
    for row in records:
        pools.setdefault(row["pool"], []).append(row)
    out = {}
    for pool, rows in sorted(pools.items()):
        f = score([r["rules"] for r in rows], [r["linked"] for r in rows], set())["all"]
        read = [r for r in rows if r["second"] is not None]
        either = [sorted(set(r["rules"]) | set(r["second"])) for r in read]
        out[pool] = {
            "precision": f["precision"],
            "recall": f["recall"],
            "either": score(either, [r["linked"] for r in read], set())["all"]["precision"]
            if read
            else None,
            "right": f["right"],
            "links": f["links"],
            "expected": f["expected"],
        }
    return out


def print_pooled(title: str, figures: dict[str, dict]) -> None:
    print(f"\n{title}")
    for pool, f in figures.items():
        print(
            f"  {pool:<9} precision {_fmt(f['precision'])} recall {_fmt(f['recall'])} "
            f"against either reader {_fmt(f['either'])}  ({f['right']} right of {f['links']} "
            f"links, {f['expected']} expected)"
        )


def changes(before: list[dict], after: list[dict], show_held_out: bool) -> list[str]:
    """One line per ruling whose links differ between two runs (``--json`` rows, matched by
    set and position), each rule added or dropped marked right or wrong; a held-out set's
    rulings only with ``show_held_out`` (a count otherwise)."""
    earlier = {(row["set"], row["position"]): row for row in before}
    lines, hidden = [], 0
    for row in after:
        old = earlier.get((row["set"], row["position"]))
        if old is None or old["linked"] == row["linked"]:
            continue
        if row["pool"] == "held-out" and not show_held_out:
            hidden += 1
            continue
        want = set(row["rules"])
        marks = [
            f"{sign}{rule} ({'right' if (rule in want) == (sign == '+') else 'wrong'})"
            for sign, rules in (
                ("+", set(row["linked"]) - set(old["linked"])),
                ("-", set(old["linked"]) - set(row["linked"])),
            )
            for rule in sorted(rules)
        ]
        lines.append(
            f"  {row['set']}#{row['position']}: {' '.join(marks)}; expected {row['rules']}: "
            f"{row['text'][:80]}..."
        )
    if hidden:
        lines.append(f"  held-out rulings changed: {hidden} (--show-held-out prints them)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Compare a change: run with --json BEFORE.json on the old code, then with "
        "--against BEFORE.json on the new.",
    )
    parser.add_argument("sets", nargs="*", type=Path, help="YAML sets (default: link_sets/)")
    parser.add_argument("--verbose", action="store_true", help="print each wrong or missed rule")
    parser.add_argument(
        "--json",
        type=Path,
        metavar="FILE",
        help="write each ruling's expected and linked rules and every rule's fate to FILE",
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="FILE",
        help="an earlier run's --json: print its pooled figures and each ruling whose links "
        "changed since",
    )
    parser.add_argument(
        "--show-held-out",
        action="store_true",
        help="also print the rulings of held-out sets (with --verbose or --against); by "
        "default only their figures, so that no one tunes on them",
    )
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        choices=CORPUS_LANGUAGES,
        metavar="LANG",
        help="build the sets without this language's texts (repeatable; e.g. en, as "
        "rulings/ has none)",
    )
    args = parser.parse_args(argv)
    before = None
    if args.against:
        try:
            before = json.loads(args.against.read_text(encoding="utf-8"))["rulings"]
            if not all(isinstance(row, dict) and row.keys() >= ROW_KEYS for row in before):
                raise ValueError
        except OSError as err:
            sys.exit(f"link_sets.py: cannot read {args.against}: {err.strerror}")
        except (ValueError, KeyError, TypeError):  # TypeError: "rulings" is no list
            sys.exit(f"link_sets.py: {args.against} is not what --json writes")
    if args.json and not args.json.parent.is_dir():
        # Before the sets are built, not after: a run takes a while.
        sys.exit(f"link_sets.py: no folder {args.json.parent} to write {args.json.name} in")
    carried = set(registry.RULES)
    records: list[dict] = []
    for path in args.sets or sorted(SETS.glob("*.yaml")):
        records += measure(path, carried, args)
    figures = pooled(records)
    print_pooled("all the sets' (ruling, rule) pairs together", figures)
    if before is not None:
        names = {row["set"] for row in records}
        print_pooled(
            f"the same sets in {args.against}",
            pooled([row for row in before if row["set"] in names]),
        )
        print("\nrulings whose links changed since:")
        print("\n".join(changes(before, records, args.show_held_out)) or "  none")
    if args.json:
        args.json.write_text(
            json.dumps({"pooled": figures, "rulings": records}, ensure_ascii=False, indent=1)
            + "\n",
            encoding="utf-8",
        )
    return 0


def measure(path: Path, carried: set[str], args: argparse.Namespace) -> list[dict]:
    """Print one set's figures (and, as asked, its misses); its rulings as ``--json`` rows."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    expected = [sorted(r["rules"]) for r in data["rulings"]]
    built = without(data, set(args.without))
    with tempfile.TemporaryDirectory() as folder:
        found = linked_rules(built, Path(folder), fates=bool(args.json))
    linked = [row["linked"] for row in found]
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
    split, named, lacking = disagreement(built)
    print(
        f"  concepts its languages disagree on: {split} of {named} ruling-concept pairs "
        f"({split / max(named, 1):.3f}); lacking where every other language names them: "
        + (", ".join(f"{lang} {n}" for lang, n in sorted(lacking.items()) if n) or "none")
    )
    second_path = SETS / "second" / path.name
    second = None
    if second_path.exists():
        seen = yaml.safe_load(second_path.read_text(encoding="utf-8")) or {}
        second = [sorted(seen.get(i) or []) for i in range(1, len(expected) + 1)]
        print(readers(expected, second, linked))
    pool = "held-out" if held_out(path) else "dev"
    if args.verbose and (pool == "dev" or args.show_held_out):
        for position, (want, got) in enumerate(zip(expected, linked), 1):
            if want != got:
                text = data["rulings"][position - 1]["texts"]["en"][:90]
                print(f"  #{position} expected {want} linked {got}: {text}...")
    elif args.verbose:
        print("  (a held-out set: --show-held-out prints its misses)")
    return [
        {
            "set": path.stem,
            "position": position,
            "pool": pool,
            "text": ruling["texts"]["en"],
            "rules": want,
            "second": second[position - 1] if second is not None else None,
            **row,
        }
        for position, (ruling, want, row) in enumerate(zip(data["rulings"], expected, found), 1)
    ]


if __name__ == "__main__":
    sys.exit(main())
