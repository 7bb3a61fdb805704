"""A synthetic corpus: N cards x 5 languages x 10 rulings, made from the seeds.

The tests' ``synthetic`` fixture (``tests/conftest.py``) builds one of 2,000 rulings; the
benchmarks generate larger ones with ``benchmarks/synth.py``, a command line over this
module (one generator, so the tests exercise the corpus the benchmarks measure).

Every synthetic card has one file per language (ru, it, fr, de, es), each holding the ten seed
rulings of that language in a card-specific order (the same order in all five files, as a real
card's translations are). Of the ten seed rulings:

- the :data:`SHARED` ones are copied word for word onto every card: in the truth they are one
  group each, however many cards carry them (as the initiative's rulings are printed on every
  initiative card);
- the others are made *card-specific*: the card's number is written into the text in all five
  languages (``Karte 0042``-style, same digits everywhere), so each becomes its own group per
  card, distinguishable only by the number; everything else (concepts, length, sentences) is the
  seed's. This is the hard case for the aligner: thousands of near-twins.

Names: each card's name in a language is a seed card name of that language plus the card
number, so names stay in the file's script and are unique per language.

Next to the corpus, ``expected.json`` maps every ruling (``file name#position``) to its true
group key (``shared-<seed position>`` or ``card<k>-<seed position>``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from kb.corpus import parse

ROOT = Path(__file__).resolve().parent.parent

LANGS = ("ru", "it", "fr", "de", "es")
#: Seed positions copied verbatim onto every card (one group each in the whole corpus).
SHARED = (1, 2, 6, 9)
#: How a card is named inside a card-specific ruling, per language (the card's number follows).
CARD_WORD = {"ru": "Карта", "it": "Carta", "fr": "Carte", "de": "Karte", "es": "Carta"}
RULINGS_PER_CARD = 10


def seeds(folder: Path = ROOT / "rulings") -> dict[str, tuple[str, str, list[str]]]:
    """{lang: (card name, raw date line, [ruling texts in seed order])} from the seed files."""
    out = {}
    for path in sorted(folder.glob("*.txt")):
        parsed = parse.parse_file(path)
        if parsed.lang in out:
            continue  # fr and it name the same card; one file per language is enough
        date_line = next(
            line.strip()
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and line.strip()[0].isdigit()
        )
        out[parsed.lang] = (parsed.card, date_line, [r.text for r in parsed.rulings])
    missing = set(LANGS) - set(out)
    if missing:
        raise SystemExit(f"seeds lack languages: {', '.join(sorted(missing))}")
    return out


def card_specific(text: str, lang: str, number: int) -> str:
    """The seed text made specific to card ``number``: a lead-in naming the card, same digits."""
    return f"{CARD_WORD[lang]} {number:04d}: {text}"


def generate(out: Path, rulings: int, seed: int = 1) -> dict:
    """Write about ``rulings`` rulings under ``out/rulings`` and ``out/expected.json``."""
    source = seeds()
    cards = max(1, round(rulings / (len(LANGS) * RULINGS_PER_CARD)))
    rng = random.Random(seed)
    corpus = out / "rulings"
    corpus.mkdir(parents=True, exist_ok=True)
    expected: dict[str, str] = {}
    for k in range(1, cards + 1):
        order = list(range(1, RULINGS_PER_CARD + 1))
        rng.shuffle(order)
        for lang in LANGS:
            name, date_line, texts = source[lang]
            lines = [f"{name} {k:04d}", ""]
            file_name = f"{lang}-card-{k:05d}.txt"
            for position, seed_pos in enumerate(order, start=1):
                text = texts[seed_pos - 1]
                if seed_pos in SHARED:
                    key = f"shared-{seed_pos}"
                else:
                    text, key = card_specific(text, lang, k), f"card{k}-{seed_pos}"
                lines += [date_line, "", text, ""]
                expected[f"{file_name}#{position}"] = key
            (corpus / file_name).write_text("\n".join(lines), encoding="utf-8")
    summary = {
        "cards": cards,
        "languages": len(LANGS),
        "rulings": len(expected),
        "groups": len(set(expected.values())),
        "seed": seed,
    }
    (out / "expected.json").write_text(
        json.dumps({"summary": summary, "groups": expected}, ensure_ascii=False, indent=0),
        encoding="utf-8",
    )
    return summary
