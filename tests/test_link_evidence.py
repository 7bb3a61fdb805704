"""The linker's evidence: every carried rule's description names concepts, hints name known
ones, the languages vote, a general word tells no rule from another, and adding a rule is its
registry entry and its description."""

from __future__ import annotations

import dataclasses
import doctest
import json
import shutil

import pytest
from link_corpus import build, write_rulings
from link_examples import EXAMPLES, write_examples

import kb.link.evidence
import kb.link.reasons
import kb.link.scoring
import kb.link.stage
from kb import align, link
from kb.core import registry
from kb.errors import KbError
from kb.link import evidence
from kb.link.gates import gate
from kb.reference.glossary import load as load_glossary


@pytest.mark.parametrize(
    "module", [kb.link, kb.link.evidence, kb.link.scoring, kb.link.stage, kb.link.reasons]
)
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and (result.attempted or module is kb.link.stage)


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


def test_players_choosing_in_turn_order_is_apnap_order_without_the_active_player_named():
    # A card's ruling: "each opponent decides in turn order ..., then creatures are sacrificed
    # simultaneously". 101.4 names the nonactive players' turn order; hints.yaml's family topic
    # takes it as naming the rule, as it takes the active player.
    found = ["creature", "simultaneously", "turn_order"]
    assert [l.rule for l in link.rules_for(found)] == ["101.4"]
    # Turn order beside a designation passing is that rule's (725.4), not the order of choices.
    assert "101.4" not in [l.rule for l in link.rules_for(["monarch", "leave_game", *found])]


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


def test_a_data_file_that_is_not_yaml_names_its_file_and_line(tmp_path):
    # The rules' descriptions and hints, the glossary: what a maintainer edits to add a rule.
    bad = tmp_path / "hints.yaml"
    bad.write_text(
        'rules:\n  "726.3":\n    requires: [initiative\n  "726.4": {}\n', encoding="utf-8"
    )
    with pytest.raises(KbError, match=r"hints.yaml:4: not valid YAML: did not find expected"):
        evidence.read_hints(bad)
    with pytest.raises(KbError, match=r"hints.yaml:4: not valid YAML"):
        evidence.read_descriptions(bad)
    with pytest.raises(KbError, match=r"hints.yaml:4: not valid YAML"):
        load_glossary(bad)
    bad.write_bytes(b"rules:\n  caf\xe9: x\n")
    with pytest.raises(KbError) as found:
        evidence.read_descriptions(bad)
    assert found.value.lines() == [f"{bad}: not UTF-8 text"]


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


def test_a_kind_of_a_family_topic_opens_its_gate_and_adds_no_evidence():
    """A room ability is a triggered ability (309.4c): a ruling on one that has no legal target
    is 603.3d's, though it never says "triggered ability"; naming the kind weighs nothing for
    the rules that name the topic (``implies`` would draw 309.6 to a venture from the last room)."""
    found = {"room_ability", "no_legal_target", "target", "stack"}
    fates = {fate.rule: fate for fate in kb.link.scoring.decide(sorted(found))}
    assert fates["603.3d"].linked
    assert "triggered_ability" not in fates["603.3d"].link.concepts
    table = link.evidence_table()
    plain = dataclasses.replace(
        table,
        families=tuple(dataclasses.replace(f, kinds=frozenset()) for f in table.families),
    )
    assert gate("603.3d", found, plain) == {
        "kind": "family",
        "concepts": ["triggered_ability"],
        "family": "triggered abilities",
    }
    assert gate("603.3d", found, table) is None


def test_control_alone_is_not_a_trigger_kept_off_the_stack():
    """800.4d is a triggered ability a departed player would control, not put on the stack: a
    ruling in which the new monarch gains control of a creature as the old one leaves is
    725.4's alone (an official ruling of Fealty to the Realm)."""
    leaving = ["monarch", "become_monarch", "leave_game", "active_player", "turn_order"]
    assert [l.rule for l in link.rules_for(leaving + ["control"])] == ["725.4"]
    trigger = ["initiative", "take_initiative", "leave_game", "control", "triggered_ability"]
    assert "800.4d" in [l.rule for l in link.rules_for(trigger + ["stack", "lose_game"])]


def test_an_exclusion_yields_where_the_group_names_the_rules_own_steps():
    """A plain venture set against a venture into Undercity is Undercity's dungeon type's
    (205.3p): 701.49d is excluded. A ruling that also walks through the venture into
    Undercity's own steps (Undercity into the command zone, the marker on its topmost room) is
    701.49d's as well: the hint's ``unless`` lifts the exclusion."""
    plain = ["venture_into_undercity", "venture", "undercity", "not_in_dungeon", "dungeon"]
    plain += ["start_dungeon", "dungeon_type"]
    steps = plain + ["command_zone", "first_room", "venture_marker"]
    table = link.evidence_table()
    assert [l.rule for l in link.rules_for(plain)] == ["205.3p"]
    lifting = ["command_zone", "first_room", "venture_marker"]
    excluded = {"kind": "excludes", "concepts": ["venture"], "unless": lifting}
    assert gate("701.49d", set(plain), table) == excluded
    assert [l.rule for l in link.rules_for(steps)] == ["205.3p", "701.49d"]
    hints = dict(table.hints)
    hints["701.49d"] = dataclasses.replace(hints["701.49d"], unless=frozenset())
    strict = dataclasses.replace(table, hints=hints)
    assert gate("701.49d", set(steps), strict) == {"kind": "excludes", "concepts": ["venture"]}
