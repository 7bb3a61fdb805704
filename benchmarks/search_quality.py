"""Search quality and latency on the project's own query set.

Queries are written the way players type them: two or three words, inflected freely, without
accents, sometimes with a typo. Each names the ruling it should find as (language, position of
the ruling in that language's seed file); the expected answer is that ruling's group, so the
figures hold before and after alignment. Prints, per language, recall@1, recall@3 and MRR for
the main set and for the one-edit typo set on its own, then in-process latency p50/p95.

    python benchmarks/search_quality.py               # the index as `kb build` makes it
    python benchmarks/search_quality.py --compare     # every analysis method side by side
    python benchmarks/search_quality.py --show-misses # print queries that missed the top 3

Run from the repository root (it builds the seed corpus in ./rulings into a temporary folder).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# (language, expected ruling position, query). Seed rulings, in every language:
#  1 takes the initiative again   2 leaves the game        3 not in a dungeon: Undercity
#  4 already in a dungeon         5 Two-Headed Giant       6 one player at a time
#  7 no other dungeon than Undercity   8 the designation and its rules
#  9 no initiative until an effect     10 venturing into Undercity only when instructed
QUERIES: list[tuple[str, int, str]] = [
    ("fr", 1, "plusieurs designations initiative"),
    ("fr", 1, "reprendre l'initiative a nouveau"),
    ("fr", 2, "joueur quitte la partie"),
    ("fr", 2, "quitter partie initiative"),
    ("fr", 3, "zone de commandement marqueur"),
    ("fr", 3, "entree secrete premiere salle"),
    ("fr", 4, "deja dans un donjon derniere salle"),
    ("fr", 5, "deux tetes geantes"),
    ("fr", 5, "blessures de combat equipe"),
    ("fr", 6, "un seul joueur a la fois"),
    ("fr", 7, "commencer un autre donjon"),
    ("fr", 8, "initiative implique deux regles"),
    ("fr", 9, "pas d'initiative tant qu'un effet"),
    ("fr", 10, "s'aventurer sans instruction entretien"),
    ("fr", 4, "terminer le donjon salle suivnate"),
    ("it", 1, "prendere di nuovo l'iniziativa"),
    ("it", 1, "piu designazioni iniziativa"),
    ("it", 2, "giocatore lascia la partita"),
    ("it", 2, "lasciare partita iniziativa"),
    ("it", 3, "zona di comando segnalino"),
    ("it", 4, "ultima stanza del dungeon"),
    ("it", 4, "completare il dungeon stanza"),
    ("it", 5, "danno da combattimento squadra"),
    ("it", 5, "membri della squadra"),
    ("it", 6, "solo un giocatore alla volta"),
    ("it", 7, "iniziare dungeon diverso"),
    ("it", 8, "regole intrinseche iniziativa"),
    ("it", 9, "nessuna iniziativa finche un effetto"),
    ("it", 10, "avventurarsi undercity mantenimento"),
    ("it", 6, "smette di avere iniziativa"),
    ("it", 2, "giocatore attvo lascia"),
    ("de", 1, "Initiative erneut ergreifen"),
    ("de", 1, "mehrere Bezeichnungen"),
    ("de", 2, "Spieler verlaesst das Spiel"),
    ("de", 2, "Spiel verlassen Initiative"),
    ("de", 3, "Kommandozone Vorstossmarker"),
    ("de", 3, "Marker Secret Entrance"),
    ("de", 4, "letzten Raum Verlies abschliessen"),
    ("de", 4, "naechster Raum des Verlieses"),
    ("de", 5, "Kampfschaden Teammitglied"),
    ("de", 5, "Schaden gleichzeitig Team"),
    ("de", 6, "nur ein Spieler Zeitpunkt"),
    ("de", 7, "Verlies beginnen das nicht Undercity ist"),
    ("de", 8, "zwei Regeln Initiative Vorteile"),
    ("de", 9, "Effekt weist Spieler an Initiative"),
    ("de", 10, "Undercity vorwagen Versorgungssegment ergreifst"),
    ("de", 6, "Initiative verlieren"),
    ("de", 4, "naechsten Raum Verleis"),
    ("es", 1, "tomar la iniciativa de nuevo"),
    ("es", 1, "varias designaciones"),
    ("es", 2, "jugador deja el juego"),
    ("es", 2, "dejar juego iniciativa"),
    ("es", 3, "zona de mando marcador"),
    ("es", 4, "ultima sala mazmorra"),
    ("es", 4, "completar mazmorra siguiente sala"),
    ("es", 5, "gigante de dos cabezas"),
    ("es", 5, "dano de combate equipo"),
    ("es", 6, "solo un jugador a la vez"),
    ("es", 7, "empezar mazmorra que no sea undercity"),
    ("es", 8, "reglas inherentes iniciativa"),
    ("es", 9, "no hay iniciativa hasta un efecto"),
    ("es", 10, "adentrarse undercity mantenimiento"),
    ("es", 6, "deja de tener iniciativa"),
    ("es", 3, "marcador de aventrua"),
    ("ru", 1, "получить инициативу снова"),
    ("ru", 1, "несколько обозначений"),
    ("ru", 2, "игрок покидает игру"),
    ("ru", 2, "покинуть игру инициатива"),
    ("ru", 3, "командная зона маркер"),
    ("ru", 3, "первая комната secret entrance"),
    ("ru", 4, "последняя комната подземелья"),
    ("ru", 4, "завершить подземелье"),
    ("ru", 5, "боевой урон команда"),
    ("ru", 5, "член команды инициатива"),
    ("ru", 6, "только один игрок"),
    ("ru", 7, "начать другое подземелье"),
    ("ru", 8, "два правила инициативы"),
    ("ru", 9, "эффект предписывает получить инициативу"),
    ("ru", 10, "отправиться в undercity шаг поддержки"),
    ("ru", 6, "перестает обладать инициативой"),
    ("ru", 4, "последняя комната подземеля"),
]

# One edit (insertion, deletion, substitution or transposition) in one word of each query.
TYPOS: list[tuple[str, int, str]] = [
    ("fr", 1, "plusieurs desingations"),
    ("fr", 2, "joueur quite la partie"),
    ("fr", 3, "zone de commandemnt"),
    ("fr", 4, "donjon derniere sallle"),
    ("fr", 5, "blessurse de combat"),
    ("fr", 8, "initiative implque deux regles"),
    ("it", 1, "piu desginazioni"),
    ("it", 2, "giocatore lasica la partita"),
    ("it", 3, "zona di comadno"),
    ("it", 4, "ultima stnaza dungeon"),
    ("it", 5, "danno da combattimeto"),
    ("it", 8, "regole intrinsece"),
    ("de", 1, "mehrere Bezeichnugen"),
    ("de", 2, "Spieler verlaest das Spiel"),
    ("de", 3, "Kommandozoen"),
    ("de", 5, "Kampfschdaen Team"),
    ("de", 6, "nur ein Spieler Zeitpnukt"),
    ("de", 8, "zwei Regeln Vortiele"),
    ("es", 1, "varias desginaciones"),
    ("es", 2, "jugador dejja el juego"),
    ("es", 3, "zona de madno"),
    ("es", 4, "ultima sala mazmora"),
    ("es", 5, "gigante de dos cabezsa"),
    ("es", 8, "reglas inherentse"),
    ("ru", 1, "несколько обозначенйи"),
    ("ru", 2, "игрок покидеат игру"),
    ("ru", 3, "командная зона макрер"),
    ("ru", 4, "последняя комната подзмелья"),
    ("ru", 5, "боевой урно команда"),
    ("ru", 8, "два правила инициативв"),
]

# English, the rules' language, finds the rulings through the glossary (its terms per
# language) and aligned groups. The expected ruling is named by its French translation.
ENGLISH: list[tuple[str, int, str]] = [
    ("fr", 2, "player leaves the game initiative"),
    ("fr", 3, "command zone venture marker"),
    ("fr", 4, "already in a dungeon last room"),
    ("fr", 5, "combat damage team"),
    ("fr", 8, "upkeep venture into undercity"),
    ("fr", 6, "only one player initiative"),
]


def build(workdir: Path, method: str) -> Path:
    """Parse and store the seeds once, then index them with ``method``; return the index."""
    from kb import search
    from kb.pipeline import build as pipeline

    db_path = workdir / "rulings.db"
    if not db_path.exists():
        out = workdir / "_build"
        pipeline.build([str(ROOT / "rulings")], out)
        db_path = out / "rulings.db"
    index_dir = workdir / f"index-{method}"
    search.build_index(pipeline.store.open_db(db_path), index_dir, method)
    return index_dir


def expected_groups(index_dir: Path) -> dict[tuple[str, int], str]:
    """(language, position) -> group id, read from the index: each document (a group in one
    language) keeps the ruling it shows (ids end in #position; a seed file has one card)."""
    from kb.search import open_index

    with open_index(index_dir).searcher() as searcher:
        return {
            (d["lang"], int(d["shown"][0].rsplit("#", 1)[1])): d["group"]
            for d in searcher.all_stored_fields()
        }


def evaluate(index_dir: Path, queries, expected) -> tuple[dict, list, list]:
    """Per language {r1, r3, mrr, n}, the latencies (s) and the misses (not in top 3)."""
    from kb.search import search

    ranks: dict[str, list[int | None]] = {}
    latencies, misses = [], []
    for lang, position, text in queries:
        started = time.perf_counter()
        hits = search(index_dir, text, limit=10)
        latencies.append(time.perf_counter() - started)
        groups = [h.group for h in hits]
        want = expected[(lang, position)]
        rank = groups.index(want) + 1 if want in groups else None
        ranks.setdefault(lang, []).append(rank)
        if rank is None or rank > 3:
            misses.append((lang, position, text, rank, hits[:3]))
    table = {lang: _scores(r) for lang, r in ranks.items()}
    table["all"] = _scores([x for r in ranks.values() for x in r])
    return table, latencies, misses


def _scores(ranks: list[int | None]) -> dict:
    n = len(ranks)
    return {
        "n": n,
        "r1": sum(r == 1 for r in ranks) / n,
        "r3": sum(r is not None and r <= 3 for r in ranks) / n,
        "mrr": sum(1 / r for r in ranks if r) / n,
    }


def print_table(title: str, table: dict) -> None:
    print(f"\n{title}")
    print(f"  {'lang':5} {'n':>3} {'recall@1':>9} {'recall@3':>9} {'MRR':>6}")
    for lang, s in table.items():
        print(f"  {lang:5} {s['n']:>3} {s['r1']:>9.2f} {s['r3']:>9.2f} {s['mrr']:>6.3f}")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def run(method: str, workdir: Path, show_misses: bool) -> None:
    started = time.perf_counter()
    index_dir = build(workdir, method)
    built = time.perf_counter() - started
    expected = expected_groups(index_dir)
    first = time.perf_counter()
    from kb.search import search

    search(index_dir, "initiative", limit=10)  # opens the index, loads stemmers: cold start
    cold = time.perf_counter() - first
    main, lat_main, miss_main = evaluate(index_dir, QUERIES, expected)
    typos, lat_typo, miss_typo = evaluate(index_dir, TYPOS, expected)
    english, lat_en, miss_en = evaluate(index_dir, ENGLISH, expected)
    print(f"\n=== analysis method: {method} (index built in {built:.2f}s) ===")
    print_table(f"Main query set ({len(QUERIES)} queries)", main)
    print_table(f"One-edit typos on their own ({len(TYPOS)} queries)", typos)
    print_table(
        f"English queries, cross-language ({len(ENGLISH)} queries; "
        "informative, needs alignment + glossary)",
        {"en": english["all"]},
    )
    latencies = lat_main + lat_typo + lat_en
    print(
        f"\nLatency in-process over {len(latencies)} queries: "
        f"p50 {statistics.median(latencies) * 1000:.1f} ms, "
        f"p95 {percentile(latencies, 95) * 1000:.1f} ms, "
        f"max {max(latencies) * 1000:.1f} ms (first query, cold: {cold * 1000:.0f} ms)"
    )
    print(
        f"A fresh process's first query (import, open, load analysis): "
        f"{fresh_process_query(index_dir) * 1000:.0f} ms; `kb search` end to end: "
        f"{cli_query(index_dir) * 1000:.0f} ms"
    )
    if show_misses:
        for lang, position, text, rank, hits in miss_main + miss_typo + miss_en:
            print(
                f"  MISS [{lang} #{position}] {text!r}: rank {rank}; top "
                + ", ".join(f"{h.lang}#{h.id.rsplit('#', 1)[1]}" for h in hits)
            )


_FRESH = """
import sys, time
started = time.perf_counter()
from kb.search import search
search(sys.argv[1], sys.argv[2])
print(time.perf_counter() - started)
"""


def fresh_process_query(index_dir: Path, query: str = "получить инициативу Verlieses") -> float:
    """Seconds from import to answer of one query in a new Python process (median of 3)."""
    import subprocess

    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", _FRESH, str(index_dir), query],
                check=True,
                capture_output=True,
                text=True,
                cwd=ROOT,
            ).stdout
        )
        for _ in range(3)
    ]
    return statistics.median(runs)


def cli_query(index_dir: Path, query: str = "получить инициативу Verlieses") -> float:
    """Wall seconds of `kb search` (a new process, as a user runs it; median of 3)."""
    import subprocess

    db = (
        index_dir.parent / f"cli-{index_dir.name}" / "rulings.db"
    )  # `kb search` finds index/ next to --db
    if not (db.parent / "index").exists():
        db.parent.mkdir(exist_ok=True)
        (db.parent / "index").symlink_to(index_dir.resolve())
    runs = []
    for _ in range(3):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "kb", "search", query, "--db", str(db)],
            check=True,
            capture_output=True,
            cwd=ROOT,
        )
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def main(argv=None) -> None:
    from kb.search.analysis import DEFAULT_METHOD, METHODS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", action="store_true", help="run every analysis method")
    parser.add_argument("--method", choices=METHODS, default=DEFAULT_METHOD)
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for method in METHODS if args.compare else (args.method,):
            run(method, Path(tmp), args.show_misses)


if __name__ == "__main__":
    main()
