"""The build's output folder: written whole into a temporary sibling, then swapped in.

A failed or killed build never touches the previous output: the new tree is built in a hidden
sibling folder and exchanged with the old one in a single ``renameat2(RENAME_EXCHANGE)`` call
where the kernel offers it (Linux), else with two renames. A lock file next to the output makes
a second concurrent build fail at once with a clear message instead of racing the first. The
swapped-out previous output is renamed ``.<out>.old-*`` and deleted by a detached process after
the lock is released (the next build deletes any such folder left over).

Because the swap replaces the output folder whole, :func:`output_folder` first decides, before
any work, whether ``--out`` may be replaced at all: only a new folder, an empty one, or a
previous build (marked by :data:`MARKER`, or an older build's ``rulings.db``, ``index/`` and
``site/``). A symlink is followed, so the staging, the lock and the swap happen beside its
target, on its file system.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from filelock import FileLock, Timeout

from kb.corpus.safe import shown_path
from kb.errors import KbError
from kb.store import schema

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
#: The file that marks a folder as a build's output, which the next build may replace whole.
MARKER = ".kb-build"
_MARKER_TEXT = (
    "This folder is the output of `kb build` (rulings-kb): the next build replaces it whole.\n"
)


class KeepPrevious(Exception):
    """Raised inside :func:`staged_output`: there is nothing to build, ``out`` stays as it is
    and the work folder goes."""


@contextlib.contextmanager
def staged_output(out: Path, named: Path | None = None):
    """Yield a fresh work folder; on success swap it in as ``out``, on failure delete it (and
    on :class:`KeepPrevious` too, leaving ``out`` untouched). ``named``: ``out`` as the user
    wrote it, for messages."""
    shown = shown_path(named or out)
    out = Path(os.path.realpath(out))  # a symlink's target: staged and swapped beside it
    parent = out.parent
    _ensure_writable(parent)
    lock = FileLock(str(parent / f".{out.name}.lock"), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise KbError(
            f"{shown}: another build is writing this folder (lock "
            f"{shown_path(lock.lock_file)}); wait for it to finish"
        ) from None
    old = None
    try:
        _remove_stale(parent, out.name)
        work = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=parent))
        work.chmod(0o777 & ~_umask())  # mkdtemp makes it private; the output is for everyone
        (work / MARKER).write_text(_MARKER_TEXT, encoding="utf-8")
        try:
            yield work
            _swap_in(work, out)
            old = _set_aside(work, parent, out.name)
        except KeepPrevious:
            pass
        finally:
            if old is None:
                shutil.rmtree(work, ignore_errors=True)
    finally:
        lock.release()
    if old is not None:
        _remove_later(old)


def output_folder(out: str | Path, corpus: Iterable[str] = ()) -> Path:
    """The folder ``kb build --out out`` writes (a symlink's target), or :class:`KbError`
    when it must not be replaced whole: checked before any work, so a refusal touches nothing.

    Allowed: a new folder, an empty one, a previous build. Refused: the current folder or one
    above it, the home folder, ``/``, anything that is or holds a ``corpus`` path, a file, a
    mount point (it cannot be swapped), and any other folder with something in it.
    """
    shown = shown_path(out)
    target = Path(os.path.realpath(out))
    here = Path.cwd().resolve()
    if target == here or target in here.parents:
        what = "the current folder" if target == here else "a folder holding the current one"
        raise KbError(
            f"{shown}: is {what}; the build replaces its output folder whole: "
            "choose a folder of its own, e.g. --out _build"
        )
    if target == _home() or target == Path(target.anchor):
        raise KbError(
            f"{shown}: is the {'home' if target == _home() else 'root'} folder; "
            "choose a folder of its own, e.g. --out _build"
        )
    for path in corpus:
        source = Path(os.path.realpath(path))
        if source == target or target in source.parents:
            raise KbError(
                f"{shown}: {'is' if source == target else 'holds'} the corpus "
                f"({shown_path(path)}); the build would replace it: choose another "
                "--out"
            )
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target  # a new folder
    except OSError as exc:
        raise KbError(f"{shown}: cannot use as the output folder: {exc.strerror}") from None
    if not stat.S_ISDIR(mode):
        raise KbError(f"{shown}: exists and is not a folder; choose another --out")
    if os.path.ismount(target):
        raise KbError(
            f"{shown}: is a mount point, which cannot be replaced whole; build into a "
            f"folder inside it, e.g. --out {shown_path(Path(out) / '_build')}"
        )
    try:
        empty = next(os.scandir(target), None) is None
    except OSError as exc:
        raise KbError(f"{shown}: cannot read the output folder: {exc.strerror}") from None
    if not (empty or is_build(target)):
        raise KbError(
            f"{shown}: not empty and not a previous build (no {MARKER} file); "
            "kb build replaces its output folder whole, so it writes only a new "
            "folder, an empty one or its own: choose another --out"
        )
    return target


def is_build(folder: Path) -> bool:
    """Whether ``folder`` is a build's output: marked, or shaped like an older build's (a
    SQLite ``rulings.db`` beside ``index/`` and ``site/``)."""
    if (folder / MARKER).is_file():
        return True
    if not ((folder / "index").is_dir() and (folder / "site").is_dir()):
        return False
    try:
        with open(folder / "rulings.db", "rb") as db:
            return db.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def check_store(path: Path) -> None:
    """:class:`KbError` unless ``path`` is a store a read command can use: an SQLite file,
    whole (not cut short), with the store's tables. Cheap (its header and schema only)."""
    shown = shown_path(path)
    try:
        with open(path, "rb") as file:
            header = file.read(100)
            size = os.fstat(file.fileno()).st_size
    except OSError as exc:
        raise KbError(f"{shown}: cannot read the store: {exc.strerror}") from None
    if not header:
        raise KbError(f"{shown}: an empty file, not a store; run `kb build` or pass --db")
    if not header.startswith(b"SQLite format 3\x00") or len(header) < 100:
        raise KbError(f"{shown}: not a store (not an SQLite file); run `kb build` or pass --db")
    page = int.from_bytes(header[16:18], "big")
    pages = int.from_bytes(header[28:32], "big")
    if header[24:28] == header[92:96] and size < (65536 if page == 1 else page) * pages:
        raise KbError(
            f"{shown}: the store is cut short ({size} bytes of "
            f"{(65536 if page == 1 else page) * pages}); build it again with "
            "`kb build --full`"
        )
    import sqlite3

    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            tables = {
                name
                for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise KbError(
            f"{shown}: cannot read the store ({exc}); build it again with `kb build --full`"
        ) from None
    missing = sorted(set(schema.BASE_TABLES) - tables)
    if missing:
        raise KbError(
            f"{shown}: an SQLite file but not a store of kb build (no "
            f"{', '.join(missing)} table); pass the rulings.db of a build with --db"
        )


def writable_file(path: str | Path, corpus: Iterable[str] = ()) -> Path:
    """``path`` if a file can be written there (``--timings-json``), else :class:`KbError`:
    checked before any work, so that writing it never fails after the output is swapped in.
    Nothing is created."""
    shown = shown_path(path)
    target = Path(os.path.realpath(path))
    if any(Path(os.path.realpath(source)) == target for source in corpus):
        raise KbError(f"{shown}: is a ruling file of the corpus; choose another file")
    if target.is_dir():
        raise KbError(f"{shown}: is a folder; name a file")
    if not target.parent.is_dir():
        raise KbError(f"{shown}: no folder {shown_path(target.parent)} to write it in")
    if target.exists() and not (target.is_file() and os.access(target, os.W_OK)):
        raise KbError(f"{shown}: cannot be written (not a regular file, or read-only)")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise KbError(f"{shown}: cannot write in {shown_path(target.parent)}")
    return target


def _home() -> Path | None:
    try:
        return Path.home().resolve()
    except (RuntimeError, KeyError, OSError):  # no HOME and no passwd entry
        return None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _ensure_writable(parent: Path) -> None:
    try:
        parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as exc:
        raise KbError(
            f"{shown_path(parent)}: cannot write the output folder: {exc.strerror or exc}"
        ) from None


def _remove_stale(parent: Path, name: str) -> None:
    """Delete work folders left by killed builds, and previous outputs whose removal did not
    finish (safe: we hold the lock)."""
    for stale in [*parent.glob(f".{name}.tmp-*"), *parent.glob(f".{name}.old-*")]:
        shutil.rmtree(stale, ignore_errors=True)


def _set_aside(work: Path, parent: Path, name: str) -> Path | None:
    """Rename the swapped-out previous output (now at ``work``, if there was one) to
    ``.<name>.old-*``."""
    if not work.exists():
        return None
    old = Path(tempfile.mkdtemp(prefix=f".{name}.old-", dir=parent))
    os.rename(work, old / "tree")
    return old


def _remove_later(old: Path) -> None:
    """Delete the previous output ``old`` in a detached process, so the command returns at once:
    at 100k rulings it is 2.7 GB in 150,000 files (2 s of unlinking). Where processes cannot be
    forked, or the fork fails, delete it here; if the process dies, the next build does it."""
    if not hasattr(os, "fork"):
        shutil.rmtree(old, ignore_errors=True)
        return
    try:
        child = os.fork()
    except OSError:
        shutil.rmtree(old, ignore_errors=True)
        return
    if child:
        os.waitpid(child, 0)  # the child exits at once; its own child does the work
        return
    try:  # in the child: detach (no terminal, no pipes held open), fork again, remove
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            shutil.rmtree(old, ignore_errors=True)
    finally:
        os._exit(0)


def _swap_in(work: Path, out: Path) -> None:
    output_folder(out)  # again, under the lock: something may have appeared there meanwhile
    try:
        if not out.exists():
            os.rename(work, out)
            return
        if not _exchange(work, out):
            # No atomic exchange here: move the old tree aside first, so `out` is never
            # half-written.
            aside = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
            os.rename(out, aside / "old")
            os.rename(work, out)
            os.rename(aside / "old", work)
            shutil.rmtree(aside, ignore_errors=True)
    except OSError as exc:
        if exc.errno not in (errno.EBUSY, errno.EXDEV, errno.EPERM, errno.EACCES, errno.EROFS):
            raise
        raise KbError(
            f"{shown_path(out)}: cannot replace the output folder: {exc.strerror}"
        ) from None


def _exchange(a: Path, b: Path) -> bool:
    """Atomically exchange two paths; False where the platform cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))
