"""The shapes of the messages kb.checks writes, as msgids of the site's catalog.

kb.checks writes its findings' messages in English (``kb check`` prints them); the site shows
them in the reader's language: :func:`kb.site.texts.finding_message` reads the parts back out
of a message by its shape here and writes it again from the reader's catalog. A shape must
follow the f-string that writes the message, word for word; tests/site/test_findings_i18n.py
renders the findings of a corpus with a mistake of every kind and fails on any message of no
shape. A new message: add its shape here, run pybabel (see babel.cfg), translate it in the five
catalogs.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Mark a message for the catalog (pybabel's default keywords include N_)."""
    return message


def ngettext(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural form for the catalog (pybabel extracts ngettext calls):
    :func:`kb.site.texts.finding_message` chooses the form by the message's count (its ``own`` part)."""
    return singular, plural


#: The shapes of kb.checks' messages, each also the msgid of its translation (a pair: with its
#: plural). Parts are named by what they hold (kb.site.texts says how each is shown); where one shape could swallow
#: another, the narrower comes first. tests/site/test_findings_i18n.py checks them against the
#: findings of a corpus with a mistake of every kind.
MESSAGES: list[str | tuple[str, str]] = [
    # sentence-count: against the source, or the translation most others agree with
    ngettext(
        "%(own)s sentence where the %(lang)s source has %(agreed)s: no counterpart of "
        "its sentence %(index)s “%(quote)s”, expected before this one",
        "%(own)s sentences where the %(lang)s source has %(agreed)s: no counterpart of "
        "its sentence %(index)s “%(quote)s”, expected before this one",
    ),
    ngettext(
        "%(own)s sentence where the %(lang)s source has %(agreed)s: no counterpart of "
        "its sentence %(index)s “%(quote)s”, expected after this one",
        "%(own)s sentences where the %(lang)s source has %(agreed)s: no counterpart of "
        "its sentence %(index)s “%(quote)s”, expected after this one",
    ),
    ngettext(
        "%(own)s sentence where the %(lang)s source has %(agreed)s: this sentence has "
        "no counterpart there (added, or moved from another ruling?)",
        "%(own)s sentences where the %(lang)s source has %(agreed)s: this sentence has "
        "no counterpart there (added, or moved from another ruling?)",
    ),
    ngettext(
        "%(own)s sentence where the %(lang)s source has %(agreed)s: its sentence "
        "%(index)s is split in two here",
        "%(own)s sentences where the %(lang)s source has %(agreed)s: its sentence "
        "%(index)s is split in two here",
    ),
    ngettext(
        "%(own)s sentence where the %(lang)s source has %(agreed)s: its sentences "
        "%(indexes)s are one sentence here",
        "%(own)s sentences where the %(lang)s source has %(agreed)s: its sentences "
        "%(indexes)s are one sentence here",
    ),
    ngettext(
        "%(own)s sentence where the %(lang)s translation (as %(agree)s of %(total)s) "
        "has %(agreed)s: no counterpart of its sentence %(index)s “%(quote)s”, expected "
        "before this one",
        "%(own)s sentences where the %(lang)s translation (as %(agree)s of %(total)s) "
        "has %(agreed)s: no counterpart of its sentence %(index)s “%(quote)s”, expected "
        "before this one",
    ),
    ngettext(
        "%(own)s sentence where the %(lang)s translation (as %(agree)s of %(total)s) "
        "has %(agreed)s: no counterpart of its sentence %(index)s “%(quote)s”, expected "
        "after this one",
        "%(own)s sentences where the %(lang)s translation (as %(agree)s of %(total)s) "
        "has %(agreed)s: no counterpart of its sentence %(index)s “%(quote)s”, expected "
        "after this one",
    ),
    ngettext(
        "%(own)s sentence where the %(lang)s translation (as %(agree)s of %(total)s) "
        "has %(agreed)s: this sentence has no counterpart there (added, or moved from "
        "another ruling?)",
        "%(own)s sentences where the %(lang)s translation (as %(agree)s of %(total)s) "
        "has %(agreed)s: this sentence has no counterpart there (added, or moved from "
        "another ruling?)",
    ),
    ngettext(
        "%(own)s sentence where the %(lang)s translation (as %(agree)s of %(total)s) "
        "has %(agreed)s: its sentence %(index)s is split in two here",
        "%(own)s sentences where the %(lang)s translation (as %(agree)s of %(total)s) "
        "has %(agreed)s: its sentence %(index)s is split in two here",
    ),
    ngettext(
        "%(own)s sentence where the %(lang)s translation (as %(agree)s of %(total)s) "
        "has %(agreed)s: its sentences %(indexes)s are one sentence here",
        "%(own)s sentences where the %(lang)s translation (as %(agree)s of %(total)s) "
        "has %(agreed)s: its sentences %(indexes)s are one sentence here",
    ),
    N_(
        "no “%(term)s” (%(concept)s) in this sentence, where the %(langs)s translations "
        "have it (the %(lang)s source: “%(surface)s”)"
    ),
    N_("no “%(term)s” (%(concept)s) in this sentence, where the %(langs)s translations have it"),
    N_("no “%(term)s” (%(concept)s) in this sentence, where the %(lang)s source keeps it"),
    N_("no “%(term)s” (%(concept)s) in this sentence, where the %(langs)s translations keep it"),
    N_("“%(surface)s” (%(concept)s) has no counterpart in the other translations"),
    N_("no %(lang)s translation of this ruling (it exists in %(langs)s)"),
    N_("the same text as the %(lang)s translation: copied, not translated?"),
    N_("the same text appears twice for this card (also %(place)s)"),
    N_(
        "English name “%(excerpt)s” in the %(language)s text, not in the glossary: translate it "
        "or list it as kept in English"
    ),
    N_("English phrase “%(excerpt)s” left in the %(language)s text"),
    N_("English word “%(excerpt)s” in the %(language)s text"),
    N_("“%(text)s” (%(value)s) where the %(lang)s source has “%(said)s” (%(their_value)s)"),
    N_("“%(text)s” (%(value)s) where the %(lang)s translation has “%(said)s” (%(their_value)s)"),
    N_(
        "no %(value)s in this sentence, where the %(lang)s source has “%(said)s” (%(agree)s of "
        "%(total)s translations too)"
    ),
    N_("no %(value)s in this sentence, where the %(lang)s source has “%(said)s”"),
    N_(
        "no %(value)s in this sentence, where the %(lang)s translation has “%(said)s” "
        "(%(agree)s of %(total)s translations too)"
    ),
    N_(
        "“%(text)s” (%(value)s) once more than the source or the other translations say it "
        "(they have: %(values)s)"
    ),
    N_(
        "“%(text)s” (%(value)s) once more than the other translations say it (they have: "
        "%(values)s)"
    ),
    N_(
        "“%(name)s” is not in this sentence, where the %(lang)s source and the %(langs)s "
        "translations keep it verbatim"
    ),
    N_("“%(name)s” is not in this sentence, where the %(lang)s source keeps it verbatim"),
    N_("“%(name)s” is not in this sentence, where the %(langs)s translations keep it verbatim"),
    N_("quotation marks %(q0)s %(q1)s; the rest of the %(lang)s corpus uses %(u0)s %(u1)s"),
    N_(
        "quotation marks %(q0)s %(q1)s: straight quotes; CLDR %(lang)s: %(p0)s %(p1)s, inside "
        "them %(a0)s %(a1)s"
    ),
    N_(
        "quotation marks %(q0)s %(q1)s: the inner pair used at the top level; CLDR %(lang)s: "
        "%(p0)s %(p1)s, inside them %(a0)s %(a1)s"
    ),
    N_(
        "quotation marks %(q0)s %(q1)s: not quotation marks of this locale; CLDR %(lang)s: "
        "%(p0)s %(p1)s, inside them %(a0)s %(a1)s"
    ),
    N_(
        "“%(inside)s” inside the closing quotation mark, English style; in this language it "
        "goes after the mark"
    ),
    N_("no space after “«”: French puts a narrow no-break space (U+202F) there"),
    N_("no space before “%(mark)s”: French puts a narrow no-break space (U+202F) there"),
    N_(
        "breaking space after “«”: use a no-break space (U+202F or U+00A0) so the line cannot "
        "break there"
    ),
    N_(
        "breaking space before “%(mark)s”: use a no-break space (U+202F or U+00A0) so the line "
        "cannot break there"
    ),
    N_("space before “%(mark)s”, French style"),
    N_(
        "apostrophe %(used)s where this language mostly uses %(usual)s (%(usual_count)s to "
        "%(used_count)s)"
    ),
    N_("“%(mark)s” without an opening “%(opening)s”"),
    N_("English term “%(surface)s” where the glossary has “%(local)s”; translated in %(langs)s"),
    N_("English term “%(surface)s” where the glossary has “%(local)s”"),
    N_("“%(surface)s” is a name the glossary keeps in English: “%(preferred)s”"),
    N_(
        "“%(text)s” where the %(lang)s source keeps the name “%(name)s”: the glossary keeps it "
        "in English"
    ),
    N_(
        "“%(text)s” where the %(lang)s translation keeps the name “%(name)s”: the glossary "
        "keeps it in English"
    ),
    N_(
        "“%(surface)s” is an alternative term; the glossary prefers “%(preferred)s” (in this "
        "language: %(counts)s)"
    ),
    N_(
        "“%(text)s” where the glossary has “%(term)s” (%(concept)s): a term the glossary "
        "forbids for this concept"
    ),
    N_("“%(text)s” where the glossary has “%(term)s” (%(concept)s): the name misspelt"),
    N_("“%(text)s” where the glossary has “%(term)s” (%(concept)s): as the %(lang)s source has it"),
    N_(
        "“%(text)s” where the glossary has “%(term)s” (%(concept)s): as the %(lang)s "
        "translation has it"
    ),
    N_(
        "“%(text)s” (%(other_concept)s) where the %(lang)s source has “%(said)s” "
        "(%(concept)s): expected “%(term)s”"
    ),
    N_(
        "“%(text)s” (%(other_concept)s) where the %(lang)s translation has “%(said)s” "
        "(%(concept)s): expected “%(term)s”"
    ),
    N_("“%(text)s”, another name, where the %(lang)s source has “%(name)s”"),
    N_("“%(text)s”, another name, where the %(lang)s translation has “%(name)s”"),
    N_("%(place)s accepts no finding of '%(check)s'; remove it"),
    N_(
        "a negation missing: this sentence has %(own)s where the %(lang)s source has "
        "%(theirs)s: expected as “%(said)s”"
    ),
    N_(
        "a negation missing: this sentence has %(own)s where %(agree)s of the %(total)s "
        "other translations have more (the %(lang)s one: %(theirs)s): expected as "
        "“%(said)s”"
    ),
    N_(
        "a negation added: this sentence has %(own)s (“%(added)s”) where the %(lang)s source "
        "has %(theirs)s"
    ),
    N_(
        "a negation added: this sentence has %(own)s (“%(added)s”) where %(agree)s of the "
        "%(total)s other translations have fewer (the %(lang)s one: %(theirs)s)"
    ),
    N_(
        "a condition missing: this sentence has %(own)s where the %(lang)s source has "
        "%(theirs)s: expected as “%(said)s”"
    ),
    N_(
        "a condition missing: this sentence has %(own)s where %(agree)s of the %(total)s "
        "other translations have more (the %(lang)s one: %(theirs)s): expected as "
        "“%(said)s”"
    ),
    N_("dated %(date)s where the %(lang)s source has %(want)s: day and month swapped?"),
    N_(
        "dated %(date)s where the %(lang)s source has %(want)s (before its source: "
        "impossible for a translation)"
    ),
    N_("dated %(date)s where the %(lang)s source has %(want)s"),
    N_(
        "dated %(date)s where %(agree)s of the %(total)s other translations have "
        "%(want)s: day and month swapped?"
    ),
    N_("dated %(date)s where %(agree)s of the %(total)s other translations have %(want)s"),
]
