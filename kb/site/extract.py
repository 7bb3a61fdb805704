"""Babel extractors of the site's catalog for texts other stages write in English.

The rules registry (:mod:`kb.core.registry`) writes each rule's title and summary in English,
and each example file (``kb/examples/**.yaml``) its title; the site shows them in the reader's
language through the ``site`` catalog, with those English strings as msgids. babel.cfg names
these functions, so one command extracts them with the templates' strings::

    pybabel extract -F babel.cfg -o kb/locale/site.pot --no-location --sort-output .

A title or summary changed in the registry or an example is then a new msgid: tests/site/
test_i18n.py fails until every catalog translates it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from kb.errors import load_yaml


def extract_registry(fileobj, keywords, comment_tags, options):
    """Each registered rule's title and summary (``fileobj``: kb/core/registry.py).

    The file is loaded as a module of its own, so the strings are exactly those the site
    reads, however the registry writes them (adjacent literals, helpers)."""
    path = Path(fileobj.name)
    source = path.read_text(encoding="utf-8")
    name = "_kb_registry_for_extraction"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    for number, rule in module.RULES.items():
        for part in ("title", "summary"):
            text = getattr(rule, part)
            if text:
                yield _line_of(source, text), None, text, [f"rule {number}: {part}"]


def extract_examples(fileobj, keywords, comment_tags, options):
    """An example file's title (one of kb/examples/rules/ or kb/examples/rulings/)."""
    data = load_yaml(fileobj.read().decode("utf-8")) or {}
    title = data.get("title")
    if title:
        yield 1, None, str(title), [f"example {data.get('id', '')}: title"]


def _line_of(source: str, text: str) -> int:
    """The line where ``text`` (or its first words, when the source splits it) begins."""
    start = text[:24]
    for number, line in enumerate(source.splitlines(), 1):
        if start in line:
            return number
    return 1
