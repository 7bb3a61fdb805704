"""The executable core: a pure model of the initiative, the monarch, dungeons and venturing.

Modules, one job each:

- :mod:`kb.core.game`      the state object and its events (start here)
- :mod:`kb.core.initiative` rule 726: the designation, its triggers, its hand-over
- :mod:`kb.core.monarch`   rule 725: the initiative's sibling, where it differs
- :mod:`kb.core.designations` what the two share: the hand-over as the holder leaves
- :mod:`kb.core.venture`   rule 701.49 and 309: starting, advancing, completing
- :mod:`kb.core.dungeons`  the four dungeon cards as data
- :mod:`kb.core.outside`   outside the game: dungeon cards and sideboards (309.2, 309.2d)
- :mod:`kb.core.rooms`     what each room ability does on the small board
- :mod:`kb.core.stack`     triggers onto the stack in order (603.3b, 805.7) and resolving
- :mod:`kb.core.sba`       state-based actions (704.5t, 704.5a-b, 810.8c)
- :mod:`kb.core.leaving`   players leaving the game (800.4)
- :mod:`kb.core.turns`     seats, turns, teams, life totals
- :mod:`kb.core.choices`   decisions, choosers, refusals
- :mod:`kb.core.rule_table` every rule carried out: number, history, summary, its code
- :mod:`kb.core.dungeon_rules` the table's rows for dungeons and venturing
- :mod:`kb.core.rule_history` a row of the table and the history of its numbers
- :mod:`kb.core.registry`  the rules looked up: by number, on a date, by an old number
- :mod:`kb.core.scenario_format` the scenario format: events, steps, checked as parsed
- :mod:`kb.core.scenario`  examples as data and their runner (the only file reading)
"""

from kb.core.choices import ChoiceNeeded, Decision, Refused, ScriptedChooser, first_option
from kb.core.dungeons import DUNGEONS
from kb.core.game import Game
from kb.core.registry import RULES, Rule

__all__ = [
    "ChoiceNeeded",
    "Decision",
    "DUNGEONS",
    "Game",
    "Refused",
    "RULES",
    "Rule",
    "ScriptedChooser",
    "first_option",
]
