"""Finding English on a built site's non-English trees (a plain module, used by test_english.py).

Every text node of every page, and the attributes a reader meets (aria-label, title, ...), is
sorted into:

- data: words of the corpus (a ruling's text or an excerpt of it, wherever it is shown; one
  word of it where marked ``translate="no"``), a kept name, a language's own name, a team
  checklist's message (the team's own words), or a text inside an element whose ``lang`` is
  another ruling language: not the interface's to translate. Text marked ``translate="no"`` must be
  data: marked so and English, it is reported;
- English marked as such (``lang="en"`` on a non-English tree);
- English left untranslated: an English msgid of the site's or the examples' catalogs that the
  tree's catalog translates to something else, an identifier (``two_headed_giant``,
  ``untranslated-fragment``), or a longer text the project's language detector (lingua, as the
  corpus stage uses it) reads as English.

Names the glossary keeps in English, the core's dungeon and room names, the examples' player
names and the corpus' card names are taken out of a text before it is judged.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import html5lib
import yaml
from babel.messages.pofile import read_po

from kb.corpus.languages import LANGUAGES, detect_many
from kb.reference import catalogs
from kb.site import i18n

SKIPPED_TAGS = {"script", "style", "template"}
VISIBLE_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")
#: The project's own name and the data formats and standards the pages name.
OWN_NAMES = {"rulings-kb", "JSON", "CLDR", "U+202F", "U+00A0"}
IDENTIFIER = re.compile(r"(?<![\w-])[a-z]+(?:[_-][a-z]+)+(?![\w-])")
NOT_WORDS = re.compile(r"[\d.,:;()\[\]{}/+#·—–…«»“”„\"'’‹›?!¿¡%=|*×<>-]+")
POSSESSIVE = re.compile(r"\b\w+['’]s\b")  # Bruno's Wolf: a creature's name in an example
PATH = re.compile(r"\S*/\S+")  # a corpus file's path (a finding's place): data


@dataclass(frozen=True)
class Found:
    tree: str
    how: str  # marked | catalog | identifier | detected | data
    text: str
    page: str


class Judge:
    """What a site's pages may show on a non-English tree, from the build's store and catalogs."""

    def __init__(self, site: Path):
        self.names = sorted(kept_names(site), key=len, reverse=True)
        db = sqlite3.connect(site.parent / "rulings.db")
        try:
            self.corpus = "\n".join(
                " ".join(text.split()) for (text,) in db.execute("SELECT text FROM rulings")
            )
            # A team checklist's messages are the team's own words, shown as written.
            self.team = {
                " ".join(message.split())
                for (message,) in db.execute(
                    "SELECT message FROM findings WHERE \"check\" = 'checklist'"
                )
            }
        finally:
            db.close()
        self.autonyms = {i18n.autonym(code) for code in ("en", *LANGUAGES)}
        self.english = {lang: english_msgids(lang) for lang in LANGUAGES}

    def residue(self, text: str) -> str:
        """``text`` without kept names, numbers and punctuation."""
        for name in self.names:
            text = text.replace(name, " ")
        text = NOT_WORDS.sub(" ", POSSESSIVE.sub(" ", PATH.sub(" ", text)))
        return " ".join(text.split())

    def data(self, text: str) -> bool:
        """Whether ``text`` is data: words of the corpus (a quotation, an excerpt), names, a
        language's own name, or nothing but marks."""
        flat = " ".join(text.split())
        quoted = flat.removesuffix("…")
        return (
            not self.residue(flat)
            or flat in self.autonyms
            or flat in self.team
            or (" " in quoted and quoted in self.corpus)
        )  # a word alone may be anyone's

    def quoted_word(self, text: str) -> bool:
        """Whether ``text`` is one word of the corpus (a finding quoting the word at fault),
        for text marked as data."""
        flat = " ".join(text.split())
        return " " not in flat and bool(re.search(rf"(?<!\w){re.escape(flat)}(?!\w)", self.corpus))

    def judge(self, site: Path, trees=LANGUAGES, inside: str | None = None) -> list[Found]:
        """The English texts of the pages of ``trees`` (only those in elements with the
        attribute ``inside``, when given)."""
        found, pending = [], {}
        for tree in trees:
            for page in sorted((site / tree).rglob("*.html")):
                key = page.relative_to(site).as_posix()
                for lang, keep, text in texts(page, tree, inside):
                    flat = " ".join(text.split())
                    rest = self.residue(flat)
                    if self.data(flat) or (keep and self.quoted_word(flat)):
                        continue  # the corpus' words (an excerpt), names, marks
                    if keep and lang == "en":
                        found.append(Found(tree, "data", flat, key))  # English said to be data
                    elif not rest or (lang != tree and lang != "en"):
                        continue  # names only, or a quotation in another ruling language
                    elif lang == "en":
                        found.append(Found(tree, "marked", flat, key))
                    elif flat in self.english[tree] or rest in self.english[tree]:
                        found.append(Found(tree, "catalog", flat, key))
                    elif IDENTIFIER.search(rest):
                        found.append(Found(tree, "identifier", flat, key))
                    else:
                        pending.setdefault(rest, []).append(Found(tree, "detected", flat, key))
        order = list(pending)
        for rest, detection in zip(order, detect_many(order)):
            if detection.candidates and detection.candidates[0][0] == "en":
                found += pending[rest]
        return found


def texts(page: Path, tree: str, inside: str | None = None) -> list[tuple[str, bool, str]]:
    """(language, marked translate="no", text) of every text node and visible attribute (only
    those in elements with the attribute ``inside``, when given)."""
    doc = html5lib.parse(page.read_bytes(), namespaceHTMLElements=False)
    out: list[tuple[str, bool, str]] = []

    def walk(element, lang: str, keep: bool, seen: bool) -> None:
        if element.tag in SKIPPED_TAGS:
            return
        seen = seen or element.get(inside) is not None
        lang = element.get("lang", lang)
        keep = keep or element.get("translate") == "no"
        if seen:
            for name in VISIBLE_ATTRIBUTES:
                if element.get(name):
                    out.append((lang, keep, element.get(name)))
            if element.get("id") == "search-results":  # the words search.js shows
                out.extend(
                    (lang, keep, value)
                    for name, value in element.attrib.items()
                    if name.startswith("data-") and " " in value
                )
            if element.text and element.text.strip():
                out.append((lang, keep, element.text))
        for child in element:
            if isinstance(child.tag, str):
                walk(child, lang, keep, seen)
            if seen and child.tail and child.tail.strip():
                out.append((lang, keep, child.tail))

    walk(doc, tree, False, inside is None)
    return out


def english_msgids(lang: str) -> set[str]:
    """The English msgids that ``lang``'s catalogs translate to other words."""
    out = set()
    for domain in ("site", "examples"):
        path = catalogs.po_path(domain, lang)
        if not path.is_file():
            continue
        with path.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                out.update(i for i in ids if i and i not in strings and "%" not in i)
    return out


def kept_names(site: Path) -> set[str]:
    """Names shown as they are in every language."""
    from kb.core import dungeons
    from kb.reference import glossary

    names = set(OWN_NAMES)
    for concept in glossary.load().concepts:
        if concept.keep_english:
            names.update(term for terms in concept.terms.values() for term in terms)
    for value in vars(dungeons).values():
        if isinstance(value, dungeons.Dungeon):
            names.add(value.name)
            names.update(room.name for room in value.rooms)
    examples = Path(dungeons.__file__).resolve().parents[1] / "examples"
    for path in examples.rglob("*.yaml"):
        names.update((yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("players") or [])
    db = sqlite3.connect(site.parent / "rulings.db")
    try:
        names.update(name for (name,) in db.execute("SELECT name FROM cards"))
    finally:
        db.close()
    return {name for name in names if name}


def foreign_ruling_titles(site: Path) -> list[tuple[str, str]]:
    """(page, title) of each ruling titled in another language on the English tree: links to
    ruling pages and a ruling page's heading, outside a language's listing and a card's page
    (which show rulings in their own language on purpose)."""
    out = []
    for page in sorted((site / "en").rglob("*.html")):
        key = page.relative_to(site / "en").as_posix()
        if key.startswith(("lang/", "card/")):
            continue
        doc = html5lib.parse(page.read_bytes(), namespaceHTMLElements=False)
        for link in doc.iter("a"):
            if (
                "ruling/" in (link.get("href") or "")
                and link.get("lang", "en") != "en"
                and not link.get("hreflang")
            ):  # the language switcher names languages
                out.append((key, "".join(link.itertext())))
        if key.startswith("ruling/"):
            for heading in doc.iter("h1"):
                out += [
                    (key, "".join(span.itertext()))
                    for span in heading.iter("span")
                    if span.get("lang", "en") != "en"
                ]
    return out
