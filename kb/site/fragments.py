"""Parts of pages that a tree shows thousands of times, made in Python or made once.

A tree is 2,300 pages at 10k rulings. jinja2 spends a context call and an escape on every
expression of a template, and a new context on every ``{% include %}``: the page chrome (the
same on every page at one depth but for the language switcher's links) and a ruling's "why
this rule" blocks (one per rule it explains) took a fifth of a tree's time. So:

- :func:`shared` renders a template once per tree and page depth (the chrome's
  ``_header.html`` and ``_search.html``);
- :func:`switcher` writes the language switcher, the chrome's one part that names the page;
- :func:`why_block` writes a rule's "why this rule" block (its words are msgids of
  :mod:`kb.site.texts`).

Each writes exactly what the template it replaces wrote: the pages stay the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jinja2 import Environment
from markupsafe import Markup, escape

from kb.corpus.languages import UI_LANGUAGES
from kb.site import texts


def shared(env: Environment) -> Callable[[str, object], Markup]:
    """``shared(template, link)`` for one tree's environment: the template rendered with only
    ``link`` (and the tree's globals), once per page depth. Such a template may use the links
    from the site root only (``link.home()``, ``link.static(...)``), never the page's own."""
    made: dict[tuple[str, str], Markup] = {}

    def render(name: str, link) -> Markup:
        key = (name, link.to(""))
        done = made.get(key)
        if done is None:
            done = made[key] = Markup(env.get_template(name).render(link=link))
        return done

    return render


def switcher(ui: str, autonym: Callable[[str], str]) -> Callable[[object], Markup]:
    """``switcher(link)`` for the tree ``ui``: the list items linking the page to its twin in
    every interface language (the current one marked)."""
    tails = {
        code: Markup('" lang="{0}" hreflang="{0}" translate="no"{1}>{2}</a></li>\n').format(
            code, Markup(' aria-current="page"') if code == ui else "", autonym(code)
        )
        for code in UI_LANGUAGES
    }

    def render(link) -> Markup:
        return Markup(
            "".join(
                f'<li><a href="{escape(link.switch(code))}{tails[code]}' for code in UI_LANGUAGES
            )
        )

    return render


def why_block(
    gettext: Callable[..., Markup],
    decimal: Callable[[float], str],
    concept_label: Callable[[str], str],
    language_name: Callable[[str], str],
) -> Callable[[dict, str], Markup]:
    """``why(group, number)`` for one tree (its gettext and helpers): why the linker gave the
    group the rule ``number``, or nothing when it did not say. The rule's concepts its
    translations name (by their term in the reader's language), the words that matched in each
    language, and the score (how much of the rule's description they cover, 0 to 1)."""
    heading = texts.WHY_RULE
    named = texts.WHY_NAMED

    def render(group: dict, number: str) -> Markup:
        why = group["links"].get(number) if "links" in group else None
        if not why:
            return Markup("")
        score = gettext(texts.WHY_SCORE, score=decimal(why["score"]))
        concepts = ", ".join(escape(concept_label(c)) for c in why["concepts"])
        words = "".join(
            f'<li><span class="lang">{escape(language_name(code))}:</span> '
            f'<span lang="{escape(code)}">{escape(", ".join(map(str, found)))}</span></li>\n'
            for code, found in sorted(why["words"].items(), key=_dictsort_key)
        )
        return Markup(
            f'<details class="why">\n<summary>{escape(gettext(heading))} <span class="score">'
            f"({escape(score)})</span></summary>\n<p>{escape(gettext(named))} {concepts}</p>\n"
            f'<ul class="words">\n{words}</ul>\n</details>\n'
        )

    return render


def _dictsort_key(item: tuple) -> Any:
    """jinja2's ``dictsort``: by key, letter case ignored."""
    key = item[0]
    return key.lower() if isinstance(key, str) else key
