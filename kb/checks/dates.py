"""Dates: a ruling dated otherwise than the rest of its group.

The translations of a ruling carry the date of the ruling they translate. ``date-mismatch``
compares each translation's date with its source's (the English original), or, without a
source, with the date most translations share (:func:`kb.checks.findings.majority`):

- day and month swapped (the date read with the other order gives the expected one: a
  10/06/2022 typed 06/10/2022 is stored as October) is an **error**;
- another date is a **warning** (a translation may be published later, but never before its
  source: that is said too).

The finding has no excerpt (the date line is not part of the ruling's text); its message
names the date found and the date expected.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter

from kb.checks.findings import Corpus, Member, majority, per_text

CHECKS = {
    "date-mismatch": "a ruling dated otherwise than its source or most of its translations",
}


def check(corpus: Corpus):
    return per_text(corpus, lambda group, member: _member(group, member))


def _member(group, member: Member):
    if not member.date:
        return
    source = group.source
    if source is not None and source.date:
        want, who = source.date, f"the {source.lang} source has"
    else:
        others = [o for o in group.others(member) if o.date]
        if not others:
            return
        want, count = Counter(o.date for o in others).most_common(1)[0]
        if not majority(count, len(others)):
            return
        who = f"{count} of the {len(others)} other translations have"
    if member.date == want:
        return
    if swapped(member.date) == want:
        yield member.finding(
            "date-mismatch",
            "error",
            f"dated {member.date} where {who} {want}: day and month swapped?",
            0,
            0,
        )
        return
    later = (
        " (before its source: impossible for a translation)"
        if (source is not None and member.date < want)
        else ""
    )
    yield member.finding(
        "date-mismatch", "warning", f"dated {member.date} where {who} {want}{later}", 0, 0
    )


def swapped(iso: str) -> str | None:
    """The ISO date with day and month exchanged, or None when that is no date.

    >>> swapped("2022-10-06"), swapped("2022-06-13")
    ('2022-06-10', None)
    """
    year, month, day = (int(part) for part in iso.split("-"))
    try:
        return dt.date(year, day, month).isoformat()
    except ValueError:
        return None
