"""The browser's search index of a build, written from the store (:mod:`kb.site.build` runs
:func:`write_search_index` in its own process or a child): which groups' members to read, and
which chunk files to link from the previous build rather than write.
"""

from __future__ import annotations

from pathlib import Path

from kb.corpus.languages import LANGUAGES
from kb.site import search_index, search_state
from kb.site.files import Files
from kb.site.paths import slug
from kb.site.reads import members_light
from kb.site.templating import anchor_of


def write_search_index(
    db,
    order: list[str],
    loaded: dict[str, list[dict]],
    out: Path,
    previous: Path | None,
    changed_groups: set[str] | None,
) -> tuple[dict, Files]:
    """The browser's search index of every group member (:mod:`kb.site.search_index`) of the
    groups ``order`` (sorted ids; ``loaded``: the members of those already read, in the
    site's order); -> (figures, its files, to store).

    Documents are numbered with the groups in id order, each group's members in the site's
    order. Not the site's order of groups: that follows each group's first member, so an edit
    that takes a card's ruling out of a group moves the whole group, and every document after
    it took another number (at 100k rulings, one edit rewrote 16,000 of the 25,000 chunk
    files). By id, a group split off another sorts next to it (its id extends the other's),
    and documents keep their numbers elsewhere; ties in the browser go by group id, as in
    ``kb search``.

    An unchanged group's documents and texts come from the previous build's state
    (:mod:`kb.site.search_state`), and a chunk file holding the very documents it held then is
    linked, never made: only the changed groups' members, and those of chunks that changed,
    are read from the store."""
    files = Files(out.parent, previous)
    saved = search_state.load(previous)
    texts = search_state.Texts(search_index.analyse, saved.texts if saved else None)

    def read(groups: list[str]) -> dict[str, list[dict]]:
        missing = [g for g in groups if g not in loaded]
        loaded.update(zip(missing, members_light(db, missing)))
        # The browser searches the translations, as `kb search` does: an English original
        # (the source) is shown on its pages, not indexed.
        return {g: [m for m in loaded[g] if m["lang"] in LANGUAGES] for g in groups}

    documents, members = search_state.assemble(order, texts, read, saved, changed_groups)
    same = search_state.same_chunks(
        documents, len(saved.parts) if saved else 0, search_index.DOCS_PER_CHUNK
    )

    def keep(path: Path, number: int) -> bool:
        return bool(same[number]) and files.keep(path)

    group_of = documents.group_of.tolist()
    pages_of = [f"ruling/{slug(group)}.html#" for group in documents.groups]

    def chunk(number: int) -> list:
        numbers = range(
            number * search_index.DOCS_PER_CHUNK,
            min((number + 1) * search_index.DOCS_PER_CHUNK, len(group_of)),
        )
        _read_members(documents, group_of, members, numbers, read)
        return [
            search_index.document(members[d], pages_of[group_of[d]] + anchor_of(members[d]))
            for d in numbers
        ]

    facts = search_index.group_facts(db, list(documents.groups))  # rules and dates: filters
    figures = search_index.write_index(
        out, documents.parts, group_of, texts, chunk, files.write, keep, facts
    )
    search_state.save(out.parent.parent, texts, documents)
    return {**figures, "search_linked": files.linked}, files


def _read_members(documents, group_of: list[int], members: dict[int, dict], numbers, read) -> None:
    """Add the members of the documents ``numbers`` to ``members`` ({document: member})."""
    wanted = [d for d in numbers if d not in members]
    if not wanted:
        return
    rows = read(sorted({documents.groups[group_of[d]] for d in wanted}))
    for d in wanted:
        group = group_of[d]
        members[d] = rows[documents.groups[group]][d - int(documents.starts[group])]
