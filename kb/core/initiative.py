"""The initiative (rule 726): the designation, its three triggered abilities, its hand-over.

The three abilities have no source. Whoever has the initiative at the moment
one of them triggers controls it (726.2, an exception to 113.8), so
:func:`trigger` stamps ``game.initiative`` as the controller then and there; a
later change of holder does not change who controls a waiting ability.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kb.core import designations, turns, venture

if TYPE_CHECKING:  # pragma: no cover
    from kb.core.game import Game
    from kb.core.state import Trigger


def trigger(game: Game, ability: str, player: str) -> Trigger:
    """One of the initiative's abilities triggers, controlled by the current holder (726.2)."""
    if game.initiative is None:  # each of the three is the holder's, so none without one
        raise ValueError(f"{ability} triggers with nobody holding the initiative")
    return game.new_trigger(ability, controller=game.initiative, player=player)


def take(game: Game, player: str, rule: str = "726.3") -> None:
    """``player`` takes the initiative: the old holder ceases to have it (726.3).

    Taking it triggers "whenever a player takes the initiative"; taking it while
    already holding it goes to :func:`retake` (726.5).
    """
    if game.initiative == player:
        retake(game, player)
        return
    previous, game.initiative = game.initiative, player
    game.note("takes_initiative", player=player, previous=previous, rule=rule)
    trigger(game, "taken", player)


def retake(game: Game, player: str) -> None:
    """The holder takes it again: the venture triggers, no second designation (726.5)."""
    game.note("takes_initiative", player=player, previous=player, rule="726.5")
    trigger(game, "taken", player)


def upkeep_trigger(game: Game) -> None:
    """At the beginning of the holder's upkeep, that player will venture into Undercity (726.2).

    With shared team turns the upkeep is the whole active team's, so it is the
    holder's upkeep whenever the holder is on the active team.
    """
    if game.initiative is not None and game.initiative in turns.active_players(game):
        trigger(game, "upkeep", game.initiative)


def steal_triggers(game: Game, dealers: Iterable[str], to: str) -> None:
    """One trigger per player whose creatures dealt combat damage to the holder (726.2).

    "One or more creatures a player controls" groups a player's creatures
    together, so two attacking players (teammates in Two-Headed Giant) make two
    triggers, both controlled by the holder, who will order them (ruling #6).
    """
    if game.initiative is None or to != game.initiative:
        return
    for dealer in dealers:
        trigger(game, "steal", dealer)


def resolve(game: Game, ability: Trigger) -> None:
    """An initiative ability resolves: a steal makes its player take it; the others venture."""
    if not game.players[ability.player].in_game:
        # The player who would take the initiative or venture has left the game.
        game.note("does_nothing", label=ability.label, reason="player_left", player=ability.player)
        return
    if ability.ability == "steal":
        take(game, ability.player)
    else:
        venture.venture(game, ability.player, "Undercity")


def recipient_on_leave(game: Game, leaving: list[str]) -> str | None:
    """Who takes the initiative as its holder leaves (726.4).

    The active player, else the next player in turn order who is not leaving
    (the walk the monarch shares, :func:`kb.core.designations.successor`).
    Unlike 725.4 there is no "who can take it": anyone staying can.
    """
    return designations.successor(game, leaving, "initiative_recipient", "726.4")


def pass_on_leave(game: Game, leaving: list[str]) -> None:
    """If the holder is leaving, hand the initiative on at the same time (726.4)."""
    if game.initiative not in leaving:
        return
    recipient = recipient_on_leave(game, leaving)
    if recipient is None:
        game.note("initiative_gone", previous=game.initiative, rule="726.4")
        game.initiative = None
        return
    previous, game.initiative = game.initiative, recipient
    game.note("takes_initiative", player=recipient, previous=previous, rule="726.4")
    trigger(game, "taken", recipient)
