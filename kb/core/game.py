"""The game state and its events: the one object every example drives.

A :class:`Game` holds the players in turn order, the active player (or none,
800.4j), Two-Headed Giant teams and their shared life, each player's dungeon and
venture marker, completed dungeons and sideboard (309.2), the initiative, the
monarch (with the players an effect says can't become it and the continuous
effects keyed to it), triggered abilities waiting to be put on the stack and the
stack itself, and a structured log.

Events are methods. Each is all-or-nothing: if the rules refuse it (or a
chooser's answer) the game is restored to how it was and :class:`Refused` is
raised, with a ``refused`` entry left in the log.

Events do not pass priority on their own: after an event, triggered abilities
wait (``pending``) until :meth:`Game.run_until_priority` performs state-based
actions and puts them on the stack, and :meth:`Game.resolve_top` resolves one.

>>> g = Game(["Ann", "Bruno"], active="Ann")
>>> g.take_initiative("Bruno")
>>> g.snapshot()["pending"]
['taken:Bruno@Bruno']
>>> g.resolve_all()
>>> g.initiative, g.players["Bruno"].dungeon, g.players["Bruno"].room
('Bruno', 'Undercity', 'Secret Entrance')
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from kb.core import initiative, leaving, monarch, outside, stack, turns, venture
from kb.core.choices import Chooser, Decision, Refused, no_choices
from kb.core.state import Player, Trigger


class Game:
    """One game: state plus the events that change it by the Comprehensive Rules."""

    def __init__(
        self,
        players: Sequence[str],
        *,
        teams: Mapping[str, Sequence[str]] | None = None,
        active: str | None = None,
        turn_of: str | None = None,
        initiative: str | None = None,
        monarch: str | None = None,
        cant_become_monarch: Sequence[str] = (),
        life: int | None = None,
        team_life: int | None = None,
        sideboards: Mapping[str, Sequence[str]] | None = None,
        chooser: Chooser | None = None,
    ) -> None:
        if len(set(players)) != len(players) or not players:
            raise ValueError("players must be distinct names in turn order")
        self.order: list[str] = list(players)
        self.teams: dict[str, list[str]] = {}  # team -> members; empty outside team games
        self.team_life: dict[str, int] = {}
        team_by_player: dict[str, str] = {}
        if teams:
            self.teams = {team: list(members) for team, members in teams.items()}
            team_by_player = {m: t for t, ms in self.teams.items() for m in ms}
            if sorted(team_by_player) != sorted(players):
                raise ValueError("every player must be on exactly one team")
            # 810.4 (and 810.11 for bigger teams): 30, plus 15 for each extra member.
            self.team_life = {
                t: team_life if team_life is not None else 30 + 15 * (len(ms) - 2)
                for t, ms in self.teams.items()
            }
        self.players: dict[str, Player] = {
            name: Player(name, team=team_by_player.get(name), life=life if life is not None else 20)
            for name in players
        }
        for name in (active, turn_of, initiative, monarch, *cant_become_monarch):
            if name is not None and name not in self.players:
                raise ValueError(f"unknown player {name!r}")
        outside.give_sideboards(self, sideboards or {})  # no dungeon card in one (309.2)
        self.active_player: str | None = active
        self.turn_of: str | None = turn_of if turn_of is not None else active
        self.initiative: str | None = initiative  # 726.1: none until someone takes it
        self.monarch: str | None = monarch  # 725.1: none until someone becomes it
        # Players an effect says can't become the monarch (725.4), in turn order.
        self.cant_become_monarch: list[str] = [p for p in players if p in cant_become_monarch]
        # Continuous effects whose result depends on who the monarch is (725.5):
        # the effect's name -> whom it concerns (kb.core.monarch.CONCERNS).
        self.monarch_effects: dict[str, str] = {}
        self.pending: list[Trigger] = []
        self.stack: list[Trigger] = []  # bottom first, top last
        self.log: list[dict[str, Any]] = []
        self.game_over = False
        self.winners: list[str] = []
        self.chooser: Chooser = chooser or no_choices
        self._next_id = 1
        self._next_dungeon_id = 1
        self._token_numbers: dict[str, int] = {}

    # -- helpers the rule modules use -------------------------------------------------

    def note(self, kind: str, **fields: Any) -> None:
        """Append a structured log entry (kind plus values, no prose)."""
        self.log.append({"kind": kind, **fields})

    def player(self, name: str) -> Player:
        """The player called ``name``, who must still be in the game."""
        if name not in self.players:
            raise Refused("unknown_player", player=name)
        if not self.players[name].in_game:
            raise Refused("player_not_in_game", player=name)
        return self.players[name]

    def choose(self, decision: Decision) -> Any:
        """Ask the chooser; a decision with one option is not a choice.

        Answers outside the options are refused; free answers (``options`` None)
        and trigger orders are checked by the caller.
        """
        if (
            decision.options is not None
            and len(decision.options) == 1
            and decision.kind != "order_triggers"
        ):
            return decision.options[0]
        answer = self.chooser(decision)
        if (
            decision.options is not None
            and decision.kind != "order_triggers"
            and answer not in decision.options
        ):
            raise Refused(
                "illegal_choice",
                choice=decision.kind,
                answer=answer,
                options=list(decision.options),
            )
        return answer

    def new_trigger(self, ability: str, controller: str, player: str, **fields: Any) -> Trigger:
        """A triggered ability triggers: it waits until it is put on the stack (603.3)."""
        trigger = Trigger(self._next_id, ability, controller, player, **fields)
        self._next_id += 1
        self.pending.append(trigger)
        self.note("trigger", **trigger.as_log())
        return trigger

    def new_dungeon_id(self) -> int:
        self._next_dungeon_id += 1
        return self._next_dungeon_id - 1

    def token_name(self, kind: str) -> str:
        """Tokens get distinct names (``Skeleton #2``) so they can be targeted."""
        number = self._token_numbers.get(kind, 0) + 1
        self._token_numbers[kind] = number
        return f"{kind} #{number}"

    def checkpoint(self) -> dict[str, Any]:
        """A copy of the whole state, for :meth:`rollback` (the chooser is not state)."""
        return copy.deepcopy({k: v for k, v in self.__dict__.items() if k != "chooser"})

    def rollback(self, saved: dict[str, Any]) -> None:
        """Put the game back as it was at ``checkpoint()``."""
        chooser = self.chooser
        self.__dict__.clear()
        self.__dict__.update(saved)
        self.chooser = chooser

    # -- events ------------------------------------------------------------------------
    # Every event takes the keyword ``chooser``: who answers the choices it raises
    # (the game's own chooser when not given).

    @contextmanager
    def _event(self, name: str, chooser: Chooser | None) -> Iterator[None]:
        """Make the event ``name`` all-or-nothing and let its caller pass a chooser for it."""
        saved = self.checkpoint()
        previous, self.chooser = self.chooser, chooser or self.chooser
        try:
            if self.game_over:
                raise Refused("game_over")
            yield
        except Refused as refusal:
            self.rollback(saved)
            self.note("refused", reason=refusal.reason, event=name, **refusal.details)
            raise
        finally:
            self.chooser = previous

    def take_initiative(self, player: str, *, chooser: Chooser | None = None) -> None:
        """An effect instructs ``player`` to take the initiative (726.1, 726.3, 726.5)."""
        with self._event("take_initiative", chooser):
            self.player(player)
            initiative.take(self, player)

    def become_monarch(self, player: str, *, chooser: Chooser | None = None) -> None:
        """An effect instructs ``player`` to become the monarch (725.1, 725.3)."""
        with self._event("become_monarch", chooser):
            self.player(player)
            monarch.become(self, player, rule="725.1" if self.monarch is None else "725.3")

    def monarch_effect(
        self, effect: str, concerns: str = "monarch", *, chooser: Chooser | None = None
    ) -> None:
        """A static ability's continuous effect keyed to the monarch begins to apply (725.5).

        ``concerns`` says whom its result is determined from: ``monarch`` or the
        monarch's ``opponents``; :meth:`snapshot` shows whom it applies to.
        """
        with self._event("monarch_effect", chooser):
            applies_to = monarch.affected(self, concerns)  # ValueError for an unknown kind
            self.monarch_effects[effect] = concerns
            self.note(
                "monarch_effect",
                effect=effect,
                concerns=concerns,
                applies_to=applies_to,
                rule="725.5",
            )

    def begin_turn(self, player: str | None = None, *, chooser: Chooser | None = None) -> None:
        """A turn begins: the given player's, or the next in turn order still in the game."""
        with self._event("begin_turn", chooser):
            nxt = turns.next_turn(self) if player is None else self.player(player).name
            if nxt is None:
                raise Refused("no_player_left")
            self.turn_of = self.active_player = nxt
            self.note("begins_turn", player=nxt)

    def begin_upkeep(self, *, chooser: Chooser | None = None) -> None:
        """The active player's upkeep begins; the holder's upkeep trigger triggers (726.2)."""
        with self._event("begin_upkeep", chooser):
            self.note("begins_upkeep", player=self.active_player)
            initiative.upkeep_trigger(self)

    def begin_end_step(self, *, chooser: Chooser | None = None) -> None:
        """The active player's end step begins; the monarch's draw trigger triggers (725.2)."""
        with self._event("begin_end_step", chooser):
            self.note("begins_end_step", player=self.active_player)
            monarch.end_step_trigger(self)

    def combat_damage(
        self,
        by: Mapping[str, Sequence[str] | int],
        to: str,
        damage: Mapping[str, int] | None = None,
        *,
        chooser: Chooser | None = None,
    ) -> None:
        """Creatures of each player in ``by`` deal combat damage to ``to`` at once.

        ``by`` maps each attacking player to their creatures (names or a count);
        ``damage`` optionally gives the total each player's creatures deal, so
        life totals follow (810.9 in Two-Headed Giant). Without it life is not
        modelled: the initiative only needs "one or more creatures dealt damage".
        Damage to the monarch needs the creatures' names: the monarch's trigger
        is one per creature (725.2).
        """
        with self._event("combat_damage", chooser):
            self.player(to)
            if to == self.monarch and any(isinstance(c, int) and c > 0 for c in by.values()):
                raise ValueError(
                    "name the creatures that deal combat damage to the monarch: "
                    "its trigger is one per creature (725.2)"
                )
            dealers, hits = [], []
            for attacker, creatures in by.items():
                self.player(attacker)
                if attacker == to or attacker not in turns.opponents(self, to):
                    raise Refused("not_an_opponent", player=attacker, to=to)
                count = creatures if isinstance(creatures, int) else len(creatures)
                if not isinstance(creatures, int):
                    missing = [c for c in creatures if c not in self.players[attacker].creatures]
                    if missing:
                        raise Refused("not_their_creature", player=attacker, creatures=missing)
                if count > 0:
                    dealers.append(attacker)
                if not isinstance(creatures, int):
                    hits += [(attacker, creature) for creature in creatures]
            for attacker in dealers:
                amount = (damage or {}).get(attacker)
                self.note("combat_damage", player=attacker, to=to, amount=amount)
                if amount:
                    turns.change_life(self, to, -amount)
            initiative.steal_triggers(self, dealers, to)
            monarch.steal_triggers(self, hits, to)

    def venture(self, player: str, *, chooser: Chooser | None = None) -> None:
        """An effect instructs ``player`` to venture into the dungeon (701.49a-c)."""
        with self._event("venture", chooser):
            self.player(player)
            venture.venture(self, player, None)

    def venture_into(
        self, player: str, quality: str = "Undercity", *, chooser: Chooser | None = None
    ) -> None:
        """An effect instructs ``player`` to "venture into [quality]" (701.49d)."""
        with self._event("venture_into", chooser):
            self.player(player)
            venture.venture(self, player, quality)

    def venture_trigger(
        self, player: str, quality: str | None = None, *, chooser: Chooser | None = None
    ) -> None:
        """A card ability of ``player`` that says "venture into the dungeon" triggers."""
        with self._event("venture_trigger", chooser):
            self.player(player)
            self.new_trigger("venture", player, player, quality=quality)

    def bring_from_outside(self, player: str, card: str, *, chooser: Chooser | None = None) -> None:
        """An effect other than a venture would bring ``card``, which ``player`` owns outside
        the game, into their hand; a dungeon card stays outside the game (309.2d)."""
        with self._event("bring_from_outside", chooser):
            self.player(player)
            outside.bring_in(self, player, card)

    def leave_game(
        self, *players: str, reason: str = "concedes", chooser: Chooser | None = None
    ) -> None:
        """One or more players leave the game at the same time (800.4a, 726.4)."""
        with self._event("leave_game", chooser):
            for name in players:
                self.player(name)
            leaving.leave(self, list(players), reason)

    def concede(self, player: str, *, chooser: Chooser | None = None) -> None:
        """``player`` concedes: they leave the game (104.3a; in 2HG their team, 810.8b)."""
        self.leave_game(player, reason="concedes", chooser=chooser)

    def lose_life(self, player: str, amount: int, *, chooser: Chooser | None = None) -> None:
        """An effect makes ``player`` lose ``amount`` life (810.9 applies in 2HG)."""
        with self._event("lose_life", chooser):
            self.player(player)
            turns.change_life(self, player, -amount)

    def gain_life(self, player: str, amount: int, *, chooser: Chooser | None = None) -> None:
        with self._event("gain_life", chooser):
            self.player(player)
            turns.change_life(self, player, amount)

    def run_until_priority(self, *, chooser: Chooser | None = None) -> None:
        """State-based actions and waiting triggers until a player would get priority (704.3)."""
        with self._event("run_until_priority", chooser):
            stack.run_until_priority(self)

    def resolve_top(self, *, chooser: Chooser | None = None) -> None:
        """All players pass in succession: the top object resolves, then on to priority."""
        with self._event("resolve_top", chooser):
            stack.run_until_priority(self)
            if not self.stack:
                raise Refused("stack_empty")
            stack.resolve_top(self)
            stack.run_until_priority(self)

    def resolve_all(self, *, chooser: Chooser | None = None) -> None:
        """Everyone keeps passing until the stack is empty (or the game ends)."""
        with self._event("resolve_all", chooser):
            stack.run_until_priority(self)
            while self.stack and not self.game_over:
                stack.resolve_top(self)
                stack.run_until_priority(self)

    # -- reading the state -------------------------------------------------------------

    def life(self, player: str) -> int:
        return turns.life(self, player)

    def snapshot(self) -> dict[str, Any]:
        """The state as plain data (what examples compare against)."""
        state: dict[str, Any] = {
            "turn_of": self.turn_of,
            "active_player": self.active_player,
            "initiative": self.initiative,
            "monarch": self.monarch,
            "game_over": self.game_over,
            "winners": list(self.winners),
            "players": {
                name: p.as_state(self.life(name), outside.cards(self, name))
                for name, p in self.players.items()
            },
            "pending": [t.describe() for t in self.pending],
            "stack": [t.describe() for t in self.stack],
        }
        if self.teams:
            state["team_life"] = dict(self.team_life)
        if self.cant_become_monarch:
            state["cant_become_monarch"] = list(self.cant_become_monarch)
        if self.monarch_effects:  # whom each applies to now; None: it does nothing (725.5)
            state["monarch_effects"] = {
                effect: monarch.affected(self, concerns)
                for effect, concerns in self.monarch_effects.items()
            }
        return state
