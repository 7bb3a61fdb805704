"""``kb export xliff``: one language pair as XLIFF 2.0, the file a translator opens in a CAT tool.

``<xliff version="2.0" srcLang trgLang>`` with one ``<file>`` and one ``<unit>`` per ruling
group that has the source language (its id is the group's); the unit's ``<notes>`` say its
rules, the cards and the files of both texts; its ``<segment>`` holds the source text and,
when the group has the target language, the target text (``state="translated"``), else no
target (``state="initial"``: a ruling still to translate). Texts are verbatim
(``xml:space="preserve"``); a group printed on several cards gives the first card's text, as
in the TMX.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import sqlite_utils

from kb import __version__
from kb.corpus.languages import CORPUS_LANGUAGES
from kb.errors import KbError
from kb.export.tmx import groups_of
from kb.export.xmldoc import serialise, xml_text

XLIFF_NAMESPACE = "urn:oasis:names:tc:xliff:document:2.0"
_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


def to_xliff(db: sqlite_utils.Database, source: str, target: str) -> str:
    """The groups with ``source`` text, translated into ``target`` where the corpus has it."""
    for lang in (source, target):
        if lang not in CORPUS_LANGUAGES:
            raise KbError(f"unknown language {lang!r} (use one of {', '.join(CORPUS_LANGUAGES)})")
    if source == target:
        raise KbError("--source and --target must differ")
    ET.register_namespace("", XLIFF_NAMESPACE)
    root = ET.Element(tag("xliff"), {"version": "2.0", "srcLang": source, "trgLang": target})
    file = ET.SubElement(
        root, tag("file"), {"id": "rulings", "original": f"rulings-kb {__version__}"}
    )
    for group in groups_of(db):
        mine = [m for m in group["members"] if m["lang"] == source]
        if not mine:
            continue
        theirs = [m for m in group["members"] if m["lang"] == target]
        unit = ET.SubElement(file, tag("unit"), id=_nmtoken(str(group["id"])))
        notes = ET.SubElement(unit, tag("notes"))
        for rule in group.get("rules") or []:
            ET.SubElement(notes, tag("note"), category="rule").text = rule
        for member in mine + theirs:
            ET.SubElement(
                notes,
                tag("note"),
                category="card",
                appliesTo="source" if member in mine else "target",
            ).text = xml_text(
                f"{member['card']} ({member['source']}:{member['line']}, {member['date']})", member
            )
        segment = ET.SubElement(
            unit, tag("segment"), id="1", state="translated" if theirs else "initial"
        )
        ET.SubElement(segment, tag("source"), {_SPACE: "preserve"}).text = xml_text(
            mine[0]["text"], mine[0]
        )
        if theirs:
            ET.SubElement(segment, tag("target"), {_SPACE: "preserve"}).text = xml_text(
                theirs[0]["text"], theirs[0]
            )
    return serialise(root)


def tag(name: str) -> str:
    """An element name in the XLIFF 2.0 namespace."""
    return f"{{{XLIFF_NAMESPACE}}}{name}"


def _nmtoken(text: str) -> str:
    """An id as XLIFF's NMTOKEN: letters, digits and . - _ : only."""
    return "".join(ch if ch.isalnum() or ch in ".-_:" else "_" for ch in text)
