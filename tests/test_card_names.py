"""A card's own name in its rulings is not evidence (kb/reference/names.py): where it is found,
and what the linker and an incremental build make of a ruling that names its card."""

from __future__ import annotations

import sqlite3

from link_corpus import build, write_rulings
from test_incremental import copied_then_edited, project  # noqa: F401 (a fixture)

from kb import align
from kb.checks.findings import Corpus, Group, Member
from kb.checks.run import check_corpus
from kb.reference import names
from kb.reference.glossary import load as load_glossary


def found(text: str, card: str) -> list[str]:
    return [text[a:b] for a, b in names.spans(text, card)]


def test_the_name_is_found_whole_short_halved_and_inflected():
    assert found("Unless something untaps Dungeon Map, you", "Dungeon Map") == ["Dungeon Map"]
    assert found("Nadaar's ability and Nadaar", "Nadaar, Selfless Paladin") == ["Nadaar", "Nadaar"]
    assert found("Locker Room's door", "Bottomless Pool // Locker Room") == ["Locker Room"]
    assert found("Если что-либо развернет Карту подземелья", "Карта подземелья") == [
        "Карту подземелья"
    ]
    assert found("die Fähigkeit des Verliesgeists", "Verliesgeist") == ["Verliesgeists"]


def test_other_words_and_a_dungeons_own_name_are_not_the_name():
    assert found("Dungeon Mapper and the dungeon map", "Dungeon Map") == []
    assert found("Tomb of Annihilation's last room", "Tomb of Annihilation") == []
    assert found("Undercity's first room", "Undercity") == []
    # The helper cards named as a designation are it: their general rulings lead with no card.
    assert found("Die Initiative ist eine Bezeichnung.", "Die Initiative") == []
    assert found("Der Monarch zieht eine Karte.", "Der Monarch") == []
    assert names.leads("Der Monarch zieht eine Karte.", "Der Monarch", "de") is None
    assert found("Prendre l'initiative vous fait", "Prendre l'initiative") == [
        "Prendre l'initiative"
    ]


def test_matches_within_the_name_are_dropped_and_no_others():
    glossary = load_glossary()
    text = "Prendre l'initiative ne vous fait pas prendre l'initiative."
    matches = glossary.find(text, "fr", ("en",))
    kept = names.outside(matches, text, "Prendre l'initiative")
    assert {m.concept for m in matches} >= {"take_initiative"}
    assert [m.start for m in kept if m.concept == "take_initiative"] == [text.rindex("prendre")]
    assert names.outside(matches, text, "Chasseur vengeur") == matches
    assert names.outside(matches, text, None) == matches
    # A match going beyond the name stays: the card is named Karte, the text draws a card.
    text = "Du ziehst eine Karte."
    assert [m.concept for m in names.outside(glossary.find(text, "de"), text, "Karte")] == [
        "draw_card"
    ]


# Every word of the game in it is in the card's name, but for "only one" (309.3's point).
ONE_A_TURN = {
    "cards": {
        "ru": "Карта подземелья",
        "it": "Mappa del Dungeon",
        "fr": "Carte du donjon",
        "de": "Karte des Gewölbes",
        "es": "Mapa de la mazmorra",
    },
    "date": "2026-11-20",
    "rulings": [
        {
            "texts": {
                "ru": "В каждом ходу вы можете активировать только одну способность "
                "Карты подземелья.",
                "it": "Puoi attivare solo una delle abilità della Mappa del Dungeon in ogni turno.",
                "fr": "Vous ne pouvez activer qu'une seule des capacités de la Carte du donjon "
                "à chaque tour.",
                "de": "Du kannst in jedem Zug nur eine der Fähigkeiten der Karte des Gewölbes "
                "aktivieren.",
                "es": "Solo puedes activar una de las habilidades del Mapa de la mazmorra en "
                "cada turno.",
            }
        }
    ],
}


def linked(tmp_path, data: dict) -> list[str]:
    db, _ = build(tmp_path, write_rulings(tmp_path, data, data["rulings"], "card"))
    return [rule for group in align.groups(db) for rule in group["rules"]]


def test_a_ruling_is_not_about_what_its_cards_name_says(tmp_path):
    (tmp_path / "own").mkdir()
    (tmp_path / "other").mkdir()
    assert linked(tmp_path / "own", ONE_A_TURN) == []
    # The same texts under another card name the map as any card: a dungeon, only one.
    other = dict(ONE_A_TURN, cards={lang: f"Ancienne carte {lang}" for lang in ONE_A_TURN["cards"]})
    assert linked(tmp_path / "other", other) == ["309.3"]


def test_a_text_naming_its_card_and_copied_on_another_card_builds_as_in_full(project):  # noqa: F811
    """The store keeps a ruling's matches outside its card's name: an incremental build must
    not take them for every copy of the text (the other card's copy names the map)."""
    text = ONE_A_TURN["rulings"][0]["texts"]["fr"]
    copied_then_edited(project, text, {"carte": "Carte du donjon", "parchemin": "Vieux parchemin"})
    with sqlite3.connect(project / "out" / "rulings.db") as conn:
        dungeon = dict(
            conn.execute(
                "SELECT c.name, COUNT(rc.concept) FROM rulings r JOIN cards c ON c.id = r.card_id"
                " LEFT JOIN ruling_concepts rc ON rc.ruling_id = r.id AND rc.concept = 'dungeon'"
                " WHERE c.name IN ('Carte du donjon', 'Vieux parchemin') GROUP BY c.name"
            )
        )
    assert dungeon == {"Carte du donjon": 0, "Vieux parchemin": 1}


# Dungeoneer's Pack, its Italian name a venture ("Esploratore di Dungeon"), the others' not.
PACK = {
    "ru": ("Снаряжение исследователя", "Снаряжение исследователя остается на поле битвы."),
    "it": (
        "Equipaggiamento dell'Esploratore di Dungeon",
        "L'Equipaggiamento dell'Esploratore di Dungeon rimane sul campo di battaglia.",
    ),
    "fr": (
        "Paquetage de l'explorateur",
        "Le Paquetage de l'explorateur reste sur le champ de bataille.",
    ),
    "de": ("Forscherausrüstung", "Die Forscherausrüstung bleibt auf dem Schlachtfeld."),
    "es": ("Equipo de explorador", "El Equipo de explorador permanece en el campo de batalla."),
}


def extra_concepts(cards: dict[str, str]) -> list[tuple[str, str]]:
    members = [
        Member(f"r-{lang}", lang, cards[lang], text, "g") for lang, (_, text) in PACK.items()
    ]
    report = check_corpus(Corpus([Group("g", members)], load_glossary()))
    return [(f.lang, f.excerpt) for f in report.findings if f.check == "extra-concept"]


def test_the_checks_compare_what_translations_say_outside_the_cards_name():
    assert extra_concepts({lang: name for lang, (name, _) in PACK.items()}) == []
    # Under another card, the Italian words are the text's own, which no other translation has.
    assert ("it", "Esploratore di Dungeon") in extra_concepts({lang: "Altro" for lang in PACK})


def test_a_word_missing_is_not_looked_for_in_the_cards_name():
    texts = {
        "ru": "Комната выходит на поле битвы с запертой дверью.",
        "it": "La Stanza entra nel campo di battaglia con una porta bloccata.",
        "fr": "La Pièce arrive sur le champ de bataille avec une porte verrouillée.",
        "de": "Der Raum kommt mit einer versperrten Tür ins Spiel.",
        "es": "La Habitación entra con la Sala de utilería bloqueada.",
    }
    members = [
        Member(f"r-{lang}", lang, "Sala de utilería" if lang == "es" else "Prop", text, "g")
        for lang, text in texts.items()
    ]
    report = check_corpus(Corpus([Group("g", members)], load_glossary()))
    spanish = [(f.check, f.excerpt) for f in report.findings if f.lang == "es"]
    # The others name the Room; the Spanish text only through its card's name, which Wizards
    # prints: a concept missing, not "Sala" taken for a misspelling of the glossary's "sala".
    assert [c for c, _ in spanish if c in ("missing-concept", "term-synonym")] == [
        "missing-concept"
    ]


def test_a_ruling_leads_with_its_card_when_the_name_opens_its_first_sentence():
    def lead(text: str, card: str, lang: str = "en") -> str | None:
        span = names.leads(text, card, lang)
        return text[span[0] : span[1]] if span else None

    assert lead("Throne Warden's ability checks whether you're the monarch.", "Throne Warden")
    assert lead(
        "L’ultima abilità della Sentinella controlla se hai l’iniziativa.", "Sentinella", "it"
    )
    assert lead("Последняя способность Часового Ворот проверяет ...", "Часовой Ворот", "ru") == (
        "Часового Ворот"
    )
    assert lead("Nadaar doesn't need to have been on the battlefield.", "Nadaar, Selfless Paladin")
    # A situation opened by "if", "when", "as" ... names the card on its way.
    assert (
        lead("If Throne Warden leaves the battlefield, you stay the monarch.", "Throne Warden")
        is None
    )
    assert lead("Wenn die Wache angreift, wirst du der Monarch.", "Wache", "de") is None
    assert (
        lead(
            "Si el Centinela deja el campo de batalla, sigues siendo el monarca.", "Centinela", "es"
        )
        is None
    )
    # "If" said in several words; a card whose name starts as an opening does ("Once Upon a
    # Time"), for only the words before the name can open a situation.
    for text, card, lang in [
        ("In the case where Throne Warden is tapped, ...", "Throne Warden", "en"),
        ("Nel caso in cui la Sentinella attacchi, ...", "Sentinella", "it"),
        ("Dans le cas où la Sentinelle attaque, ...", "Sentinelle", "fr"),
        ("En caso de que el Centinela ataque, ...", "Centinela", "es"),
        ("В случае, если Часовой Ворот атакует, ...", "Часовой Ворот", "ru"),
    ]:
        assert lead(text, card, lang) is None, text
    assert lead("Once Upon a Time's ability looks at five cards.", "Once Upon a Time")
    # Too far in, or in a later sentence; a dungeon's own name; a language without openings.
    assert lead("You become the monarch, and then the Throne Warden ...", "Throne Warden") is None
    assert lead("You're the monarch. Throne Warden's ability checks it.", "Throne Warden") is None
    assert lead("Undercity's first room is Secret Entrance.", "Undercity") is None
    assert lead("Throne Warden's ability checks whether ...", "Throne Warden", "pt") is None


def test_a_leading_ruling_stores_its_card_s_name_as_own_card():
    ruling = {"text": "Throne Warden's ability checks whether you're the monarch.", "lang": "en"}
    found = names.ruling_matches(load_glossary(), {**ruling, "card": "Throne Warden"})
    assert [(m.concept, m.surface) for m in found if m.concept == names.LEAD] == [
        ("own_card", "Throne Warden")
    ]
    assert "monarch" in {m.concept for m in found}
    other = names.ruling_matches(load_glossary(), {**ruling, "card": "Palace Jailer"})
    assert names.LEAD not in {m.concept for m in other}
