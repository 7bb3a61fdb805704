"""Text shown on a terminal, safely: file names of any bytes, texts with control characters.

A file name on Linux is bytes; Python reads the ones that are not UTF-8 with lone surrogates
(``os.fsdecode``), which cannot be printed or stored. A name or a ruling may also carry
control characters that a terminal acts on (ESC sequences clear the screen or recolour it;
bidirectional overrides reorder what is shown). Whatever is printed goes through
:func:`printable`: such characters are written as Python escapes, everything else as is.

>>> printable("ru-\\udcff.txt"), printable("bell\\x07"), printable("Случай 1")
('ru-\\\\xff.txt', 'bell\\\\x07', 'Случай 1')
"""

from __future__ import annotations

import os
import re

#: Characters a terminal acts on or that reorder text: C0 but tab and line ends, DEL, C1, lone
#: surrogates (undecodable bytes of a file name), and the bidirectional controls.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
#: In one line (a message, a file name), tab and line ends are escaped too.
_UNSAFE_IN_LINE = re.compile(_UNSAFE.pattern[:-1] + "\t\n\r]")


def _escape(match: re.Match) -> str:
    char = match.group()
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, one_line: bool = True) -> str:
    """``text`` with every control character escaped (with ``one_line``, tabs and line ends
    too), so that printing it can neither act on a terminal nor fail to encode."""
    return (_UNSAFE_IN_LINE if one_line else _UNSAFE).sub(_escape, text)


def shown_path(path: str | bytes | os.PathLike) -> str:
    """A path for a message: as given, decoded from bytes, escaped by :func:`printable`."""
    return printable(os.fsdecode(path))


#: Control characters (Unicode's Cc) but tab and line ends: never text of a ruling.
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def utf8_name(path: str) -> bool:
    """Whether a path (as ``os.fsdecode`` gives it) is valid UTF-8, as the store needs."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
