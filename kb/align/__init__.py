"""Alignment: group the rulings of the store into ruling groups, one group per ruling.

A ruling group holds the translations of one ruling, across languages and cards, with at most
one text per language per card. The aligner only uses what is language-independent and can be
explained to a translator:

- the glossary concepts a text mentions (and English left in it), weighted by rarity;
- a *contrast* between concepts: a text about the initiative is never aligned with its twin
  about the monarch, however alike the rest is;
- numbers, the date, the number of sentences, the length (relative to the language's usual
  length), and the ruling's position in its file as a weak hint only.

Steps: (1) texts that are the same in one language (same words, same quotes, any card) are one
*unit*, so a ruling repeated on many cards is one group; a card repeating a text keeps the
repeat apart. (2) Units of different languages are scored pairwise. (3) Average-linkage
clustering merges the best-scoring clusters first, never two clusters sharing a language, and
stops below :data:`THRESHOLD`: a ruling without a partner stays a group of its own. (4) Each
membership gets a score (mean similarity to the rest of its group) and evidence; memberships
below :data:`WEAK` or close to another group are marked weak and reported, not forced.

The result is independent of file order: ties are broken by content, never by position.
Group ids are stable: the group's primary rule (asked of :mod:`kb.link`, which reads no
alignment) and a fingerprint of its
concept signature (the concepts most of its languages mention), e.g. ``726.3-0c5e1a``.


Modules, in the order the data goes through them:

- :mod:`kb.align.units`        texts -> units and their features; signatures, fingerprints
- :mod:`kb.align.scoring`      pairwise similarity, corpus statistics, candidate pairs
- :mod:`kb.align.clustering`   components, average-linkage clusters, group ids
- :mod:`kb.align.memberships`  each ruling's score in its group, evidence, nearest rival
- :mod:`kb.align.full`         the whole alignment of a set of rows (:func:`align_all`)
- :mod:`kb.align.update`       the incremental path: redo only what changed files reach
- :mod:`kb.align.regroup`      its re-clustering, twin renames and memberships
- :mod:`kb.align.state`        what a full alignment keeps in the store for the update
- :mod:`kb.align.stage`        the build stage (tables ``groups``, ``memberships``,
                               ``ruling_concepts``, ``card_identities``)
- :mod:`kb.align.read`         stored groups for the later stages and commands
"""

from kb.align.clustering import group_order, id_order, twin_ids
from kb.align.full import Alignment, align, align_all
from kb.align.read import find_group, find_group_id, groups
from kb.align.stage import build_stage, store_groups, weak_report

__all__ = [
    "Alignment",
    "align",
    "align_all",
    "build_stage",
    "find_group",
    "find_group_id",
    "group_order",
    "groups",
    "id_order",
    "store_groups",
    "twin_ids",
    "weak_report",
]
