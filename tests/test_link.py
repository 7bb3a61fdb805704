"""Links: ruling groups -> the rules they explain, from evidence derived from the rules'
descriptions; never a guess, never the monarch for the initiative."""

from __future__ import annotations

import doctest
import json
import shutil
from pathlib import Path

import pytest
import yaml
from link_corpus import build, write_rulings

import kb.link.evidence
import kb.link.reasons
import kb.link.scoring
import kb.link.stage
from kb import align, link
from kb.core import registry
from kb.errors import KbError
from kb.link import evidence, scoring
from kb.reference.glossary import load as load_glossary

ROOT = Path(__file__).parent.parent
EXAMPLES = yaml.safe_load(
    (Path(__file__).parent / "data" / "links" / "examples.yaml").read_text(encoding="utf-8")
)

#: What each seed ruling explains (position in the seed files -> current rule numbers): the
#: links the seed groups had before the linker derived its evidence from the rules
#: (benchmarks/links_corpus/seeds_gold.yaml), the first one naming the group.
EXPECTED = {
    1: ["726.5"],
    2: ["726.4"],
    3: ["701.49d"],
    4: ["701.49b", "701.49c", "701.49d"],
    5: ["726.2", "603.3b"],
    6: ["726.3"],
    7: ["701.49d"],
    8: ["726.1", "726.2"],
    9: ["726.1"],
    10: ["205.3p", "726.2"],
}


def write_examples(folder: Path, rulings: list[dict]) -> list[str]:
    """One ruling file per language holding ``rulings`` in order; their paths."""
    return write_rulings(folder, EXAMPLES, rulings, "examples")


@pytest.fixture(scope="module")
def seeds_db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("link")
    return build(folder, [str(p) for p in sorted((ROOT / "rulings").glob("*.txt"))])


@pytest.fixture(scope="module")
def examples_db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("examples")
    return build(folder, write_examples(folder, EXAMPLES["rulings"]))


@pytest.mark.parametrize(
    "module", [kb.link, kb.link.evidence, kb.link.scoring, kb.link.stage, kb.link.reasons]
)
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and (result.attempted or module is kb.link.stage)


def test_every_seed_group_keeps_its_links_and_its_id(seeds_db):
    db, unlinked = seeds_db
    assert unlinked == []
    for group in align.groups(db):
        position = group["members"][0]["position"]
        assert sorted(group["rules"]) == sorted(EXPECTED[position]), group["id"]
        assert group["rules"][0] == EXPECTED[position][0]
        assert group["id"].startswith(group["rules"][0] + "-")


def test_links_carry_the_number_then_the_score_and_each_language_s_words(seeds_db):
    db, _ = seeds_db
    (row,) = db["group_rules"].rows_where("rule = ?", ["726.4"])
    assert row["number_then"] == "721.4" and 0.9 < row["score"] <= 1
    found = json.loads(row["evidence"])
    assert set(found["concepts"]) >= {"initiative", "leave_game", "active_player"}
    assert found["concepts"]["leave_game"]["fr"] == "quitte la partie"
    assert found["concepts"]["leave_game"]["ru"] == "покидает игру"
    assert found["votes"]["leave_game"] == 1.0 and found["strength"] > 0
    assert [fk.other_table for fk in db["group_rules"].foreign_keys] == ["groups"]


def test_each_example_ruling_links_exactly_the_rules_it_explains(examples_db):
    db, _ = examples_db
    for group in align.groups(db):
        position = group["members"][0]["position"]
        assert len(group["members"]) == 5, group["id"]
        assert sorted(group["rules"]) == EXAMPLES["rulings"][position - 1]["rules"], position


def test_the_monarch_never_links_the_initiative_and_back(examples_db, seeds_db):
    """However alike their words, a group about one designation never gets the other's rules."""
    for db, _ in (examples_db, seeds_db):
        for group in align.groups(db):
            named = set(group["signature"])
            if "monarch" in named and "initiative" not in named:
                assert not [r for r in group["rules"] if r.startswith("726.")], group["id"]
            if "initiative" in named and "monarch" not in named:
                assert not [r for r in group["rules"] if r.startswith("725.")], group["id"]
    for holder, taking, rule in (
        ("monarch", "become_monarch", "725.4"),
        ("initiative", "take_initiative", "726.4"),
    ):
        signature = {holder, taking, "leave_game", "active_player", "turn_order", "simultaneously"}
        assert [l.rule for l in link.rules_for(signature)] == [rule]
        # Without the designation's rules the group is about something the core lacks.
        section = rule.split(".")[0] + "."
        assert (
            link.rules_for(
                signature, carried={r for r in registry.RULES if not r.startswith(section)}
            )
            == []
        )


def test_unlinked_groups_say_why(examples_db):
    db, lines = examples_db
    reasons = {g["id"]: g["reason"] for g in link.unlinked(db)}
    assert len(reasons) == 3 and len(lines) == 3
    assert all(f"link: {gid}: no rule ({reason})" in lines for gid, reason in reasons.items())
    # The emblem names the command zone and permanents, as dungeons do: not enough.
    assert any("closest: 309.2b, which names no concept of dungeons" in r for r in reasons.values())
    # Monstrous is a designation the core carries no rule of: the group is about it.
    about = [r for r in reasons.values() if r.startswith("about ")]
    assert about == ["about monstrous, which the core does not carry"]
    others = [r for r in reasons.values() if r not in about]
    assert len(others) == 2
    assert all("which is not enough for any carried rule" in r for r in others)


def test_a_designation_the_core_does_not_carry_is_linked_to_nothing(tmp_path):
    monarch = [r for r in EXAMPLES["rulings"] if r["rules"] and r["rules"][0].startswith("725.")]
    carried = {r for r in registry.RULES if not r.startswith("725.")}
    db, lines = build(tmp_path, write_examples(tmp_path, monarch), carried=carried)
    assert len(lines) == len(monarch) and "group_rules" in db.table_names()
    assert db["group_rules"].count == 0
    for line in lines:
        assert line.endswith("(about monarch (rule 725), which the core does not carry)")


def test_a_designation_with_no_carried_rule_keeps_a_group_from_every_rule():
    # The words of 309.7 and 701.49 in a ruling about the Ring: no link, and the reason.
    votes = {"ring_bearer": 1.0, "venture": 1.0, "dungeon": 1.0, "venture_marker": 1.0}
    votes["complete_dungeon"] = 1.0
    assert link.rules_for({k: v for k, v in votes.items() if k != "ring_bearer"})
    assert link.rules_for(votes) == []
    assert link.explain(votes)["designations"] == [["ring_bearer", None]]
    assert link.why_unlinked(votes) == "about ring_bearer, which the core does not carry"
    # Named by fewer than half of the group's languages, it is a word in passing.
    assert link.rules_for({**votes, "ring_bearer": 0.4}) != []


def test_reasons_name_what_no_rule_names():
    table = link.evidence_table({"726.4", "309.3"})
    assert link.why_unlinked({"team": 1.0}, table=table) == "no carried rule names team"
    assert link.why_unlinked({}, table=table) == "names no concept of the glossary"
    assert link.why_unlinked({"team": 0.4}, table=table) == "names no concept of the glossary"
    assert link.why_unlinked(["initiative"], carried=set()) == "the core carries no rule"
    assert "closest: 726.4, which needs leave_game (hint)" in link.why_unlinked(
        ["initiative", "take_initiative", "active_player", "simultaneously"], table=table
    )


def test_languages_vote_and_a_concept_few_languages_name_counts_little():
    signature = {"initiative": 1.0, "take_initiative": 1.0, "only_one": 1.0, "cease": 1.0}
    assert [l.rule for l in link.rules_for(signature)] == ["726.3"]
    # Only two of five translations say "only one" and "cease": not the group's words.
    assert link.rules_for(signature | {"only_one": 0.4, "cease": 0.4}) == []
    strong, weak = (link.rules_for(signature | {"cease": share})[0] for share in (1.0, 0.6))
    assert strong.score > weak.score and strong.strength > weak.strength


def test_every_rule_has_a_distinctive_concept_so_none_is_unreachable():
    table = link.evidence_table()
    assert all(table.distinctive(rule) for rule in table.rules)
    # 309.2b names only common concepts: its rarest one tells it, and it can be linked.
    assert table.distinctive("309.2b") == {"leave_game"}
    assert "309.2b" in [l.rule for l in link.rules_for(["dungeon", "command_zone", "leave_game"])]


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
    assert fates["309.2c"].gate == {"kind": "requires", "concepts": ["cast", "permanent"]}
    assert "603.3d" in [l.rule for l in link.rules_for([*chosen, "no_legal_target"])]


def test_a_holder_told_to_take_the_designation_again_is_not_its_first_holder():
    # 725.1 and 726.1: a game has no monarch (initiative) until an effect instructs a player;
    # the holder instructed again is 725.3's (it stays the monarch) and 726.5's.
    again = ["again", "instruct", "designation"]
    assert [l.rule for l in link.rules_for(["monarch", "become_monarch", *again])] == ["725.3"]
    assert [l.rule for l in link.rules_for(["monarch", "become_monarch", "instruct"])] == ["725.1"]
    found = ["initiative", "take_initiative", "only_one", *again]
    assert [l.rule for l in link.rules_for(found)] == ["726.5"]


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
    assert table.imply({"move_on": 1.0}) == {"move_on": 1.0, "next_room": 1.0}
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


def test_a_match_through_a_gap_shows_its_words_not_the_words_between(tmp_path):
    """German's sentence bracket puts a middle field between "ziehst" and "Karte": "why this
    rule" shows the pattern's words, and "…" where the gap was."""
    glossary = load_glossary()
    middle = "ziehst du zu Beginn deines nächsten Endsegments auch dann nur eine Karte"
    ((found,),) = [[m for m in glossary.find(middle, "de") if m.concept == "draw_card"]]
    assert found.surface == middle  # the match spans the bracket, as the checks need it
    assert glossary.shown("draw_card", "de", found.surface) == "ziehst … Karte"
    assert glossary.shown("draw_card", "de", "ziehst du eine Karte") == "ziehst du eine Karte"
    assert glossary.shown("monarch", "de", "der Monarch") == "der Monarch"
    data = {"cards": {"fr": "Carte", "de": "Karte", "es": "Carta"}, "date": "2025-01-10"}
    ruling = {
        "texts": {
            "fr": "Si vous êtes le monarque, vous piochez une carte au début de votre "
            "étape de fin.",
            "de": "Wenn du der Monarch bist, ziehst du zu Beginn deines Endsegments eine "
            "zusätzliche Karte.",
            "es": "Si eres el monarca, robas una carta al comienzo de tu paso final.",
        }
    }
    db, _ = build(tmp_path, write_rulings(tmp_path, data, [ruling], "draw"))
    ((group, links),) = link.links(db).items()
    words = {w for l in links for w in l["words"]["de"]}
    assert "ziehst … Karte" in words and not [w for w in words if "zu Beginn" in w]


def test_a_group_naming_a_rule_s_words_in_passing_is_linked_to_nothing():
    # A card's own end-step ability that mentions the monarch names 725.2's end step, but
    # covers under WEAKEST of what 725.2 names: no link, and the reason says so.
    passing = ["monarch", "end_step"]
    (only,) = scoring.candidates(scoring.votes_of(passing), link.evidence_table())
    assert only.rule == "725.2" and only.score < scoring.WEAKEST
    assert link.rules_for(passing) == []
    assert "725.2, which is named only in passing" in link.why_unlinked(passing)
    why = link.explain(passing)
    assert why["lacks"] == {"kind": "weak", "concepts": [], "score": 0.24, "least": 0.3}
    # With its draw, the group covers enough of 725.2 to be about it.
    assert [l.rule for l in link.rules_for([*passing, "draw_card"])] == ["725.2"]


def test_a_rule_named_by_one_word_of_its_own_gives_way_to_one_of_its_family_named_by_several():
    # Creatures dealing combat damage to the monarch, and "you draw only one card": 725.3's
    # only one (monarch) is named, but 725.2 is named by four of its own concepts.
    found = ["monarch", "become_monarch", "combat_damage", "creature", "draw_card", "end_step"]
    found += ["only_one", "control", "ability"]
    table = link.evidence_table()
    thin = {l.rule: l for l in scoring.candidates(scoring.votes_of(found), table)}
    assert thin["725.3"].distinctive == ("only_one",) and thin["725.3"].score >= scoring.WEAKEST
    assert [l.rule for l in link.rules_for(found)] == ["725.2"]
    # Another family's rule named by one word is not its to drop: the initiative's upkeep
    # trigger ordered among others is 726.2's and 603.3b's.
    found = ["initiative", "take_initiative", "upkeep", "combat_damage", "undercity"]
    found += ["venture_into_undercity", "choose_order", "triggered_ability", "stack"]
    linked = {l.rule: l for l in link.rules_for(found)}
    assert sorted(linked) == ["603.3b", "726.2"] and linked["603.3b"].distinctive == (
        "choose_order",
    )


def _without_reference(rule: str, reference: str) -> evidence.EvidenceTable:
    """The carried rules' evidence with ``reference`` (" (309.7)") cut from ``rule``'s
    description."""
    descriptions = evidence.read_descriptions()
    descriptions[rule] = descriptions[rule].replace(reference, "")
    plain = evidence.table_for(set(link.evidence_table().rules), descriptions)
    assert plain.rules[rule].refers == frozenset()
    return plain


def test_a_rule_keeps_a_thin_rule_its_description_refers_to():
    # 701.49d's description sends a venture into a dungeon already started to 701.49b: a
    # ruling on venturing into Undercity (brought from outside the game, or else on from a
    # room with an arrow onward) explains both.
    found = ["dungeon", "venture_into_undercity", "undercity", "room", "venture_marker"]
    found += ["next_room", "outside_game"]
    table = link.evidence_table()
    assert table.rules["701.49d"].refers == {"701.49b", "701.49c"}
    # (Both restate or touch by their scores: the order is not the point.)
    assert sorted(l.rule for l in link.rules_for(found)) == ["701.49b", "701.49d"]
    # Without the reference, 701.49b (named by next_room alone) gives way to 701.49d.
    plain = _without_reference("701.49d", " (701.49b, 701.49c)")
    assert [l.rule for l in link.rules_for(found, table=plain)] == ["701.49d"]


def test_a_restated_rule_keeps_the_rule_its_description_refers_to_beside_it():
    # 701.49c refers completing the dungeon to 309.7, as the CR does ("see rule 309.7"): a
    # group restating the venture from the last room that says the dungeon is completed
    # explains 309.7 as well, though 701.49c names all 309.7 names.
    found = ["dungeon", "venture", "venture_marker", "last_room", "room", "complete_dungeon"]
    found += ["remove_from_game", "first_room", "start_dungeon", "outside_game", "command_zone"]
    table = link.evidence_table()
    assert "309.7" in table.rules["701.49c"].refers
    assert [l.rule for l in link.rules_for(found)] == ["309.7", "701.49c"]
    # Without the reference, 701.49c takes 309.7's place.
    fates = {
        f.rule: f for f in scoring.decide(found, table=_without_reference("701.49c", " (309.7)"))
    }
    assert (fates["309.7"].kind, fates["309.7"].by) == ("dominated", "701.49c")
    # A group that only touches 701.49c (covers under half of it) does not keep 309.7 by it.
    touched = ["dungeon", "venture", "last_room", "room", "complete_dungeon", "start_dungeon"]
    touched += ["instruct", "undercity", "venture_into_undercity", "next_room"]
    assert "309.7" not in [l.rule for l in link.rules_for(touched)]


def test_a_rule_restated_wholly_is_not_set_aside_for_one_only_touched():
    # When is a dungeon completed? When its card is removed from the game, whether by a
    # venture from its last room or by the state-based action. The group names all 309.7
    # names; 701.49c names it all and more, but the group covers under half of 701.49c.
    completing = ["complete_dungeon", "dungeon", "remove_from_game", "venture", "last_room"]
    completing += ["room", "room_ability", "ability", "stack"]
    fates = {f.rule: f for f in scoring.decide(completing)}
    assert fates["309.7"].link.whole and not fates["701.49c"].link.restates
    assert fates["309.7"].linked and fates["701.49c"].linked
    # Completing named by one language only, the group no longer says all 309.7 says: a
    # rule naming all the group names of 309.7 and more takes its place.
    stray = {c: 1.0 for c in completing} | {"complete_dungeon": 1 / 6}
    fates = {f.rule: f for f in scoring.decide(stray)}
    assert not fates["309.7"].linked and fates["309.7"].kind == "dominated"


def test_undercity_s_dungeon_type_keeps_the_venture_into_undercity_it_names():
    # 205.3p's description says what Undercity's dungeon type is for, naming 701.49d: a group
    # on a venture into Undercity that must start Undercity explains both, though 205.3p's
    # concepts hold all 701.49d's the group names.
    found = ["dungeon", "venture_into_undercity", "undercity", "dungeon_type", "instruct"]
    found += ["start_dungeon"]
    table = link.evidence_table()
    assert table.rules["205.3p"].refers == {"701.49d"}
    assert [l.rule for l in link.rules_for(found)] == ["205.3p", "701.49d"]
    fates = {
        f.rule: f for f in scoring.decide(found, table=_without_reference("205.3p", " (701.49d)"))
    }
    assert (fates["701.49d"].kind, fates["701.49d"].by) == ("dominated", "205.3p")


def test_a_ruling_on_the_dungeon_a_player_starts_explains_the_keyword_action_too():
    # Starting a dungeon from outside the game is 309.2a from the card's side and 701.49a from
    # the keyword action's, whether or not the ruling says "venture" (the hint's `when`).
    found = ["dungeon", "start_dungeon", "outside_game"]
    assert [l.rule for l in link.rules_for(found)] == ["309.2a", "701.49a"]
    # Without a start or a venture, a dungeon outside the game is no keyword action.
    assert "701.49a" not in [l.rule for l in link.rules_for(["dungeon", "outside_game", "deck"])]


def test_of_rules_naming_the_same_the_one_lacking_least_wins():
    # Starting a dungeon and its first room: 701.49a, not 309.5b or 701.49c (which also
    # start one, after removing the last one from the game).
    found = ["dungeon", "start_dungeon", "first_room", "room", "venture_marker", "venture"]
    assert [l.rule for l in link.rules_for(found)] == ["701.49a"]
    # The first room is one of the ways its hint names 701.49a's point: a group naming it does
    # not lack the others (the dungeon from outside the game, not being in a dungeon), while
    # 309.5b lacks its removal from the game.
    table = link.evidence_table()
    assert {"first_room", "outside_game", "not_in_dungeon"} in table.hints["701.49a"].requires
    assert scoring.link_to("701.49a", scoring.votes_of(found), table).lacking == 0
    assert scoring.link_to("309.5b", scoring.votes_of(found), table).lacking > 0
    # A group naming none of them lacks them all (and its gate refuses it).
    assert scoring.link_to("701.49a", scoring.votes_of(["dungeon", "venture"]), table).lacking > 0


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
    assert [l.rule for l in link.rules_for(moving + triggering)] == ["309.5a", "701.49b"]
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
    # starts one: completing (309.7) and starting (701.49a), not the venture from the last
    # room (701.49c), which the group never names.
    after = ["complete_dungeon", "dungeon", "venture", "again", "not_in_dungeon", "first_room"]
    assert [l.rule for l in link.rules_for(after)] == ["309.7", "701.49a"]
    assert "701.49c" in [l.rule for l in link.rules_for(after + ["last_room"])]


def test_the_order_of_choices_brings_in_the_order_of_triggered_abilities_that_follows_it():
    # Each player ventures: the active player chooses first, then the others in turn order,
    # and the markers move at once (101.4). The room abilities then go on the stack in that
    # same order, which is 603.3b's (hints.yaml: 101.4's `also`, when triggered abilities).
    choosing = ["venture", "dungeon", "active_player", "turn_order", "simultaneously"]
    assert [l.rule for l in link.rules_for(choosing)] == ["101.4"]
    triggering = ["room_ability", "triggered_ability", "ability", "stack", "resolve"]
    fates = {f.rule: f for f in scoring.decide(choosing + triggering)}
    assert (fates["603.3b"].kind, fates["603.3b"].by) == ("restated", "101.4")
    assert fates["101.4"].linked


def test_a_rule_explaining_more_drops_one_explaining_less_even_unlinked():
    # 800.4a names leaving the game with one's dungeon, the stack and abilities; 309.2b only
    # the dungeon leaving the game. 800.4a has nothing distinctive here, 309.2b gives way.
    found = ["leave_game", "dungeon", "stack", "ability"]
    assert "309.2b" not in [l.rule for l in link.rules_for(found)]
    assert "309.2b" in [l.rule for l in link.rules_for(["leave_game", "dungeon"])]


def test_a_card_rule_brings_in_the_keyword_action_saying_the_same_when_the_group_ventures():
    # 309.5a (the dungeon card's side) and 701.49b (the keyword action) state one step; the
    # hint's `also` links the action's rule too, but only for a group that ventures.
    moving = ["dungeon", "arrow", "command_zone", "room", "venture_marker"]
    assert [l.rule for l in link.rules_for(moving + ["venture"])] == ["309.5a", "701.49b"]
    assert [l.rule for l in link.rules_for(moving)] == ["309.5a"]
    table = evidence.evidence_table()
    plain = evidence.EvidenceTable(
        table.rules,
        table.weight,
        table.families,
        {r: h for r, h in table.hints.items() if not h.also},
        table.contrasts,
        table.sections,
    )
    assert [l.rule for l in link.rules_for(moving + ["venture"], table=plain)] == ["309.5a"]
    # 701.49d refers a venture into Undercity from a dungeon's last room to 701.49c.
    into = ["dungeon", "venture_into_undercity", "undercity", "room", "venture_marker"]
    assert [l.rule for l in link.rules_for(into + ["last_room"])] == ["701.49c", "701.49d"]
    assert [l.rule for l in link.rules_for(into + ["first_room"])] == ["701.49d"]


def test_most_specific_first_restated_rules_before_touched_ones():
    links = link.rules_for(
        {
            "initiative",
            "take_initiative",
            "combat_damage",
            "team",
            "triggered_ability",
            "ability",
            "choose_order",
            "venture_into_undercity",
            "undercity",
            "two_headed_giant",
        }
    )
    assert [(l.rule, l.restates) for l in links] == [("726.2", True), ("603.3b", False)]


def test_every_carried_rule_has_a_description_naming_concepts():
    descriptions = evidence.read_descriptions()
    assert set(descriptions) == set(registry.RULES)
    table = link.evidence_table()
    assert all(table.rules[r].concepts for r in registry.RULES)
    assert {r for r in registry.RULES if table.family_of(r) is None} == set()
    assert set(table.hints) <= set(registry.RULES)


def test_a_carried_rule_without_description_is_a_clear_error():
    with pytest.raises(KbError, match="rule 999.1 is carried by the core but has no description"):
        evidence.table_for({"726.4", "999.1"})


def test_hints_naming_an_unknown_concept_are_a_clear_error(tmp_path):
    bad = tmp_path / "hints.yaml"
    bad.write_text('rules:\n  "726.3":\n    requires: [initiativ]\n', encoding="utf-8")
    with pytest.raises(KbError, match="rule 726.3: unknown concept 'initiativ'"):
        evidence.read_hints(bad)
    bad.write_text("general: [efect]\n", encoding="utf-8")
    with pytest.raises(KbError, match="general: unknown concept 'efect'"):
        evidence.read_hints(bad)


def test_a_general_word_never_tells_one_rule_from_another():
    # Five carried rules name an effect (725.1's effect that instructs, 800.4a's effects that
    # end), few enough to be distinctive; but rulings of every kind name effects. A ruling on
    # a dungeon card, which effects that destroy permanents can't touch and which leaves the
    # command zone only by leaving the game, is 309.2c's, not 800.4a's (a player leaving).
    table = link.evidence_table()
    assert "effect" in table.general and table.named_by("effect") <= evidence.FEW
    assert "effect" not in table.distinctive("800.4a") | table.distinctive("725.1")
    found = ["dungeon", "permanent", "cast", "command_zone", "leave_game", "effect"]
    assert [l.rule for l in link.rules_for(found)] == ["309.2c"]
    # Without the list, the effect alone makes 800.4a a candidate, linked beside 309.2c.
    families, hints, implies, _ = evidence.read_hints()
    plain = evidence.build_table(
        {n: table.rules[n].description for n in table.rules},
        families=families,
        hints=hints,
        implies=implies,
    )
    assert "effect" in plain.distinctive("800.4a")
    assert [l.rule for l in link.rules_for(found, table=plain)] == ["309.2c", "800.4a"]


def test_adding_a_rule_is_its_registry_entry_and_its_description(tmp_path, monkeypatch):
    """docs/development.md, "How to add a rule": a registry with one more rule and its
    description, and the linker picks up a ruling that explains it; nothing else changes."""
    new = EXAMPLES["new_rule"]
    paths = write_examples(tmp_path, [new])
    db, _ = build(tmp_path, paths)
    (group,) = align.groups(db)
    assert new["number"] not in group["rules"]

    descriptions = tmp_path / "descriptions.yaml"
    shutil.copyfile(evidence.DESCRIPTIONS_FILE, descriptions)
    with open(descriptions, "a", encoding="utf-8") as handle:
        handle.write(f'  "{new["number"]}": >-\n    {new["description"]}\n')
    monkeypatch.setattr(evidence, "DESCRIPTIONS_FILE", descriptions)
    monkeypatch.setitem(
        registry.RULES,
        new["number"],
        registry.Rule(
            new["number"],
            ((registry.TRACKED_SINCE, new["number"]),),
            new["title"],
            new["description"],
            "kb.core.leaving.leave",
        ),
    )
    link.link_groups(db)
    (group,) = align.groups(db)
    assert group["rules"] == [new["number"]]
    (row,) = db["group_rules"].rows
    assert row["number_then"] == new["number"]
    assert set(json.loads(row["evidence"])["concepts"]) >= {"combat_damage", "leave_game"}


def test_export_json_says_why_each_rule_and_why_none(examples_db):
    from kb.export import json as json_export

    db, _ = examples_db
    groups = json.loads(json_export.to_json(db))["groups"]
    linked = {g["rules"][0]: g for g in groups if g["rules"]}
    (leaves,) = linked["725.4"]["links"]
    assert leaves["rule"] == "725.4" and leaves["number_then"] == "722.4"  # on 2024-02-09
    assert 0.5 < leaves["score"] <= 1 and "leave_game" in leaves["concepts"]
    assert "quitte la partie" in leaves["words"]["fr"] and "покидает игру" in leaves["words"]["ru"]
    assert all(g["unlinked"] is None for g in linked.values())
    reasons = [g["unlinked"] for g in groups if not g["rules"]]
    assert len(reasons) == 3 and all(reasons)


def test_search_hits_and_kb_links_say_why(seeds_db, tmp_path):
    from click.testing import CliRunner

    from kb.cli import cli
    from kb.search.results import Hit, with_links

    db, _ = seeds_db
    path = Path(db.conn.execute("PRAGMA database_list").fetchone()[2])
    hit = Hit(group="726.4-f90a33", lang="fr", card="Chasseur vengeur", text="...", score=1.0)
    (found,) = with_links([hit], path.parent / "index")[0].as_dict()["links"]
    assert found["rule"] == "726.4" and found["words"]["de"][0] == "aktive Spieler"
    lone = Hit(group="726.4-f90a33", lang="fr", card="Chasseur vengeur", text="...", score=1.0)
    assert with_links([lone], tmp_path / "index")[0].links == []  # no store beside the index

    out = CliRunner().invoke(cli, ["links", "--db", str(path), "--format", "json"])
    rows = json.loads(out.output)
    assert [row["group"] for row in rows] == sorted(row["group"] for row in rows)
    assert {found["rule"] for row in rows for found in row["links"]} >= {"726.4", "603.3b"}
    text = CliRunner().invoke(cli, ["links", "--db", str(path)]).output
    assert "726.4-f90a33  726.4  1.00  active_player, initiative, leave_game" in text
    assert (
        CliRunner().invoke(cli, ["links", "--unlinked", "--db", str(path)]).output
        == "no unlinked groups\n"
    )


def test_kb_links_unlinked_lists_the_reasons(examples_db):
    from click.testing import CliRunner

    from kb.cli import cli

    db, lines = examples_db
    path = db.conn.execute("PRAGMA database_list").fetchone()[2]
    rows = json.loads(
        CliRunner().invoke(cli, ["links", "--unlinked", "--format", "json", "--db", path]).output
    )
    assert [f"link: {r['group']}: no rule ({r['reason']})" for r in rows] == sorted(lines)
    assert all(r["concepts"] for r in rows)


def test_the_site_says_why_in_the_reader_s_language(examples_db, tmp_path):
    """The ruling page's "why this rule", a rule with no number yet on the rulings' date
    (725.5 on 2024-02-09), and the maintainers' page of unlinked groups, in French."""
    from kb.site import data, pages
    from kb.site.paths import slug

    db, _ = examples_db
    site = data.load(db)
    by_rule = {g["rules"][0]: g["id"] for g in site.groups if g["rules"]}
    keys = {f"ruling/{slug(by_rule[r])}.html" for r in ("725.4", "725.5")} | {"unlinked.html"}
    pages.render_tree(site, "fr", tmp_path, site.summary.counts, only=keys)
    leaves = (tmp_path / "fr" / f"ruling/{slug(by_rule['725.4'])}.html").read_text("utf-8")
    assert "Pourquoi cette règle" in leaves and "numérotée 722.4 le 9 février 2024" in leaves
    assert "quitter la partie" in leaves  # the concept, by its French term
    assert '<span lang="de">' in leaves and "Spiel verlässt" in leaves  # the German words
    static = (tmp_path / "fr" / f"ruling/{slug(by_rule['725.5'])}.html").read_text("utf-8")
    assert "pas encore de numéro le 9 février 2024" in static and "725.5" in static
    unlinked = (tmp_path / "fr" / "unlinked.html").read_text("utf-8")
    assert "Précisions sans règle liée" in unlinked and unlinked.count('class="reason"') == 3
    assert "La règle la plus proche, <a href" in unlinked and "Monstrueux est une" in unlinked


def test_the_site_says_a_group_names_a_rule_only_in_passing(tmp_path):
    """A ruling about a card's own end-step ability that names the monarch in passing: no
    link, and the maintainers' page says why in the reader's language."""
    from kb.site import data, pages

    texts = {
        "fr": "Au début de votre étape de fin, que quelqu'un soit le monarque ou non, la "
        "Sentinelle gagne +1/+1 jusqu'à la fin du tour.",
        "de": "Zu Beginn deines Endsegments erhält die Wache +1/+1 bis zum Ende des Zuges, "
        "egal ob jemand der Monarch ist oder nicht.",
        "ru": "В начале вашего заключительного шага Страж получает +1/+1 до конца хода, "
        "независимо от того, есть ли монарх.",
    }
    data_ = {"cards": {"fr": "Sentinelle", "de": "Wache", "ru": "Страж"}, "date": "2025-01-10"}
    db, _ = build(tmp_path, write_rulings(tmp_path, data_, [{"texts": texts}], "passing"))
    (reason,) = link.unlinked(db)
    assert "725.2, which is named only in passing" in reason["reason"]
    site = data.load(db)
    pages.render_tree(site, "fr", tmp_path / "site", site.summary.counts, only={"unlinked.html"})
    unlinked = (tmp_path / "site" / "fr" / "unlinked.html").read_text("utf-8")
    assert "n’est nommée qu’en passant" in unlinked and "0,3" in unlinked


@pytest.fixture(scope="module")
def copies_db(tmp_path_factory):
    """The seeds with each file's rulings printed on two more cards, the first copies (by
    id, the first of all) with other surfaces of a concept."""
    folder = tmp_path_factory.mktemp("copies")
    seeds = sorted((ROOT / "rulings").glob("*.txt"))
    paths = [str(p) for p in seeds]
    for seed in seeds:
        name, rest = seed.read_text(encoding="utf-8").split("\n", 1)
        for k, tail in ((2, rest.replace("initiative", "Initiative")), (3, rest)):
            copy = folder / f"{seed.stem}-{k}.txt"
            copy.write_text(f"{name} {k}\n{tail}", encoding="utf-8")
            paths.append(str(copy))
    return build(folder, paths)[0]


def test_evidence_surfaces_are_each_languages_first_ruling_s(copies_db):
    """The surfaces read per text are those of the first ruling (by id) of each language,
    first occurrence, as reading every ruling's concept rows gives (shown as the glossary
    shows a match); votes are those of the rulings' languages."""
    shown = load_glossary().shown
    every: dict = {}
    for group_id, concept, lang, surface in copies_db.execute(
        "SELECT m.group_id, rc.concept, r.lang, rc.surface FROM ruling_concepts rc JOIN "
        "memberships m ON m.ruling_id = rc.ruling_id JOIN rulings r ON r.id = rc.ruling_id "
        "ORDER BY m.group_id, r.lang, r.id, rc.start"
    ):
        every.setdefault(group_id, {}).setdefault(concept, {}).setdefault(
            lang, shown(concept, lang, surface)
        )
    sizes = [n for (n,) in copies_db.execute("SELECT COUNT(*) FROM memberships GROUP BY group_id")]
    assert max(sizes) >= 15  # copies share groups
    rows = list(copies_db.query("SELECT * FROM group_rules"))
    assert rows
    votes = link.group_votes(copies_db)
    for row in rows:
        found = json.loads(row["evidence"])
        assert found["concepts"] == {
            c: every[row["group_id"]].get(c, {}) for c in found["concepts"]
        }
        assert found["votes"] == {c: votes[row["group_id"]][c] for c in found["concepts"]}
    # Relinking some groups writes the same rows.
    ids = sorted({row["group_id"] for row in rows})[:3]
    link.link_groups(copies_db, ids=ids)
    assert sorted(map(repr, copies_db.query("SELECT * FROM group_rules"))) == sorted(
        map(repr, rows)
    )


def test_a_dungeon_that_no_effect_can_exile_is_not_a_player_leaving_the_game():
    # 309.2c: a dungeon card leaves the command zone only as it leaves the game, so no effect
    # exiles it. A ruling saying so names exile and leaving the game, as 800.4a does (a player
    # who leaves takes their objects along; what they control is exiled), but it is 309.2c's.
    found = ["dungeon", "permanent", "cast", "command_zone", "leave_game", "exile", "ability"]
    fates = {f.rule: f for f in scoring.decide(found)}
    assert fates["309.2c"].linked and "exile" in fates["309.2c"].link.concepts
    assert not fates["800.4a"].linked and fates["800.4a"].by == "309.2c"
    # A player who leaves the game with their dungeon is still 800.4a's.
    leaving = ["dungeon", "command_zone", "leave_game", "room_ability", "stack", "ability"]
    leaving += ["triggered_ability", "cease_to_exist"]
    assert "800.4a" in [l.rule for l in link.rules_for(leaving)]


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
