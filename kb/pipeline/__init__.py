"""`kb build`: the stages in order, and what they share.

- :mod:`kb.pipeline.build`: the stage table (parse -> store -> align -> link -> examples ->
  check -> index -> site), running it, timings;
- :mod:`kb.pipeline.context`: the typed :class:`~kb.pipeline.context.BuildContext` stages share;
- :mod:`kb.pipeline.outdir`: the staged output folder, its lock and the atomic swap;
- :mod:`kb.pipeline.incremental`: everything stages share to reuse the previous build (the build
  key, file stamps, changed files, stored concept matches);
- :mod:`kb.pipeline.forking`: worker processes; :mod:`kb.pipeline.progress`: progress on stderr.

Inputs: the corpus paths and options. Tables: ``build_state`` and ``source_stats`` (written last,
see :mod:`kb.store.schema`).
"""
