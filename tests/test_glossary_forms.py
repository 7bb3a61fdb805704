"""The forms rulings use are found: inflected and separated forms, German's clause holding a
concept between its verb and the rest (with a bound), and the wordings of
tests/data/glossary/near_misses*.tsv (the glossary audit's, and those written beside the forms)
with their near ones not."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.reference import patterns


@pytest.mark.parametrize(
    "lang, text, concept",
    [
        ("ru", "активный игрок получает инициативу", "take_initiative"),
        ("ru", "может получить инициативу снова", "take_initiative"),
        ("ru", "вы не находитесь в подземелье", "dungeon"),
        ("de", "wagt sich dieser Spieler erneut in Undercity vor", "venture_into_undercity"),
        ("de", "schließt du dieses Verlies ab", "complete_dungeon"),
        ("de", "in den nächsten Raum dieses Verlieses", "next_room"),
        ("en", "you move to an adjacent room", "next_room"),
        ("ru", "в соседнюю комнату", "next_room"),
        ("it", "in una stanza adiacente", "next_room"),
        ("fr", "dans une salle adjacente", "next_room"),
        ("de", "in einen angrenzenden Raum", "next_room"),
        ("es", "a una sala adyacente", "next_room"),
        ("fr", "Un joueur qui a actuellement l’initiative peut la prendre", "take_initiative"),
        ("fr", "soit parce que vous prenez l'initiative", "take_initiative"),
        ("it", "quel giocatore si avventuri di nuovo in Undercity", "venture_into_undercity"),
        ("es", "si el jugador activo está dejando el juego", "leave_game"),
        # The Comprehensive Rules' topmost and bottommost rooms, as each language prints them.
        ("ru", "в самой нижней комнате подземелья", "last_room"),
        ("it", "nella stanza più in basso del dungeon", "last_room"),
        ("fr", "dans la salle la plus basse du donjon", "last_room"),
        ("de", "im untersten Raum des Verlieses", "last_room"),
        ("es", "en la sala inferior de la mazmorra", "last_room"),
        ("ru", "на верхнюю комнату", "first_room"),
        ("it", "sulla stanza più in alto", "first_room"),
        ("fr", "sur la salle la plus haute", "first_room"),
        ("de", "auf den obersten Raum", "first_room"),
        ("es", "en la sala superior", "first_room"),
        # Objects that stop existing, not a player who stops having a designation.
        ("en", "the token ceases to exist", "cease_to_exist"),
        ("ru", "эта способность перестает существовать", "cease_to_exist"),
        ("it", "quell'abilità cessa di esistere", "cease_to_exist"),
        ("fr", "cette capacité cesse d'exister", "cease_to_exist"),
        ("de", "hört diese Fähigkeit auf zu existieren", "cease_to_exist"),
        ("es", "esa habilidad deja de existir", "cease_to_exist"),
        # Wordings the rules' terms take in running text.
        ("en", "the ability of its first room triggers", "room_ability"),
        ("fr", "la capacité de sa première salle", "room_ability"),
        ("en", "until a spell tells them to", "instruct"),
        ("ru", "пока эффект не предпишет игроку", "instruct"),
        ("it", "finché l'abilità non si è risolta", "resolve"),
        ("fr", "une fois la capacité résolue", "resolve"),
        ("es", "hasta que se haya resuelto", "resolve"),
        ("ru", "предписывает игроку получить ее", "take_initiative"),
        ("de", "dann wirst du der Monarch", "become_monarch"),
        # A player's deck and sideboard (309.2).
        ("en", "isn't part of your deck or sideboard", "deck"),
        ("ru", "не входят в вашу колоду", "deck"),
        ("it", "non fanno parte del tuo mazzo", "deck"),
        ("fr", "ne font pas partie de votre deck", "deck"),
        ("de", "gehören nicht zu deinem Deck", "deck"),
        ("es", "no van en tu banquillo", "deck"),
        # A dungeon removed (from the game, the only place a dungeon is removed from).
        ("en", "it doesn't remove the dungeon yet", "remove_from_game"),
        ("ru", "подземелье удаляется", "remove_from_game"),
        ("it", "il dungeon viene rimosso", "remove_from_game"),
        ("fr", "le donjon est retiré", "remove_from_game"),
        ("de", "das Verlies wird entfernt", "remove_from_game"),
        ("es", "la mazmorra se quita", "remove_from_game"),
        # A designation its holder already has: told to take it, they take it again.
        ("en", "if you already have the initiative", "again"),
        ("ru", "если вы уже являетесь монархом", "again"),
        ("it", "se hai già l'iniziativa", "again"),
        ("fr", "si vous êtes déjà le monarque", "again"),
        ("de", "wenn du bereits die Initiative hast", "again"),
        ("es", "si ya eres el monarca", "again"),
        # ... or says it with a pronoun: "told to take the initiative while you already have it".
        ("en", "while you already have it", "again"),
        ("ru", "когда она у вас уже есть", "again"),
        ("it", "mentre ce l'hai già", "again"),
        ("fr", "alors que vous l'avez déjà", "again"),
        ("de", "während du sie bereits hast", "again"),
        ("es", "mientras ya la tienes", "again"),
        # Nobody holds the designation.
        ("en", "while no player is the monarch", "no_monarch"),
        ("ru", "пока ни один игрок не является монархом", "no_monarch"),
        ("it", "se nessuno è il monarca", "no_monarch"),
        ("fr", "tant qu'aucun joueur n'est le monarque", "no_monarch"),
        ("de", "solange niemand der Monarch ist", "no_monarch"),
        ("es", "si no hay monarca", "no_monarch"),
        # Completing a dungeon named a sentence earlier.
        ("en", "the moment you complete it", "complete_dungeon"),
        ("ru", "тогда вы завершаете его", "complete_dungeon"),
        ("it", "allora lo completi", "complete_dungeon"),
        ("fr", "alors vous le terminez", "complete_dungeon"),
        ("de", "dann schließt du es ab", "complete_dungeon"),
        ("es", "entonces la completas", "complete_dungeon"),
        # German names a room ability in one word; the room is in it as in the other languages.
        ("de", "die Raumfähigkeit löst aus", "room"),
        ("de", "die Raumfähigkeit löst aus", "ability"),
        # Removing a dungeon from the game, in Russian's other verb and with words between.
        ("ru", "подземелье убрано из игры", "remove_from_game"),
        ("ru", "это не убирает подземелье", "remove_from_game"),
        ("fr", "cela ne retire pas immédiatement le donjon", "remove_from_game"),
        # Ceasing to have a designation, or to be in a dungeon.
        ("fr", "vous ne vous trouvez plus dans un donjon", "cease"),
        ("ru", "прежний игрок сразу же ее теряет", "cease"),
        ("ru", "он теряет инициативу", "cease"),
        # Starting a dungeon with more words between.
        ("fr", "vous commencez ensuite un nouveau donjon", "start_dungeon"),
        ("de", "dann beginnst du ein neues Verlies", "start_dungeon"),
        # Casting in the tenses and persons rulings use.
        ("es", "si no lanzó ningún hechizo", "cast"),
        ("es", "cuando lanzas tu segundo hechizo", "cast"),
        ("it", "ogni volta che lanci una magia", "cast"),
        ("fr", "si vous lancez un sort", "cast"),
        ("de", "wenn ein Gegner einen Spontanzauber wirkt", "cast"),
        ("de", "sobald du eine Hexerei wirken könntest", "cast"),
        # Becoming the monarch by an effect that makes someone it, or named before the verb.
        ("fr", "un sort qui fait d'un adversaire le monarque", "become_monarch"),
        ("fr", "la capacité qui ferait du joueur actif le monarque", "become_monarch"),
        ("es", "el efecto convierte a tu oponente en el monarca", "become_monarch"),
        ("ru", "монархом становится другой игрок", "become_monarch"),
        ("ru", "даже если вы стали монархом", "become_monarch"),
        # Losing the game with words between the verb and the game.
        ("fr", "si le monarque perd alors la partie", "lose_game"),
        ("es", "si el jugador pierde la partida", "lose_game"),
        ("de", "verliert der Spieler während seines eigenen Zuges das Spiel", "lose_game"),
        # Taking the initiative, named before the verb or as a pronoun.
        ("ru", "инициативу получает следующий игрок", "take_initiative"),
        ("es", "un efecto te indica que la tomes", "take_initiative"),
        # A dungeon completed, in the passive and with a separated German verb.
        ("en", "the dungeon is then completed", "complete_dungeon"),
        ("it", "il dungeon viene completato", "complete_dungeon"),
        ("fr", "le donjon est alors terminé", "complete_dungeon"),
        ("es", "la mazmorra queda completada", "complete_dungeon"),
        ("de", "das Verlies ist dann abgeschlossen", "complete_dungeon"),
        ("ru", "подземелье считается завершенным", "complete_dungeon"),
        ("de", "schließt du das Verlies sofort ab", "complete_dungeon"),
        # Inflections and word orders the first forms missed.
        ("ru", "пока он не покинет игру", "leave_game"),
        ("ru", "заклинание может предписать вам это", "instruct"),
        ("ru", "в тот момент, когда вы ее получаете", "take_initiative"),
        ("ru", "как действие, обусловленное состоянием", "state_based_action"),
        ("ru", "вы можете начать любое другое подземелье", "start_dungeon"),
        ("ru", "потому что вы сдались", "concede"),
        ("fr", "la capacité ne se résoudra pas", "resolve"),
        ("fr", "vous choisissez donc l'ordre", "choose_order"),
        ("fr", "dans une partie de Troll à deux têtes", "two_headed_giant"),
        ("de", "während des nächsten Enttappsegments ihres Beherrschers", "control"),
        (
            "de",
            "der Monarch bestimmt, in welcher Reihenfolge sie verrechnet werden",
            "choose_order",
        ),
        # The German bare venture with its pronoun, the verb split or in the perfect.
        ("de", "wagst du dich ein weiteres Mal vor", "venture"),
        ("de", "weil du dich aus dem letzten Raum vorgewagt hast", "venture"),
    ],
)
def test_inflected_and_separated_forms_are_found(g, lang, text, concept):
    assert concept in g.concept_ids(text, lang)


# German holds a clause's middle field (up to CLAUSE_WORDS words) between a verb and the rest of it
# ("ziehst du ... eine Karte", "das Spiel ... verlässt"); a comma ends the clause, and words
# of two clauses are not one concept.
@pytest.mark.parametrize(
    "concept, names, near",
    [
        (
            "draw_card",
            "dann ziehst du zu Beginn deines nächsten Endsegments trotzdem nur eine Karte",
            "dann ziehst du deinen Vorstoßmarker weiter, und jeder Spieler legt eine Karte ab",
        ),
        (
            "lose_game",
            "verliert der Spieler mit der Initiative während des Kampfes das Spiel",
            "verliert der Spieler Lebenspunkte, geht das Spiel weiter",
        ),
        (
            "lose_game",
            "wenn ein Spieler das Spiel während seines eigenen Zuges verliert",
            "wenn ein Spieler das Spiel beginnt und niemand Lebenspunkte verliert",
        ),
        (
            "leave_game",
            "verlässt der Spieler mit der Initiative während seines Zuges das Spiel",
            "verlässt die Kreatur während seines Zuges das Spielfeld",
        ),
        (
            "leave_game",
            "wenn du das Spiel auf irgendeine Weise verlassen hast",
            "wenn du das Spiel beginnst, hast du den Raum verlassen",
        ),
        (
            "turn_continues",
            "wird der Zug trotzdem ohne aktiven Spieler fortgesetzt",
            "der Zug endet, und das Spiel wird fortgesetzt",
        ),
        (
            "complete_dungeon",
            "ein Verlies, das du in diesem Spiel schon einmal abgeschlossen hast",
            "das Verlies, das du wählst, wenn der Zug abgeschlossen ist",
        ),
        (
            "remove_from_game",
            "entfernst du das Verlies nach der Verrechnung der Fähigkeit aus dem Spiel",
            "wird das Verlies erst danach gewählt, und der Marker wird entfernt",
        ),
        (
            "venture",
            "wagst du dich mit deinem Vorstoßmarker in den nächsten Raum vor",
            "wagst du dich nicht, so bleibt der Marker vor dem Raum",
        ),
    ],
)
def test_german_clause_holds_a_concept_between_its_verb_and_the_rest(g, concept, names, near):
    assert concept in g.concept_ids(names, "de")
    assert concept not in g.concept_ids(near, "de")


def test_a_clause_gap_has_a_bound_so_text_without_punctuation_stays_linear(g):
    # "~" reaches CLAUSE_WORDS words: a text without punctuation would otherwise cost the
    # square of its length (each verb scanning to the end of the text).
    middle = " ".join(["Wort"] * (patterns.CLAUSE_WORDS - 1)) + " eine"  # CLAUSE_WORDS words
    assert "draw_card" in g.concept_ids(f"ziehst {middle} Karte", "de")
    assert "draw_card" not in g.concept_ids(f"ziehst Wort {middle} Karte", "de")


@pytest.mark.parametrize(
    "lang, text",
    [
        ("en", "you're no longer the monarch"),
        ("ru", "вы больше не монарх"),
        ("it", "non sei più il monarca"),
        ("fr", "vous n'êtes plus le monarque"),
        ("de", "du bist nicht mehr der Monarch"),
        ("es", "ya no eres el monarca"),
    ],
)
def test_no_longer_is_ceasing(g, lang, text):
    assert "cease" in g.concept_ids(text, lang)


def _near_misses() -> list[tuple[str, str, str, str]]:
    """(language, concept, a wording that names it, a near wording that does not) of every
    tests/data/glossary/near_misses*.tsv: the audit's pairs and those written beside the forms."""
    rows = []
    for path in sorted((Path(__file__).parent / "data" / "glossary").glob("near_misses*.tsv")):
        lines = path.read_text(encoding="utf-8").splitlines()
        rows += [tuple(line.split("\t")) for line in lines if line and not line.startswith("#")]
    return rows


@pytest.mark.parametrize("lang, concept, names, near", _near_misses())
def test_a_concept_is_found_in_its_wording_and_not_in_a_near_one(g, lang, concept, names, near):
    assert concept in g.concept_ids(names, lang)
    assert concept not in g.concept_ids(near, lang)
