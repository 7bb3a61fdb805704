"""The corpus: ruling files -> parsed records (the first stage of `kb build`).

Role: find the ruling files named on the command line (:mod:`kb.corpus.files`), read each one
(UTF-8, one card per file), detect its language (:mod:`kb.corpus.languages`), parse its dates
in the file's locale (:mod:`kb.corpus.dates`) and split it into rulings
(:mod:`kb.corpus.parse`); bad input is one ``path:line: problem`` per fault. The build stage
``parse`` (:mod:`kb.corpus.stage`) hands the records to the store stage.

Inputs: the corpus paths. Tables: none (the store stage writes ``cards``, ``sources``,
``rulings``).
"""
