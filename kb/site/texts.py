"""The site's words for what other stages write in English or as identifiers.

Pages show every word in the reader's language. Some texts come from other stages:

- the rules' titles and summaries (:mod:`kb.core.registry`) and the examples' titles are English
  strings; they are msgids of the site catalog (extracted by :mod:`kb.site.extract`), so
  :func:`translate` finds them there;
- a translator finding names its check by an identifier (``untranslated-fragment``):
  :data:`CHECKS` gives each a label;
- a finding's message is English prose that :mod:`kb.checks` writes from a few shapes, with
  quoted text, language names, language codes and glossary concept ids inside. :data:`MESSAGES`
  lists those shapes; :func:`finding_message` reads the parts back out of a message and writes
  it again from the reader's catalog, with languages, concepts and checks named in the reader's
  language and the quoted text as it is (marked ``translate="no"``: it is data). A message of a
  shape this module does not know is shown as written, marked ``lang="en"`` (the site's English
  test then names it).

The English source of the messages stays in kb.checks (``kb check`` prints it); the shapes here
must follow it: tests/site/test_texts.py renders a finding of each check.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from babel import Locale
from babel.lists import format_list
from markupsafe import Markup, escape

from kb.reference import glossary
from kb.site import i18n


def N_(message: str) -> str:
    """Mark a message for the catalog (pybabel's default keywords include N_)."""
    return message


def translate(text: str, ui: str) -> str:
    """``text`` (an English msgid of the site catalog) in the language ``ui``."""
    return i18n.translations(ui).gettext(text) if text else text


CHECKS = {
    "sentence-count": N_("Sentence count"),
    "missing-concept": N_("Missing concept"),
    "extra-concept": N_("Extra concept"),
    "missing-translation": N_("Missing translation"),
    "duplicate-text": N_("Duplicate text"),
    "untranslated-name": N_("Untranslated name"),
    "untranslated-fragment": N_("Untranslated fragment"),
    "number-mismatch": N_("Number mismatch"),
    "name-mismatch": N_("Name mismatch"),
    "quote-style": N_("Quotation marks"),
    "quote-punctuation": N_("Punctuation and quotation marks"),
    "french-spacing": N_("French spacing"),
    "punctuation-spacing": N_("Space before punctuation"),
    "apostrophe-mix": N_("Mixed apostrophes"),
    "inverted-marks": N_("Inverted marks"),
    "english-term": N_("English term"),
    "name-translated": N_("Name translated"),
    "term-variant": N_("Term variant"),
    "stale-suppression": N_("Unused suppression"),
    "negation": N_("Negation"),
    "condition": N_("Condition"),
    "date-mismatch": N_("Date mismatch"),
    "term-synonym": N_("Synonym of a glossary term"),
    "wrong-term": N_("Wrong term"),
    "checklist": N_("Team checklist"),
}


def check_label(check: str, ui: str) -> str:
    """The name of check ``check`` in ``ui`` (an unknown check keeps its identifier)."""
    return translate(CHECKS[check], ui) if check in CHECKS else check


#: The shapes of kb.checks' messages, each also the msgid of its translation. Parts are named
#: by what they hold (see _part); where one shape could swallow another, the narrower comes
#: first.
MESSAGES = [
    N_("%(own)s sentence where the other translations have %(agreed)s: a sentence may be "
       "missing"),
    N_("%(own)s sentences where the other translations have %(agreed)s: a sentence may be "
       "missing"),
    N_("%(own)s sentence where the other translations have %(agreed)s: a sentence may be added "
       "or split"),
    N_("%(own)s sentences where the other translations have %(agreed)s: a sentence may be "
       "added or split"),
    N_("no “%(term)s” (%(concept)s) here, though the %(langs)s translations have it"),
    N_("“%(surface)s” (%(concept)s) has no counterpart in the other translations"),
    N_("no %(lang)s translation of this ruling (it exists in %(langs)s)"),
    N_("the same text as the %(lang)s translation: copied, not translated?"),
    N_("the same text appears twice for this card (also %(place)s)"),
    N_("English name “%(excerpt)s” in the %(language)s text, not in the glossary: translate it "
       "or list it as kept in English"),
    N_("English phrase “%(excerpt)s” left in the %(language)s text"),
    N_("English word “%(excerpt)s” in the %(language)s text"),
    N_("“%(text)s” (%(value)s) is in no other translation (they have: no number)"),
    N_("“%(text)s” (%(value)s) is in no other translation (they have: %(said)s)"),
    N_("the other translations have the number %(value)s; this one does not"),
    N_("“%(name)s” appears verbatim in the %(langs)s translations but not here"),
    N_("quotation marks %(q0)s %(q1)s; the rest of the %(lang)s corpus uses %(u0)s %(u1)s"),
    N_("quotation marks %(q0)s %(q1)s: straight quotes; CLDR %(lang)s: %(p0)s %(p1)s, inside "
       "them %(a0)s %(a1)s"),
    N_("quotation marks %(q0)s %(q1)s: the inner pair used at the top level; CLDR %(lang)s: "
       "%(p0)s %(p1)s, inside them %(a0)s %(a1)s"),
    N_("quotation marks %(q0)s %(q1)s: not quotation marks of this locale; CLDR %(lang)s: "
       "%(p0)s %(p1)s, inside them %(a0)s %(a1)s"),
    N_("“%(inside)s” inside the closing quotation mark, English style; in this language it "
       "goes after the mark"),
    N_("no space after “«”: French puts a narrow no-break space (U+202F) there"),
    N_("no space before “%(mark)s”: French puts a narrow no-break space (U+202F) there"),
    N_("breaking space after “«”: use a no-break space (U+202F or U+00A0) so the line cannot "
       "break there"),
    N_("breaking space before “%(mark)s”: use a no-break space (U+202F or U+00A0) so the line "
       "cannot break there"),
    N_("space before “%(mark)s”, French style"),
    N_("apostrophe %(used)s where this language mostly uses %(usual)s (%(usual_count)s to "
       "%(used_count)s)"),
    N_("“%(mark)s” without an opening “%(opening)s”"),
    N_("English term “%(surface)s” where the glossary has “%(local)s”; translated in %(langs)s"),
    N_("English term “%(surface)s” where the glossary has “%(local)s”"),
    N_("“%(surface)s” is a name the glossary keeps in English: “%(preferred)s”"),
    N_("“%(surface)s” is an alternative term; the glossary prefers “%(preferred)s” (in this "
       "language: %(counts)s)"),
    N_("%(place)s accepts no finding of '%(check)s'; remove it"),
    # Issue 22's checks, and the messages that point at a sentence (the source's when there
    # is one).
    N_("no “%(term)s” (%(concept)s) in this sentence, where the %(langs)s translations "
       "have it (the %(lang)s source: “%(surface)s”)"),
    N_("no “%(term)s” (%(concept)s) in this sentence, where the %(langs)s translations "
       "have it"),
    N_("no “%(term)s” (%(concept)s) in this sentence, where the %(lang)s source keeps it"),
    N_("no “%(term)s” (%(concept)s) in this sentence, where the %(langs)s translations "
       "keep it"),
    N_("a negation missing: this sentence has %(own)s where the %(lang)s source has "
       "%(theirs)s: expected as “%(said)s”"),
    N_("a negation missing: this sentence has %(own)s where %(agree)s of the %(total)s "
       "other translations have more (the %(lang)s one: %(theirs)s): expected as "
       "“%(said)s”"),
    N_("a condition missing: this sentence has %(own)s where the %(lang)s source has "
       "%(theirs)s: expected as “%(said)s”"),
    N_("a condition missing: this sentence has %(own)s where %(agree)s of the %(total)s "
       "other translations have more (the %(lang)s one: %(theirs)s): expected as "
       "“%(said)s”"),
    N_("dated %(date)s where the %(lang)s source has %(want)s: day and month swapped?"),
    N_("dated %(date)s where the %(lang)s source has %(want)s (before its source: "
       "impossible for a translation)"),
    N_("dated %(date)s where the %(lang)s source has %(want)s"),
    N_("dated %(date)s where %(agree)s of the %(total)s other translations have "
       "%(want)s: day and month swapped?"),
    N_("dated %(date)s where %(agree)s of the %(total)s other translations have %(want)s"),
]

_PART = re.compile(r"%\((\w+)\)s")
#: Parts that are numbers, shown as they are.
_NUMBERS = {"own", "agreed", "value", "usual_count", "used_count", "theirs", "agree", "total"}
#: Parts quoted from a ruling's text (in the finding's language) or a glossary term.
_QUOTED = {"excerpt", "term", "surface", "name", "local", "preferred", "text"}
#: (check, part) quoting English words (the English left in a translation).
_ENGLISH = {("untranslated-fragment", "excerpt"), ("untranslated-name", "excerpt"),
            ("english-term", "surface"), ("missing-concept", "surface")}


def _pattern(template: str) -> re.Pattern:
    pieces, last = [], 0
    for match in _PART.finditer(template):
        pieces += [re.escape(template[last:match.start()]), f"(?P<{match.group(1)}>.+?)"]
        last = match.end()
    pieces.append(re.escape(template[last:]))
    return re.compile("".join(pieces), re.DOTALL)


_PATTERNS = [(template, _pattern(template)) for template in MESSAGES]


def finding_message(finding: dict, ui: str) -> Markup:
    """A finding's message in ``ui``, as HTML (its quoted parts marked as data)."""
    message = str(finding.get("message") or "")
    for template, pattern in _PATTERNS:
        match = pattern.fullmatch(message)
        if match:
            parts = {name: _part(name, value, finding, ui)
                     for name, value in match.groupdict().items()}
            return escape(translate(template, ui)) % parts
    return Markup('<span lang="en">{}</span>').format(message)


def _part(name: str, value: str, finding: dict, ui: str):
    if name in _NUMBERS:
        return value
    if name in ("lang", "language"):
        return language(_code(value), ui)
    if name == "langs":
        return format_list([language(code, ui) for code in value.split(", ")],
                           locale=i18n.cldr_locale(ui))
    if name == "concept":
        return concept_label(value, ui)
    if name == "check":
        return check_label(value, ui)
    if name in _QUOTED:
        lang = "en" if (finding.get("check"), name) in _ENGLISH else finding.get("lang") or ui
        return Markup('<span lang="{}" translate="no">{}</span>').format(lang, value)
    return Markup('<span translate="no">{}</span>').format(value)  # marks, places, counts


def language(code: str, ui: str) -> str:
    """Language ``code`` named in ``ui`` as in running text (``итальянский``, ``Italienisch``)."""
    return Locale.parse(i18n.cldr_locale(ui)).languages.get(code, code)


@cache
def _code(name: str) -> str:
    """The code of a language kb.checks names in English (``Italian`` -> ``it``)."""
    names = {value: code for code, value in Locale.parse("en").languages.items()}
    return names.get(name, name)


def concept_label(concept_id: str, ui: str) -> str:
    """A glossary concept named by its preferred term in ``ui``, not by its identifier."""
    concept = _concepts().get(concept_id)
    if concept is None:  # a concept the glossary has lost: its identifier read as words
        return concept_id.replace("_", " ")
    return (concept.get(ui) or concept.get("en") or [concept_id])[0]


@lru_cache(maxsize=1)
def _concepts() -> dict[str, dict[str, list[str]]]:
    return {c.id: c.terms for c in glossary.load().concepts}


def glossary_rows(concepts: list[dict], ui: str) -> list[dict]:
    """The glossary's concepts in the order of their terms in ``ui`` (its reader reads down a
    column of their own language)."""
    def term(concept: dict) -> str:
        terms = concept["terms"].get(ui) or concept["terms"].get("en") or [concept["id"]]
        return terms[0].casefold()
    return sorted(concepts, key=lambda c: (term(c), c["id"]))
