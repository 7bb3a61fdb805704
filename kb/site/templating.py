"""The jinja2 side of the pages: the template environment of each interface language, the
links from a page, and the helpers templates call (titles, excerpts, anchors, example steps).

Templates are jinja2 with autoescape on for every HTML template: texts from the corpus are
always data. Helpers a tree asks thousands of times the same are remembered per build
(:func:`forget` drops them). :mod:`kb.site.pages` lists the pages and writes them.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from kb.corpus.languages import LANGUAGES, SOURCE_LANGUAGES, UI_LANGUAGES
from kb.site import fragments, i18n, memo, texts
from kb.site.annotations import number_on
from kb.site.paths import rel, short_digest, slug


def _templates_dir() -> Path:
    """``site_templates/`` of a source checkout, else the copy installed as ``kb/site_templates``."""
    checkout = Path(__file__).resolve().parents[2] / "site_templates"
    return checkout if checkout.is_dir() else Path(__file__).resolve().parents[1] / "site_templates"


TEMPLATES = _templates_dir()
TITLE_CHARS = 90


#: What ``getattr`` finds on a plain dict: its class's attributes (an instance has no others).
_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Environment(Environment):
    """jinja2's environment, with ``a.b`` on a plain dict looked up as ``a["b"]`` at once.

    jinja2 tries ``getattr(a, "b")`` first, which on a dict fails with an AttributeError
    (0.8 µs); the pages' data are dicts, read 400,000 times a tree. The answer is the same:
    such a getattr finds nothing but the names of :data:`_DICT_ATTRIBUTES`, which still go
    the usual way."""

    def getattr(self, obj, attribute: str):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except (TypeError, LookupError, AttributeError):
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


@lru_cache(maxsize=1)
def _environment() -> Environment:
    """The one template environment: templates compile once, each tree sets its language."""
    env = _Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    env.globals.update(
        languages=LANGUAGES,
        ui_languages=UI_LANGUAGES,
        autonym=i18n.autonym,
        source_languages=SOURCE_LANGUAGES,
        number_on=number_on,
        excerpt=excerpt,
        anchor=anchor_of,
        copies=copies,
        translated=translated,
        languages_of=languages_of,
    )
    return env


def environment(ui: str) -> Environment:
    """The environment speaking ``ui``: its gettext catalog and locale-aware helpers (those a
    tree asks thousands of times the same, memoised for it: :mod:`kb.site.memo`)."""
    env = _environment()
    # The i18n extension adds this method at run time (Environment.extend): jinja2's stubs lack it.
    env.install_gettext_translations(  # type: ignore[attr-defined]
        i18n.translations(ui), newstyle=True
    )
    markup = memo.markup_gettext(i18n.translations(ui))
    env.globals.update(memo.gettext_callables(i18n.translations(ui), markup))
    concept_label = memo.per_key(lambda concept: texts.concept_label(concept, ui))
    language_name = memo.per_key(lambda code: i18n.language_name(code, ui))

    def decimal(value: float) -> str:  # not `number`: the templates' loops use that name
        return i18n.number(round(value, 2), ui)

    env.globals.update(
        ui=ui,
        language_name=language_name,
        date=lambda iso: i18n.date(iso, ui),
        number=lambda n: i18n.number(n, ui),
        describe_step=lambda step: describe_step(step, ui),
        describe_state=lambda state: describe_state(state, ui),
        in_reader_lang=lambda group: in_reader_lang(group, ui),
        ruling_title=lambda group, limit=TITLE_CHARS: ruling_title(group, ui, limit),
        tr=memo.per_key(lambda text: texts.translate(text, ui)),
        check_label=memo.per_key(lambda check: texts.check_label(check, ui)),
        finding_message=memo.per_object(lambda finding: texts.finding_message(finding, ui)),
        glossary_rows=lambda concepts: texts.glossary_rows(concepts, ui),
        concept_label=concept_label,
        decimal=decimal,
        labels=lambda ids: ", ".join(concept_label(c) for c in ids),
        printed_on=lambda member, link, cards: printed_on(member, link, cards, ui),
        printed_list=lambda run, link, cards: printed_list(run, link, cards, ui),
        card_rulings=lambda card, site, link, label: card_rulings(card, site, link, label, ui),
        lang_rulings=lambda card, site, link: lang_rulings(card, site, link, ui),
        shared=fragments.shared(env),
        switcher=fragments.switcher(ui, i18n.autonym),
        why=fragments.why_block(markup, decimal, concept_label, language_name),
    )
    return env


class Links:
    """Relative links from one page (``page``: its path from the site root)."""

    def __init__(self, page: str, ui: str, key: str):
        self.page, self.ui, self.key = page, ui, key
        # Made once: a ruling printed on 2,000 cards links 10,000 cards from one page.
        self._root = rel(page, "")
        self._tree_root = f"{self._root}{ui}/"

    def to(self, path: str) -> str:
        return self._root + path

    def _tree(self, key: str) -> str:
        return self._tree_root + key

    def home(self):
        return self._tree("index.html")

    def lang(self, code):
        return self._tree(f"lang/{code}.html")

    def card(self, card):
        return f"{self._tree_root}card/{card['slug']}.html"

    def group(self, group, member=None):
        anchor = f"#{anchor_of(member)}" if member else ""
        return self._tree(f"ruling/{group['slug']}.html") + anchor

    def ruling(self, group_id: str):
        """A group's page by its id alone (the unlinked groups' page loads no group)."""
        return self._tree(f"ruling/{slug(group_id)}.html")

    def rule(self, rule):
        return self._tree(f"rule/{rule['slug']}.html")

    def rules(self):
        return self._tree("rules.html")

    def glossary(self):
        return self._tree("glossary.html")

    def consistency(self):
        return self._tree("consistency.html")

    def unlinked(self):
        return self._tree("unlinked.html")

    def static(self, name):
        return self.to(f"static/{name}")

    def data(self):
        return self.to("data/rulings.json")

    def switch(self, ui):
        """The same page in another interface language."""
        return self.to(f"{ui}/{self.key}")


def translated(group: dict) -> int:
    """How many of a group's members are translations (not in a source language): a ruling's
    heading counts them (a jinja2 filter chain over a ruling printed on 2,000 cards took
    10,000 steps, twice a page)."""
    return sum(member["lang"] not in SOURCE_LANGUAGES for member in group["members"])


def languages_of(group: dict) -> set[str]:
    """The languages a group has a text in (a row of the coverage report: a jinja2 filter
    chain took a step per member, 10,000 for a ruling printed on 2,000 cards)."""
    return {member["lang"] for member in group["members"]}


def copies(members: list[dict]) -> list[list[dict]]:
    """A group's members gathered by language and text, in the order they first come: a
    ruling page shows each text once, with every card that prints it (a ruling on 2,000
    cards was 2,000 copies of one quotation per language, 6.5 MB a page)."""
    runs: dict[tuple[str, str], list[dict]] = {}
    for member in members:
        runs.setdefault((member["lang"], member["text"]), []).append(member)
    return list(runs.values())


_PRINTED_ON = '<a href="{}" lang="{}">{}</a> · {} · <span class="source">{}:{}</span>'


def time_tag(iso: str, ui: str) -> str:
    """A ruling's date as the pages show it: ``<time>`` with the ISO date, in ``ui``'s words."""
    return f'<time datetime="{escape(iso)}">{escape(i18n.date(iso, ui))}</time>'


def printed_on(member: dict, link: Links, cards: dict, ui: str) -> Markup:
    """The line of a ruling page naming a member's card, date and place in its file. Made
    here, not by a template macro: the page of a ruling printed on 2,000 cards lists 10,000
    of them, and a macro cost 13 µs a line, six languages over (this costs 3)."""
    return Markup(
        _PRINTED_ON.format(
            escape(link.card(cards[member["card_id"]])),
            escape(member["lang"]),
            escape(member["card"]),
            time_tag(member["date"], ui),
            escape(member["source"]),
            escape(member["line"]),
        )
    )


def printed_list(run: list[dict], link: Links, cards: dict, ui: str) -> Markup:
    """The items of a text's list of cards: one :func:`printed_on` line each, every one but
    the first with the member's anchor (the text's article carries the first's)."""
    items = []
    for number, member in enumerate(run):
        ident = f' id="{escape(anchor_of(member))}"' if number else ""
        items.append(f"<li{ident}>{printed_on(member, link, cards, ui)}</li>\n")
    return Markup("".join(items))


def card_rulings(card: dict, site, link: Links, label: str, ui: str) -> Markup:
    """The items of a card page's list of rulings: each ruling in the reader's language where
    its group has it, its date, and a link (``label``) to all its translations. Made here,
    like :func:`printed_on`: a tree's card pages list every ruling once."""
    items = []
    for ruling in card["rulings"]:
        group = site.group_of(ruling["id"])
        shown = in_reader_lang(group, ui) or ruling
        items.append(
            f'<li>\n<blockquote lang="{escape(shown["lang"])}" translate="no"><p>'
            f'{escape(shown["text"])}</p></blockquote>\n<p class="meta">'
            f"{time_tag(ruling['date'], ui)} · "
            f'<a href="{escape(link.group(group, shown))}">{escape(label)}</a></p>\n</li>\n'
        )
    return Markup("".join(items))


def lang_rulings(card: dict, site, link: Links, ui: str) -> Markup:
    """The items of a card's list on its language's page: each ruling's date and opening,
    linked to its place on its group's page."""
    items = []
    for ruling in card["rulings"]:
        items.append(
            f"<li>{time_tag(ruling['date'], ui)} · "
            f'<a href="{escape(link.group(site.group_of(ruling["id"]), ruling))}" '
            f'lang="{escape(ruling["lang"])}" translate="no">{escape(excerpt(ruling["text"]))}'
            "</a></li>\n"
        )
    return Markup("".join(items))


def anchor_of(member: dict) -> str:
    """The id of a member's article on its ruling page: its language, place and line in its
    file, and a digest of the file's path (a ruling printed on many cards often sits at the
    same place in each card's file, and ids on a page must differ)."""
    return f"{member['lang']}-{member['position']}-{member['line']}-{_file_key(member['source'])}"


@cache
def _file_key(source: str) -> str:
    return short_digest(source)  # the same for every ruling of a file: computed once


def excerpt(text: str, limit: int = TITLE_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit].rsplit(" ", 1)[0] + "…"


_FIRST_IN: dict = {}


def in_reader_lang(group: dict, ui: str) -> dict | None:
    """The group's first member in the reader's language, if any.

    Remembered per group id: a ruling printed on thousands of cards has tens of thousands of
    members, and every one of those cards' pages asks."""
    key = (group["id"], ui)
    if key not in _FIRST_IN:
        _FIRST_IN[key] = next((m for m in group["members"] if m["lang"] == ui), None)
    return _FIRST_IN[key]


def ruling_title(group: dict, ui: str, limit: int = TITLE_CHARS) -> dict:
    """What pages call a ruling, in the reader's language where there is one: the opening
    of its text in ``ui``, else the title of its example (what it is about, in our words,
    through the catalog), else the opening of its first text; -> {text, lang}.

    An English reader has no ruling text in English: the example's title keeps the English
    tree from titling rulings in Russian. Remembered per group id: a ruling's page asks twice,
    the report and its cards' pages once more."""
    key = (group["id"], ui, limit)
    title = _TITLES.get(key)
    if title is None:
        title = _TITLES[key] = _ruling_title(group, ui, limit)
    return title


def _ruling_title(group: dict, ui: str, limit: int) -> dict:
    lead = in_reader_lang(group, ui)
    if lead is not None:
        return {"text": excerpt(lead["text"], limit), "lang": ui}
    titled = next((run["title"] for run in group.get("examples") or () if run.get("title")), None)
    if titled:
        return {"text": excerpt(texts.translate(titled, ui), limit), "lang": ui}
    first = group["members"][0]
    return {"text": excerpt(first["text"], limit), "lang": first["lang"]}


_STEPS: dict = {}
_TITLES: dict = {}


def forget() -> None:
    """Drop what the memos hold (a new build's groups may reuse an earlier build's ids)."""
    _STEPS.clear()
    _FIRST_IN.clear()
    _TITLES.clear()


def describe_step(step, ui: str) -> dict:
    """One step of an example run in the reader's language: event, log, state, refused.
    Memoised per build: a run shows on its ruling's page and on each of its rules' pages."""
    key = (id(step), ui)
    if key not in _STEPS:
        _STEPS[key] = (step, _describe_step(step, ui))  # keeps step alive: its id stays unique
    return _STEPS[key][1]


def _describe_step(step, ui: str) -> dict:
    from kb.examples import text as example_text  # babel's formatting, only for example pages

    if isinstance(step, dict):
        return example_text.describe_step(step, ui)
    return {
        "event": json.dumps(step, ensure_ascii=False, sort_keys=True),
        "log": [],
        "state": [],
        "refused": None,
    }


def describe_state(state, ui: str) -> list[str]:
    from kb.examples import text as example_text

    return example_text.describe_state(state, ui) if isinstance(state, dict) else []
