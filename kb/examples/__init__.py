"""Executable examples as data, shipped with the package.

``rules/``   scenario files, each showing registered rules of the core (kb/core/scenario.py);
``rulings/`` examples of the ruling groups of the corpus: the same format plus ``group``, the
             group's stable key (``726.4-f90a33``).

:mod:`kb.examples.runs` runs them (build stage ``examples``, ``kb examples``);
:func:`describe` writes a step of a run in the reader's language (see :mod:`kb.examples.text`).
"""

from __future__ import annotations


def describe(item, lang: str) -> str:
    """A step of a stored run (or one log entry) as text in ``lang``; see kb.examples.text."""
    from kb.examples.text import describe as _describe  # babel only when text is wanted

    return _describe(item, lang)
