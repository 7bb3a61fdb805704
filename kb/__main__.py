"""Allows ``python -m kb`` as a synonym of the ``kb`` console script."""

from kb.cli import main

if __name__ == "__main__":  # not when a spawned worker process imports it (kb.pipeline.forking)
    main()
