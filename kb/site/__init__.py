"""Static site rendering (minimal for now: the list of cards and their rulings)."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from kb import store

TEMPLATES = Path(__file__).resolve().parent.parent / "site_templates"


def environment() -> Environment:
    return Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                       keep_trailing_newline=True)


def build_stage(ctx) -> None:
    site = ctx.work / "site"
    site.mkdir()
    cards = [dict(row) for row in ctx.db.query(
        "SELECT c.*, count(r.id) AS rulings FROM cards c JOIN rulings r ON r.card_id = c.id "
        "GROUP BY c.id ORDER BY c.lang, c.name")]
    html = environment().get_template("index.html").render(cards=cards, rulings=store.rulings(ctx.db))
    (site / "index.html").write_text(html, encoding="utf-8")
