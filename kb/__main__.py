"""Allows ``python -m kb`` as a synonym of the ``kb`` console script."""

from kb.cli import main

main()
