"""Exchange formats for CAT tools: TMX 1.4b (the aligned rulings) and TBX (the glossary).

- :func:`to_tmx`: one ``<tu>`` per ruling group, one ``<tuv xml:lang>`` per language holding
  the ruling text verbatim in ``<seg>``; the cards and sources go in ``<prop>`` elements. When a
  group has the same ruling on several cards of one language, the first card's text is the
  segment and the other cards are listed in its props (TMX tools expect one variant per
  language).
- :func:`to_tbx`: TBX (ISO 30042, the MARTIF core structure that translate-toolkit and most
  CAT tools read): one ``<termEntry>`` per glossary concept, one ``<langSet>`` per language,
  one ``<tig>`` per term, the first marked preferred and the others admitted.

Text the XML 1.0 character set cannot hold (control characters) cannot be written verbatim;
such a text is a KbError naming the ruling, never silently changed.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import sqlite_utils

from kb import __version__, store
from kb.errors import KbError, Problem

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


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
    return _serialise(root, '<!DOCTYPE tmx SYSTEM "tmx14.dtd">')


def _groups(db) -> list[dict]:
    """Alignment's groups when the store has them, else one group per ruling."""
    if "groups" in db.table_names():
        from kb import align

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
    ET.SubElement(tuv, "seg").text = _xml_text(first["text"], first)


def _prop(parent: ET.Element, kind: str, value: str) -> None:
    ET.SubElement(parent, "prop", type=kind).text = _xml_text(str(value))


def _xml_text(text: str, ruling: dict | None = None) -> str:
    bad = _NOT_XML.search(text)
    if bad:
        where = (ruling["source"], ruling.get("line") or 0) if ruling else ("kb", 0)
        raise KbError([Problem(str(where[0]), where[1],
                               f"U+{ord(bad.group(0)):04X} cannot be written to XML")])
    return text


def to_tbx(glossary=None) -> str:
    """The glossary (``kb.reference.glossary.load()`` by default) as a TBX document."""
    if glossary is None:
        from kb.reference import glossary as glossary_module

        glossary = glossary_module.load()
    root = ET.Element("martif", {"type": "TBX", XML_LANG: "en"})
    header = ET.SubElement(ET.SubElement(root, "martifHeader"), "fileDesc")
    ET.SubElement(ET.SubElement(header, "sourceDesc"), "p").text = (
        f"rulings-kb {__version__} glossary: the terms of the rules in English and the ruling "
        f"languages, preferred term first")
    body = ET.SubElement(ET.SubElement(root, "text"), "body")
    for concept in glossary.concepts:
        _term_entry(body, concept)
    return _serialise(root, '<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">')


def _term_entry(body: ET.Element, concept) -> None:
    entry = ET.SubElement(body, "termEntry", id=concept.id)
    if concept.keep_english:
        ET.SubElement(entry, "note").text = "Name kept in English in every language."
    for lang, terms in concept.terms.items():
        lang_set = ET.SubElement(entry, "langSet", {XML_LANG: lang})
        for index, term in enumerate(dict.fromkeys(terms)):
            tig = ET.SubElement(lang_set, "tig")
            ET.SubElement(tig, "term").text = _xml_text(term)
            status = "preferredTerm-admn-sts" if index == 0 else "admittedTerm-admn-sts"
            ET.SubElement(tig, "termNote", type="administrativeStatus").text = status


def _serialise(root: ET.Element, doctype: str) -> str:
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{doctype}\n{body}\n'
