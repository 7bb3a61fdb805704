"""Groups linked to nothing, and why: a designation the core carries no rule of, a rule's
words named only in passing, concepts no carried rule names; the site says it in the reader's
language."""

from __future__ import annotations

import dataclasses

from link_corpus import build, write_rulings
from link_examples import EXAMPLES, write_examples

from kb import link
from kb.core import registry
from kb.link import scoring


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
    votes |= {"complete_dungeon": 1.0, "remove_from_game": 1.0}
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


#: A ruling on the monarch's two triggers under a card, once leading with the card and once
#: opening with a situation ("If the Sentinel is on the battlefield, ...").
MONARCH_TRIGGERS = {
    "fr": "au début de l’étape de fin du monarque, celui-ci pioche une carte, et à chaque fois "
    "qu’une créature inflige des blessures de combat au monarque, son contrôleur devient le "
    "monarque.",
    "de": "Zu Beginn des Endsegments des Monarchen zieht dieser eine Karte, und immer wenn eine "
    "Kreatur dem Monarchen Kampfschaden zufügt, wird ihr Beherrscher der Monarch.",
    "ru": "в начале заключительного шага монарха тот берет карту, и каждый раз, когда существо "
    "наносит монарху боевые повреждения, контролирующий его игрок становится монархом.",
}
LEADING = {
    "fr": "La Sentinelle ne change rien au monarque : ",
    "de": "Die Wache ändert nichts am Monarchen: ",
    "ru": "Страж ничего не меняет для монарха: ",
}
SITUATION = {
    "fr": "Si la Sentinelle est sur le champ de bataille, rien ne change pour le monarque : ",
    "de": "Falls die Wache im Spiel ist, ändert sich nichts für den Monarchen: ",
    "ru": "Если Страж находится на поле битвы, для монарха ничего не меняется: ",
}


def test_a_ruling_leading_with_its_card_is_about_the_card_and_the_site_says_so(tmp_path):
    from kb.site import data, pages

    cards = {"cards": {"fr": "Sentinelle", "de": "Wache", "ru": "Страж"}, "date": "2025-01-10"}
    for name, opening in (("situation", SITUATION), ("leading", LEADING)):
        folder = tmp_path / name
        folder.mkdir()
        texts = {lang: opening[lang] + MONARCH_TRIGGERS[lang] for lang in opening}
        db, lines = build(folder, write_rulings(folder, cards, [{"texts": texts}], name))
        linked = [found["rule"] for found in next(iter(link.links(db).values()), [])]
        assert linked == ([] if name == "leading" else ["725.2"])
    (reason,) = link.unlinked(db)
    assert reason["why"] == {"kind": "own_card"} and reason["concepts"]["own_card"] == 1.0
    # The group's id names what its links say: no rule (the signature alone names 725.2).
    assert reason["id"].startswith("unlinked-")
    assert lines == [
        f"link: {reason['id']}: no rule (about its card's own effect: its texts lead "
        "with the card's name)"
    ]
    site = data.load(db)
    pages.render_tree(site, "de", tmp_path / "site", site.summary.counts, only={"unlinked.html"})
    unlinked = (tmp_path / "site" / "de" / "unlinked.html").read_text("utf-8")
    assert "Betrifft die eigene Wirkung der Karte" in unlinked


def test_a_group_mostly_leading_with_its_card_gets_no_rule():
    votes = {"monarch": 1.0, "become_monarch": 1.0, "combat_damage": 1.0, "creature": 1.0}
    assert [l.rule for l in link.rules_for({**votes, "own_card": 0.4})] == ["725.2"]
    assert link.rules_for({**votes, "own_card": 0.6}) == []
    fates = scoring.decide({**votes, "own_card": 0.6})
    assert fates and {f.kind for f in fates} == {"own_card"}


def test_the_site_says_what_would_lift_a_rule_s_exclusion(tmp_path):
    """A plain venture beside a venture into Undercity, with 701.49d the only rule carried:
    its hint excludes the plain venture unless the group walks through its own steps. The
    reason names the exclusion and what would lift it, in English and on the maintainers'
    page in the reader's language."""
    from kb.site import data, pages

    texts = {
        "fr": "S'aventurer dans le donjon sans que Undercity soit nommé ne mène jamais dans "
        "Undercity : seul s'aventurer dans Undercity y mène.",
        "de": "Sich in das Verlies vorzuwagen, ohne dass Undercity genannt ist, führt nie nach "
        "Undercity: Das tut nur, sich in Undercity vorzuwagen.",
        "ru": "Отправиться в подземелье, не названное Undercity, никогда не значит попасть в "
        "Undercity: туда ведет только путешествие в Undercity.",
    }
    data_ = {"cards": {"fr": "Torche", "de": "Fackel", "ru": "Факел"}, "date": "2025-01-10"}
    paths = write_rulings(tmp_path, data_, [{"texts": texts}], "excluded")
    db, (line,) = build(tmp_path, paths, carried={"701.49d"})
    assert "closest: 701.49d, which excludes venture unless it names " in line
    # The site reads the reasons under every carried rule; this build carried one.
    only = link.evidence_table({"701.49d"})
    (reason,) = link.unlinked(db, table=only)
    assert reason["why"]["lacks"]["unless"] == ["command_zone", "first_room", "venture_marker"]
    site = data.load(db)
    site = dataclasses.replace(site, unlinked=[{**u, "why": reason["why"]} for u in site.unlinked])
    pages.render_tree(site, "de", tmp_path / "site", site.summary.counts, only={"unlinked.html"})
    unlinked = (tmp_path / "site" / "de" / "unlinked.html").read_text("utf-8")
    assert "es sei denn, die Gruppe nennt auch einen dieser Begriffe" in unlinked
    assert "Kommandozone, erster Raum, Vorstoßmarker" in unlinked.split("es sei denn")[1]
