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

Kinds (``KINDS``; the tables below say what each changes in each language): negation,
date-swap, synonym, wrong-term (another concept's term), english-word, english-phrase, number
(in digits), number-word, ordinal, deleted, sentence-dropped, sentence-moved, condition,
quotes-wrong (for the locale), quotes-foreign, room-name, card-name.

    python benchmarks/checks.py [--kb CMD] [--rounds N] [--seed S] [--json FILE]
                                [--corpus DIR] [--english] [--kinds a,b]
"""

from __future__ import annotations

import argparse
import json
import random
import re
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
DATE = re.compile(r"^\s*(\d{1,2})([./-])(\d{1,2})\2(\d{4})\s*$|^\s*\d{4}-\d{2}-\d{2}\s*$")
SENTENCE_END = re.compile(r"(?<=[.!?»“”])\s+(?=[A-ZÀ-ÖØ-ÞА-ЯЁ«„“\"(])")

# Per-language tables of (pattern, replacement); patterns are regular expressions. Written
# here, not taken from kb's glossary, so that what is measured is not what the checks were
# tuned on.
NEGATIONS = {
    "fr": [
        (r"\b[Nn]e\s+((?:[\w’']+\s+){0,3}?[\w’']+?)\s+pas\b", r"\1"),
        (r"\b[Nn][’']((?:[\w’']+\s+){0,3}?[\w’']+?)\s+pas\b", r"\1"),
    ],
    "de": [(r"\bnicht\s+", ""), (r"\b([Kk])ein", lambda m: "Ein" if m[1] == "K" else "ein")],
    "es": [(r"\b[Nn]o\s+", "")],
    "it": [(r"\b[Nn]on\s+", "")],
    "ru": [(r"(?<!\w)[Нн]е\s+", "")],
}
EXPLETIVE = {"it": re.compile(r"finché[^,.;]*$")}  # expletive "finché ... non"


def pairs(spec: str, sep: str = "=") -> list[tuple[str, ...]]:
    """ "a=b; c=d" -> [("a", "b"), ("c", "d")]: the tables below stay short."""
    return [tuple(item.split(sep)) for item in spec.split("; ")]


# A glossary term (a pattern) = a synonym = another concept's term = English; "-": none.
TERMS = {
    lang: pairs(spec)
    for lang, spec in {
        "de": r"Kommandozone=Befehlszone=Exilzone=command zone; Kreaturen=-=Artefakte=creatures; "
        r"Versorgungssegments?=Unterhaltssegments=Endsegments=upkeep; Verlies\b=Kerker=-="
        r"dungeon; Kampfschaden=Gefechtsschaden=-=combat damage; Vorstoßmarker=Abenteuermarker"
        r"=-=venture marker; Zugreihenfolge=Spielerreihenfolge=-=-",
        "fr": r"zone de commandement=zone de commande=zone d’exil=command zone; créatures=-=artefacts="
        r"creatures; marqueur d’aventure=jeton d’aventure=-=venture marker; \bdonjon\b=cachot=-="
        r"dungeon; blessures de combat=dégâts de combat=-=combat damage; étape d’entretien=étape "
        r"de maintenance=étape de fin=upkeep",
        "es": r"zona de mando=zona de comando=zona de exilio=command zone; criaturas=-=artefactos="
        r"creatures; marcador de aventura=contador de aventura=-=venture marker; \bmazmorra\b="
        r"calabozo=-=dungeon; daño de combate=daño en combate=-=combat damage; mantenimiento=-="
        r"paso final=upkeep",
        "it": r"zona di comando=zona del comando=zona di esilio=command zone; \bstanza\b=camera=-="
        r"room; segnalino di avanzamento=segnalino avventura=-=venture marker; \bsquadra\b=-=-="
        r"team; danno da combattimento=danno di combattimento=-=combat damage; \bcreature\b=-="
        r"artefatti=-; mantenimento=sostentamento=sottofase finale=upkeep",
        "ru": r"командную зону=зону командования=зону изгнания=command zone; комнат=палат=-=-; "
        r"маркер путешествия=жетон путешествия=-=venture marker; существ\b=-=артефактов="
        r"creatures; боевой урон=урон в бою=-=combat damage; подземелье\b=-=-=dungeon; "
        r"шага поддержки=фазы поддержки=заключительного шага=upkeep",
    }.items()
}


def terms(lang: str, column: int) -> list[tuple[str, str]]:
    return [(row[0], row[column]) for row in TERMS[lang] if row[column] != "-"]


PHRASES = [
    "as long as the player keeps it",
    "even if another player has it",
    "at the beginning of the next turn",
    "which is not the same thing",
    "unless an effect says otherwise",
    "and then the game goes on",
]
NUMBERS = {  # pattern : its value : a word for a higher value (elided "qu’une" left alone)
    "ru": r"\bдва\b : 2 : три; \bоба\b : 2 : три; \bодно(?= или более) : 1 : два; "
    r"(?<=только )один\b : 1 : два",
    "it": r"\bdue\b : 2 : tre; \bentrambi\b : 2 : tutti e tre; \buna(?= o più) : 1 : due",
    "fr": r"\bdeux\b : 2 : trois; (?<![’'])\bune(?= ou plusieurs) : 1 : deux",
    "de": r"\bzwei\b : 2 : drei; \bbeide\b : 2 : alle drei; \beine(?= oder mehrere) : 1 : zwei",
    "es": r"\bdos\b : 2 : tres; \bambos\b : 2 : los tres; \buna(?= o más) : 1 : dos",
}
NUMBERS = {lang: pairs(spec, " : ") for lang, spec in NUMBERS.items()}
ORDINALS = {
    "fr": pairs(
        "première salle=deuxième salle; Premièrement=Troisièmement; "
        "premier joueur=deuxième joueur; dernière salle=première salle"
    ),
    "de": pairs(
        "ersten Raum=zweiten Raum; Erstens=Drittens; erste Spieler=zweite Spieler; "
        "letzten Raum=ersten Raum"
    ),
    "es": pairs(
        "primera sala=segunda sala; Primero=Tercero; primer jugador=segundo jugador; "
        "última sala=primera sala"
    ),
    "it": pairs(
        r"\bPrimo,=Terzo,; primo giocatore=secondo giocatore; "
        "nell'ultima stanza=nella prima stanza"
    ),
    "ru": pairs(
        "первую комнату=вторую комнату; Во-первых=В-третьих; первый игрок=второй игрок; "
        "последней комнате=первой комнате"
    ),
}
CONDITIONS = {
    "fr": r"[Ss]i|[Ss][’']il",
    "es": r"[Ss]i",
    "it": r"[Ss]e",
    "de": r"[Ww]enn|[Ff]alls",
    "ru": r"[Ее]сли",
}
# A German clause may carry an infinitive clause of its own ("wenn du angewiesen wirst, dich
# in Undercity vorzuwagen, ..."): it goes with it.
CLAUSE_TAIL = {"de": r"(?:(?:dich|sich) [^,.;:()]*zu\w*(?: \([^)]*\))?, )?"}
# CLDR quotation marks (outer, inner) per locale; German also prints »...«.
QUOTES_OK = {
    "ru": ["«»", "„“"],
    "it": ["«»", "“”"],
    "fr": ["«»"],
    "de": ["„“", "‚‘", "»«"],
    "es": ["“”", "‘’"],
}
QUOTE_PAIRS = ["«»", "„“", "“”", "‚‘", "‘’", '""', "»«"]
FOREIGN_QUOTES = {"ru": "“”", "it": "„“", "fr": "“”", "de": "«»", "es": "„“"}
ROOMS = r"Secret Entrance|Throne of the Dead Three|Lost Well|Catacombs|Archives|Entrée secrète"
OTHER_ROOMS = ["Cave Entrance", "Yawning Portal", "Trapped Entry", "Dark Pool"]
OTHER_DUNGEONS = ["Lost Mine of Phandelver", "Dungeon of the Mad Mage", "Tomb of Annihilation"]
UNDERCITY_TRANSLATED = {
    "de": "Unterstadt",
    "fr": "Sous-Cité",
    "es": "Subciudad",
    "it": "Sottocittà",
    "ru": "Подгород",
}


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE_END.split(text) if s.strip()]


def capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def replace_one(text, table, rng, every=False, skip=None):
    """Apply one (pattern, replacement) of ``table`` at one seeded match (at all of that
    pattern's matches with ``every``); None when nothing in the table matches."""
    hits = [
        (pat, rep, m)
        for pat, rep in table
        for m in re.finditer(pat, text)
        if not (skip and skip.search(text[: m.start()]))
    ]
    if not hits:
        return None
    pat, rep, m = rng.choice(hits)
    if every:
        return re.sub(pat, rep, text)
    out = text[: m.start()] + (m.expand(rep) if isinstance(rep, str) else rep(m)) + text[m.end() :]
    return capitalize(out) if m.start() == 0 else out


def misspell(name: str, rng: random.Random) -> str:
    at = rng.choice([i for i in range(1, len(name) - 1) if name[i].isalpha()])
    return name[:at] + name[at + 1 :]


def _condition(text, lang, rng):
    """The clause from a conditional word to its comma, removed (the rest capitalised)."""
    clause = rf"(?:(?<=^)|(?<=[.!?] )|(?<=, ))(?:{CONDITIONS[lang]})\b[^,.;:()—]+, "
    hits = list(re.finditer(clause + CLAUSE_TAIL.get(lang, ""), text))
    if not hits:
        return None
    m = rng.choice(hits)
    rest = text[m.end() :]
    return text[: m.start()] + (
        capitalize(rest) if m.start() == 0 or text[m.start() - 2] in ".!?" else rest
    )


def _quotes_wrong(text, lang, rng):
    for pair in QUOTE_PAIRS:
        a = text.find(pair[0])
        b = text.find(pair[1], a + 1) if a >= 0 else -1
        if a >= 0 and b > a:
            wrong = rng.choice([p for p in QUOTE_PAIRS if p not in QUOTES_OK[lang] and p != pair])
            return text[:a] + wrong[0] + text[a + 1 : b] + wrong[1] + text[b + 1 :]
    return None


def _name(text, rng, pattern, others):
    """A name replaced by one of ``others``, or misspelled."""

    def wrong(m):
        variant = rng.choice(others + ["misspelled"])
        return misspell(m[0], rng) if variant == "misspelled" else variant

    return replace_one(text, [(pattern, wrong)], rng)


TEXT_KINDS = {  # kind -> function(text, lang, rng) -> new text or None
    "negation": lambda t, lang, r: replace_one(t, NEGATIONS[lang], r, skip=EXPLETIVE.get(lang)),
    "synonym": lambda t, lang, r: replace_one(t, terms(lang, 1), r, every=True),
    "wrong-term": lambda t, lang, r: replace_one(t, terms(lang, 2), r, every=True),
    "english-word": lambda t, lang, r: replace_one(t, terms(lang, 3), r),
    "english-phrase": lambda t, lang, r: replace_one(
        t, [(r"(?<=\w), ", lambda m: f", {r.choice(PHRASES)}, ")], r
    ),
    "number": lambda t, lang, r: replace_one(
        t, [(p, str(int(v) + r.choice((1, 2)))) for p, v, _ in NUMBERS[lang]], r
    ),
    "number-word": lambda t, lang, r: replace_one(t, [(p, w) for p, _, w in NUMBERS[lang]], r),
    "ordinal": lambda t, lang, r: replace_one(t, ORDINALS[lang], r),
    "condition": _condition,
    "quotes-wrong": _quotes_wrong,
    "quotes-foreign": lambda t, lang, r: replace_one(  # three words, not the first or last
        t, [(r"(?<=\w )\w+ \w+ \w+(?= \w)", lambda m: m[0].join(FOREIGN_QUOTES[lang]))], r
    ),
    "room-name": lambda t, lang, r: _name(t, r, ROOMS, OTHER_ROOMS),
    "card-name": lambda t, lang, r: _name(
        t, r, r"\bUndercity\b", OTHER_DUNGEONS + [UNDERCITY_TRANSLATED[lang]]
    ),
}
KINDS = [
    "negation",
    "date-swap",
    "synonym",
    "wrong-term",
    "english-word",
    "english-phrase",
    "number",
    "number-word",
    "ordinal",
    "deleted",
    "sentence-dropped",
    "sentence-moved",
    "condition",
    "quotes-wrong",
    "quotes-foreign",
    "room-name",
    "card-name",
]
FIRST_LANG = {"negation": "fr", "date-swap": "it", "synonym": "de"}  # the cases of issue 22


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


def mutate(kind, rulings, lang, rng):
    """(new rulings, touched 1-based positions, what changed), or None if nothing fits."""
    new = [list(r) for r in rulings]
    order = rng.sample(range(len(new)), len(new))
    if kind == "deleted":
        return new[: order[0]] + new[order[0] + 1 :], [order[0] + 1], "ruling removed"
    for i in order:
        date, text = new[i]
        if kind == "sentence-dropped" and len(parts := sentences(text)) >= 2:
            dropped = parts.pop(rng.randrange(len(parts)))
            new[i][1] = " ".join(parts)
            return new, [i + 1], f"“{dropped[:40]}…” removed"
        if kind == "sentence-moved" and len(parts := sentences(text)) >= 2:
            moved = parts.pop(rng.randrange(len(parts)))
            j = rng.choice([k for k in order if k != i])
            new[i][1], new[j][1] = " ".join(parts), f"{new[j][1]} {moved}"
            return new, [i + 1, j + 1], f"“{moved[:40]}…” moved to #{j + 1}"
        if (
            kind == "date-swap"
            and (m := DATE.match(date))
            and m[1]
            and m[1] != m[3]
            and int(m[1]) <= 12
        ):
            new[i][0] = f"{m[3]}{m[2]}{m[1]}{m[2]}{m[4]}"
            return new, [i + 1], f"{date} -> {new[i][0]}"
        if kind in TEXT_KINDS and (out := TEXT_KINDS[kind](text, lang, rng)) not in (None, text):
            new[i][1] = out
            return new, [i + 1], _diff(text, out)
    return None


def _diff(old: str, new: str) -> str:
    """The changed words, as "before -> after"."""
    a = b = 0
    while a < min(len(old), len(new)) and old[a] == new[a]:
        a += 1
    while b < min(len(old), len(new)) - a and old[-1 - b] == new[-1 - b]:
        b += 1
    a = old.rfind(" ", 0, a) + 1  # whole words on both sides
    tail = old[len(old) - b :]
    b -= tail.find(" ") if " " in tail else len(tail)
    return f"“{old[a : len(old) - b][:40]}” -> “{new[a : len(new) - b][:40]}”"


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
