"""Reference data every stage shares, shipped with the package.

- :mod:`kb.reference.glossary` (``glossary.yaml``): the game's concepts and their terms per
  language (English included), found in texts by the alignment, the links, the checks and
  the search;
- :mod:`kb.reference.cards` (``cards.yaml``): which card names in which languages are one card;
- :mod:`kb.reference.names`: a card's own name inside its rulings, whose words are not what
  the ruling is about;
- ``quotes.toml``: each locale's quotation marks, read by the punctuation checks;
- :mod:`kb.reference.catalogs`: the gettext catalogs under ``kb/locale/``, compiled in memory.

Inputs: these files. Tables: none (the align stage stores ``card_identities`` and
``ruling_concepts`` from them).
"""
