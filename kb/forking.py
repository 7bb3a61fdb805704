"""Work on every core by forking: whether it can help here, and workers that die with the build.

Stages fork rather than spawn so that workers inherit what the parent loaded (the site's data,
the glossary) instead of pickling it. A worker must not outlive a build killed with SIGKILL: it
would keep the output lock (an inherited file descriptor) and write into a staged folder the
next build removes. So every worker asks Linux to kill it when its parent dies.
"""

from __future__ import annotations

import multiprocessing as mp
import os


def available(cores: int = 2) -> bool:
    """True when processes can be forked here and there are at least ``cores`` cores."""
    return "fork" in mp.get_all_start_methods() and (os.cpu_count() or 1) >= cores


def context():
    """The fork context (for a Process or a Pipe)."""
    return mp.get_context("fork")


def pool(workers: int):
    """A fork Pool whose workers die with the process that made them."""
    return context().Pool(workers, initializer=die_with_parent)


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (PR_SET_PDEATHSIG)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: a killed build's workers finish on their own
        pass
