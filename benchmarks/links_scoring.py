"""The links benchmark's gold and scoring (run by benchmarks/links.py, whose docstring says what
the figures mean): the gold files, the rulings' keys, and pure functions from an export to figures.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

import yaml

# Date lines as kb's corpus format writes them (numeric, or day month-name year).
_DATE = re.compile(
    r"^(\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\.?"
    r"|\d{1,2}\.?\s+(?:de\s+)?[^\W\d_]+\.?\s+(?:de\s+)?\d{4}(?:\s*г\.?)?)$"
)


# ---------------------------------------------------------------------------------------------
# Gold and the rulings' keys


def load_gold(*paths: Path) -> dict[str, dict]:
    """{"<file name>#<position>": entry} from gold files (their ``rulings`` mapping)."""
    gold: dict[str, dict] = {}
    for path in paths:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for key, entry in (data.get("rulings") or {}).items():
            gold[key] = {
                "group": str(entry["group"]),
                "family": str(entry["family"]),
                "required": {str(r) for r in entry.get("required") or ()},
                "allowed": {str(r) for r in entry.get("allowed") or ()},
            }
    return gold


def text_lines(path: Path) -> dict[int, int]:
    """{line of a ruling's first text line: its 1-based position} in a ruling file."""
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    starts, after_date = {}, False
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if _DATE.match(line):
            after_date = True
        elif line and after_date:
            starts[number] = len(starts) + 1
            after_date = False
    return starts


def ruling_key(source: str, cache: dict[str, dict[int, int]]) -> str | None:
    """``path:line`` (the export's source) -> ``<file name>#<position>``, None if unreadable."""
    path, _, line = source.rpartition(":")
    if path not in cache:
        try:
            cache[path] = text_lines(Path(path))
        except OSError:
            cache[path] = {}
    position = cache[path].get(int(line)) if line.isdigit() else None
    return f"{Path(path).name}#{position}" if position else None


# ---------------------------------------------------------------------------------------------
# Scoring (pure: an export dict and a gold dict in, figures out)


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


#: Rule families by number prefix (a prefix covers its subrules); the rest is "other".
RULE_FAMILIES = (
    ("701.49", "dungeon"),
    ("704.5t", "dungeon"),
    ("205.3p", "dungeon"),
    ("309", "dungeon"),
    ("725", "monarch"),
    ("726", "initiative"),
    ("603", "triggers"),
    ("101.4", "triggers"),
    ("113", "triggers"),
    ("805", "triggers"),
    ("800", "multiplayer"),
    ("810", "multiplayer"),
)


def rule_family(rule: str) -> str:
    """The family of a rule number.

    >>> [rule_family(r) for r in ("701.49a", "309.2", "725.4", "603.3b", "3090.1")]
    ['dungeon', 'dungeon', 'monarch', 'triggers', 'other']
    """
    for prefix, family in RULE_FAMILIES:
        rest = rule[len(prefix) :] if rule.startswith(prefix) else None
        if rest is not None and (not rest or rest[0] == "." or rest.isalpha()):
            return family
    return "other"


def _figures(t: Counter, carried: set[str] | None) -> dict:
    return {
        **{
            k: t[k]
            for k in (
                "groups",
                "links",
                "correct",
                "required",
                "found",
                "unlinked",
                "unlinked_with_reason",
            )
        },
        "precision": _ratio(t["correct"], t["links"]),
        "recall": _ratio(t["found"], t["required"]),
        "recall_carried": (
            _ratio(t["found_carried"], t["required_carried"]) if carried is not None else None
        ),
        "required_carried": t["required_carried"] if carried is not None else None,
    }


def score(export: dict, gold: dict[str, dict], carried: set[str] | None = None) -> dict:
    """Link precision and recall per family (the gold's, of the group) and per rule family (of
    the linked or required rule), overall, and the wrong and missed links of each group."""
    cache: dict[str, dict[int, int]] = {}
    tally: dict[str, Counter] = defaultdict(Counter)
    by_rule: dict[str, Counter] = defaultdict(Counter)
    errors, unmapped = [], 0
    for group in export.get("groups", []):
        keys = [ruling_key(r.get("source", ""), cache) for r in group.get("rulings", [])]
        entries = [gold[k] for k in keys if k in gold]
        if not entries:
            continue  # a group of another corpus
        unmapped += sum(1 for k in keys if k not in gold)
        families = Counter(e["family"] for e in entries)
        family = families.most_common(1)[0][0] if len(families) == 1 else "mixed"
        required = set().union(*(e["required"] for e in entries))
        permitted = required.union(*(e["allowed"] for e in entries))
        links = set(group.get("rules") or ())
        wrong, missed = links - permitted, required - links
        for name in (family, "all"):
            t = tally[name]
            t["groups"] += 1
            t["links"] += len(links)
            t["correct"] += len(links & permitted)
            t["required"] += len(required)
            t["found"] += len(required & links)
            t["unlinked"] += not links
            t["unlinked_with_reason"] += bool(not links and group.get("unlinked"))
            if carried is not None:
                t["required_carried"] += len(required & carried)
                t["found_carried"] += len(required & carried & links)
        for rule in links | required:
            t = by_rule[rule_family(rule)]
            t["links"] += rule in links
            t["correct"] += rule in links & permitted
            t["required"] += rule in required
            t["found"] += rule in required & links
            if carried is not None:
                t["required_carried"] += rule in required & carried
                t["found_carried"] += rule in required & carried & links
        if wrong or missed:
            errors.append(
                {
                    "group": group.get("id"),
                    "gold": sorted({e["group"] for e in entries}),
                    "family": family,
                    "wrong": sorted(wrong),
                    "missed": sorted(missed),
                    "missed_not_carried": sorted(missed - carried) if carried is not None else None,
                }
            )
    return {
        "families": {name: _figures(t, carried) for name, t in tally.items()},
        "rule_families": {name: _figures(t, carried) for name, t in by_rule.items()},
        "errors": errors,
        "rulings_without_gold": unmapped,
    }


def seeds_kept(export: dict, gold: dict[str, dict]) -> dict:
    """How many gold groups sit whole in one export group whose rules are exactly theirs."""
    cache: dict[str, dict[int, int]] = {}
    where: dict[str, set] = defaultdict(set)
    rules_of: dict[str, set] = {}
    for group in export.get("groups", []):
        rules_of[group["id"]] = set(group.get("rules") or ())
        for r in group.get("rulings", []):
            key = ruling_key(r.get("source", ""), cache)
            if key in gold:
                where[gold[key]["group"]].add(group["id"])
    expected = {e["group"]: e["required"] for e in gold.values()}
    changed = []
    for name in sorted(expected):
        held = where.get(name, set())
        [only] = held if len(held) == 1 else [None]
        if only is None or rules_of[only] != expected[name]:
            changed.append(
                {
                    "group": name,
                    "expected": sorted(expected[name]),
                    "got": [sorted(rules_of[g]) for g in sorted(held)],
                }
            )
    return {"groups": len(expected), "kept": len(expected) - len(changed), "changed": changed}


def alignment(export: dict, gold: dict[str, dict]) -> dict:
    """Pairwise precision/recall/F1 of the grouping against the gold groups."""
    cache: dict[str, dict[int, int]] = {}
    members = []  # (predicted group, gold group, family)
    for group in export.get("groups", []):
        for r in group.get("rulings", []):
            key = ruling_key(r.get("source", ""), cache)
            if key in gold:
                members.append((group["id"], gold[key]["group"], gold[key]["family"]))
    tp = fp = fn = 0
    for (p1, g1, _), (p2, g2, _) in combinations(members, 2):
        tp += p1 == p2 and g1 == g2
        fp += p1 == p2 and g1 != g2
        fn += p1 != p2 and g1 == g2
    precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    f1 = round(2 * precision * recall / (precision + recall), 4) if precision and recall else None
    families_of, golds_of, preds_of = defaultdict(set), defaultdict(set), defaultdict(set)
    for pred, true, family in members:
        families_of[pred].add(family)
        golds_of[pred].add(true)
        preds_of[true].add(pred)
    return {
        "rulings": len(members),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "gold_groups": len(preds_of),
        "groups": len(golds_of),
        "split": sorted(g for g, p in preds_of.items() if len(p) > 1),
        "merged": sorted(p for p, g in golds_of.items() if len(g) > 1),
        "families_mixed": sorted(p for p, f in families_of.items() if len(f) > 1),
    }
