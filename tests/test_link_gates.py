"""The linker's gates: a rule is linked only when the group names what the rule requires (its
family's topic, its hint's `requires`) and nothing its hint excludes; what a ruling's words
imply (hints.yaml's `implies`) counts as named."""

from __future__ import annotations

from pathlib import Path

import pytest
from link_corpus import build, write_rulings

from kb import link
from kb.link import scoring


def test_a_rule_s_required_concept_is_distinctive():
    # The monarch leaving the game, told through the next player in turn order only.
    found = ["monarch", "become_monarch", "leave_game", "turn_order"]
    assert [l.rule for l in link.rules_for(found)] == ["725.4"]
    assert link.rules_for(["monarch", "become_monarch", "turn_order"]) == []


def test_a_family_topic_the_rule_does_not_name_does_not_open_its_gate():
    # An initiative trigger that ventures into Undercity and is no permanent: the dungeons'
    # topic is named (Undercity), but 309.2c is about dungeon cards, which it never names.
    found = [
        "initiative",
        "take_initiative",
        "upkeep",
        "venture_into_undercity",
        "undercity",
        "triggered_ability",
        "permanent",
    ]
    assert "309.2c" not in [l.rule for l in link.rules_for(found)]
    assert "309.2c" in [l.rule for l in link.rules_for(["dungeon", "permanent", "cast"])]


def test_a_required_topic_concept_is_a_gate_not_evidence():
    # 701.49c is venturing from the last room: a dungeon removed from its last room by the
    # state-based action, never ventured from, is 309.6's and 704.5t's, and completing it
    # 309.7's. Venturing opens 701.49c's gate but tells no rule of the dungeons from another.
    table = link.evidence_table()
    assert "venture" not in table.distinctive("701.49c")
    removed = ["dungeon", "last_room", "remove_from_game", "room_ability", "stack", "ability"]
    assert link.rules_for(removed + ["complete_dungeon"]) != []
    assert "701.49c" not in [l.rule for l in link.rules_for(removed + ["complete_dungeon"])]
    assert "309.7" in [l.rule for l in link.rules_for(removed + ["complete_dungeon"])]
    ventured = removed + ["complete_dungeon", "venture"]
    assert "701.49c" in [l.rule for l in link.rules_for(ventured)]


def test_choosing_a_room_ability_s_targets_is_not_having_none():
    # A room ability's targets chosen as it goes on the stack: the ability's rule (309.4c),
    # not 603.3d (no legal choice: removed) nor 309.2c (a dungeon can't be targeted).
    chosen = ["dungeon", "room", "room_ability", "ability", "triggered_ability", "stack"]
    chosen += ["target", "venture_marker", "control"]
    assert [l.rule for l in link.rules_for(chosen)] == ["309.4c"]
    fates = {f.rule: f for f in scoring.decide(chosen)}
    assert fates["603.3d"].gate == {"kind": "requires", "concepts": ["no_legal_target"]}
    assert fates["309.2c"].gate == {"kind": "requires", "concepts": ["permanent"]}
    assert "603.3d" in [l.rule for l in link.rules_for([*chosen, "no_legal_target"])]


def test_casting_the_card_that_ventures_is_not_casting_a_dungeon():
    # 309.2c's point is what a dungeon card is not (a permanent, a spell to cast): a ruling
    # on casting the card that ventures, with no target, names casting for another reason.
    cast = ["cast", "target", "venture", "dungeon", "initiative", "take_initiative"]
    assert "309.2c" not in [l.rule for l in link.rules_for(cast)]
    assert "309.2c" in [l.rule for l in link.rules_for(["dungeon", "permanent", "cast"])]


def test_a_holder_told_to_take_the_designation_again_is_not_its_first_holder():
    # 725.1 and 726.1: a game has no monarch (initiative) until an effect instructs a player;
    # the holder instructed again is 725.3's (it stays the monarch) and 726.5's.
    again = ["again", "instruct", "designation"]
    assert [l.rule for l in link.rules_for(["monarch", "become_monarch", *again])] == ["725.3"]
    assert [l.rule for l in link.rules_for(["monarch", "become_monarch", "instruct"])] == ["725.1"]
    found = ["initiative", "take_initiative", "only_one", *again]
    assert [l.rule for l in link.rules_for(found)] == ["726.5"]


def test_a_game_that_starts_without_the_designation_is_its_first_rule():
    # 725.1: "the game starts with no monarch" (the official rulings' words) names neither
    # the designation nor an effect that instructs; the start of the game is the rule's point.
    # Without it the absence of a monarch alone is 725.5's (a static ability doing nothing).
    started = ["monarch", "no_monarch", "become_monarch", "effect", "game_start"]
    assert [l.rule for l in link.rules_for(started)] == ["725.1"]
    assert "725.1" not in [l.rule for l in link.rules_for(started[:-1])]


def test_choosing_the_order_of_abilities_on_the_stack_is_about_triggered_abilities():
    # hints.yaml's `implies` (603.3b): the abilities whose order the monarch chooses are
    # triggered abilities, though the ruling says only "the resulting abilities".
    ordering = ["monarch", "combat_damage", "creature", "simultaneously", "stack", "control"]
    assert "603.3b" not in [l.rule for l in link.rules_for([*ordering, "ability"])]
    assert "603.3b" in [l.rule for l in link.rules_for([*ordering, "ability", "choose_order"])]


def test_conceding_is_leaving_the_game_and_its_words_show_it(tmp_path):
    # hints.yaml's `implies` (104.3a): a holder who concedes leaves the game.
    table = link.evidence_table()
    assert table.imply({"concede": 0.8, "leave_game": 0.2}) == {"concede": 0.8, "leave_game": 0.8}
    conceding = ["initiative", "take_initiative", "concede", "turn_order"]
    assert [l.rule for l in link.rules_for(conceding)] == ["726.4"]
    assert link.rules_for(["initiative", "take_initiative", "turn_order"]) == []
    texts = {
        "ru": "Если игрок с инициативой сдается, следующий игрок по очереди получает инициативу.",
        "fr": "Si le joueur qui a l'initiative concède, le joueur suivant dans l'ordre du tour "
        "prend l'initiative.",
        "de": "Wenn der Spieler mit der Initiative aufgibt, ergreift der nächste Spieler in "
        "Zugreihenfolge die Initiative.",
    }
    found = links_of_one(tmp_path, texts)
    assert [f["rule"] for f in found] == ["726.4"]
    assert "leave_game" in found[0]["concepts"]
    assert found[0]["evidence"]["concepts"]["leave_game"]["fr"].lower().startswith("concède")


def test_a_marker_that_moves_on_goes_to_the_next_room(tmp_path):
    # hints.yaml's `implies`: a marker that advances, moves on or goes down a room moves to the
    # next room (701.49b), though the ruling never says "next room" or "arrow".
    table = link.evidence_table()
    assert table.imply({"move_on": 1.0}) == {"move_on": 1.0, "next_room": 1.0, "dungeon": 1.0}
    venturing = ["venture", "dungeon", "venture_marker", "room", "room_ability", "stack"]
    assert "701.49b" not in [l.rule for l in link.rules_for(venturing)]
    texts = {
        "ru": "Если вы отправляетесь в подземелье, пока способность комнаты еще в стеке, ваш "
        "маркер путешествия продвигается дальше, а способность все равно разрешается.",
        "it": "Se ti avventuri nel dungeon mentre l'abilità di una stanza è ancora in pila, il "
        "tuo segnalino di avanzamento avanza comunque e l'abilità si risolve lo stesso.",
        "es": "Si te adentras en la mazmorra mientras la habilidad de una sala sigue en la pila, "
        "tu marcador de aventura avanza igualmente y la habilidad se resuelve.",
    }
    (moved,) = [f for f in links_of_one(tmp_path, texts) if f["rule"] == "701.49b"]
    assert moved["evidence"]["concepts"]["next_room"]["it"] == "segnalino di avanzamento avanza"


def links_of_one(folder: Path, texts: dict[str, str]) -> list[dict]:
    """The links of a corpus holding one ruling (``texts``: language -> its text)."""
    data = {"cards": {lang: "Karta" for lang in texts}, "date": "2025-01-10"}
    db, _ = build(folder, write_rulings(folder, data, [{"texts": texts}], "one"))
    ((_, found),) = link.links(db).items()
    return found


def test_venturing_while_not_in_a_dungeon_is_the_keyword_action_s_first_case():
    # 701.49a's condition, however the ruling puts it ("aren't in a dungeon", "have no dungeon
    # in the command zone"), with no first room or dungeon from outside the game named.
    found = ["venture", "dungeon", "not_in_dungeon"]
    assert [l.rule for l in link.rules_for(found)] == ["309.2a", "701.49a"]
    # A venture into Undercity while not in a dungeon starting it is 701.49d's alone.
    undercity = ["venture_into_undercity", "undercity", "dungeon", "not_in_dungeon"]
    undercity += ["start_dungeon", "first_room"]
    assert [l.rule for l in link.rules_for(undercity)] == ["701.49d"]
    # Without the condition, a plain venture is no start.
    assert "701.49a" not in [l.rule for l in link.rules_for(["venture", "dungeon"])]


def test_players_venturing_in_turn_order_is_about_the_order_not_the_venture():
    # hints.yaml: one player's venture (309.2a, 309.5a, 701.49a, 701.49b) and the room abilities
    # it triggers (309.4c) are examples in a ruling that sets the active player against the
    # others; that ruling is about the order in which they act.
    moving = ["venture", "dungeon", "venture_marker", "arrow", "next_room", "room"]
    triggering = ["room_ability", "triggered_ability", "stack"]
    alone = [l.rule for l in link.rules_for(moving + triggering)]
    assert alone == ["309.4c", "309.5a", "701.49b"]
    in_turn = [
        l.rule for l in link.rules_for(moving + triggering + ["active_player", "nonactive_player"])
    ]
    assert in_turn == ["603.3b"]
    starting = ["venture", "dungeon", "not_in_dungeon", "outside_game", "first_room"]
    assert "701.49a" in [l.rule for l in link.rules_for(starting)]
    in_turn = [l.rule for l in link.rules_for(starting + ["active_player", "nonactive_player"])]
    assert "701.49a" not in in_turn


def test_the_venture_from_the_last_room_needs_a_last_room():
    # Completing a dungeon doesn't make you venture again; the next venture, not in a dungeon,
    # starts one (701.49a), not the venture from the last room (701.49c), which the group
    # never names; nor is it when a dungeon is completed (309.7: as its card is removed).
    after = ["complete_dungeon", "dungeon", "venture", "again", "not_in_dungeon", "first_room"]
    assert [l.rule for l in link.rules_for(after)] == ["701.49a"]
    assert "701.49c" in [l.rule for l in link.rules_for(after + ["last_room"])]
    assert "309.7" in [l.rule for l in link.rules_for(after + ["remove_from_game"])]


def test_completing_a_dungeon_is_309_7_s_only_with_the_card_removed():
    # hints.yaml: 309.7 is when a dungeon is completed, as its card is removed from the game
    # (from its last room); a card that counts the dungeons you've completed is that card's.
    counted = ["complete_dungeon", "dungeon", "creature", "control"]
    assert link.rules_for(counted) == []
    assert [l.rule for l in link.rules_for(counted + ["remove_from_game"])] == ["309.7"]


def test_a_team_ordering_its_triggers_is_805_7_not_603_3b():
    # With shared team turns the active team puts its triggers on the stack first, its members
    # choosing their order together (805.7 in 603.3b's place): a ruling saying so names the
    # order chosen, as 603.3b's do, and the team's turn.
    found = ["two_headed_giant", "team", "active_team", "room_ability", "room", "ability"]
    found += ["triggered_ability", "stack", "simultaneously", "choose_order", "control"]
    fates = {f.rule: f for f in scoring.decide(found)}
    assert fates["805.7"].linked
    assert fates["603.3b"].kind == "refused" and fates["603.3b"].gate["concepts"] == ["active_team"]
    # Without the team's turn the order is 603.3b's.
    plain = [c for c in found if c not in ("two_headed_giant", "team", "active_team")]
    assert "603.3b" in [l.rule for l in link.rules_for(plain + ["active_player"])]


def test_a_trigger_that_waits_for_priority_is_603_3_not_the_order_of_603_3b():
    # 603.3: a triggered ability goes on the stack the next time a player would receive
    # priority. A ruling saying an ability that triggered during a spell's resolution waits
    # names no APNAP order and no choice of order: 603.3's, not 603.3b's.
    waiting = ["ability", "triggered_ability", "resolve", "stack", "priority"]
    assert [l.rule for l in link.rules_for(waiting)] == ["603.3"]
    # Choosing the order of several triggers, player by player, is 603.3b's.
    ordered = waiting + ["choose_order", "active_player", "nonactive_player"]
    assert "603.3b" in [l.rule for l in link.rules_for(ordered)]


def test_choosing_the_dungeon_is_the_keyword_action_s_start():
    # 701.49a's point, named by the player's choice alone ("you choose which dungeon as the
    # ability resolves"): no first room, no dungeon from outside the game, no "not in one".
    assert [l.rule for l in link.rules_for(["venture", "dungeon", "choose_dungeon"])] == [
        "309.2a",
        "701.49a",
    ]
    assert [l.rule for l in link.rules_for(["venture", "dungeon"])] == []
    # The card-side twin of the venture from the last room (309.5b, 701.49c) needs that room,
    # however much else of its description a start names.
    start = ["venture", "dungeon", "remove_from_game", "choose_dungeon", "first_room"]
    start += ["command_zone", "outside_game"]
    assert "309.5b" not in [l.rule for l in link.rules_for(start)]
    assert "309.5b" in [l.rule for l in link.rules_for(start + ["last_room"])]


def test_a_named_last_room_is_the_last_room(tmp_path):
    # A ruling naming a dungeon's bottommost room (the core's room graphs) for its ability on
    # the stack, completed by a venture, is about the venture from the last room (701.49c),
    # in words no language translates (room names are printed in English).
    texts = {
        "fr": "Si vous vous aventurez dans le donjon pendant que la capacité de Mad Wizard's Lair "
        "est sur la pile, vous terminez ce donjon avant qu'elle se résolve.",
        "de": "Wagst du dich in das Verlies vor, während die Fähigkeit von Mad Wizard's Lair auf "
        "dem Stapel liegt, schließt du dieses Verlies ab, bevor sie verrechnet wird.",
        "es": "Si te adentras en la mazmorra mientras la habilidad de Mad Wizard's Lair está en "
        "la pila, completas esa mazmorra antes de que se resuelva.",
    }
    (last,) = [f for f in links_of_one(tmp_path, texts) if f["rule"] == "701.49c"]
    assert last["evidence"]["concepts"]["last_room"]["de"] == "Mad Wizard's Lair"


def test_completing_a_dungeon_by_its_name_is_completing_a_dungeon(tmp_path):
    # hints.yaml's `implies` (309.7): a ruling that completes Tomb of Annihilation (the
    # glossary's "<dungeon>" forms) names a dungeon, though it never says "dungeon", and the
    # dungeon rules' family opens to it.
    table = link.evidence_table()
    assert table.imply({"complete_dungeon": 0.6}) == {"complete_dungeon": 0.6, "dungeon": 0.6}
    texts = {
        "it": "Se ti avventuri in Undercity mentre l'abilità di Cradle of the Death God è in "
        "pila, completi Tomb of Annihilation e poi inizi Undercity.",
        "fr": "Si vous vous aventurez dans Undercity pendant que la capacité de Cradle of the "
        "Death God est sur la pile, vous terminez Tomb of Annihilation, puis vous commencez "
        "Undercity.",
        "es": "Si te adentras en Undercity mientras la habilidad de Cradle of the Death God está "
        "en la pila, completas Tomb of Annihilation y luego empiezas Undercity.",
    }
    found = {f["rule"]: f for f in links_of_one(tmp_path, texts)}
    assert "701.49c" in found
    assert "dungeon" in found["701.49c"]["concepts"]


def test_a_marker_moving_to_a_room_named_is_the_keyword_action_s_step(tmp_path):
    # The glossary's "<later_room>" forms: a ruling that says where the marker goes by the
    # room's name, never "the next room", is about 701.49b's step.
    texts = {
        "ru": "Если ваш маркер путешествия находится на Lost Level, в следующий раз, когда вы "
        "отправитесь в подземелье, вы переместите его либо в Runestone Caverns, либо в "
        "Muiral's Graveyard.",
        "de": "Ist dein Vorstoßmarker auf Lost Level, bewegst du ihn, wenn du dich das nächste "
        "Mal in das Verlies vorwagst, entweder auf Runestone Caverns oder auf Muiral's Graveyard.",
        "es": "Si tu marcador de aventura está en Lost Level, la próxima vez que te adentres en "
        "la mazmorra, eliges si lo mueves a Runestone Caverns o a Muiral's Graveyard.",
    }
    found = {f["rule"]: f for f in links_of_one(tmp_path, texts)}
    assert "701.49b" in found
    # move_on counts as the next room (hints.yaml's `implies`); its words name the room.
    assert "Runestone Caverns" in found["701.49b"]["evidence"]["concepts"]["next_room"]["ru"]


def test_a_room_named_is_a_dungeon_s(tmp_path):
    # hints.yaml's `implies`: the last room, named by its name, is a dungeon's, so a ruling on
    # the state-based action that never says "dungeon" opens the dungeons' family.
    table = link.evidence_table()
    assert table.imply({"last_room": 0.8})["dungeon"] == 0.8
    removed = ["last_room", "leave_stack", "remove_from_game", "stack", "ability"]
    assert [l.rule for l in link.rules_for(removed)] == ["309.6", "704.5t"]
    texts = {
        "it": "Tomb of Annihilation non viene rimosso dalla partita finché l'abilità di Cradle "
        "of the Death God non ha lasciato la pila; viene rimosso subito dopo.",
        "fr": "Tomb of Annihilation n'est pas retiré de la partie tant que la capacité de Cradle "
        "of the Death God n'a pas quitté la pile ; il est retiré juste après.",
        "es": "Tomb of Annihilation no se quita de la partida mientras la habilidad de Cradle of "
        "the Death God no haya dejado la pila; se quita justo después.",
    }
    assert "309.6" in [f["rule"] for f in links_of_one(tmp_path, texts)]


def test_a_marker_moving_into_a_room_as_its_ability_s_event_is_no_venture():
    # hints.yaml: 701.49b and 309.5a need the venture, the arrows or the marker advancing; a
    # marker that moves into a room named, whose ability the ruling is about ("if you move
    # into Trap!, you control its ability"), is that ability's event (309.4c): the glossary
    # finds the room it goes to (next_room), not a step on (move_on).
    event = ["venture_marker", "next_room", "room_ability", "control", "target"]
    assert [l.rule for l in link.rules_for(event)] == ["309.4c"]
    refused = {f.rule: f for f in scoring.decide(event)}["701.49b"]
    assert refused.gate is not None and refused.gate["kind"] == "requires"
    # (tests/data/glossary/near_misses_dungeons.tsv: "move into Trap!" is no move_on.)
    # The marker advancing, whatever makes it ("the initiative's ability advances your
    # marker"), is the step: it opens their gates.
    advancing = ["initiative", "ability", "venture_marker", "move_on", "room", "dungeon"]
    assert [l.rule for l in link.rules_for(advancing)] == ["309.5a", "701.49b"]
    # The venture named beside it opens their gates, but they are covered only in passing
    # (under GLANCED) beside the ability the group restates, of their family: overshadowed.
    decided = {f.rule: f for f in scoring.decide([*event, "venture"])}
    assert decided["309.4c"].linked
    assert decided["701.49b"].kind == decided["309.5a"].kind == "overshadowed"
    # The step itself named (its arrow, one room forward) is the keyword action's point.
    for step in ("arrow", "one_step"):
        assert [l.rule for l in link.rules_for([*event, "venture", step])] == ["309.5a", "701.49b"]
    assert [l.rule for l in link.rules_for(["venture_marker", "next_room", "arrow"])] == [
        "309.5a",
        "701.49b",
    ]


def test_a_venture_into_undercity_moving_on_elsewhere_is_the_keyword_action_s():
    # hints.yaml: in a dungeon other than Undercity, a venture into Undercity moves the marker
    # on by 701.49b, which 701.49d names by number; the dungeon card's side of a plain
    # venture (309.5a) is not the ruling's.
    onward = ["dungeon", "move_on", "next_room", "room", "undercity", "venture_into_undercity"]
    assert [l.rule for l in link.rules_for(onward)] == ["701.49b", "701.49d"]
    plain = ["dungeon", "move_on", "next_room", "room", "venture"]
    assert [l.rule for l in link.rules_for(plain)] == ["309.5a", "701.49b"]


def test_undercity_named_among_the_dungeons_is_not_its_dungeon_type():
    # hints.yaml: 205.3p is the type a venture into Undercity looks for; a plain venture that
    # may choose any dungeon "other than Undercity" is about starting a dungeon.
    starting = ["undercity", "dungeon", "venture", "choose_dungeon", "not_in_dungeon"]
    starting += ["outside_game"]
    assert "205.3p" not in [l.rule for l in link.rules_for(starting)]
    for point in ("venture_into_undercity", "dungeon_type"):
        assert "205.3p" in [l.rule for l in link.rules_for([*starting, point])]


def test_the_marker_s_one_step_forward_is_the_keyword_action_s_step(tmp_path):
    # one_step (exactly one room, never back or sideways, no room skipped) is 701.49b's point
    # (its description says so), and opens its gate where the ruling never names the venture.
    texts = {
        "en": "A venture marker in Undercity never goes back up; it can't skip rooms either.",
        "it": "Un segnalino di avanzamento in Undercity non può saltare stanze né tornare "
        "indietro.",
        "fr": "En Undercity, un marqueur d'aventure ne peut pas sauter de salle ni revenir en "
        "arrière.",
        "es": "En Undercity, un marcador de aventura no puede saltarse salas ni ir hacia atrás.",
    }
    assert "701.49b" in [f["rule"] for f in links_of_one(tmp_path, texts)]
    # Without the step, the venture or an arrow, a marker moving on is a room ability's event.
    moving = ["dungeon", "room", "venture_marker", "move_on", "room_ability", "triggered_ability"]
    assert "701.49b" not in [l.rule for l in link.rules_for(moving)]
    assert "701.49b" in [l.rule for l in link.rules_for([*moving, "one_step"])]


def test_the_initiative_s_ability_named_only_as_what_moves_a_marker_is_no_trigger_of_726_2():
    # hints.yaml: 726.2 is the initiative's two triggers, the take and the venture into
    # Undercity each makes, and their source. A ruling naming "the initiative's ability" only
    # as what would bring Undercity in while another dungeon is there is about that dungeon.
    passing = ["initiative", "ability", "undercity", "dungeon", "command_zone", "only_one"]
    fates = {f.rule: f for f in scoring.decide(passing)}
    assert not fates["726.2"].linked and fates["726.2"].gate["kind"] == "requires"
    assert "309.3" in [l.rule for l in link.rules_for(passing)]
    for point in ("upkeep", "source", "venture_into_undercity"):
        assert "726.2" in [l.rule for l in link.rules_for([*passing, point])]


@pytest.mark.parametrize(
    ("rule", "title", "passing"),
    [("725.3", "monarch", "become_monarch"), ("726.3", "initiative", "take_initiative")],
)
def test_the_one_holder_rule_needs_the_designation_passing(rule, title, passing):
    # 725.3, 726.3: as a player becomes the monarch (takes the initiative), the holder ceases
    # to be. A card's ruling that says only that you lose it, or checks whether you have it,
    # is no ruling on the designation passing.
    stops = [title, "cease", "creature"]
    assert rule not in [l.rule for l in link.rules_for(stops)]
    assert rule in [l.rule for l in link.rules_for([*stops, passing])]
    assert rule not in [l.rule for l in link.rules_for([title, "again", "effect"])]
