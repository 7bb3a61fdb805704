"""Coverage: a ruling missing a language, and the same text appearing twice.

- ``missing-translation`` (warning): an aligned group that lacks one of the corpus's translation
  languages (an English original is a source, not a translation: a group without one is not
  reported). Only run when alignment is available (without it every ruling would look
  untranslated).
- ``duplicate-text``: the same text twice for one card in one language (warning: a ruling
  entered twice), or the same text in two languages of one group (error: a text copied, not
  translated). The same ruling on several cards of one language is normal and not reported.
"""

from __future__ import annotations

import re

from kb.checks.findings import Corpus, Finding
from kb.corpus.languages import is_source

CHECKS = {
    "missing-translation": "an aligned ruling that lacks a language of the corpus",
    "duplicate-text": "a text entered twice, or copied into another language untranslated",
}

_SPACE = re.compile(r"\s+")


def check(corpus: Corpus):
    languages = corpus.total("languages", lambda: sorted(corpus.languages))
    for group in corpus.groups:
        if group.aligned:
            have = {copies[0].lang for copies in group.texts}
            for lang in languages:
                if lang not in have and not is_source(lang):
                    yield Finding(
                        "missing-translation",
                        "warning",
                        lang,
                        group.id,
                        "",
                        f"no {lang} translation of this ruling (it exists in "
                        f"{', '.join(sorted(have))})",
                    )
        yield from _copied(group)
    if not corpus.partial:
        yield from twice(corpus.members)


def _normal(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold()


def _copied(group):
    """Texts the group has in another language too; every copy of such a text is reported."""
    first: dict[str, object] = {}
    for copies in group.texts:  # the first member of a text comes before its copies
        member = copies[0]
        other = first.setdefault(_normal(member.text), member)
        if other is not member and other.lang != member.lang:
            for copy in copies:
                yield copy.finding(
                    "duplicate-text",
                    "error",
                    f"the same text as the {other.lang} translation: copied, not translated?",
                )


def twice(members):
    """Texts entered twice for one card, the later (in corpus order) reported."""
    seen: dict[tuple, object] = {}
    normal: dict[str, str] = {}  # a ruling printed on many cards is normalised once
    for member in members:
        if member.text not in normal:
            normal[member.text] = _normal(member.text)
        key = (member.lang, member.card, normal[member.text])
        other = seen.setdefault(key, member)
        if other is not member:
            yield member.finding(
                "duplicate-text",
                "warning",
                f"the same text appears twice for this card (also {other.source})",
            )
