"""`kb build`: runs the pipeline stages in order into a staged output folder.

Data flows one way: corpus -> parse -> store -> align -> link -> examples -> checks -> index
-> site. Each stage is a function ``stage(ctx)`` in its own module, listed in :data:`STAGES` by
dotted name so this module stays a table of contents. A stage raises :class:`kb.errors.KbError`
for bad input; the staged output is then thrown away and the previous build stays as it was.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import importlib
import json
import os
import sqlite3
import time
from pathlib import Path

from kb import store
from kb.corpus import languages
from kb.corpus.files import corpus_files
from kb.corpus.safe import shown_path
from kb.errors import KbError
from kb.pipeline import forking, incremental
from kb.pipeline.context import BuildContext
from kb.pipeline.outdir import KeepPrevious, output_folder, staged_output, writable_file

DEFAULT_CORPUS = Path("rulings")
DEFAULT_OUT = Path("_build")

#: (name, "module:function") in pipeline order.
STAGES: list[tuple[str, str]] = [
    ("parse", "kb.corpus.stage:build_stage"),
    ("store", "kb.store.stage:build_stage"),
    ("align", "kb.align:build_stage"),
    ("link", "kb.link:build_stage"),
    ("examples", "kb.examples.runs:build_stage"),
    ("check", "kb.checks.stage:build_stage"),
    ("index", "kb.search:build_stage"),
    ("site", "kb.site.build:build_stage"),
]


def build(
    corpus: list[str] | None = None,
    out: str | Path = DEFAULT_OUT,
    lang: str | None = None,
    reuse: bool = True,
    timings_json: str | Path | None = None,
) -> dict[str, float]:
    """Build ``out`` from the corpus paths; return the seconds each stage took.

    With ``reuse`` (the default) a previous build in ``out`` made by the same code and options
    is the starting point: only changed ruling files are parsed and stored (see
    :mod:`kb.pipeline.incremental`); the output is the same as a full build's. When no file changed
    at all, ``out`` is left as it is and no stage runs ({} is returned).

    Every argument is checked before any work (:func:`kb.pipeline.outdir.output_folder`:
    ``out`` must be new, empty or a previous build; ``timings_json`` must be writable, and is
    written, as ``{"stages": ..., "total": ...}``, once the output is in place).
    """
    started = time.perf_counter()
    if lang is not None:
        try:
            languages.check_stated(lang)
        except ValueError as exc:
            raise KbError(f"--lang {lang}: {exc}") from None
    named = corpus or [str(DEFAULT_CORPUS)]
    files = corpus_files(named)
    target = output_folder(out, [*named, *files])
    timings_file = writable_file(timings_json, files) if timings_json else None
    timings: dict[str, float] = {}
    with _output_errors(shown_path(out)):
        _build_into(files, target, Path(out), lang, reuse, timings)
    if timings_file is not None:
        total = time.perf_counter() - started  # not the sum: some stages run side by side
        try:
            timings_file.write_text(
                json.dumps({"stages": timings, "total": total}, indent=1) + "\n", encoding="utf-8"
            )
        except OSError as exc:
            # The path as given (timings_file, set only with it, is its real path).
            raise KbError(
                f"{shown_path(timings_json or timings_file)}: cannot write the timings: "
                f"{exc.strerror}"
            ) from None
    return timings


def _build_into(
    files: list[str],
    out: Path,
    named: Path,
    lang: str | None,
    reuse: bool,
    timings: dict[str, float],
) -> None:
    """:func:`build` once its arguments are checked (``out``: the folder itself, no link;
    ``named``: as the user named it, for messages)."""
    key, settings = incremental.build_key(lang), incremental.settings_digest(files)
    previous = out / "rulings.db"
    found = incremental.scan_files(files)  # before any file is read: see kb.pipeline.incremental
    hashes = (
        incremental.file_hashes(files, found, previous) if reuse and previous.is_file() else None
    )
    with staged_output(out, named) as work, _old_objects_left_alone():
        if (
            hashes is not None
            and len(hashes) == len(files)
            and incremental.up_to_date(out, hashes, key, settings)
        ):
            raise KeepPrevious  # nothing changed: the previous build is this one's output
        ctx = BuildContext(corpus=files, work=work, lang=lang, timings=timings, hashes=hashes)
        ctx.reused = reuse and incremental.reuse_store(previous, ctx.db_path, key)
        if ctx.reused:
            ctx.previous = out
        try:
            run_stages(ctx, named)
            if ctx.db is not None:
                incremental.record(ctx.db, key, settings, found)
        finally:
            if ctx.db is not None:
                ctx.db.close()
        _sync(ctx.db_path)


#: {stage: the stage it runs alongside}: two single-threaded stages that do not read what the
#: other writes run at once, one in a forked process, to use both cores. Its place in
#: :data:`STAGES` is where it would run alone. The checks go to the child: their word lists
#: (wordfreq, ~170 MB at any size) and their corpus model then go with it, while the index's
#: lemma dictionaries stay in this process, where the site's search index needs them next
#: (measured at 10k rulings: peak 729 -> 610 MB, the site stage's 678 -> 481 MB). The child
#: writes only its own tables (findings); the index only reads the store (busy timeout set).
ALONGSIDE = {"check": "index"}


def run_stages(ctx: BuildContext, out: Path) -> None:
    targets = dict(STAGES)
    for name, target in STAGES:
        if name in ALONGSIDE and forking.available():
            continue  # started with its partner
        partners = [n for n, other in ALONGSIDE.items() if other == name and forking.available()]
        background = [Background(n, targets[n], ctx, out) for n in partners]
        started = time.perf_counter()
        try:
            _run_stage(target, ctx, out)
            ctx.timings[name] = time.perf_counter() - started
        except BaseException:
            for job in background:  # waited for even on failure: none outlives the build
                job.wait(quiet=True)
            raise
        for job in background:
            ctx.timings[job.name] = job.wait()
        _give_back()


@contextlib.contextmanager
def _old_objects_left_alone():
    """No full collection but the one after each stage (:func:`_give_back`): a stage that
    builds large structures (the alignment's units, the site's data) otherwise triggers one
    each time its objects grow by a quarter, and each scans all of them again (at 100k
    rulings, 25 such collections took 8.8 s of a full build). Young objects are still
    collected as usual."""
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], 2**31 - 1)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def _give_back() -> None:
    """Return a finished stage's garbage to the system: left in the heap, it would count in
    the build's footprint and in every worker forked later."""
    gc.collect()
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)  # glibc keeps freed arenas otherwise
    except (OSError, AttributeError):  # not glibc
        pass


_INHERITED: list = []


class Background:
    """A stage running in a forked child, with the store opened afresh there."""

    def __init__(self, name: str, target: str, ctx: BuildContext, out: Path):
        self.name = name
        fork = forking.context()
        self._receive, send = fork.Pipe(duplex=False)
        if ctx.db is not None:
            ctx.db.conn.commit()  # the child must see everything stored so far
            ctx.db.execute("PRAGMA busy_timeout = 60000")  # its reads may overlap our writes
        self._process = fork.Process(
            target=self._child, args=(target, ctx, out, send), name=f"kb-{name}", daemon=True
        )
        with forking.frozen():
            self._process.start()
        send.close()

    @staticmethod
    def _child(target: str, ctx: BuildContext, out: Path, send) -> None:
        forking.die_with_parent()
        started = time.perf_counter()
        try:
            if ctx.db is not None:  # never use a connection across a fork (nor close it)
                _INHERITED.append(ctx.db)
                ctx.db = store.open_db(ctx.db_path)
                ctx.db.execute("PRAGMA busy_timeout = 60000")
            _run_stage(target, ctx, out)
            send.send(("ok", time.perf_counter() - started))
        except KbError as exc:
            send.send(("error", exc.problems))
        except BaseException:  # noqa: BLE001 - reported by the parent, which raises it
            import traceback

            send.send(("crash", traceback.format_exc()))

    def wait(self, quiet: bool = False) -> float:
        """Wait for the child; return its seconds, or raise what it raised (unless quiet)."""
        try:
            kind, value = self._receive.recv()
        except EOFError:
            kind, value = "crash", "died without a word (killed?)"
        self._process.join()
        if kind == "ok" or quiet:
            return value if kind == "ok" else 0.0
        if kind == "error":
            raise KbError(value)
        raise RuntimeError(f"stage {self.name} failed in its process:\n{value}")


def _sync(path: Path) -> None:
    """Flush the store to disk before it is swapped in (stages wrote it unsynced)."""
    if path.is_file():
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


_OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM}


def _run_stage(target: str, ctx: BuildContext, out: Path) -> None:
    """Run one stage, turning a full or read-only output disk into a one-line error."""
    with _output_errors(str(out)):
        stage_function(target)(ctx)


@contextlib.contextmanager
def _output_errors(shown: str):
    """A full or read-only output disk as a one-line error naming the output ``shown``."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in _OUTPUT_ERRNOS:
            raise
        raise KbError(f"{shown}: cannot write the output: {exc.strerror}") from None
    except sqlite3.OperationalError as exc:
        if not _store_unwritable(exc):
            raise
        raise KbError(f"{shown}: cannot write the store: {exc}") from None


def _store_unwritable(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite failed for want of room or of write access ("database or disk is
    full", "attempt to write a readonly database", "disk I/O error")."""
    return any(words in str(exc) for words in ("full", "readonly", "disk I/O"))


def stage_function(target: str):
    """The function a :data:`STAGES` entry names ("module:function")."""
    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)


def run_through(ctx: BuildContext, last: str) -> BuildContext:
    """Run the stages of :data:`STAGES` in order on ``ctx`` up to and including ``last`` (a
    stage's name), in this process and without staging: the store as that stage leaves it,
    for a library user or a test that needs no later stage."""
    names = [name for name, _ in STAGES]
    if last not in names:
        raise ValueError(f"no stage {last!r}: {', '.join(names)}")
    for _, target in STAGES[: names.index(last) + 1]:
        stage_function(target)(ctx)
    return ctx
