"""Transitional name of :mod:`kb.export.json`, for the modules that still import it by this
name (kb/site/dump.py, tests/site/test_dump.py, tests/test_example_runs.py); delete this
file once they import ``kb.export.json``."""

from kb.export.json import groups, to_json, write_json

__all__ = ["groups", "to_json", "write_json"]
