"""The site's ``data/rulings.json``: the ``kb export json`` bytes, reusing the previous build's.

The dump is ``{"groups": [...]}`` indented by two (:func:`kb.export.json.to_json`). Python's indenting
encoder is pure Python and was most of the dump's cost, so each group is written as its own
piece (exactly the bytes the whole-document encoder gives it at that depth; its rulings
encoded by orjson where that gives the same bytes, see :func:`indented`) and remembered, with
the digest of its compact encoding (the C encoder: the same content gives the same digest), in
table ``site_dump``. A later build copies the pieces whose digest it finds there from the
previous file instead of encoding them again. An incremental build that knows which groups
changed (``changed``) does not even read the others: groups are in the order of their ids
(:func:`kb.align.group_order`), so each unchanged group's bytes are copied as they were.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path

import orjson

from kb import align
from kb.examples import runs as example_runs
from kb.export import json as export
from kb.site import differing
from kb.site.files import previous_rows, replace_table
from kb.store import schema

TABLE = "site_dump"
_NESTING = "\n    "  # a group sits two levels deep: {"groups": [ group, ... ]}
_SEPARATOR = b",\n    "  # between two groups


def write(db, path: Path, previous: Path | None = None, changed: set[str] | None = None) -> dict:
    """Write the dump of ``db`` to ``path``; ``previous``: an earlier build folder whose
    ``site/data/rulings.json`` and store may give unchanged pieces; ``changed``: the groups
    that may differ from it (None: any). Returns figures."""
    pieces, figures = encode(db, path, previous, changed)
    store(db, pieces)
    return figures


def encode(
    db, path: Path, previous: Path | None = None, changed: set[str] | None = None
) -> tuple[list, dict]:
    """Write the dump file only: (its pieces for :func:`store`, figures). Reads ``db`` only,
    so another process may do it on its own connection."""
    before = _previous_pieces(previous) if previous else {}
    if "groups" not in db.table_names():
        groups, count = export.groups(db), None
    else:
        ids = sorted((g for (g,) in db.execute("SELECT id FROM groups")), key=align.id_order)
        if changed is not None and previous is not None and before:
            stale = (
                set(changed)
                | differing.groups(db, previous, _ROWS_OF_GROUPS)
                | {g for g in ids if g not in before}
            )
        else:
            stale = set(ids)
        groups, count = groups_of(db, ids, stale), len(ids)
    by_digest = {digest: (offset, length) for digest, offset, length in before.values()}
    old = (
        _Previous(previous / "site" / "data" / "rulings.json")
        if previous is not None and before
        else None
    )
    pieces, reused = [], 0
    try:
        with _Output(path) as out:
            out.write(
                b'{\n  "groups": [' + (b"\n    " if count or (count is None and groups) else b"")
            )
            for number, group in enumerate(groups):
                gap = _SEPARATOR if number else b""
                piece = None
                if isinstance(group, str):  # unchanged: its piece as it was
                    group_id, (digest, offset, length) = group, before[group]
                    piece = old.span(offset, length) if old else None
                    group = None if piece else export.groups(db, [group_id])[0]
                if group is not None:
                    group_id, (digest, unsure) = group["id"], piece_digest(group)
                    piece = old.span(*by_digest[digest]) if old and digest in by_digest else None
                if piece and old:
                    reused += 1
                    pieces.append((group_id, digest, out.tell() + len(gap), piece[1]))
                    out.copy(old, gap, *piece)
                    continue
                out.write(gap)
                offset = out.tell()
                for part in indented(group, unsure):  # 10,000 rulings are 14 MB of text
                    out.write(part)
                pieces.append((group_id, digest, offset, out.tell() - offset))
            out.write(b"\n  ]\n}\n" if pieces else b"]\n}\n")
    finally:
        if old:
            old.close()
    return pieces, {"dump_groups": len(pieces), "dump_reused": reused}


def encode_file(
    store_file: str, path: Path, previous: Path | None, changed: set[str] | None
) -> tuple[list, dict]:
    """:func:`encode` on a connection of its own to the store file (in another process)."""
    import sqlite_utils

    db = sqlite_utils.Database(store_file)
    try:
        return encode(db, path, previous, changed)
    finally:
        db.close()


class _Previous:
    """The previous build's dump, open for copying pieces out of it."""

    def __init__(self, path: Path):
        self.fd = os.open(path, os.O_RDONLY)
        self.size = os.fstat(self.fd).st_size

    def span(self, offset: int, length: int) -> tuple[int, int] | None:
        """(offset, length) if the file holds that piece (a truncated one lacks its last)."""
        return (offset, length) if offset + length <= self.size else None

    def close(self) -> None:
        os.close(self.fd)


def _copy_range(source: int, target: int, count: int, offset: int) -> int:
    """Copy up to ``count`` bytes at ``offset`` of ``source`` to ``target``'s position; ->
    bytes copied. In the kernel where it can (Linux), else through this process."""
    if _KERNEL_COPY:
        try:
            return os.copy_file_range(source, target, count, offset)
        except OSError as exc:
            if exc.errno not in (errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
                raise
    data = os.pread(source, min(count, 1 << 24), offset)
    view = memoryview(data)
    while view:
        view = view[os.write(target, view) :]
    return len(data)


_KERNEL_COPY = hasattr(os, "copy_file_range")


class _Output:
    """The dump being written: bytes, and pieces of the previous dump copied by the kernel
    (``copy_file_range``) instead of read into this process and written back (228 MB at
    100k rulings). Pieces that follow each other in both dumps are copied as one run, with
    the separator between them."""

    def __init__(self, path: Path):
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        self.position, self.buffer = 0, bytearray()
        self.source: _Previous | None = None
        self.run: list[int] | None = None  # [start, end] in the source, still to copy

    def tell(self) -> int:
        return self.position

    def write(self, data: bytes) -> None:
        self._copy_run()
        self.buffer += data
        self.position += len(data)
        if len(self.buffer) >= 1 << 20:
            self._flush()

    def copy(self, source: _Previous, gap: bytes, offset: int, length: int) -> None:
        """Write ``gap``, then the ``length`` bytes at ``offset`` of the previous dump."""
        if self.run is not None and gap == _SEPARATOR and self.run[1] + len(gap) == offset:
            # The previous dump has the separator there too: one group followed the other.
            self.run[1] = offset + length
            self.position += len(gap) + length
            return
        self.write(gap)
        self._flush()  # a run starts with nothing buffered before it
        self.source, self.run = source, [offset, offset + length]
        self.position += length

    def _copy_run(self) -> None:
        if self.run is None or self.source is None:
            return
        (start, end), self.run = self.run, None
        while start < end:
            done = _copy_range(self.source.fd, self.fd, end - start, start)
            if not done:
                raise OSError(f"the previous dump ended at byte {start} of {end}")
            start += done

    def _flush(self) -> None:
        view = memoryview(self.buffer)
        while view:
            view = view[os.write(self.fd, view) :]
        view.release()
        self.buffer.clear()

    def __enter__(self):
        return self

    def __exit__(self, kind, *_) -> None:
        try:
            if kind is None:
                self._copy_run()
                self._flush()
        finally:
            os.close(self.fd)


def groups_of(db, ids: list[str], stale: set[str], batch: int = 2000):
    """The groups ``ids`` in order: an export dict for those in ``stale`` (read about
    ``batch`` rulings at a time, so that a full dump never holds the whole store, nor two
    groups of 10,000 rulings), the id for the others."""
    sizes = dict(db.execute("SELECT group_id, COUNT(*) FROM memberships GROUP BY group_id"))
    chunk, held = [], 0
    for number, group_id in enumerate(ids):
        chunk.append(group_id)
        held += sizes.get(group_id, 0) if group_id in stale else 0
        if (
            held >= batch
            or number == len(ids) - 1
            or (ids[number + 1] in stale and held + sizes.get(ids[number + 1], 0) > batch)
        ):
            fresh = {g["id"]: g for g in export.groups(db, [g for g in chunk if g in stale])}
            yield from (fresh.pop(g, g) for g in chunk)
            chunk, held = [], 0


def _split(group: dict) -> tuple[dict, list] | None:
    """(the group without its rulings, its rulings) when they are its last key, else None."""
    if not group or list(group)[-1] != "rulings":
        return None
    return {k: v for k, v in group.items() if k != "rulings"}, group["rulings"]


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def piece_digest(group: dict) -> tuple[str, frozenset[int]]:
    """SHA-256 of the group's compact JSON (``json.dumps(group)``), encoded ruling by ruling;
    and the rulings :func:`indented` must leave to ``json`` (see :func:`_unsure`)."""
    split = _split(group)
    if split is None or not split[0]:
        compact = json.dumps(group, ensure_ascii=False)
        return hashlib.sha256(_bytes(compact)).hexdigest(), frozenset()
    head, rulings = split
    digest = hashlib.sha256(_bytes(json.dumps(head, ensure_ascii=False)[:-1] + ', "rulings": ['))
    unsure = []
    for number, ruling in enumerate(rulings):
        compact = json.dumps(ruling, ensure_ascii=False)
        digest.update(_bytes((", " if number else "") + compact))
        if _unsure(compact):
            unsure.append(number)
    digest.update(b"]}")
    return digest.hexdigest(), frozenset(unsure)


def _unsure(compact: str) -> bool:
    """Whether ``json``'s compact text of a ruling holds what orjson writes otherwise: a
    number with an exponent (``1e-05``: orjson ``0.00001``), NaN or Infinity (orjson:
    ``null``). A text that only looks like one sends its ruling the slow way, no more.
    (``str.find``, not a regular expression: 3 µs a ruling against 12.)"""
    if "e+" in compact or "NaN" in compact or "Infinity" in compact:
        return True
    at = compact.find("e-")
    while at != -1:
        if at and compact[at - 1].isdigit() and compact[at + 2 : at + 3].isdigit():
            return True
        at = compact.find("e-", at + 2)
    return False


def indented(group: dict, unsure: frozenset[int] | None = None):
    """The group's piece (``json.dumps(group, indent=2)`` at its depth), ruling by ruling.

    The rulings are encoded by orjson, the very bytes ``json``'s indenting encoder (pure
    Python: 36 µs a ruling, 0.4 s for a group of 10,000) gives them, 10 times faster; those
    in ``unsure`` (:func:`piece_digest`'s, found here when not given), or that orjson refuses, by
    ``json`` itself."""
    split = _split(group)
    if split is None or not split[0]:
        yield _bytes(json.dumps(group, ensure_ascii=False, indent=2).replace("\n", _NESTING))
        return
    head, rulings = split
    unsure = piece_digest(group)[1] if unsure is None else unsure
    yield _bytes((_indented_head(head)[:-2] + ',\n  "rulings": [').replace("\n", _NESTING))
    for number, ruling in enumerate(rulings):
        text = _indented_ruling(ruling, number in unsure).replace("\n", "\n    ")
        yield _bytes((("," if number else "") + "\n    " + text).replace("\n", _NESTING))
    yield _bytes(("\n  ]\n}" if rulings else "]\n}").replace("\n", _NESTING))


def _indented_head(head: dict) -> str:
    """``json.dumps(head, indent=2)`` (a group but its rulings: its links, examples and
    findings), by orjson where that writes the same (:func:`_unsure`): json's indenting
    encoder is pure Python, and heads were a third of a dump's time."""
    if not _unsure(json.dumps(head, ensure_ascii=False)):
        try:
            return orjson.dumps(head, option=orjson.OPT_INDENT_2).decode("utf-8")
        except (TypeError, orjson.JSONEncodeError):  # a big integer, a key not a string, ...
            pass
    return json.dumps(head, ensure_ascii=False, indent=2)


def _indented_ruling(ruling: dict, unsure: bool) -> str:
    if not unsure:
        try:
            return orjson.dumps(ruling, option=orjson.OPT_INDENT_2).decode("utf-8")
        except (TypeError, orjson.JSONEncodeError):  # a big integer, a key not a string, ...
            pass
    return json.dumps(ruling, ensure_ascii=False, indent=2)


#: (table, its group column): the rows a group's piece shows besides its rulings' own rows. A
#: group whose rows there differ from the previous store's is encoded again, even if the
#: alignment did not change it (an update may rescore members of groups it did not change:
#: their evidence names the runner-up group; an example run may find another group).
_ROWS_OF_GROUPS = (
    ("groups", "id"),
    ("memberships", "group_id"),
    ("group_rules", "group_id"),
    (example_runs.TABLE, '"group"'),
)


def _previous_pieces(previous: Path) -> dict[str, tuple[str, int, int]]:
    """{group id: (digest, offset, length)} of the previous build's dump."""
    if not (previous / "site" / "data" / "rulings.json").is_file():
        return {}
    rows = previous_rows(previous, f"SELECT id, digest, offset, length FROM {TABLE}")
    return {group_id: (digest, offset, length) for group_id, digest, offset, length in rows}


def store(db, pieces: list[tuple[str, str, int, int]]) -> None:
    """Keep where each group's piece is, for the next build."""
    replace_table(db, TABLE, schema.columns(TABLE), sorted(pieces))
