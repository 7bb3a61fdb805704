"""What the XML writers (TMX, TBX, XLIFF) share: text XML can hold, ``xml:lang``, the
document's bytes.

Text the XML 1.0 character set cannot hold (control characters) cannot be written verbatim;
such a text is a KbError naming the ruling, never silently changed.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from kb.errors import KbError, Problem

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def xml_text(text: str, ruling: dict | None = None) -> str:
    """``text`` itself, or a KbError (at ``ruling``'s source line) if XML cannot hold it."""
    bad = _NOT_XML.search(text)
    if bad:
        where = (ruling["source"], ruling.get("line") or 0) if ruling else ("kb", 0)
        raise KbError(
            [
                Problem(
                    str(where[0]), where[1], f"U+{ord(bad.group(0)):04X} cannot be written to XML"
                )
            ]
        )
    return text


def serialise(root: ET.Element, doctype: str = "") -> str:
    """The document: XML declaration, ``doctype`` (if any), then ``root`` indented by two."""
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    head = f"{doctype}\n" if doctype else ""
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{head}{body}\n'
