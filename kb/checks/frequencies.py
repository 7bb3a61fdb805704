"""wordfreq's Zipf frequencies of the words a corpus has, without wordfreq's dict of every word.

``wordfreq.zipf_frequency`` builds, on its first use in a language, a dict of that language's
whole word list (300,000 to 650,000 words, a Python loop: 0.1 to 0.3 s each, about 0.6 s of
a 10,000-ruling check for its five languages). The checks ask for a few thousand words. So the
words a check will ask about are named first (:meth:`Lookup.want`); the first question in a
language reads its list (``wordfreq.get_frequency_list``, what the dict is built from) once and
keeps only the bucket of each wanted token, found by set intersection. The value is computed
as ``zipf_frequency`` computes it (tokens, numbers smashed, frequencies combined and rounded
alike: :meth:`Lookup._value`); tests compare the two on many words. A word not named in
advance is looked up in another pass; past :data:`PASSES` of them, wordfreq answers itself.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

#: Passes over one language's list (each ~10-20 ms) before asking wordfreq, dict and all.
PASSES = 8


class Lookup:
    """Zipf values, as ``wordfreq.zipf_frequency(word, lang)`` gives them."""

    def __init__(self) -> None:
        self._wanted: dict[str, set[str]] = {}
        #: lang -> {token: its bucket in the word list, or None when the list lacks it}
        self._buckets: dict[str, dict[str, int | None]] = {}
        self._passes: dict[str, int] = {}

    def want(self, words: Iterable[str], lang: str) -> None:
        """Words that will be asked about in ``lang`` (no cost until one is)."""
        self._wanted.setdefault(lang, set()).update(words)

    def zipf(self, word: str, lang: str) -> float:
        import wordfreq

        if wordfreq.get_language_info(lang)["tokenizer"] == "jieba":
            return wordfreq.zipf_frequency(word, lang)
        tokens = wordfreq.lossy_tokenize(word, lang)
        smashed = [wordfreq.smash_numbers(t) for t in tokens]
        known = self._buckets.setdefault(lang, {})
        if any(s not in known for s in smashed):
            if self._passes.get(lang, 0) >= PASSES:
                return wordfreq.zipf_frequency(word, lang)
            self._search(lang, smashed)
        return self._value(tokens, smashed, known)

    def _search(self, lang: str, extra: list[str]) -> None:
        """One pass over ``lang``'s word list for the wanted words' tokens and ``extra``."""
        import wordfreq

        known = self._buckets[lang]
        wanted = self._wanted.pop(lang, set())
        sought = {
            wordfreq.smash_numbers(t) for w in wanted for t in wordfreq.lossy_tokenize(w, lang)
        }
        sought.update(extra)
        sought.difference_update(known)
        for token in sought:
            known[token] = None
        # Later buckets win, as in wordfreq's dict (built bucket by bucket).
        for index, bucket in enumerate(wordfreq.get_frequency_list(lang)):
            for token in sought.intersection(bucket):
                known[token] = index
        self._passes[lang] = self._passes.get(lang, 0) + 1

    @staticmethod
    def _value(tokens: list[str], smashed: list[str], known: dict[str, int | None]) -> float:
        """``wordfreq.zipf_frequency`` with its default minimum, from the tokens' buckets."""
        import wordfreq

        minimum = wordfreq.zipf_to_freq(0.0)
        freq = minimum
        if tokens:
            one_over_result = 0.0
            for token, key in zip(tokens, smashed):
                index = known[key]
                if index is None:
                    one_over_result = 0.0
                    break
                token_freq = wordfreq.cB_to_freq(-index)
                if key != token:
                    token_freq *= wordfreq.digit_freq(token)
                one_over_result += 1.0 / token_freq
            if one_over_result:
                unrounded = max(1.0 / one_over_result, minimum)
                leading_zeroes = math.floor(-math.log(unrounded, 10))
                freq = round(unrounded, leading_zeroes + 3)
        return round(wordfreq.freq_to_zipf(freq), 2)
