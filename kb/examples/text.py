"""Example traces in the reader's language: events, log entries and states as sentences.

The core logs structured entries (``{"kind": "takes_initiative", "player": "Bruno", ...}``),
never prose. This module writes them out in English or in a ruling language (ru it fr de es)
with the glossary's terms, through the gettext domain ``examples``: the catalogs are checked
in as ``kb/locale/<lang>/LC_MESSAGES/examples.po`` and compiled in memory on first use
(babel's ``read_po``/``write_mo``), so no ``.mo`` file can go stale.

API (all pure functions; ``lang`` is one of :data:`kb.corpus.languages.UI_LANGUAGES`):

- :func:`describe` ``(item, lang) -> str``: a step of a stored run (a dict with ``event`` and
  ``log``, as ``example_runs.steps`` holds it, or a :class:`kb.core.scenario.StepTrace`), or a
  single log entry (a dict with ``kind``). The site calls this for each step of a run.
- :func:`describe_step` ``(step, lang) -> dict``: the same step in parts, for templates:
  ``event`` (str), ``log`` (list of str), ``state`` (list of str), ``refused`` (str or None),
  ``differences`` (the runner's diff, untranslated: it is for maintainers).
- :func:`describe_event` ``(event, lang)``, :func:`describe_entry` ``(entry, lang)``,
  :func:`describe_state` ``(state, lang, monarch=False) -> list[str]``, :func:`describe_ability`
  ``(label, lang)`` for a trigger label such as ``steal:Cleo@Ann``.

The messages themselves are data, in :mod:`kb.examples.messages`.

>>> describe({"kind": "takes_initiative", "player": "Bruno", "previous": None}, "fr")
"Bruno prend l'initiative"
>>> describe({"kind": "becomes_monarch", "player": "Bruno", "previous": "Ann"}, "es")
'Bruno se convierte en el monarca y Ann deja de ser el monarca'
>>> describe_event({"kind": "venture_into", "player": "Ann"}, "de")
'Ein Effekt weist Ann an, sich in Undercity vorzuwagen'
"""

from __future__ import annotations

import gettext
import io
from dataclasses import asdict, is_dataclass
from functools import cache
from pathlib import Path

from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from kb.corpus.languages import UI_LANGUAGES
from kb.examples.messages import (
    ABILITIES,
    CARDS,
    CATALOG_PARTS,
    EVENTS,
    LOG,
    MONARCH_EVENTS,
    MONARCH_LOG,
    REASONS,
    STATE,
    SUMMARY_SKIP,
    TOKENS,
)
from kb.reference import catalogs
from kb.reference.glossary import Concept
from kb.reference.glossary import load as load_glossary

DOMAIN = "examples"
LOCALE_DIR = catalogs.LOCALE_DIR


def po_path(lang: str) -> Path:
    return catalogs.po_path(DOMAIN, lang)


def translations(lang: str) -> gettext.NullTranslations:
    """The ``examples`` catalog of ``lang`` compiled in memory (English needs none)."""
    if lang not in UI_LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (one of {', '.join(UI_LANGUAGES)})")
    return catalogs.translations(DOMAIN, lang)


class _Fields(dict):
    """Format values; a field the entry lacks shows as "?" rather than breaking the page."""

    def __missing__(self, key):
        return "?"


def _sentence(text: str) -> str:
    """Sentences start with a capital even when they start with a translated noun phrase."""
    return text[:1].upper() + text[1:]


def _say(message: str | tuple, lang: str, **fields) -> str:
    t = translations(lang)
    if isinstance(message, tuple):
        singular, plural, counter = message
        count = fields.get(counter)
        text = t.ngettext(singular, plural, count if isinstance(count, int) else 2)
    else:
        text = t.gettext(message)
    return text % _Fields(fields)


# -- names ----------------------------------------------------------------------------------


@cache
def _glossary_names() -> dict[str, Concept]:
    """English term -> concept, for dungeon and room names the glossary knows."""
    return {
        term: concept
        for concept in load_glossary().concepts
        for term in concept.terms.get("en", [])
    }


def name(value: str | None, lang: str) -> str:
    """A dungeon, room or token name in ``lang``: the glossary's term, else as the core names it."""
    if value is None:
        return "?"
    concept = _glossary_names().get(value)
    if concept is not None:
        return concept.term(lang)
    kind, sep, number = str(value).partition(" #")
    if sep and kind in TOKENS:
        return f"{translations(lang).pgettext('token', kind)} #{number}"
    kind, sep, owner = str(value).partition(" (")  # "Treasure (Ann)": a token and its owner
    if sep and kind in TOKENS and owner.endswith(")"):
        return f"{translations(lang).pgettext('token', kind)} ({owner}"
    if value in CARDS:
        return translations(lang).pgettext("card", value)
    return str(value)


def names(values, lang: str) -> str:
    """A list of names joined the way ``lang`` joins lists (CLDR): "Ann, Bo et Cleo"."""
    values = [name(v, lang) for v in values]
    return format_list(values, locale=lang) if values else "—"


# -- abilities, events, entries, states -----------------------------------------------------


def describe_ability(label: str, lang: str) -> str:
    """A trigger label (``kind:subject@controller`` plus ``->target``) as a noun phrase."""
    body, *targets = label.split("->")
    head, _, controller = body.rpartition("@")
    kind, _, subject = head.partition(":")
    if kind not in ABILITIES:
        return label
    # The controller is named every time: who controls the initiative's triggers is what
    # several rulings are about.
    text = _say(
        ABILITIES[kind],
        lang,
        controller=controller,
        player=subject,
        room=name(subject, lang),
        creature=name(subject, lang),
    )
    for target in targets:
        text = _say(ABILITIES["targeting"], lang, ability=text, target=name(target, lang))
    return text


def describe_event(event: dict, lang: str) -> str:
    """One scenario event (``{"kind": "concede", "player": "Ann"}``) as a sentence."""
    kind: str = event.get("kind") or ""
    fields = {k: v for k, v in event.items() if k != "kind"}
    if kind == "begin_turn" and not fields.get("player"):
        kind = "begin_turn:next"
    elif kind == "combat_damage":
        fields["players"] = names(list(fields.get("by") or {}), lang)
    elif kind == "leave_game":
        players = fields.get("players")
        players = [players] if isinstance(players, str) else list(players or [])
        fields.update(players=names(players, lang), count=len(players))
    elif kind in ("lose_life", "gain_life"):
        fields.setdefault("amount", fields.get("amount"))
    elif kind == "monarch_effect" and fields.get("concerns") == "opponents":
        kind = "monarch_effect:opponents"
    elif kind == "bring_from_outside":
        fields["card"] = name(fields.get("card"), lang)
    message = EVENTS.get(kind)
    return _sentence(_say(message, lang, **fields)) if message else _fallback(event)


def describe_entry(entry: dict, lang: str) -> str:
    """One log entry of the core as a sentence."""
    kind: str = entry.get("kind") or ""
    fields = dict(entry)
    key = kind
    if "label" in fields:
        label = fields["label"] + "".join(f"->{t}" for t in fields.get("targets") or [])
        fields["ability"] = describe_ability(label, lang)
    if kind == "takes_initiative" and fields.get("previous"):
        key = (
            "takes_initiative:again"
            if fields["previous"] == fields["player"]
            else "takes_initiative:from"
        )
    elif kind == "combat_damage" and fields.get("amount"):
        key = "combat_damage:amount"
    elif kind == "leaves_game" and f"leaves_game:{fields.get('reason')}" in LOG:
        key = f"leaves_game:{fields['reason']}"
    elif kind == "game_over":
        key = "game_over" if fields.get("winners") else "game_over:draw"
        fields["winners"] = names(fields.get("winners") or [], lang)
    elif kind == "becomes_monarch" and fields.get("previous"):
        key = "becomes_monarch:from"
    elif kind == "monarch_effect":
        key = "monarch_effect" if fields.get("applies_to") is not None else "monarch_effect:none"
        fields["players"] = names(fields.get("applies_to") or [], lang)
    elif kind == "sacrifices" and fields.get("permanent") == "land":
        key = "sacrifices:land"
    elif kind == "orders_triggers":
        fields["order"] = "; ".join(describe_ability(x, lang) for x in fields.get("order") or [])
    elif kind == "refused":
        fields["reason"] = describe_refusal(entry, lang)
    for key_name in ("dungeon", "room", "token", "creature", "permanent", "target", "card"):
        if isinstance(fields.get(key_name), str):
            fields[key_name] = name(fields[key_name], lang)
    message = LOG.get(key)
    return _sentence(_say(message, lang, **fields)) if message else _fallback(entry)


def describe_refusal(refused: dict, lang: str) -> str:
    """Why the core refused an event (``refused`` holds ``reason`` and its details)."""
    message = REASONS.get(refused.get("reason") or "")
    fields = {k: v for k, v in refused.items() if k != "reason"}
    return _say(message, lang, **fields) if message else str(refused.get("reason"))


def describe_state(state: dict, lang: str, monarch: bool = False) -> list[str]:
    """The facts of a state snapshot that examples are about, one sentence each.

    The monarch is named when there is one, when the state says who can't become
    it or holds effects keyed to it, or when ``monarch`` says the step is about it;
    otherwise "nobody is the monarch" would be noise on every dungeon example.
    """
    lines = []
    holder = state.get("initiative")
    lines.append(
        _say(STATE["initiative"], lang, player=holder)
        if holder
        else _say(STATE["initiative:none"], lang)
    )
    if state.get("monarch"):
        lines.append(_say(STATE["monarch"], lang, player=state["monarch"]))
    elif monarch or state.get("cant_become_monarch") or state.get("monarch_effects"):
        lines.append(_say(STATE["monarch:none"], lang))
    if state.get("cant_become_monarch"):
        lines.append(
            _say(
                STATE["cant_become_monarch"],
                lang,
                players=names(state["cant_become_monarch"], lang),
                count=len(state["cant_become_monarch"]),
            )
        )
    for effect, players in (state.get("monarch_effects") or {}).items():
        lines.append(
            _say(
                LOG["monarch_effect"], lang, effect=name(effect, lang), players=names(players, lang)
            )
            if players is not None
            else _say(LOG["monarch_effect:none"], lang, effect=name(effect, lang))
        )
    if state.get("active_player"):
        lines.append(_say(STATE["active"], lang, player=state["active_player"]))
    elif state.get("turn_of"):
        lines.append(_say(STATE["active:none"], lang, player=state["turn_of"]))
    for player, p in (state.get("players") or {}).items():
        if not p.get("in_game", True):
            lines.append(_say(STATE["left"], lang, player=player))
            continue
        if p.get("dungeon"):
            lines.append(
                _say(
                    STATE["dungeon"],
                    lang,
                    player=player,
                    dungeon=name(p["dungeon"], lang),
                    room=name(p.get("room"), lang),
                )
            )
        if p.get("completed"):
            lines.append(
                _say(STATE["completed"], lang, player=player, dungeons=names(p["completed"], lang))
            )
    for team, life in (state.get("team_life") or {}).items():
        lines.append(_say(STATE["team_life"], lang, team=team, life=life))
    for key in ("pending", "stack"):
        if state.get(key):
            lines.append(
                _say(
                    STATE[key],
                    lang,
                    abilities="; ".join(describe_ability(label, lang) for label in state[key]),
                )
            )
    if state.get("game_over"):
        lines.append(_say(STATE["game_over"], lang))
    return [_sentence(line) for line in lines]


def describe_step(step, lang: str) -> dict:
    """A step (stored dict or StepTrace) in parts: event, log, state, refused, differences."""
    if is_dataclass(step) and not isinstance(step, type):
        step = asdict(step)
    refused = step.get("refused")
    return {
        "event": describe_event(step.get("event") or {}, lang),
        "log": [
            describe_entry(e, lang) for e in step.get("log") or [] if e.get("kind") != "refused"
        ],
        "state": describe_state(step.get("state") or {}, lang, monarch=_about_monarch(step)),
        "refused": describe_refusal(refused, lang) if refused else None,
        "differences": list(step.get("diff") or []),
    }


def _about_monarch(step: dict) -> bool:
    """Does the step's event or log concern the monarch?"""
    if (step.get("event") or {}).get("kind") in MONARCH_EVENTS:
        return True
    return any(
        e.get("kind") in MONARCH_LOG or str(e.get("label", "")).startswith("monarch_")
        for e in step.get("log") or []
    )


def describe(item, lang: str) -> str:
    """A step of a run, or one log entry, as text in ``lang`` (see the module docstring).

    A step reads: the event — what happened. [the state after it]. Abilities put on the stack
    are left out of "what happened" since the state lists the stack.
    """
    if isinstance(item, dict) and "kind" in item and "event" not in item:
        return describe_entry(item, lang)
    if is_dataclass(item) and not isinstance(item, type):
        item = asdict(item)
    shown = dict(item, log=[e for e in item.get("log") or [] if e.get("kind") not in SUMMARY_SKIP])
    parts = describe_step(shown, lang)
    text = parts["event"]
    if parts["refused"]:
        text += " — " + _say(LOG["refused"], lang, reason=parts["refused"])
    if parts["log"]:
        text += " — " + "; ".join(parts["log"])
    return f"{text}. [{'; '.join(parts['state'])}]"


def _fallback(entry: dict) -> str:
    """An entry no message covers yet: its data, so nothing is hidden (tests keep this unused)."""
    return ", ".join(f"{k}={v}" for k, v in entry.items())


def message_ids() -> list[str | tuple]:
    """Every message of the catalog (singular strings and plural tuples), in a stable order."""
    found = [
        m[:2] if isinstance(m, tuple) else m
        for part in CATALOG_PARTS.values()
        for m in part.values()
    ]
    return list(dict.fromkeys(found))


def template() -> Catalog:
    """The ``examples`` catalog template (what ``examples.pot`` holds), built from the tables.

    ``python -m kb.examples.text > kb/locale/examples.pot`` writes it; then
    ``pybabel update -D examples -i kb/locale/examples.pot -d kb/locale`` updates the
    catalogs as usual.
    """
    catalog = Catalog(project="rulings-kb", domain=DOMAIN)
    for message in message_ids():
        catalog.add(message, flags=("python-format",))
    for kind in TOKENS:
        catalog.add(kind, context="token")
    for card in CARDS:
        catalog.add(card, context="card")
    return catalog


if __name__ == "__main__":
    import sys

    out = io.BytesIO()
    write_po(out, template(), omit_header=False, width=100)
    sys.stdout.write(out.getvalue().decode("utf-8"))
