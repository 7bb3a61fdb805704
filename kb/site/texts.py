"""The site's words for what other stages write in English or as identifiers.

Pages show every word in the reader's language. Some texts come from other stages:

- the rules' titles and summaries (:mod:`kb.core.registry`) and the examples' titles are English
  strings; they are msgids of the site catalog (extracted by :mod:`kb.site.extract`), so
  :func:`translate` finds them there;
- a translator finding names its check by an identifier (``untranslated-fragment``):
  :data:`CHECKS` gives each a label;
- a finding's message is English prose that :mod:`kb.checks` writes from a few shapes, with
  quoted text, language names, language codes, glossary concept ids, values (``2``, ``1st``)
  and ISO dates inside. :data:`kb.site.shapes.MESSAGES` lists those shapes;
  :func:`finding_message` reads the parts back out of a message and writes it again from the
  reader's catalog (in the plural form its count takes), with languages, concepts, checks,
  ordinals and dates in the reader's language and the quoted text as it is (marked
  ``translate="no"`` and with its language: it is data). A team checklist's message is the
  team's own text, shown as written and marked with the language it is written in. A message
  of a shape kb.site.shapes does not know is shown as written, marked ``lang="en"`` (the site's
  English test then names it).

The English source of the messages stays in kb.checks (``kb check`` prints it); the shapes
must follow it: tests/site/test_findings_i18n.py renders the findings of a corpus holding a
mistake of every kind.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from babel import Locale
from babel.lists import format_list
from markupsafe import Markup, escape

from kb.reference import glossary
from kb.site import i18n
from kb.site.shapes import MESSAGES, N_


def translate(text: str, ui: str) -> str:
    """``text`` (an English msgid of the site catalog) in the language ``ui``."""
    return i18n.translations(ui).gettext(text) if text else text


#: The words of a ruling page's "why this rule" block (:func:`kb.site.fragments.why_block`).
WHY_RULE = N_("Why this rule")
WHY_SCORE = N_("score %(score)s")
WHY_NAMED = N_("The translations name:")

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


_PART = re.compile(r"%\((\w+)\)s")
#: Parts that are counts, shown as they are.
_NUMBERS = {"own", "agreed", "agree", "total", "theirs", "index", "usual_count", "used_count"}
#: Parts quoted from a ruling's text, a glossary term or a name: data, in the finding's
#: language unless _WITNESS or _ENGLISH says otherwise.
_QUOTED = {
    "excerpt",
    "term",
    "surface",
    "name",
    "local",
    "preferred",
    "text",
    "said",
    "quote",
    "added",
    "counts",
}
#: Parts quoting the text a finding compares with (the ``lang`` part's).
_WITNESS = {"said", "quote"}
#: (check, part) quoting English words (the English left in a translation, the source's term).
_ENGLISH = {
    ("untranslated-fragment", "excerpt"),
    ("untranslated-name", "excerpt"),
    ("english-term", "surface"),
    ("missing-concept", "surface"),
}
#: A part holding several quotations: “a”, “b”.
_SEVERAL = "”, “"
_AROUND = re.compile(r"([«„“‚‘‹\"']\s?)%\((\w+)\)s(\s?[»“”‘’›\"'])")


def _pattern(template: str) -> re.Pattern:
    pieces, last = [], 0
    for match in _PART.finditer(template):
        pieces += [re.escape(template[last : match.start()]), f"(?P<{match.group(1)}>.+?)"]
        last = match.end()
    pieces.append(re.escape(template[last:]))
    return re.compile("".join(pieces), re.DOTALL)


#: (pattern, singular msgid, plural msgid or None), in MESSAGES' order.
_PATTERNS = [
    (_pattern(form), *(shape if isinstance(shape, tuple) else (shape, None)))
    for shape in MESSAGES
    for form in (shape if isinstance(shape, tuple) else (shape,))
]


def shape(message: str) -> str | None:
    """The shape of :data:`kb.site.shapes.MESSAGES` that ``message`` has (its singular msgid),
    or None."""
    return next(
        (singular for pattern, singular, _ in _PATTERNS if pattern.fullmatch(message)), None
    )


def finding_message(finding: dict, ui: str) -> Markup:
    """A finding's message in ``ui``, as HTML (its quoted parts marked as data).

    A team checklist's message is the team's own words: shown as written, marked as data in
    the language it is written in (when that can be told)."""
    message = str(finding.get("message") or "")
    if finding.get("check") == "checklist":
        return Markup('<span lang="{}" translate="no">{}</span>').format(
            _written_in(message), message
        )
    shaped = _shape(message)
    if shaped is None:
        return Markup('<span lang="en">{}</span>').format(message)
    singular, plural, parts = shaped
    catalog = i18n.translations(ui)
    template = (
        catalog.ngettext(singular, plural, int(parts["own"]))
        if plural
        else catalog.gettext(singular)
    )
    return escape(template) % {
        name: _part(name, value, finding, ui, parts, template) for name, value in parts.items()
    }


@lru_cache(maxsize=4096)
def _shape(message: str) -> tuple[str, str | None, dict[str, str]] | None:
    """(singular, plural, parts) of the first shape ``message`` has, or None. Cached: a
    corpus has a few dozen distinct messages, each asked by every finding in every tree."""
    for pattern, singular, plural in _PATTERNS:
        match = pattern.fullmatch(message)
        if match:
            return singular, plural, match.groupdict()
    return None


def _part(name: str, value: str, finding: dict, ui: str, parts: dict, template: str):
    if name in _NUMBERS:
        return value
    if name in ("lang", "language"):
        return language(_code(value), ui)
    if name == "langs":
        return format_list(
            [language(code, ui) for code in value.split(", ")], locale=i18n.cldr_locale(ui)
        )
    if name in ("concept", "other_concept"):
        return concept_label(value, ui)
    if name == "check":
        return check_label(value, ui)
    if name in ("value", "their_value"):
        return _value(value, ui)
    if name == "values":
        return ", ".join(_value(v, ui) for v in value.split(", "))
    if name == "indexes":
        return format_list(value.split(" and "), locale=i18n.cldr_locale(ui))
    if name in ("date", "want"):
        return i18n.date(value, ui)
    if name in _QUOTED:
        lang = (
            "en"
            if (finding.get("check"), name) in _ENGLISH
            else _code(parts["lang"])
            if name in _WITNESS and "lang" in parts
            else finding.get("lang") or ui
        )
        quoted = [
            Markup('<span lang="{}" translate="no">{}</span>').format(lang, v)
            for v in value.split(_SEVERAL)
        ]
        return Markup(escape(_separator(template, name))).join(quoted)
    return Markup('<span translate="no">{}</span>').format(value)  # marks, places


def _separator(template: str, name: str) -> str:
    """What goes between two quotations of one part: the closing and opening marks the
    template puts around it (“a”, “b”; « a », « b »)."""
    for match in _AROUND.finditer(template):
        if match.group(2) == name:
            return f"{match.group(3)}, {match.group(1)}"
    return ", "


def _value(value: str, ui: str) -> str:
    """A number, or an ordinal that kb.checks names in English (1st, last), in ``ui``."""
    catalog = i18n.translations(ui)
    ordinals = {
        "1st": catalog.pgettext("ordinal", "1st"),
        "2nd": catalog.pgettext("ordinal", "2nd"),
        "3rd": catalog.pgettext("ordinal", "3rd"),
        "last": catalog.pgettext("ordinal", "last"),
        "no number": catalog.gettext("no number"),
    }
    return ordinals.get(value, value)


@lru_cache(maxsize=256)
def _written_in(message: str) -> str:
    """The language a team wrote a checklist message in, or "" (unknown) when it cannot be
    told (too short, or no clear winner among the site's languages)."""
    from kb.corpus.languages import MIN_CONFIDENCE, MIN_LETTERS

    text = re.sub(r"^\[[^\]]*\]\s*", "", message)
    if sum(ch.isalpha() for ch in text) < MIN_LETTERS:
        return ""
    best = _detector().compute_language_confidence_values(text)[0]
    return best.language.iso_code_639_1.name.lower() if best.value >= MIN_CONFIDENCE else ""


@cache
def _detector():
    """lingua's low-accuracy detector over the site's six languages: 0.2 s and 30 MB to load
    where the corpus stage's (every model, rival languages) takes seconds and 250 MB, for a
    page worker that may render one checklist finding."""
    from lingua import IsoCode639_1, Language, LanguageDetectorBuilder

    from kb.corpus.languages import UI_LANGUAGES

    languages = [
        Language.from_iso_code_639_1(getattr(IsoCode639_1, code.upper())) for code in UI_LANGUAGES
    ]
    return LanguageDetectorBuilder.from_languages(*languages).with_low_accuracy_mode().build()


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
