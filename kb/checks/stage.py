"""The pipeline's "check" stage: run every check and store the findings; never fail on them.

Severity policy (README, "Translator checks"): **error** when the text does not say what the
others say or is not in its language (English phrases, digits that differ, a text copied
untranslated); **warning** when a person should look (missing sentence or concept, terminology,
names, number words, punctuation against the locale); **info** for typography that is not wrong
as such (breaking spaces in French, alternative glossary terms).
"""

from __future__ import annotations

from kb.checks import checklist, suppressions, update
from kb.checks.load import load_corpus
from kb.checks.run import check_corpus, no_cycle_collection
from kb.checks.table import store_report


def build_stage(ctx) -> None:
    """Store every finding (accepted ones marked) in the ``findings`` table.

    After an incremental alignment only the changed groups are checked again
    (:func:`kb.checks.update.update`), when the corpus-wide counts the checks compare texts with
    came out the same; otherwise every group is, and the counts are kept for the next build.
    """
    with no_cycle_collection():
        _build_stage(ctx)


def _build_stage(ctx) -> None:
    files = suppressions.discover(ctx.corpus)
    accepted = [s for path in files for s in suppressions.load(path)]
    rules = [
        r
        for path in suppressions.discover(ctx.corpus, checklist.FILE_NAME)
        for r in checklist.load(path)
    ]
    changed = ctx.changed_groups
    if changed is not None and update.update(ctx, accepted, changed, rules):
        return
    corpus = load_corpus(ctx.db)
    corpus.checklist = rules
    report = check_corpus(corpus, accepted)
    store_report(ctx.db, report)
    update.store_state(ctx.db, corpus, accepted)
    update.save_frequencies(ctx.work)
