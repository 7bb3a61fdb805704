"""What the templates ask again and again, answered once per tree.

A tree is 2,300 pages at 10k rulings, each asking for the same dozen interface strings, and
its ruling pages for the same few scores, concept labels and finding messages. jinja2's own
gettext goes through two context calls, a new ``Markup`` and a ``%`` per string; babel takes
50 µs a number. These memos answer from a dict instead: the same strings, so the same bytes.
Each tree (one UI language) gets its own memos from :func:`gettext_callables` and
:func:`per_key`, made anew by :func:`kb.site.templating.environment`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from jinja2 import pass_eval_context
from markupsafe import Markup


def markup_gettext(translations) -> Callable[..., Markup]:
    """``gettext(string, **variables)`` as the templates' gettext answers where they
    autoescape (all of the site's do): the translation as ``Markup``, then ``% variables``
    (even with none), each string looked up and wrapped once. For what Python writes into
    pages (:mod:`kb.site.fragments`)."""
    plain: dict[str, Markup] = {}  # a string without variables: the finished result
    wrapped: dict[str, Markup] = {}
    lookup = translations.gettext

    def gettext(string: str, **variables) -> Markup:
        if not variables:
            done = plain.get(string)
            if done is None:
                done = plain[string] = Markup(lookup(string)) % variables
            return done
        template = wrapped.get(string)
        if template is None:
            template = wrapped[string] = Markup(lookup(string))
        return template % variables

    return gettext


def gettext_callables(translations, markup: Callable[..., Markup]) -> dict[str, Callable[..., Any]]:
    """``gettext``, ``ngettext`` and ``_`` for the templates, as jinja2's newstyle gettext
    makes them (the translation, as ``Markup`` when autoescaping, then ``% variables``, even
    with none); ``markup``: :func:`markup_gettext` of the same catalog. ``_`` calls gettext
    itself rather than jinja2's alias, which resolves and calls it through the context on
    every use. They take the evaluation context (all they need is whether it autoescapes),
    not the template context: jinja2 derives a new context for each call of a context
    function inside a loop."""
    lookup, nlookup = translations.gettext, translations.ngettext

    @pass_eval_context
    def gettext(eval_ctx, string: str, **variables):
        if not eval_ctx.autoescape:
            return lookup(string) % variables
        return markup(string, **variables)

    @pass_eval_context
    def ngettext(eval_ctx, singular: str, plural: str, num: int, **variables):
        variables.setdefault("num", num)
        text = nlookup(singular, plural, num)
        if eval_ctx.autoescape:
            text = Markup(text)
        return text % variables

    return {"gettext": gettext, "ngettext": ngettext, "_": gettext}


def per_key(function: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``function`` of one hashable argument, each answer kept (for one tree's helpers,
    whose answers depend on the argument and the tree's language only)."""
    known: dict[Hashable, Any] = {}

    def memoised(key):
        try:
            return known[key]
        except KeyError:
            known[key] = answer = function(key)
            return answer

    return memoised


def per_object(function: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``function`` of one argument (a dict: a finding, shown on its ruling's page and in the
    report), each answer kept for that very object (which is kept alive, so its id stays its
    own)."""
    known: dict[int, tuple[Any, Any]] = {}

    def memoised(item):
        hit = known.get(id(item))
        if hit is None:
            hit = known[id(item)] = (item, function(item))
        return hit[1]

    return memoised
