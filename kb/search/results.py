"""Search results: a :class:`Hit` per group, the ruling it shows, and hits as text.

A matched document (a group in one language, :mod:`kb.search.documents`) shows the ruling
it stored at build time, in the language the reader asks for when the group has it. Under
a ``card:`` or date filter the ruling shown must pass them: it is looked up in the store
next to the index (read only), which is also where a ``card:`` filter's words are checked
to come in order in one card name.
"""

from __future__ import annotations

import contextlib
from dataclasses import asdict, dataclass, field
from pathlib import Path

from kb.search.query import Query


@dataclass
class Hit:
    """One result: a group, shown by one of its rulings."""

    group: str
    lang: str
    card: str
    text: str
    score: float
    id: str = ""
    date: str = ""
    rules: list[str] = field(default_factory=list)
    source: str = ""
    matched_lang: str = ""  # the language whose text matched, if another is shown
    cards: int = 1  # how many cards carry the shown text
    #: Why each rule: the group's links with score, concepts and words (:func:`with_links`).
    links: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


def hit_for(
    searcher,
    fields: dict,
    score: float,
    requested: str | None,
    query: Query,
    store,
    names: list[str] | None,
) -> Hit | None:
    """The hit of a matched document (its stored ``fields``), shown in ``requested`` if the
    group has it; None when a ``card:`` filter's words are in the document's names but not
    in order in one of them. ``store``: :func:`store_beside`'s; ``names``: the card names
    passing the ``card:`` filters (:func:`kb.search.cards.filter_names`)."""
    matched = fields["lang"]
    rid, card, date, source, text, cards = fields["shown"]
    if store is not None:  # show a ruling that passes card: and date filters, not the first
        row = _member(store, fields["group"], matched, query, names)
        if row is None and query.cards:
            return None
        if row is not None:
            rid, card, date, source, text = (
                row["id"],
                row["card"],
                row["date"],
                row["source"],
                row["text"],
            )
    if requested and requested != matched:
        other = searcher.document(group=fields["group"], lang=requested)
        if other is not None:
            fields = other
            rid, card, date, source, text, cards = other["shown"]
    return Hit(
        group=fields["group"],
        lang=fields["lang"],
        card=card,
        text=text,
        score=round(float(score), 4),
        id=rid,
        date=date,
        rules=fields.get("rules", "").split(),
        source=source,
        matched_lang=matched,
        cards=cards,
    )


def with_links(hits: list[Hit], index_dir: str | Path | None) -> list[Hit]:
    """``hits`` with each group's links (:func:`kb.link.link_row`: rule, number_then, score,
    concepts, words) read from the store next to the index; unchanged without a store."""
    groups = sorted({hit.group for hit in hits})
    if not groups:
        return hits
    from kb.link import link_row  # only JSON output shows why: text searches stay light

    found: dict[str, list[dict]] = {}
    with store_beside(index_dir) as store:
        if store is None:
            return hits
        try:
            rows = store.execute(
                f"SELECT * FROM group_rules WHERE group_id IN ({', '.join('?' * len(groups))}) "
                "ORDER BY group_id, rank",
                groups,
            ).fetchall()
        except store.Error:  # a store without links
            rows = []
        for row in rows:
            shown = {k: v for k, v in link_row(row).items() if k != "evidence"}
            found.setdefault(row["group_id"], []).append(shown)
    for hit in hits:
        hit.links = found.get(hit.group, [])
    return hits


@contextlib.contextmanager
def store_beside(index_dir: str | Path | None):
    """The store next to the index, read only, for one query's hits; None when there is
    none (or ``index_dir`` is None: nothing to look up)."""
    from kb.store import read_only  # only queries with card: or date filters need it

    db = Path(index_dir).parent / "rulings.db" if index_dir is not None else None
    if db is None or not db.is_file():
        yield None
        return
    with read_only(db) as conn:
        yield conn


def _member(store, group: str, lang: str, query: Query, names: list[str] | None) -> dict | None:
    """The group's first ruling in ``lang`` (store order) whose card and date pass the
    query's filters; None if there is none."""
    # A card's id is "lang:name" (kb.store): a few names lead to their rulings by index;
    # many (card:chasseur on 2,000 cards) are checked on the group's rulings instead.
    ids = [f"{lang}:{name}" for name in names or ()]
    by_card = query.cards and len(ids) <= 50
    source = (
        "rulings r CROSS JOIN memberships m ON m.ruling_id = r.id"
        if by_card
        else "memberships m CROSS JOIN rulings r ON r.id = m.ruling_id"
    )
    where = f" AND r.card_id IN ({', '.join('?' * len(ids))})" if by_card else ""
    try:
        rows = store.execute(
            f"""SELECT r.id, r.date, r.source, r.text, r.card_id, c.name AS card
                FROM {source} JOIN cards c ON c.id = r.card_id
                WHERE m.group_id = ? AND r.lang = ?{where}
                ORDER BY c.name, r.source, r.position""",
            (group, lang, *(ids if by_card else ())),
        ).fetchall()
    except store.Error:  # sqlite3.Error, as the connection names it
        return None
    wanted = set(ids) if query.cards else None
    return next(
        (
            dict(r)
            for r in rows
            if (wanted is None or r["card_id"] in wanted)
            and all(_date_passes(r["date"], op, value) for op, value in query.dates)
        ),
        None,
    )


def _date_passes(date: str, op: str, value: str) -> bool:
    end = value + "\uffff"
    return {
        "=": date.startswith(value),
        ">=": date >= value,
        ">": date > end,
        "<=": date <= end,
        "<": date < value,
    }[op]


def render_text(hits: list[Hit]) -> str:
    """Hits as text for a terminal: a heading line per hit, then its text indented."""
    if not hits:
        return "no rulings found"
    import textwrap

    blocks = []
    for rank, hit in enumerate(hits, 1):
        rules = f"  rules {', '.join(hit.rules)}" if hit.rules else ""
        more = f" (and {hit.cards - 1} more cards)" if hit.cards > 1 else ""
        head = f"{rank}. [{hit.lang}] {hit.card}{more} · {hit.date}{rules}  (score {hit.score:.2f})"
        body = textwrap.fill(hit.text, width=96, initial_indent="   ", subsequent_indent="   ")
        blocks.append(f"{head}\n{body}")
    return "\n\n".join(blocks)
