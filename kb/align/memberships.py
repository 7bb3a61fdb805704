"""Memberships: how well each ruling sits in its group, with the evidence and the nearest rival."""

from __future__ import annotations

from kb.align.scoring import MARGIN, WEAK, Scorer
from kb.align.units import Aligned, Membership, Unit


class Context:
    """What memberships are judged against: the scores, the groups, who is in which."""

    def __init__(self, units: list[Unit], scores, groups: list[Aligned], every_pair: bool):
        self.units, self.scores, self.groups, self.every_pair = units, scores, groups, every_pair
        self.index_of = {id(u): i for i, u in enumerate(units)}
        self.group_of = {self.index_of[id(u)]: g for g in groups for u in g.units}
        # {(concept, language): the groups whose signature names the concept and that have no
        # text in that language}: the only groups a unit alone can partially translate. Kept
        # per language, so that in a corpus of one language (every unit alone, every group
        # of that language) a unit looks at no group, not at all of them.
        langs = {u.lang for u in units}
        self.lacking: dict[tuple[str, str], list[Aligned]] = {}
        for group in groups:
            missing = langs - {u.lang for u in group.units}
            for concept in group.signature:
                for lang in missing:
                    self.lacking.setdefault((concept, lang), []).append(group)

    def score(self, i: int, j: int) -> float:
        return self.scores[i].get(j, 0.0)

    def rivals(self, i: int, own: Aligned) -> list[Aligned]:
        """Groups to compare unit ``i`` with: all of them, or those it was scored against."""
        if self.every_pair:
            candidates = {id(g): g for g in self.group_of.values()}
        else:
            candidates = {id(self.group_of[j]): self.group_of[j] for j in self.scores[i]}
        candidates.pop(id(own), None)
        return list(candidates.values())


def memberships_of(group: Aligned, ctx: Context, scorer: Scorer) -> list[Membership]:
    out = []
    for unit in group.units:
        i = ctx.index_of[id(unit)]
        out += unit_memberships(
            unit,
            group,
            scorer,
            lambda u, i=i: ctx.score(i, ctx.index_of[id(u)]),
            ctx.rivals(i, group),
            lambda u: _partial_of(u, ctx, group),
        )
    return out


def unit_memberships(
    unit: Unit, group: Aligned, scorer: Scorer, score, rivals: list[Aligned], partial
) -> list[Membership]:
    """The memberships of ``unit``'s rulings in ``group``.

    ``score(other_unit)`` is the pair's similarity (0 when it was not scored), ``rivals`` the
    other groups it was compared with, ``partial(unit)`` the groups it may partially translate.
    """
    others = [u for u in group.units if u is not unit]
    value = round(sum(score(u) for u in others) / len(others), 4) if others else None
    rival = best_rival(unit, rivals, score)
    signature_set = set(group.signature)
    evidence: dict[str, object] = {
        "concepts": sorted(unit.concepts & signature_set),
        "missing": sorted(signature_set - unit.concepts),
        "extra": sorted(unit.concepts - signature_set),
        "with": {u.lang: scorer.score(unit, u)[1] for u in others},
    }
    if len(unit.rulings) > 1:
        evidence["same_text_cards"] = len(unit.rulings)
    if rival:
        evidence["runner_up"] = rival
    weak = bool(
        (value is not None and value < WEAK)
        or (rival and value is not None and rival["score"] > value - MARGIN)
    )
    if value is None:
        evidence["alone"] = True
        # Alone, but every concept it mentions is in a group that lacks its language: it
        # may be a partial translation of that ruling. Report it; do not force it in.
        found = partial(unit)
        if found:
            evidence["partial_of"] = found
            weak = True
    return [Membership(row, unit, value, weak, evidence) for row in unit.rulings]


def _partial_of(unit: Unit, ctx: Context, own: Aligned) -> list[str]:
    """Ids of other groups without ``unit``'s language whose signature holds all its concepts."""
    if not unit.concepts:
        return []
    # Only groups without the unit's language whose signature names each of its concepts can
    # qualify: those of its rarest concept (among such groups) are enough to look at.
    lacking = ctx.lacking
    rarest = min(unit.concepts, key=lambda c: (len(lacking.get((c, unit.lang), ())), c))
    return partial_of(unit, own, lacking.get((rarest, unit.lang), ()))


def partial_of(unit: Unit, own: Aligned, candidates) -> list[str]:
    """Ids of the ``candidates`` groups that ``unit`` may be a partial translation of."""
    found = {}
    for other in candidates:
        if other is own or other.id == own.id or unit.lang in {u.lang for u in other.units}:
            continue
        contrast = {c for u in other.units for c in u.contrast}
        if (
            unit.concepts
            and unit.concepts <= set(other.signature)
            and not (unit.contrast and contrast and unit.contrast != contrast)
        ):
            found[other.id] = True
    return sorted(found)


def best_rival(unit: Unit, rivals: list[Aligned], score) -> dict | None:
    """The other group this unit resembles most (mean similarity to its units), if any.

    Ties go to the larger (fingerprint, id): content, never the order groups were met in.
    """
    best, best_key = None, None
    for other in rivals:
        scores = [score(u) for u in other.units if u.lang != unit.lang]
        if not scores:
            continue
        mean = round(sum(scores) / len(scores), 4)
        key = (mean, other.fingerprint, other.id)
        if best_key is None or key > best_key:
            best, best_key = {"score": mean, "group": other.id}, key
    return best
