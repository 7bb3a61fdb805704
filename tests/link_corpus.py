"""A linker test corpus from a YAML set (tests/data/links/*.yaml): one ruling file per
language, then the parse, store, align and link stages on it."""

from __future__ import annotations

from pathlib import Path

from kb import align, link, store
from kb.corpus import parse
from kb.reference.glossary import load as load_glossary


def write_rulings(folder: Path, data: dict, rulings: list[dict], stem: str) -> list[str]:
    """One ruling file per language of ``data["cards"]`` holding ``rulings`` in order (the
    card's name, then each ruling's date and text); their paths."""
    paths = []
    for lang, card in data["cards"].items():
        body = "".join(f"\n\n{data['date']}\n\n{r['texts'][lang]}" for r in rulings)
        path = folder / f"{lang}-{stem}.txt"
        path.write_text(card + body + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths


def build(folder: Path, paths: list[str], **linking):
    """(the store, the linker's lines on unlinked groups) of the ruling files ``paths``."""
    db = store.open_db(folder / "rulings.db")
    store.store_files(db, parse.parse_files(paths))
    glossary = load_glossary()
    align.store_groups(db, align.align(store.rulings(db), glossary), glossary)
    lines = link.link_groups(db, **linking)
    return db, lines
