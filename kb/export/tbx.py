"""``kb export tbx``: the glossary as TBX, for the term bases of CAT tools.

TBX (ISO 30042, the MARTIF core structure that translate-toolkit and most CAT tools read): one
``<termEntry>`` per glossary concept, one ``<langSet>`` per language, one ``<tig>`` per term,
the first marked preferred and the others admitted.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from kb import __version__
from kb.export.xmldoc import XML_LANG, serialise, xml_text
from kb.reference import glossary as glossary_module


def to_tbx(glossary=None) -> str:
    """The glossary (``kb.reference.glossary.load()`` by default) as a TBX document."""
    if glossary is None:
        glossary = glossary_module.load()
    root = ET.Element("martif", {"type": "TBX", XML_LANG: "en"})
    header = ET.SubElement(ET.SubElement(root, "martifHeader"), "fileDesc")
    ET.SubElement(ET.SubElement(header, "sourceDesc"), "p").text = (
        f"rulings-kb {__version__} glossary: the terms of the rules in English and the ruling "
        f"languages, preferred term first")
    body = ET.SubElement(ET.SubElement(root, "text"), "body")
    for concept in glossary.concepts:
        _term_entry(body, concept)
    return serialise(root, '<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">')


def _term_entry(body: ET.Element, concept) -> None:
    entry = ET.SubElement(body, "termEntry", id=concept.id)
    if concept.keep_english:
        ET.SubElement(entry, "note").text = "Name kept in English in every language."
    for lang, terms in concept.terms.items():
        lang_set = ET.SubElement(entry, "langSet", {XML_LANG: lang})
        for index, term in enumerate(dict.fromkeys(terms)):
            tig = ET.SubElement(lang_set, "tig")
            ET.SubElement(tig, "term").text = xml_text(term)
            status = "preferredTerm-admn-sts" if index == 0 else "admittedTerm-admn-sts"
            ET.SubElement(tig, "termNote", type="administrativeStatus").text = status
