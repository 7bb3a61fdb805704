"""Work on every core by forking: whether it can help here, and workers that die with the build.

Stages fork rather than spawn so that workers inherit what the parent loaded (the site's data,
the glossary) instead of pickling it. A worker must not outlive a build killed with SIGKILL: it
would keep the output lock (an inherited file descriptor) and write into a staged folder the
next build removes. So every worker asks Linux to kill it when its parent dies.

What a worker inherits is shared with the parent until either writes to it; Python's cyclic
garbage collector writes into every object it visits, which would copy the whole inherited heap
into each worker (measured at 100k rulings: three copies of the site's data). So the objects
that exist at the fork are frozen out of the collector's reach first (:func:`gc.freeze`).
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing as mp
import os
import sys


def available(cores: int = 2) -> bool:
    """True when processes can be forked here and there are at least ``cores`` cores."""
    return "fork" in mp.get_all_start_methods() and (os.cpu_count() or 1) >= cores


def context():
    """The fork context (for a Process or a Pipe)."""
    return mp.get_context("fork")


def pool(workers: int):
    """A fork Pool whose workers die with the process that made them."""
    with frozen():
        return context().Pool(workers, initializer=die_with_parent)


def fresh_pool(workers: int):
    """A Pool of new interpreters (spawned, not forked), for a long job that needs little of
    this process's memory: a forked child keeps the parent's heap as it was at the fork, so
    every page the parent changes while the child lives is copied (the data dump's writer,
    forked as the site stage began, lived through the 100k build's memory peak).

    A spawned interpreter first runs this one's main module again, which in a script calling
    :func:`kb.pipeline.build.build` without an ``if __name__ == "__main__"`` guard starts another build
    in each worker, whose death the pool answers with a new worker, forever. The workers are
    started with the main module hidden: the job is a function of ``kb``, imported by name.
    """
    with _main_hidden():
        return mp.get_context("spawn").Pool(workers, initializer=die_with_parent)


@contextlib.contextmanager
def _main_hidden():
    """While inside, a spawned process does not import this one's ``__main__`` (multiprocessing
    finds it by its ``__spec__`` or ``__file__``)."""
    main = sys.modules["__main__"]
    saved = {key: main.__dict__[key] for key in ("__spec__", "__file__") if key in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__spec__ = None
    try:
        yield
    finally:
        main.__dict__.update(saved)
        if "__spec__" not in saved:
            del main.__spec__


@contextlib.contextmanager
def frozen():
    """Fork inside this block: what exists now is left alone by every process's collector
    (the children keep it frozen; the parent thaws it afterwards)."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (PR_SET_PDEATHSIG)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: a killed build's workers finish on their own
        pass
