"""``kb export``: the store in formats other tools read, written to standard output.

Role: the last step for users of the data rather than of the site. Each format is one module
with one function returning the whole document as text:

- :mod:`kb.export.json` (``kb export json``): the ruling groups with their rulings, rules,
  links and examples (the data contract of DESIGN.md; the site's data dump is the same);
- :mod:`kb.export.tmx` (``kb export tmx``): the aligned rulings as a TMX translation memory;
- :mod:`kb.export.tbx` (``kb export tbx``): the glossary as a TBX term base;
- :mod:`kb.export.xmldoc`: what the two XML writers share.

Inputs: the store's ``rulings``, ``cards``, ``groups``, ``memberships``, ``group_rules`` and
``example_runs`` tables (a store built without alignment gives one group per ruling), and the
glossary (:mod:`kb.reference.glossary`). Tables written: none (exports only read the store).
"""
