"""rulings-kb: multilingual Magic: The Gathering rulings, aligned, linked to an executable
model of the rules, searchable, and rendered as a static site.

The package is a library first (each pipeline stage is a module); :mod:`kb.cli` is a thin
click layer over it.
"""

__version__ = "0.1.0"
