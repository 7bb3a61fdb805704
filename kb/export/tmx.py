"""``kb export tmx``: the aligned rulings as TMX 1.4b, for translation memories.

One ``<tu>`` per ruling group (its rules in ``<prop type="x-rule">``), one ``<tuv xml:lang>``
per language holding the ruling text verbatim in ``<seg>``; the cards and sources go in
``<prop>`` elements. When a group has the same ruling on several cards of one language, the
first card's text is the segment and the other cards are listed in its props (TMX tools expect
one variant per language).

The source language: when the corpus holds English originals, the header's ``srclang`` is
``en``, a unit with its original says ``srclang="en"`` and lists it first, and a unit without
one says ``srclang="*all*"``; without originals the header says ``*all*``. CAT tools (OmegaT,
Trados, memoQ) match one source against one target, so :func:`to_tmx` also writes one language
pair (``pair=("en", "fr")``: the units holding both, the two variants, ``srclang`` the first)
and :func:`write_pairs` a file per pair. Dates are TMX's ``YYYYMMDDThhmmssZ``: each variant's
``creationdate`` is its ruling's date, the header's the latest of them (a function of the
corpus, so the same corpus gives the same bytes).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import sqlite_utils

from kb import __version__, align, store
from kb.corpus.languages import LANGUAGES, SOURCE_LANGUAGES, lang_order
from kb.errors import KbError
from kb.export.xmldoc import XML_LANG, serialise, xml_text

ALL = "*all*"


def tmx_date(iso: str) -> str:
    """An ISO 8601 date as TMX writes dates (UTC).

    >>> tmx_date("2022-06-10")
    '20220610T000000Z'
    """
    return iso.replace("-", "") + "T000000Z"


def to_tmx(db: sqlite_utils.Database, pair: tuple[str, str] | None = None) -> str:
    """The store's ruling groups as a TMX 1.4b document (of one language ``pair`` if given:
    the source language first)."""
    groups = groups_of(db)
    if pair is not None:
        groups = [g for g in groups if set(pair) <= {m["lang"] for m in g["members"]}]
        srclang = pair[0]
    else:
        srclang = next(
            (lang for lang in SOURCE_LANGUAGES if any(g.get("source") == lang for g in groups)), ALL
        )
    dates = [m["date"] for g in groups for m in g["members"] if pair is None or m["lang"] in pair]
    root = ET.Element("tmx", version="1.4")
    ET.SubElement(
        root,
        "header",
        {
            "creationtool": "rulings-kb",
            "creationtoolversion": __version__,
            "segtype": "paragraph",
            "o-tmf": "rulings-kb",
            "adminlang": "en",
            "srclang": srclang,
            "datatype": "plaintext",
            **({"creationdate": tmx_date(max(dates))} if dates else {}),
        },
    )
    body = ET.SubElement(root, "body")
    for group in groups:
        tu = ET.SubElement(body, "tu", tuid=str(group["id"]))
        if pair is None and srclang != ALL:
            tu.set("srclang", group.get("source") or ALL)
        for rule in group.get("rules") or []:
            _prop(tu, "x-rule", rule)
        for lang, members in _by_language(group["members"]).items():
            if pair is None or lang in pair:
                _tuv(tu, lang, members)
    return serialise(root, '<!DOCTYPE tmx SYSTEM "tmx14.dtd">')


def language_pairs(db: sqlite_utils.Database) -> list[tuple[str, str]]:
    """The pairs a CAT tool would import: (source, translation language) for each
    translation language when the corpus has originals, else every two translation
    languages (in the corpus' order, the first as source)."""
    langs = sorted({r[0] for r in db.execute("SELECT DISTINCT lang FROM rulings")}, key=lang_order)
    sources = [lang for lang in langs if lang in SOURCE_LANGUAGES]
    targets = [lang for lang in langs if lang not in SOURCE_LANGUAGES]
    if sources:
        return [(source, target) for source in sources for target in targets]
    return [(a, b) for i, a in enumerate(targets) for b in targets[i + 1 :]]


def parse_pair(text: str) -> tuple[str, str]:
    """``en-fr`` -> ("en", "fr"); KbError for anything else."""
    parts = tuple(text.lower().split("-"))
    known = SOURCE_LANGUAGES + LANGUAGES
    if len(parts) != 2 or parts[0] == parts[1] or not all(p in known for p in parts):
        raise KbError(
            f"--pair {text!r}: expected two languages as SRC-TGT, e.g. en-fr "
            f"(languages: {', '.join(known)})"
        )
    return parts[0], parts[1]


def write_pairs(
    db: sqlite_utils.Database, folder: Path, pairs: list[tuple[str, str]] | None = None
) -> list[Path]:
    """One TMX file per language pair (``rulings.en-fr.tmx``) in ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for pair in pairs or language_pairs(db):
        path = folder / f"rulings.{pair[0]}-{pair[1]}.tmx"
        path.write_text(to_tmx(db, pair), encoding="utf-8")
        written.append(path)
    return written


def groups_of(db) -> list[dict]:
    """Alignment's groups when the store has them, else one group per ruling."""
    if "groups" in db.table_names():
        return align.groups(db)
    return [{"id": r["id"], "rules": [], "members": [r]} for r in store.rulings(db)]


def _by_language(members: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for member in sorted(members, key=lambda m: lang_order(m["lang"])):  # the source first
        out.setdefault(member["lang"], []).append(member)
    return out


def _tuv(tu: ET.Element, lang: str, members: list[dict]) -> None:
    first = members[0]
    tuv = ET.SubElement(tu, "tuv", {XML_LANG: lang, "creationdate": tmx_date(first["date"])})
    for member in members:
        _prop(tuv, "x-card", member["card"])
        _prop(tuv, "x-source", f"{member['source']}:{member['line']}")
    _prop(tuv, "x-date", first["date"])
    ET.SubElement(tuv, "seg").text = xml_text(first["text"], first)


def _prop(parent: ET.Element, kind: str, value: str) -> None:
    ET.SubElement(parent, "prop", type=kind).text = xml_text(str(value))
