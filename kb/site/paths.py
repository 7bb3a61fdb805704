"""File names and relative links of the site.

Card names and group ids are data: they may hold ``/``, ``..``, NUL, markup, thousands of
characters, or differ from another name only in case. :func:`slug` turns any of them into a
file name that is safe on every file system and static host (ASCII ``[a-z0-9-]``, at most
:data:`MAX_SLUG` characters) and distinct for distinct inputs even on case-insensitive file
systems, because it ends with a hash of the exact input. Links are always relative
(:func:`rel`), so the built folder works from ``file://`` and under any URL prefix.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import cache, lru_cache

#: Longest slug; with a folder and ``.html`` the path stays far below every limit (255 bytes).
MAX_SLUG = 72
_HASH_CHARS = 10  # 40 bits: a collision needs ~a million names with the same readable part

# Russian letters have no decomposition into ASCII; a short table keeps their slugs readable.
_CYRILLIC = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщыэюяєіїґ",
        [
            "a",
            "b",
            "v",
            "g",
            "d",
            "e",
            "yo",
            "zh",
            "z",
            "i",
            "y",
            "k",
            "l",
            "m",
            "n",
            "o",
            "p",
            "r",
            "s",
            "t",
            "u",
            "f",
            "kh",
            "ts",
            "ch",
            "sh",
            "shch",
            "y",
            "e",
            "yu",
            "ya",
            "ye",
            "i",
            "yi",
            "g",
        ],
    )
) | {"ъ": "", "ь": ""}


@cache  # every card and group, asked for by the plan and again by each tree
def slug(text: str) -> str:
    """A safe, readable, distinct file-name stem for ``text``.

    >>> slug("Chasseur vengeur")
    'chasseur-vengeur-46a7d19adb'
    >>> slug("../etc/passwd") != slug("etc/passwd")
    True
    >>> slug("Foo") != slug("foo")
    True
    """
    readable = _readable(text)[: MAX_SLUG - _HASH_CHARS - 1].strip("-")
    digest = short_digest(text)
    return f"{readable}-{digest}" if readable else digest


def short_digest(text: str) -> str:
    """The first :data:`_HASH_CHARS` hex digits of the SHA-256 of ``text`` (any string)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH_CHARS]


_CYRILLIC_TABLE = str.maketrans(_CYRILLIC)
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def _readable(text: str) -> str:
    lowered = text.lower().translate(_CYRILLIC_TABLE)
    ascii_only = unicodedata.normalize("NFKD", lowered).encode("ascii", "ignore").decode()
    return _NOT_ALNUM.sub("-", ascii_only).strip("-")


@lru_cache(maxsize=4096)  # a few hundred rule numbers, asked for by every group
def rule_slug(number: str) -> str:
    """Rule numbers are short and safe once dots become dashes (``726.3`` -> ``726-3``)."""
    cleaned = re.sub(r"[^0-9a-z]+", "-", number.lower()).strip("-")
    return (
        cleaned
        if cleaned and len(cleaned) <= 24 and cleaned == number.replace(".", "-")
        else slug(number)
    )


def rel(from_page: str, to_path: str) -> str:
    """The relative link from the page at ``from_page`` to ``to_path`` (both site-relative):
    up to the site root, then down (simple and cheap; every page makes hundreds of links).

    >>> rel("ru/ruling/x.html", "ru/card/y.html")
    '../../ru/card/y.html'
    >>> rel("index.html", "static/site.css")
    'static/site.css'
    """
    return root_of(from_page) + to_path


def root_of(page: str) -> str:
    """The relative prefix from ``page`` to the site root ('' or '../' repeated)."""
    depth = page.count("/")
    return "../" * depth
