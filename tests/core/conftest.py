"""The core tests' fixture: the shipped scenarios (helpers are in core_helpers.py: a module
named conftest is found under that name from tests/site too, so importing from it is
unreliable)."""

from __future__ import annotations

import pytest

from kb.core import scenario


@pytest.fixture(scope="session")
def scenarios():
    return scenario.load_dir()
