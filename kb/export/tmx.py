"""``kb export tmx``: the aligned rulings as TMX 1.4b, for translation memories.

One ``<tu>`` per ruling group (its rules in ``<prop type="x-rule">``), one ``<tuv xml:lang>``
per language holding the ruling text verbatim in ``<seg>``; the cards and sources go in
``<prop>`` elements. When a group has the same ruling on several cards of one language, the
first card's text is the segment and the other cards are listed in its props (TMX tools expect
one variant per language).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import sqlite_utils

from kb import __version__, align, store
from kb.export.xmldoc import XML_LANG, serialise, xml_text


def to_tmx(db: sqlite_utils.Database) -> str:
    """The store's ruling groups as a TMX 1.4b document."""
    root = ET.Element("tmx", version="1.4")
    ET.SubElement(root, "header", {
        "creationtool": "rulings-kb", "creationtoolversion": __version__,
        "segtype": "paragraph", "o-tmf": "rulings-kb", "adminlang": "en",
        "srclang": "*all*", "datatype": "plaintext"})
    body = ET.SubElement(root, "body")
    for group in _groups(db):
        tu = ET.SubElement(body, "tu", tuid=str(group["id"]))
        for rule in group.get("rules") or []:
            _prop(tu, "x-rule", rule)
        for lang, members in _by_language(group["members"]).items():
            _tuv(tu, lang, members)
    return serialise(root, '<!DOCTYPE tmx SYSTEM "tmx14.dtd">')


def _groups(db) -> list[dict]:
    """Alignment's groups when the store has them, else one group per ruling."""
    if "groups" in db.table_names():
        return align.groups(db)
    return [{"id": r["id"], "rules": [], "members": [r]} for r in store.rulings(db)]


def _by_language(members: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for member in members:
        out.setdefault(member["lang"], []).append(member)
    return out


def _tuv(tu: ET.Element, lang: str, members: list[dict]) -> None:
    first = members[0]
    tuv = ET.SubElement(tu, "tuv", {XML_LANG: lang})
    for member in members:
        _prop(tuv, "x-card", member["card"])
        _prop(tuv, "x-source", f"{member['source']}:{member['line']}")
    _prop(tuv, "x-date", first["date"])
    ET.SubElement(tuv, "seg").text = xml_text(first["text"], first)


def _prop(parent: ET.Element, kind: str, value: str) -> None:
    ET.SubElement(parent, "prop", type=kind).text = xml_text(str(value))
