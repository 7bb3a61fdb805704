"""Translator checks: what a reviewer would flag in each translation, as findings.

Role: compare each ruling with its translations in its aligned group (and with the glossary,
the locale's typography and the corpus's habits) and report departures, each a finding with a
check id, a severity and the span of text it is about. ``kb check`` prints them; the build
stores them for the site.

Inputs: the store's ``rulings``, ``cards``, ``groups`` and ``memberships`` tables (the align
stage's groups; without them each ruling stands alone), the glossary
(:mod:`kb.reference.glossary`) and the corpus's ``suppressions.toml`` (accepted findings). An
incremental build also reads the previous build's store, read only.

Tables written (declared in :mod:`kb.store.schema`): ``findings`` (one row per finding;
:mod:`kb.checks.table`) and ``check_state`` (the corpus-wide counts and suppressions digest an
incremental build starts from; :mod:`kb.checks.update`); a cache file,
``word-frequencies.json``, in the build folder.

Modules, in the order the data goes through them:

- :mod:`kb.checks.findings`     Finding, Member, Group, Corpus: what checks work on and return
- :mod:`kb.checks.load`         the store read as a Corpus (aligned groups, glossary)
- family modules, one per kind of check, listed in :mod:`kb.checks.families`:
  :mod:`~kb.checks.fragments`, :mod:`~kb.checks.content`, :mod:`~kb.checks.terms`,
  :mod:`~kb.checks.numbers`, :mod:`~kb.checks.punctuation`, :mod:`~kb.checks.coverage`
  (the terms family's synonyms and names: :mod:`~kb.checks.synonyms`, :mod:`~kb.checks.names`)
- :mod:`kb.checks.suppressions` accepted findings (``suppressions.toml``)
- :mod:`kb.checks.run`          every family over a corpus, suppressions applied: a Report
- :mod:`kb.checks.formats`      a Report as ``kb check`` prints it (text, JSON)
- :mod:`kb.checks.table`        the ``findings`` table: writing it, reading it for the site
- :mod:`kb.checks.update`       the incremental path: check only the changed groups again
- :mod:`kb.checks.stage`        the build stage (full or incremental)

This package's ``__init__`` defines nothing: its modules import each other, never it.
"""
