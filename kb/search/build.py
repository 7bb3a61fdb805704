"""The build stage "index": write the whoosh index of the store's groups.

One whoosh document per group and language (:mod:`kb.search.documents`); each language's
text and card names are analysed by :mod:`kb.search.analysis` for that language. Besides
whoosh's files, the index folder gets the tables of :mod:`kb.search.folder` (document
digests, German compound splits, card names, the glossary's terms).

On a rebuild that reuses the previous build (:mod:`kb.pipeline.incremental`), the previous
index is copied and only the documents that changed are replaced (a digest per document in
``index/documents.json`` tells which; German compound splits made before are in
``index/compounds.json``, so no dictionary is loaded for words seen before).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from whoosh import index as whoosh_index
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema

from kb.corpus.languages import LANGUAGES
from kb.search import analysis, cards, documents, folder, glossary, handles

if TYPE_CHECKING:
    from kb.pipeline.context import BuildContext

TITLE_BOOST = 0.5  # a word of the card name counts less than one of the ruling
#: Above this share of changed groups, rewriting the index is as quick as patching it.
PATCH_LIMIT = 0.2
#: whoosh's posting pool, in MB: 256 held 620 MB at 100k rulings, 64 holds 400 MB in the same
#: time (it spills sorted runs to disk and merges them).
POOL_MB = 64


def schema(method: str = analysis.DEFAULT_METHOD) -> Schema:
    fields = {
        "key": ID(unique=True),
        "group": ID(stored=True),
        "lang": ID(stored=True),
        "dates": KEYWORD(),
        "rules": KEYWORD(stored=True, scorable=False),
        "cards": KEYWORD(scorable=False),
        "shown": STORED(),
    }
    for lang in LANGUAGES:
        fields[f"text_{lang}"] = TEXT(analyzer=analysis.LanguageAnalyzer(lang, method))
        fields[f"title_{lang}"] = TEXT(
            analyzer=analysis.LanguageAnalyzer(lang, method), phrase=False, field_boost=TITLE_BOOST
        )
    return Schema(**fields)


def build_stage(ctx: BuildContext) -> None:
    """Pipeline stage "index": write the whoosh index to ``ctx.work / "index"``.

    A reused build patches a copy of the previous index with the groups that changed.
    """
    previous = ctx.previous if ctx.reused else None
    build_index(
        ctx.db,
        ctx.work / "index",
        previous=Path(previous) / "index" if previous else None,
        changed=ctx.changed_groups,
    )


def build_index(
    db,
    index_dir: str | Path,
    method: str = analysis.DEFAULT_METHOD,
    previous: Path | None = None,
    changed: set[str] | None = None,
) -> dict:
    """Write the index of every group in the store; return ``{"documents", "written"}``.

    With ``previous`` (an index built by the same code), copy it and rewrite only the
    documents (a group in one language) whose digest differs. ``changed``: the only groups
    whose documents can differ from ``previous`` (the alignment's ``changed_groups``; None:
    any), so that only they are read from the store.
    """
    index_dir = Path(index_dir)
    old = folder.read_json(previous / folder.DIGESTS) if previous is not None else None
    if previous is None or old is None:
        return _write_all(db, index_dir, method)
    docs = {
        doc["key"]: doc
        for group in documents.group_documents(db, changed).values()
        for doc in group
    }
    digests = {key: _digest(doc) for key, doc in docs.items()}
    if changed is not None:  # the other groups' documents are the previous ones
        digests.update((k, d) for k, d in old.items() if k.partition("\t")[0] not in changed)
    todo = sorted(k for k, d in digests.items() if old.get(k) != d)
    gone = sorted(set(old) - set(digests))
    if len(todo) + len(gone) > PATCH_LIMIT * max(1, len(digests)):
        del docs
        return _write_all(db, index_dir, method)  # as quick as patching, and a tidy index
    shutil.copytree(previous, index_dir)
    if not (todo or gone):  # the same index, file for file
        return {"documents": len(digests), "written": 0}
    analysis.remember_compounds(folder.read_json(index_dir / folder.COMPOUNDS) or {})
    writer = whoosh_index.open_dir(str(index_dir)).writer(limitmb=POOL_MB)
    for key in gone + todo:
        writer.delete_by_term("key", key)
    _add(writer, (docs[key] for key in todo), len(todo))
    writer.commit(optimize=False)
    _finish(db, index_dir, digests)
    return {"documents": len(digests), "written": len(todo)}


def _write_all(db, index_dir: Path, method: str) -> dict:
    """Write a new index of every document, streamed from the store group by group."""
    index_dir.mkdir(parents=True, exist_ok=True)
    writer = whoosh_index.create_in(str(index_dir), schema(method)).writer(limitmb=POOL_MB)
    digests: dict[str, str] = {}
    _add(writer, documents.all_documents(db), documents.document_count(db), digests)
    writer.commit(optimize=True)
    glossary.write_glossary(index_dir, method)
    _finish(db, index_dir, digests)
    return {"documents": len(digests), "written": len(digests)}


def _add(writer, docs, total: int, digests: dict[str, str] | None = None) -> None:
    """Add the documents ``docs`` to the index (recording each one's digest in ``digests``)."""
    from kb.pipeline.progress import progress

    with progress("index", total) as advance:
        for doc in docs:
            if digests is not None:
                digests[doc["key"]] = _digest(doc)
            writer.add_document(**doc)
            advance()


def _finish(db, index_dir: Path, digests: dict[str, str]) -> None:
    """What a reused build and ``card:`` need besides the index itself."""
    folder.write_json(index_dir / folder.DIGESTS, digests)
    folder.write_json(index_dir / folder.COMPOUNDS, analysis.known_compounds())
    folder.write_json(index_dir / folder.CARDS, cards.card_names(db))
    handles.forget(index_dir)
    glossary.forget()


def _digest(doc: dict) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[
        :24
    ]
