"""The ``examples`` catalog's source strings: what each event, log entry, ability and state says.

Data for :mod:`kb.examples.text`, which looks the messages up and writes them in the reader's
language; kept apart so the module that writes stays small. Messages are marked with
:func:`N_` (pybabel's ``-k N_``) and gathered into ``examples.pot`` by
``python -m kb.examples.text``.
"""

from __future__ import annotations

from collections.abc import Mapping


def N_(message):
    """Mark a message for the catalog without translating it (pybabel's -k N_)."""
    return message


# Keys are the event or log kind, optionally ``kind:variant``. A tuple is (singular, plural,
# the field that counts).
EVENTS: dict[str, str | tuple] = {
    "take_initiative": N_("An effect tells %(player)s to take the initiative"),
    "become_monarch": N_("An effect tells %(player)s to become the monarch"),
    "monarch_effect": N_(
        "The effect of %(effect)s, which depends on who the monarch is, begins to apply"
    ),
    "monarch_effect:opponents": N_(
        "The effect of %(effect)s, which depends on who the monarch's "
        "opponents are, begins to apply"
    ),
    "begin_turn": N_("The turn of %(player)s begins"),
    "begin_turn:next": N_("The next turn begins"),
    "begin_upkeep": N_("The upkeep begins"),
    "begin_end_step": N_("The end step begins"),
    "combat_damage": N_("Creatures of %(players)s deal combat damage to %(to)s"),
    "venture": N_("An effect tells %(player)s to venture into the dungeon"),
    "venture_into": N_("An effect tells %(player)s to venture into Undercity"),
    "venture_trigger": N_("An ability of %(player)s that says “venture into the dungeon” triggers"),
    "bring_from_outside": N_(
        "An effect other than a venture would bring %(card)s of %(player)s into the game "
        "from outside the game"
    ),
    "concede": N_("%(player)s concedes"),
    "leave_game": (
        N_("%(players)s leaves the game"),
        N_("%(players)s leave the game at the same time"),
        "count",
    ),
    "lose_life": (
        N_("%(player)s loses %(amount)s life"),
        N_("%(player)s loses %(amount)s life"),
        "amount",
    ),
    "gain_life": (
        N_("%(player)s gains %(amount)s life"),
        N_("%(player)s gains %(amount)s life"),
        "amount",
    ),
    "run_until_priority": N_(
        "State-based actions are performed and waiting triggered abilities are put on the stack"
    ),
    "resolve_top": N_("All players pass: the top of the stack resolves"),
    "resolve_all": N_("All players keep passing until the stack is empty"),
}

LOG: dict[str, str | tuple] = {
    "trigger": N_("%(ability)s triggers"),
    "put_on_stack": N_("%(ability)s is put on the stack"),
    "resolves": N_("%(ability)s resolves"),
    "removed_from_stack": N_("%(ability)s has no legal target and is removed from the stack"),
    "not_put_on_stack": N_("%(ability)s is not put on the stack: %(controller)s has left the game"),
    "ceases_to_exist": N_("%(ability)s ceases to exist"),
    "fizzles": N_("%(ability)s does nothing: its target %(target)s is gone"),
    "does_nothing": N_("%(ability)s does nothing: %(player)s has left the game"),
    "orders_triggers": N_(
        "%(player)s chooses the order of the triggered abilities, first put "
        "on the stack first: %(order)s"
    ),
    "takes_initiative": N_("%(player)s takes the initiative"),
    "takes_initiative:from": N_(
        "%(player)s takes the initiative and %(previous)s ceases to have it"
    ),
    "takes_initiative:again": N_(
        "%(player)s takes the initiative again and still has only one initiative"
    ),
    "initiative_gone": N_("Nobody is left to take the initiative from %(previous)s"),
    "becomes_monarch": N_("%(player)s becomes the monarch"),
    "becomes_monarch:from": N_(
        "%(player)s becomes the monarch and %(previous)s ceases to be the monarch"
    ),
    "already_monarch": N_("%(player)s is already the monarch: nothing changes"),
    "cannot_become_monarch": N_("%(player)s can't become the monarch: nothing changes"),
    "monarch_gone": N_(
        "Nobody still in the game can become the monarch: the game continues with no monarch"
    ),
    "monarch_effect": N_("%(effect)s applies to %(players)s"),
    "monarch_effect:none": N_("%(effect)s does nothing: there is no monarch"),
    "starts_dungeon": N_("%(player)s puts %(dungeon)s into the command zone"),
    "ventures": N_("%(player)s moves the venture marker to the room %(room)s (%(dungeon)s)"),
    "completes_dungeon": N_("%(player)s completes %(dungeon)s"),
    "stays_outside_game": N_(
        "%(card)s stays outside the game: only venturing into the dungeon brings a dungeon "
        "card into the game"
    ),
    "brings_into_hand": N_("%(player)s puts %(card)s from outside the game into their hand"),
    "begins_turn": N_("The turn of %(player)s begins"),
    "begins_upkeep": N_("The upkeep of %(player)s begins"),
    "begins_end_step": N_("The end step of %(player)s begins"),
    "combat_damage": N_("Creatures of %(player)s deal combat damage to %(to)s"),
    "combat_damage:amount": (
        N_("Creatures of %(player)s deal %(amount)s combat damage to %(to)s"),
        N_("Creatures of %(player)s deal %(amount)s combat damage to %(to)s"),
        "amount",
    ),
    "leaves_game": N_("%(player)s leaves the game"),
    "leaves_game:concedes": N_("%(player)s concedes and leaves the game"),
    "leaves_game:loses": N_("%(player)s loses and leaves the game"),
    "dungeon_leaves_game": N_("%(dungeon)s of %(player)s leaves the game with its owner"),
    "no_active_player": N_("The turn goes on with no active player"),
    "game_over": N_("The game is over: %(winners)s won"),
    "game_over:draw": N_("The game is over: nobody won"),
    "loses_game": N_("%(player)s loses the game"),
    "refused": N_("Refused: %(reason)s"),
    "gains_life": (
        N_("%(player)s gains %(amount)s life"),
        N_("%(player)s gains %(amount)s life"),
        "amount",
    ),
    "loses_life": (
        N_("%(player)s loses %(amount)s life"),
        N_("%(player)s loses %(amount)s life"),
        "amount",
    ),
    "draws": (N_("%(player)s draws %(n)s card"), N_("%(player)s draws %(n)s cards"), "n"),
    "creates_token": N_("%(player)s creates %(token)s"),
    "counters": (
        N_("%(creature)s gets %(n)s +1/+1 counter"),
        N_("%(creature)s gets %(n)s +1/+1 counters"),
        "n",
    ),
    "sacrifices": N_("%(player)s sacrifices %(permanent)s"),
    "sacrifices:land": N_("%(player)s sacrifices a land"),
    "discards": N_("%(player)s discards a card"),
    "puts_onto_battlefield": N_("%(player)s puts %(creature)s onto the battlefield"),
    "search_basic_land": N_(
        "%(player)s searches their library for a basic land card and puts it into their hand"
    ),
    "goad": N_("%(player)s goads %(creature)s"),
    "minus_four": N_("%(creature)s gets -4/-0 until the next turn of %(player)s"),
    "cant_attack": N_("%(creature)s can't attack until the next turn of %(player)s"),
    "scry": N_("%(player)s scries %(n)s"),
    "exile_top": (
        N_("%(player)s exiles the top %(n)s card of their library"),
        N_("%(player)s exiles the top %(n)s cards of their library"),
        "n",
    ),
    "cast_free": N_("%(player)s casts %(card)s without paying its mana cost"),
    "hexproof": N_("%(creature)s gains hexproof"),
    "shuffle": N_("%(player)s shuffles their library"),
}

# Triggered abilities, by the kind in their label (kb.core.state.ABILITY_RULES).
ABILITIES: dict[str, str] = {
    "upkeep": N_(
        "the initiative's upkeep trigger controlled by %(controller)s (%(player)s "
        "ventures into Undercity)"
    ),
    "steal": N_(
        "the initiative's combat damage trigger controlled by %(controller)s "
        "(%(player)s takes the initiative)"
    ),
    "taken": N_(
        "the trigger of taking the initiative controlled by %(controller)s (%(player)s "
        "ventures into Undercity)"
    ),
    "room": N_("the room ability of %(room)s controlled by %(controller)s"),
    "venture": N_(
        "the venture trigger controlled by %(controller)s (%(player)s ventures into the dungeon)"
    ),
    "monarch_draw": N_(
        "the monarch's end step trigger controlled by %(controller)s (%(player)s draws a card)"
    ),
    # Its label names the creature, not a player: one trigger per creature (725.2).
    "monarch_steal": N_(
        "the monarch's combat damage trigger of %(creature)s controlled by "
        "%(controller)s (the controller of %(creature)s becomes the monarch)"
    ),
    "targeting": N_("%(ability)s (target: %(target)s)"),
}

# Why the core refused an event (kb.core.choices.Refused reasons).
REASONS: dict[str, str] = {
    "undercity_needs_venture_into_undercity": N_(
        "only “venture into Undercity” can start Undercity"
    ),
    "venture_into_needs_quality": N_("“venture into Undercity” can start only Undercity"),
    "already_in_a_dungeon": N_("%(player)s already has a dungeon in the command zone"),
    "not_outside_the_game": N_("%(player)s has no such card outside the game"),
    "illegal_choice": N_("%(answer)s is not a legal choice"),
    "not_an_opponent": N_("%(player)s is not an opponent of %(to)s"),
    "not_their_creature": N_("%(player)s does not control those creatures"),
    "player_not_in_game": N_("%(player)s has left the game"),
    "unknown_player": N_("there is no player called %(player)s"),
    "stack_empty": N_("the stack is empty"),
    "no_player_left": N_("no player is left"),
    "game_over": N_("the game is over"),
}

STATE: dict[str, str | tuple] = {
    "initiative": N_("%(player)s has the initiative"),
    "initiative:none": N_("Nobody has the initiative"),
    "monarch": N_("%(player)s is the monarch"),
    "monarch:none": N_("Nobody is the monarch"),
    "cant_become_monarch": (
        N_("%(players)s can't become the monarch"),
        N_("%(players)s can't become the monarch"),
        "count",
    ),
    "active": N_("Active player: %(player)s"),
    "active:none": N_("No active player (turn of %(player)s)"),
    "dungeon": N_("%(player)s: %(dungeon)s, room %(room)s"),
    "completed": N_("%(player)s has completed %(dungeons)s"),
    "left": N_("%(player)s has left the game"),
    "pending": N_("Waiting to be put on the stack: %(abilities)s"),
    "stack": N_("On the stack, from bottom to top: %(abilities)s"),
    "team_life": (N_("Team %(team)s: %(life)s life"), N_("Team %(team)s: %(life)s life"), "life"),
    "game_over": N_("The game is over"),
}

# Log kinds :func:`describe` leaves out of a step's summary (the state shows their result).
SUMMARY_SKIP = {"put_on_stack"}

# Token kinds the core creates ("Treasure #1"): translated with the context "token".
TOKENS = ("Treasure", "Goblin", "Skeleton")
# Cards the examples name (a room casts one): their official names, with the context "card".
CARDS = ("Lightning Bolt",)
CATALOG_PARTS: dict[str, Mapping[str, str | tuple]] = {
    "event": EVENTS,
    "log": LOG,
    "ability": ABILITIES,
    "reason": REASONS,
    "state": STATE,
}


# What makes a step about the monarch, so its state says "Nobody is the monarch" too.
MONARCH_EVENTS = {"become_monarch", "monarch_effect", "begin_end_step"}
MONARCH_LOG = {
    "becomes_monarch",
    "already_monarch",
    "cannot_become_monarch",
    "monarch_gone",
    "monarch_effect",
}
