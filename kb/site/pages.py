"""The pages of one interface language, rendered from :class:`kb.site.data.SiteData`.

Every UI language has its own tree (``en/``, ``ru/``, ...) with the same page keys
(``ruling/<slug>.html``, ...), so the language switcher links each page to its twin; the site
root's ``index.html`` is the English home. The templates' environment and the helpers they
call are :mod:`kb.site.templating`'s (its public names are also importable from here).
"""

from __future__ import annotations

import os
from pathlib import Path

from kb.site.data import SiteData
from kb.site.paths import root_of, slug
from kb.site.templating import (
    TEMPLATES,
    TITLE_CHARS,
    Links,
    anchor_of,
    copies,
    describe_state,
    describe_step,
    environment,
    excerpt,
    forget,
    in_reader_lang,
    printed_list,
    printed_on,
    ruling_title,
)

__all__ = [
    "TEMPLATES",
    "TITLE_CHARS",
    "Links",
    "anchor_of",
    "copies",
    "describe_state",
    "describe_step",
    "environment",
    "excerpt",
    "forget",
    "in_reader_lang",
    "printed_list",
    "printed_on",
    "ruling_title",
    "FEW_CARDS",
    "LANG_PAGE_CARDS",
    "REPORT_PAGE_GROUPS",
    "pages",
    "part_keys",
    "parts",
    "report_findings",
    "present",
    "render_tree",
]

#: The home page names a language's cards when it has at most this many (else only counts).
FEW_CARDS = 12
#: Cards per page of a language's rulings, and ruling groups per page of the coverage report.
LANG_PAGE_CARDS = 100
REPORT_PAGE_GROUPS = 400


def pages(site: SiteData, only: set[str] | None = None) -> list[tuple[str, str, dict | None]]:
    """(template, page key, context) for every page of one UI tree; the context only for the
    keys in ``only`` (default: all): an incremental build loads only what those show."""

    def wanted(key: str) -> bool:
        return only is None or key in only

    out: list[tuple[str, str, dict | None]] = [
        ("home.html", "index.html", {}),
        ("rules.html", "rules.html", {}),
        ("glossary.html", "glossary.html", {}),
        ("unlinked.html", "unlinked.html", {}),
    ]
    report = parts(site.group_order, REPORT_PAGE_GROUPS)
    findings = report_findings(site, report)
    out += _parted(
        "consistency.html",
        "consistency",
        site.group_order,
        REPORT_PAGE_GROUPS,
        "rows",
        {},
        wanted,
        site.group,
        lambda number: {"findings": findings[number - 1]},
    )
    for code in present(site):
        out += _parted(
            "lang.html",
            f"lang/{code}",
            site.cards_in(code),
            LANG_PAGE_CARDS,
            "cards",
            {"code": code},
            wanted,
            None,
        )
    for card in site.cards.values():
        key = f"card/{card['slug']}.html"
        out.append(("card.html", key, {"card": card} if wanted(key) else None))
    for group_id in site.group_order:
        key = f"ruling/{slug(group_id)}.html"
        out.append(("ruling.html", key, {"group": site.group(group_id)} if wanted(key) else None))
    out += [
        ("rule.html", f"rule/{rule['slug']}.html", {"rule": rule}) for rule in site.rules.values()
    ]
    return out


def part_keys(base: str, count: int) -> list[tuple[int, str]]:
    """(number, page key) of each part of a long page: ``base.html``, ``base-p2.html``, ..."""
    return [(n, f"{base}.html" if n == 1 else f"{base}-p{n}.html") for n in range(1, count + 1)]


def parts(items: list, size: int) -> list[list]:
    """``items`` cut into pages of ``size`` (one empty page when there is nothing)."""
    return [items[start : start + size] for start in range(0, len(items), size)] or [[]]


def report_findings(site: SiteData, chunks: list[list[str]]) -> list[list[dict]]:
    """The translator findings each part of the consistency report shows (``chunks``: each
    part's group ids): those of its rulings, in the findings' order, so a changed finding
    re-renders one part; the first part also shows those of no listed ruling (corpus-wide)."""
    part_of: dict[str | None, int] = {
        group: number for number, chunk in enumerate(chunks) for group in chunk
    }
    out: list[list[dict]] = [[] for _ in chunks]
    for finding in site.findings or []:
        out[part_of.get(finding.get("group"), 0)].append(finding)
    return out


def _parted(
    template: str,
    base: str,
    items: list,
    size: int,
    name: str,
    context: dict,
    wanted,
    resolve,
    more=None,
) -> list[tuple[str, str, dict | None]]:
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
        out.append(
            (
                template,
                key,
                {
                    **context,
                    name: shown,
                    "part": number,
                    "parts": keys,
                    **(more(number) if more else {}),
                },
            )
        )
    return out


def present(site: SiteData) -> list[str]:
    return site.languages


def render_tree(
    site: SiteData, ui: str, out: Path, counts: dict, only: set[str] | None = None
) -> int:
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


def _write(
    template, page: str, ui: str, key: str, context: dict, out: Path, made: set[str]
) -> None:
    """Render ``page`` into ``out`` (``made``: the folders made so far). Plain strings and
    os calls, not Path objects: this runs 13,600 times at 10k rulings."""
    html = template.render(link=Links(page, ui, key), root=root_of(page), **context)
    target = f"{out}/{page}"
    folder = target.rpartition("/")[0]
    if folder not in made:
        os.makedirs(folder, exist_ok=True)
        made.add(folder)
    data = html.encode("utf-8")
    try:
        file = open(target, "xb")  # noqa: SIM115 - closed below
    except FileExistsError:
        # Hard-linked from the previous build: replace it, never write into it (that would
        # change the previous build too). Rare: a full build's files are all new.
        os.unlink(target)
        file = open(target, "xb")  # noqa: SIM115
    with file:
        file.write(data)
