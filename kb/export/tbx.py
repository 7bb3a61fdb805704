"""``kb export tbx``: the glossary as a term base for CAT tools.

By default **TBX-Basic** (TBX v3, ISO 30042:2019, the TBX-Basic dialect in its DCA style): one
``<conceptEntry id>`` per glossary concept, one ``<langSec xml:lang>`` per language (English
and the ruling languages), one ``<termSec>`` per term with its ``administrativeStatus``:

- the glossary's preferred term: ``preferredTerm-admn-sts``;
- its alternatives: ``admittedTerm-admn-sts`` (the checks accept them, as ``term-variant``
  info);
- a name kept in English (``keep_english``): the English name is the preferred term in every
  language and carries ``<admin type="projectSubset">do-not-translate</admin>``; a translated
  name the glossary lists is ``deprecatedTerm-admn-sts`` (the checks warn: ``name-translated``);
- the glossary's forbidden terms: ``deprecatedTerm-admn-sts`` (the checks warn:
  ``term-synonym``).

So the term base says what the checks accept, term for term. ``martif=True`` writes the older
TBX v2 layout (``<martif>``, ``termEntry``/``langSet``/``tig``, ISO 30042:2008) that
translate-toolkit and older tools read, with the same statuses.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from kb import __version__
from kb.export.xmldoc import XML_LANG, serialise, xml_text
from kb.reference import glossary as glossary_module

TBX_NAMESPACE = "urn:iso:std:iso:30042:ed-2"
PREFERRED, ADMITTED, DEPRECATED = (
    "preferredTerm-admn-sts",
    "admittedTerm-admn-sts",
    "deprecatedTerm-admn-sts",
)
DO_NOT_TRANSLATE = "do-not-translate"
_DESCRIPTION = (
    "rulings-kb {version} glossary: the terms of the rules in English and the "
    "ruling languages; preferred, admitted and deprecated terms as the translator "
    "checks accept them"
)


def statuses(concept) -> dict[str, list[tuple[str, str]]]:
    """{lang: [(term, administrative status), ...]} of a concept, preferred term first."""
    out: dict[str, list[tuple[str, str]]] = {}
    for lang, terms in concept.terms.items():
        terms = list(dict.fromkeys(terms))
        if concept.keep_english:
            name = concept.terms["en"][0]
            rows = [(name, PREFERRED)] + [(t, DEPRECATED) for t in terms if t != name]
        else:
            rows = [(terms[0], PREFERRED)] + [(t, ADMITTED) for t in terms[1:]]
        rows += [
            (t, DEPRECATED)
            for t in concept.forbidden.get(lang, ())
            if t not in {r[0] for r in rows}
        ]
        out[lang] = rows
    return out


def to_tbx(glossary=None, martif: bool = False) -> str:
    """The glossary (``kb.reference.glossary.load()`` by default) as TBX-Basic, or as TBX v2
    (MARTIF) with ``martif``."""
    if glossary is None:
        glossary = glossary_module.load()
    if martif:
        return _martif(glossary)
    ET.register_namespace("", TBX_NAMESPACE)
    tag = _tagger(TBX_NAMESPACE)
    root = ET.Element(tag("tbx"), {"type": "TBX-Basic", "style": "dca", XML_LANG: "en"})
    file_desc = ET.SubElement(ET.SubElement(root, tag("tbxHeader")), tag("fileDesc"))
    ET.SubElement(ET.SubElement(file_desc, tag("sourceDesc")), tag("p")).text = _DESCRIPTION.format(
        version=__version__
    )
    body = ET.SubElement(ET.SubElement(root, tag("text")), tag("body"))
    for concept in glossary.concepts:
        entry = ET.SubElement(body, tag("conceptEntry"), id=concept.id)
        if concept.keep_english:
            ET.SubElement(
                entry, tag("note")
            ).text = "A name kept in English in every language: do not translate."
        for lang, rows in statuses(concept).items():
            lang_sec = ET.SubElement(entry, tag("langSec"), {XML_LANG: lang})
            for term, status in rows:
                term_sec = ET.SubElement(lang_sec, tag("termSec"))
                ET.SubElement(term_sec, tag("term")).text = xml_text(term)
                ET.SubElement(term_sec, tag("termNote"), type="administrativeStatus").text = status
                if concept.keep_english and status == PREFERRED:
                    ET.SubElement(
                        term_sec, tag("admin"), type="projectSubset"
                    ).text = DO_NOT_TRANSLATE
    return serialise(root, "")


def _tagger(namespace: str):
    return lambda name: f"{{{namespace}}}{name}"


def _martif(glossary) -> str:
    root = ET.Element("martif", {"type": "TBX", XML_LANG: "en"})
    header = ET.SubElement(ET.SubElement(root, "martifHeader"), "fileDesc")
    ET.SubElement(ET.SubElement(header, "sourceDesc"), "p").text = _DESCRIPTION.format(
        version=__version__
    )
    body = ET.SubElement(ET.SubElement(root, "text"), "body")
    for concept in glossary.concepts:
        entry = ET.SubElement(body, "termEntry", id=concept.id)
        if concept.keep_english:
            ET.SubElement(entry, "note").text = "Name kept in English in every language."
        for lang, rows in statuses(concept).items():
            lang_set = ET.SubElement(entry, "langSet", {XML_LANG: lang})
            for term, status in rows:
                tig = ET.SubElement(lang_set, "tig")
                ET.SubElement(tig, "term").text = xml_text(term)
                ET.SubElement(tig, "termNote", type="administrativeStatus").text = status
    return serialise(root, '<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">')
