"""The build's output folder: written whole into a temporary sibling, then swapped in.

A failed or killed build never touches the previous output: the new tree is built in a hidden
sibling folder and exchanged with the old one in a single ``renameat2(RENAME_EXCHANGE)`` call
where the kernel offers it (Linux), else with two renames. A lock file next to the output makes
a second concurrent build fail at once with a clear message instead of racing the first.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import shutil
import tempfile
from pathlib import Path

from filelock import FileLock, Timeout

from kb.errors import KbError

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


@contextlib.contextmanager
def staged_output(out: Path):
    """Yield a fresh work folder; on success swap it in as ``out``, on failure delete it."""
    out = Path(out)
    parent = out.resolve().parent
    _ensure_writable(parent)
    lock = FileLock(str(parent / f".{out.name}.lock"), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise KbError(f"{out}: another build is writing this folder (lock {lock.lock_file}); "
                      "wait for it to finish") from None
    try:
        _remove_stale(parent, out.name)
        work = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=parent))
        work.chmod(0o777 & ~_umask())  # mkdtemp makes it private; the output is for everyone
        try:
            yield work
            _swap_in(work, out)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    finally:
        lock.release()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _ensure_writable(parent: Path) -> None:
    try:
        parent.mkdir(parents=True, exist_ok=True)
        probe = tempfile.TemporaryFile(dir=parent)
        probe.close()
    except OSError as exc:
        raise KbError(f"{parent}: cannot write the output folder: {exc.strerror or exc}") from None


def _remove_stale(parent: Path, name: str) -> None:
    """Delete work folders left by killed builds (safe: we hold the lock)."""
    for stale in parent.glob(f".{name}.tmp-*"):
        shutil.rmtree(stale, ignore_errors=True)


def _swap_in(work: Path, out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise KbError(f"{out}: exists and is not a folder; choose another --out")
    if not out.exists():
        os.rename(work, out)
        return
    if not _exchange(work, out):
        # No atomic exchange here: move the old tree aside first, so `out` is never half-written.
        aside = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.resolve().parent))
        os.rename(out, aside / "old")
        os.rename(work, out)
        os.rename(aside / "old", work)
        shutil.rmtree(aside, ignore_errors=True)


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
