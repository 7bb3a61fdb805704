"""Where the linker loses, rule by rule: a reading of ``link_sets.py --json`` runs.

``benchmarks/link_sets.py`` says how well the linker does on the evaluation sets; this says
where it does badly and which step of the linker decided it. For each rule, over the rulings
of the dev sets in the files given:

- links, right (the set's rules give it), wrong, and wrong against either reader (neither the
  set's rules nor its second reading give it, where there is one: the links no reader would
  give, the first to look at);
- the wrong links by how they were made (``restates``: the group names most of what the rule
  names; ``touches``: part of it; ``restated``: brought in beside the rule that says the same
  from another side);
- missed (the set's rules give it, the linker does not), by the fate the link stage gave the
  rule (``kb links --group``): refused by a gate or a hint, dominated by a rule that explains
  more, ``generic`` (none of its distinctive concepts named), ``own_card`` (the group is about
  its card's own effect), ..., or ``unnamed`` when the group names none of its concepts.

Then each ruling's links by rank, highest score first: whether the wrong links are the extra
ones or the best link itself; and, on the rulings with a second reading, how far that reader
and the linker each agree with the set's rules (what a careful reader reaches against labels
someone else wrote). ``--rule R`` lists the rulings behind one rule's figures: each
wrong or missed link, the ruling's text and the linker's reason. ``--gaps SET.yaml ...``
reads sets instead of runs and lists each (ruling, language, concept) where every other
language of the ruling names a concept and that language does not: most often a form the
glossary lacks (link_sets.py prints only their count per language). Held-out sets are
counted only with ``--show-held-out`` (their figures per rule are a guide to their misses,
which are not to be read). It prints figures and never asserts (``--help``).

Usage: ``python benchmarks/link_sets.py SETS --json RUN.json`` then
``python benchmarks/link_errors.py RUN.json [--rule 701.49b]``.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

import yaml

from kb.reference.glossary import load as load_glossary

#: The columns of the table, in order.
COLUMNS = ("links", "right", "wrong", "neither", "missed")


def readable(rows: list[dict], show_held_out: bool = False) -> list[dict]:
    """The dev rulings of ``rows``, and the held-out ones too if ``show_held_out``."""
    return [row for row in rows if show_held_out or row["pool"] != "held-out"]


def how(fate: dict) -> str:
    """How a linked rule was linked: ``restates``, ``touches`` or ``restated`` (``also``)."""
    if fate["fate"] == "restated":
        return "restated"
    return "touches" if fate["why"].startswith("linked: touches") else "restates"


def tally(rows: list[dict], show_held_out: bool = False) -> dict[str, dict[str, Counter]]:
    """{rule: {"counts": Counter(COLUMNS), "wrong_how": Counter, "missed_by": Counter}} over
    ``rows`` (link_sets.py's ``--json`` rulings), held-out rulings only if ``show_held_out``."""
    out: dict[str, dict[str, Counter]] = defaultdict(
        lambda: {"counts": Counter(), "wrong_how": Counter(), "missed_by": Counter()}
    )
    for row in readable(rows, show_held_out):
        want, linked = set(row["rules"]), set(row["linked"])
        either = want | set(row.get("second") or ())
        fates = {f["rule"]: f for f in row.get("fates", [])}
        for rule in linked:
            mine = out[rule]
            mine["counts"]["links"] += 1
            if rule in want:
                mine["counts"]["right"] += 1
                continue
            mine["counts"]["wrong"] += 1
            mine["counts"]["neither"] += rule not in either
            mine["wrong_how"][how(fates[rule]) if rule in fates else "?"] += 1
        for rule in want - linked:
            out[rule]["counts"]["missed"] += 1
            out[rule]["missed_by"][fates[rule]["fate"] if rule in fates else "unnamed"] += 1
    return dict(out)


def table(figures: dict[str, dict[str, Counter]]) -> list[str]:
    """The per-rule lines, the rules with most wrong and missed links first."""
    lines = [f"  {'rule':<8}" + "".join(f"{c:>8}" for c in COLUMNS) + "   wrong by / missed by"]
    order = sorted(
        figures.items(),
        key=lambda item: (-(item[1]["counts"]["wrong"] + item[1]["counts"]["missed"]), item[0]),
    )
    for rule, mine in order:
        counts = mine["counts"]
        detail = " / ".join(
            ", ".join(f"{k} {v}" for k, v in part.most_common()) or "-"
            for part in (mine["wrong_how"], mine["missed_by"])
        )
        lines.append(f"  {rule:<8}" + "".join(f"{counts[c]:>8}" for c in COLUMNS) + f"   {detail}")
    total = Counter()
    for mine in figures.values():
        total.update(mine["counts"])
    lines.append(f"  {'all':<8}" + "".join(f"{total[c]:>8}" for c in COLUMNS))
    return lines


#: The ranks :func:`by_rank` counts, the last holding every later link.
RANKS = ("1st", "2nd", "3rd+")

#: (numerator, denominator) of :func:`reader_lines`' precision, recall and exact rulings.
PAIRS = (("right", "links"), ("right", "expected"), ("exact", "rulings"))


def by_rank(rows: list[dict], show_held_out: bool = False) -> dict[str, Counter]:
    """{rank: Counter(links, right, either)}: each link by its place among its ruling's
    links, highest score first (the link stage's order breaks ties). Whether the wrong links
    are the extra ones a threshold or a dominance step could drop, or the best link itself,
    which only better evidence mends."""
    out: dict[str, Counter] = {rank: Counter() for rank in RANKS}
    for row in readable(rows, show_held_out):
        want = set(row["rules"])
        either = want | set(row.get("second") or ())
        linked = [f for f in row.get("fates", []) if f["rule"] in row["linked"]]
        linked.sort(key=lambda f: -f["score"])
        for place, found in enumerate(linked):
            counts = out[RANKS[min(place, len(RANKS) - 1)]]
            counts["links"] += 1
            counts["right"] += found["rule"] in want
            counts["either"] += found["rule"] in either
    return out


def rank_lines(ranks: dict[str, Counter]) -> list[str]:
    """One line per rank: its links and the share right, against the set and either reader."""
    lines = ["each ruling's links by rank (highest score first)"]
    for rank, counts in ranks.items():
        n = counts["links"]
        right, either = (f"{counts[k] / n:.3f}" if n else "-" for k in ("right", "either"))
        lines.append(f"  {rank:<5}{n:>6} links   right {right}   either {either}")
    return lines


def readers(rows: list[dict], show_held_out: bool = False) -> dict[str, Counter]:
    """{"second" | "linker": Counter(links, right, expected, exact, rulings)} over the rulings
    with a second reading: how far that reader and the linker each agree with the set's own
    rules (``exact``: the rulings given exactly the set's rules). What a careful reader of the
    same rules reaches is the most a linker can be asked for against labels written by
    someone else."""
    out: dict[str, Counter] = {"second": Counter(), "linker": Counter()}
    for row in readable(rows, show_held_out):
        if row.get("second") is None:
            continue
        want = set(row["rules"])
        for name, given in (("second", set(row["second"])), ("linker", set(row["linked"]))):
            counts = out[name]
            counts["rulings"] += 1
            counts["links"] += len(given)
            counts["right"] += len(given & want)
            counts["expected"] += len(want)
            counts["exact"] += given == want
    return out


def reader_lines(figures: dict[str, Counter]) -> list[str]:
    """One line per reader: precision, recall and exact rulings against the set's rules."""
    n = figures["second"]["rulings"]
    lines = [f"against the set's own rules, on the {n} rulings with a second reading"]
    for name, c in figures.items():
        shares = [c[a] / c[b] if c[b] else 0.0 for a, b in PAIRS]
        lines.append(
            f"  {name:<7} precision {shares[0]:.3f}   recall {shares[1]:.3f}   "
            f"exactly the set's rules {shares[2]:.3f}"
        )
    return lines


def behind(rows: list[dict], rule: str, show_held_out: bool = False) -> list[str]:
    """Each ruling where ``rule`` is wrong or missed, with the linker's reason for it."""
    lines = []
    for row in readable(rows, show_held_out):
        want, linked = set(row["rules"]), set(row["linked"])
        if (rule in linked) == (rule in want):
            continue
        fate = next((f for f in row.get("fates", []) if f["rule"] == rule), None)
        kind = "wrong" if rule in linked else "missed"
        second = row.get("second")
        lines.append(
            f"  {row['set']}#{row['position']} {kind}: expected {row['rules']}"
            + (f", second reader {second}" if second is not None else "")
            + f", linked {row['linked']}\n    {row['text']}\n    "
            + (f"{fate['why']} (score {fate['score']})" if fate else "names none of its concepts")
        )
    return lines


def held_out(path: Path) -> bool:
    """Whether a set is held out (its file name says so): its misses are not to be read."""
    return "held-out" in path.stem


def lacking(found: dict[str, set[str]]) -> dict[str, set[str]]:
    """Per language of a ruling, the concepts every other language names and it does not
    ({language: its concepts} in; nothing is lacking where there is one language).

    >>> lacking({"en": {"a", "b"}, "fr": {"a"}, "de": {"a", "b"}})
    {'en': set(), 'fr': {'b'}, 'de': set()}
    """
    return {
        lang: set.intersection(*(theirs for other, theirs in found.items() if other != lang)) - mine
        if len(found) > 1
        else set()
        for lang, mine in found.items()
    }


def gaps(paths: list[Path], show_held_out: bool = False) -> list[str]:
    """One line per (ruling, language, concept) that every other language of the ruling
    names and this one does not, with that language's text: where to look for a missing
    form first (a set's header says whether it is held out; those only if asked)."""
    glossary, lines = load_glossary(), []
    for path in paths:
        if held_out(path) and not show_held_out:
            continue
        data = yaml.safe_load(path.read_text("utf-8"))
        for position, ruling in enumerate(data["rulings"], start=1):
            texts = ruling["texts"]
            found = {lang: set(glossary.concept_ids(text, lang)) for lang, text in texts.items()}
            for lang, missing in lacking(found).items():
                for concept in sorted(missing):
                    lines.append(f"  {path.stem}#{position} {lang} lacks {concept}: {texts[lang]}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Write the runs with: python benchmarks/link_sets.py SETS --json RUN.json",
    )
    parser.add_argument(
        "runs", nargs="+", type=Path, help="link_sets.py --json files (with --gaps: YAML sets)"
    )
    parser.add_argument("--rule", help="list the rulings where this rule is wrong or missed")
    parser.add_argument(
        "--gaps",
        action="store_true",
        help="read YAML sets and list the concepts one language lacks where every other names "
        "them (glossary gaps)",
    )
    parser.add_argument(
        "--show-held-out",
        action="store_true",
        help="count held-out sets too (by default only dev sets: a held-out set's misses, "
        "even per rule, are not to be read)",
    )
    args = parser.parse_args(argv)
    if args.gaps:
        lines = gaps(args.runs, args.show_held_out)
        print(f"{len(lines)} concepts a language lacks where every other names them")
        print("\n".join(lines))
        return 0
    rows = [row for run in args.runs for row in json.loads(run.read_text("utf-8"))["rulings"]]
    pools = "dev and held-out" if args.show_held_out else "dev"
    if args.rule:
        lines = behind(rows, args.rule, args.show_held_out)
        print(f"{args.rule}: {len(lines)} wrong or missed on the {pools} sets")
    else:
        lines = table(tally(rows, args.show_held_out))
        lines += ["", *rank_lines(by_rank(rows, args.show_held_out))]
        agreement = readers(rows, args.show_held_out)
        # Sets without a second reading (the card sets) have no reader to set beside.
        lines += ["", *reader_lines(agreement)] if agreement["second"]["rulings"] else []
        print(f"links per rule on the {pools} sets (neither: wrong against either reader)")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
