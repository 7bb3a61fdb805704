"""Rendering the pages of one interface language from :class:`kb.site.data.SiteData`.

Every UI language has its own tree (``en/``, ``ru/``, ...) with the same page keys
(``ruling/<slug>.html``, ...), so the language switcher links each page to its twin; the site
root's ``index.html`` is the English home. Templates are jinja2 with autoescape on for every
HTML template: texts from the corpus are always data.
"""

from __future__ import annotations

import contextlib
import json
import os
from functools import cache, lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from kb.corpus.languages import LANGUAGES, SOURCE_LANGUAGES, UI_LANGUAGES
from kb.site import i18n, memo, texts
from kb.site.annotations import number_on
from kb.site.data import SiteData
from kb.site.paths import rel, root_of, short_digest, slug


def _templates_dir() -> Path:
    """``site_templates/`` of a source checkout, else the copy installed as ``kb/site_templates``."""
    checkout = Path(__file__).resolve().parents[2] / "site_templates"
    return checkout if checkout.is_dir() else Path(__file__).resolve().parents[1] / "site_templates"


TEMPLATES = _templates_dir()
TITLE_CHARS = 90
#: The home page names a language's cards when it has at most this many (else only counts).
FEW_CARDS = 12
#: Cards per page of a language's rulings, and ruling groups per page of the coverage report.
LANG_PAGE_CARDS = 100
REPORT_PAGE_GROUPS = 400


@lru_cache(maxsize=1)
def _environment() -> Environment:
    """The one template environment: templates compile once, each tree sets its language."""
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                      extensions=["jinja2.ext.i18n"], undefined=StrictUndefined,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                      auto_reload=False)
    env.globals.update(languages=LANGUAGES, ui_languages=UI_LANGUAGES, autonym=i18n.autonym,
                       source_languages=SOURCE_LANGUAGES,
                       number_on=number_on, excerpt=excerpt, anchor=anchor_of, copies=copies)
    return env


def environment(ui: str) -> Environment:
    """The environment speaking ``ui``: its gettext catalog and locale-aware helpers (those a
    tree asks thousands of times the same, memoised for it: :mod:`kb.site.memo`)."""
    env = _environment()
    # The i18n extension adds this method at run time (Environment.extend): jinja2's stubs lack it.
    env.install_gettext_translations(  # type: ignore[attr-defined]
        i18n.translations(ui), newstyle=True)
    env.globals.update(memo.gettext_callables(i18n.translations(ui)))
    concept_label = memo.per_key(lambda concept: texts.concept_label(concept, ui))
    env.globals.update(
        ui=ui, language_name=memo.per_key(lambda code: i18n.language_name(code, ui)),
        date=lambda iso: i18n.date(iso, ui), number=lambda n: i18n.number(n, ui),
        describe_step=lambda step: describe_step(step, ui),
        describe_state=lambda state: describe_state(state, ui),
        in_reader_lang=lambda group: in_reader_lang(group, ui),
        ruling_title=lambda group, limit=TITLE_CHARS: ruling_title(group, ui, limit),
        tr=memo.per_key(lambda text: texts.translate(text, ui)),
        check_label=memo.per_key(lambda check: texts.check_label(check, ui)),
        finding_message=memo.per_object(lambda finding: texts.finding_message(finding, ui)),
        glossary_rows=lambda concepts: texts.glossary_rows(concepts, ui),
        concept_label=concept_label,
        decimal=lambda value: i18n.number(round(value, 2), ui),  # `number` is a loop's name
        labels=lambda ids: ", ".join(concept_label(c) for c in ids),
        printed_on=lambda member, link, cards: printed_on(member, link, cards, ui),
        printed_list=lambda run, link, cards: printed_list(run, link, cards, ui),
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


def copies(members: list[dict]) -> list[list[dict]]:
    """A group's members gathered by language and text, in the order they first come: a
    ruling page shows each text once, with every card that prints it (a ruling on 2,000
    cards was 2,000 copies of one quotation per language, 6.5 MB a page)."""
    runs: dict[tuple[str, str], list[dict]] = {}
    for member in members:
        runs.setdefault((member["lang"], member["text"]), []).append(member)
    return list(runs.values())


_PRINTED_ON = ('<a href="{}" lang="{}">{}</a> · <time datetime="{}">{}</time> · '
               '<span class="source">{}:{}</span>')


def printed_on(member: dict, link: Links, cards: dict, ui: str) -> Markup:
    """The line of a ruling page naming a member's card, date and place in its file. Made
    here, not by a template macro: the page of a ruling printed on 2,000 cards lists 10,000
    of them, and a macro cost 13 µs a line, six languages over (this costs 3)."""
    date = member["date"]
    return Markup(_PRINTED_ON.format(
        escape(link.card(cards[member["card_id"]])), escape(member["lang"]),
        escape(member["card"]), escape(date), escape(i18n.date(date, ui)),
        escape(member["source"]), escape(member["line"])))


def printed_list(run: list[dict], link: Links, cards: dict, ui: str) -> Markup:
    """The items of a text's list of cards: one :func:`printed_on` line each, every one but
    the first with the member's anchor (the text's article carries the first's)."""
    items = []
    for number, member in enumerate(run):
        ident = f' id="{escape(anchor_of(member))}"' if number else ""
        items.append(f"<li{ident}>{printed_on(member, link, cards, ui)}</li>\n")
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
    return {"event": json.dumps(step, ensure_ascii=False, sort_keys=True), "log": [],
            "state": [], "refused": None}


def describe_state(state, ui: str) -> list[str]:
    from kb.examples import text as example_text

    return example_text.describe_state(state, ui) if isinstance(state, dict) else []


def pages(site: SiteData, only: set[str] | None = None) -> list[tuple[str, str, dict | None]]:
    """(template, page key, context) for every page of one UI tree; the context only for the
    keys in ``only`` (default: all): an incremental build loads only what those show."""
    def wanted(key: str) -> bool:
        return only is None or key in only

    out: list[tuple[str, str, dict | None]] = [
        ("home.html", "index.html", {}), ("rules.html", "rules.html", {}),
        ("glossary.html", "glossary.html", {}), ("unlinked.html", "unlinked.html", {})]
    report = parts(site.group_order, REPORT_PAGE_GROUPS)
    findings = report_findings(site, report)
    out += _parted("consistency.html", "consistency", site.group_order, REPORT_PAGE_GROUPS,
                   "rows", {}, wanted, site.group,
                   lambda number: {"findings": findings[number - 1]})
    for code in present(site):
        out += _parted("lang.html", f"lang/{code}", site.cards_in(code), LANG_PAGE_CARDS,
                       "cards", {"code": code}, wanted, None)
    for card in site.cards.values():
        key = f"card/{card['slug']}.html"
        out.append(("card.html", key, {"card": card} if wanted(key) else None))
    for group_id in site.group_order:
        key = f"ruling/{slug(group_id)}.html"
        out.append(("ruling.html", key, {"group": site.group(group_id)} if wanted(key) else None))
    out += [("rule.html", f"rule/{rule['slug']}.html", {"rule": rule})
            for rule in site.rules.values()]
    return out


def part_keys(base: str, count: int) -> list[tuple[int, str]]:
    """(number, page key) of each part of a long page: ``base.html``, ``base-p2.html``, ..."""
    return [(n, f"{base}.html" if n == 1 else f"{base}-p{n}.html") for n in range(1, count + 1)]


def parts(items: list, size: int) -> list[list]:
    """``items`` cut into pages of ``size`` (one empty page when there is nothing)."""
    return [items[start:start + size] for start in range(0, len(items), size)] or [[]]


def report_findings(site: SiteData, chunks: list[list[str]]) -> list[list[dict]]:
    """The translator findings each part of the consistency report shows (``chunks``: each
    part's group ids): those of its rulings, in the findings' order, so a changed finding
    re-renders one part; the first part also shows those of no listed ruling (corpus-wide)."""
    part_of: dict[str | None, int] = {group: number for number, chunk in enumerate(chunks)
                                      for group in chunk}
    out: list[list[dict]] = [[] for _ in chunks]
    for finding in site.findings or []:
        out[part_of.get(finding.get("group"), 0)].append(finding)
    return out


def _parted(template: str, base: str, items: list, size: int, name: str, context: dict,
            wanted, resolve, more=None) -> list[tuple[str, str, dict | None]]:
    """A long listing as several pages, each linking to all: a reader gets a page of bounded
    size, and a change to one item re-renders one page, not the whole listing. ``resolve``
    turns an item (a group id) into what the page shows; ``more(number)``: what else part
    ``number`` shows."""
    chunks = parts(items, size)
    keys = part_keys(base, len(chunks))
    out: list[tuple[str, str, dict | None]] = []
    for (number, key), chunk in zip(keys, chunks):
        if not wanted(key):
            out.append((template, key, None))
            continue
        shown = [resolve(item) for item in chunk] if resolve else chunk
        out.append((template, key, {**context, name: shown, "part": number, "parts": keys,
                                    **(more(number) if more else {})}))
    return out


def present(site: SiteData) -> list[str]:
    return site.languages


def render_tree(site: SiteData, ui: str, out: Path, counts: dict,
                only: set[str] | None = None) -> int:
    """Write the tree of UI language ``ui`` under ``out``; the English home also at the root.
    ``only``: the page keys to render (default: all)."""
    env = environment(ui)
    forget()
    common = {"site": site, "counts": counts, "present": present(site), "few_cards": FEW_CARDS}
    written, made = 0, set[str]()
    templates: dict = {}
    for template, key, context in pages(site, only):
        if context is None or (only is not None and key not in only):
            continue
        if template not in templates:
            templates[template] = env.get_template(template)
        _write(templates[template], f"{ui}/{key}", ui, key, {**common, **context}, out, made)
        written += 1
        if ui == "en" and key == "index.html":
            _write(templates[template], "index.html", ui, key, {**common, **context}, out, made)
            written += 1
    return written


def _write(template, page: str, ui: str, key: str, context: dict, out: Path,
           made: set[str]) -> None:
    """Render ``page`` into ``out`` (``made``: the folders made so far). Plain strings and
    os calls, not Path objects: this runs 13,600 times at 10k rulings."""
    html = template.render(link=Links(page, ui, key), root=root_of(page), **context)
    target = f"{out}/{page}"
    folder = target.rpartition("/")[0]
    if folder not in made:
        os.makedirs(folder, exist_ok=True)
        made.add(folder)
    # A file already there is hard-linked from the previous build: replace it, never write into
    # it (that would change the previous build too).
    with contextlib.suppress(FileNotFoundError):
        os.unlink(target)
    with open(target, "wb") as file:
        file.write(html.encode("utf-8"))
