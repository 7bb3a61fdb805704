"""Importing whoosh without the modules kb.search never uses: a ``kb search`` start-up cost.

whoosh pulls three things into every process that imports it which this package never
calls, and which together are a large share of a ``kb search`` command's time:

- the ``cached_property`` package (``whoosh.reading`` uses its one decorator): it imports
  asyncio, a sixth of the command's time. :func:`functools.cached_property` caches the same
  way, so a module holding it stands in for the package (for good: nothing else uses it);
- ``urllib.request`` (http, email, ssl), which ``whoosh.compat`` imports for a download
  helper; and
- ``whoosh.lang.morph_en`` (a large regex), which ``whoosh.query.terms`` imports for
  English word variations. Together these two are about 35 ms of every command.

:func:`load` imports whoosh with stand-ins for the last two that import the real module
when one of their functions is first called, then removes the stand-ins: a later
``import urllib.request`` gets the real module, and whoosh's functions from them still work
(``tests/test_search.py`` checks both).

The package's ``__init__`` calls :func:`load` before anything else: importing any module of
``kb.search`` runs that ``__init__`` first, so whoosh is always first imported here. Called
when whoosh is already imported, it changes nothing but the ``cached_property`` stand-in.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import sys
import types
from collections.abc import Iterator


def load() -> None:
    """Import whoosh the lean way (see the module's docstring)."""
    use_stdlib_cached_property()
    with (
        deferred("urllib.request", ["urlretrieve"]),
        deferred("whoosh.lang.morph_en", ["variations"]),
    ):
        # The only whoosh modules importing the two: every other whoosh module gets them
        # from these, already imported. (Import statements, not importlib.import_module,
        # so that ``python -X importtime`` still shows them.)
        import whoosh.compat
        import whoosh.query  # noqa: F401


def use_stdlib_cached_property() -> None:
    """Let whoosh's one ``cached_property`` be the standard library's, unless something has
    imported the ``cached_property`` package already."""
    if "cached_property" not in sys.modules:
        shim = types.ModuleType("cached_property")
        shim.cached_property = functools.cached_property  # type: ignore[attr-defined]
        sys.modules["cached_property"] = shim


@contextlib.contextmanager
def deferred(module: str, names: list[str]) -> Iterator[None]:
    """While in the block, let ``module`` (if not loaded yet) be a stand-in whose functions
    ``names`` import the real module when first called. The stand-in is gone afterwards."""
    if module in sys.modules:
        yield
        return
    shim = types.ModuleType(module)
    for name in names:

        def call(*args, _name=name, **kwargs):
            return getattr(importlib.import_module(module), _name)(*args, **kwargs)

        setattr(shim, name, call)
    sys.modules[module] = shim
    try:
        yield
    finally:
        if sys.modules.get(module) is shim:
            del sys.modules[module]
