"""The glossary: its data is complete and consistent, and the matcher finds inflected forms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.corpus import parse
from kb.corpus.languages import UI_LANGUAGES
from kb.errors import KbError
from kb.reference import glossary, patterns

REQUIRED = [
    "initiative",
    "take_initiative",
    "venture",
    "venture_into_undercity",
    "dungeon",
    "room",
    "venture_marker",
    "command_zone",
    "upkeep",
    "combat_damage",
    "team",
    "two_headed_giant",
    "leave_game",
    "active_player",
    "turn_order",
    "triggered_ability",
    "designation",
    "monarch",
    "permanent",
    "stack",
    "complete_dungeon",
    "undercity",
    "secret_entrance",
]


@pytest.fixture(scope="module")
def g():
    return glossary.load()


def test_every_required_concept_has_a_term_in_every_language(g):
    ids = [c.id for c in g.concepts]
    assert set(REQUIRED) <= set(ids)
    assert len(ids) == len(set(ids))
    for concept in g.concepts:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", concept.id)
        for lang in UI_LANGUAGES:
            assert concept.terms[lang], (concept.id, lang)


def test_every_term_is_found_by_its_own_forms(g):
    unfound = [
        (c.id, lang, term)
        for c in g.concepts
        for lang, terms in c.terms.items()
        for term in terms
        if c.id not in g.concept_ids(term, lang)
    ]
    assert unfound == []


def test_matches_are_offsets_into_the_text_as_given(g, seeds):
    for path in seeds:
        parsed = parse.parse_file(path)
        for ruling in parsed.rulings:
            matches = g.find(ruling.text, parsed.lang, also=("en",))
            assert matches, ruling.text
            for m in matches:
                assert ruling.text[m.start : m.end] == m.surface


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


#: (concept, language, a wording that names it, a near wording that does not).
NEAR_MISSES = [
    # 726.5, 725.3: a designation is never doubled, however the sentence says there is one;
    # nor is a player's dungeon (309.3), and more than one arrow is no second dungeon.
    ("only_one", "en", "you don't get a second initiative", "a second ability triggers"),
    ("only_one", "en", "there can't be two monarchs", "two creatures deal combat damage"),
    ("only_one", "en", "never more than one monarch", "one or more creatures"),
    ("only_one", "ru", "второй инициативы у вас не появляется", "второй игрок"),
    ("only_one", "ru", "но инициатива у вас по-прежнему одна", "у вас есть инициатива"),
    ("only_one", "it", "non ottieni una seconda iniziativa", "una seconda abilità"),
    ("only_one", "it", "non ci possono essere due monarchi", "due creature"),
    ("only_one", "fr", "vous n'obtenez pas une seconde initiative", "une seconde capacité"),
    ("only_one", "fr", "il ne peut jamais y avoir deux monarques", "deux créatures"),
    ("only_one", "de", "du erhältst keine zweite Initiative", "eine zweite Fähigkeit"),
    ("only_one", "de", "es gibt nie zwei Monarchen", "zwei Kreaturen"),
    ("only_one", "es", "no obtienes una segunda iniciativa", "una segunda habilidad"),
    ("only_one", "es", "nunca puede haber dos monarcas", "dos criaturas"),
    ("only_one", "fr", "pas de seconde désignation d'initiative", "la désignation d'initiative"),
    ("only_one", "en", "you can't be in more than one dungeon", "more than one arrow leads out"),
    ("only_one", "ru", "ввести в игру другое подземелье", "ввести в игру карту"),
    ("only_one", "it", "non puoi trovarti in più di un dungeon", "più di una freccia"),
    (
        "only_one",
        "fr",
        "en faire entrer un second dans la partie",
        "en faire entrer un dans la partie",
    ),
    ("only_one", "de", "kein weiteres Verlies ins Spiel bringen", "ein Verlies ins Spiel bringen"),
    ("only_one", "es", "no puedes traer otra mazmorra al juego", "traer una mazmorra al juego"),
    # Starting a dungeon needs a dungeon, not any beginning.
    ("start_dungeon", "en", "you can't start Undercity", "at the start of your upkeep"),
    ("start_dungeon", "ru", "вы не можете начать Undercity", "в начале вашего хода"),
    ("start_dungeon", "it", "non puoi iniziare un dungeon diverso", "all'inizio del mantenimento"),
    ("start_dungeon", "fr", "vous ne pouvez pas commencer un donjon", "le tour commence"),
    ("start_dungeon", "de", "kannst du kein Verlies beginnen", "wenn dein Zug beginnt"),
    ("start_dungeon", "es", "empezarás Undercity", "empieza el turno"),
    ("start_dungeon", "en", "which dungeon to start", "the dungeon's first room"),
    ("start_dungeon", "ru", "какое подземелье начать", "какое подземелье выбрать"),
    ("start_dungeon", "it", "quale dungeon iniziare", "quale dungeon scegliere"),
    ("start_dungeon", "fr", "quel donjon commencer", "quel donjon choisir"),
    ("start_dungeon", "es", "qué mazmorra empezar", "qué mazmorra elegir"),
    # The marker moving on to a room further down, not a choice made "in advance" or the
    # venture marker's own name ("segnalino di avanzamento").
    ("move_on", "en", "the marker then advances to the room below", "you choose in advance"),
    ("move_on", "en", "move your marker down one room", "put it on the bottom of your library"),
    ("move_on", "ru", "маркер продвигается на одну комнату", "как вы продвигаетесь по подземелью"),
    ("move_on", "it", "il segnalino avanza di una stanza", "il segnalino di avanzamento resta lì"),
    ("move_on", "it", "ti fa avanzare alla stanza successiva", "il modo in cui avanzi nel dungeon"),
    ("move_on", "fr", "votre marqueur avance d'une salle", "vous choisissez le donjon à l'avance"),
    ("move_on", "de", "dein Marker zieht sofort weiter", "du ziehst eine weitere Karte"),
    ("move_on", "es", "tu marcador avanza a la sala siguiente", "puedes elegirla por adelantado"),
    ("move_on", "es", "te hace avanzar a la siguiente sala", "está en la sala de más abajo"),
    # The active team is the team whose turn it is, not any team.
    ("active_team", "en", "during your team's turn", "your team's life total"),
    ("active_team", "de", "während des Zuges deines Teams", "dein Team verliert"),
    ("active_team", "fr", "pendant le tour de votre équipe", "votre équipe perd la partie"),
    # "Your marker" is the venture marker; a counter is nobody's, and the full name is found whole.
    ("venture_marker", "en", "move your marker down", "remove a +1/+1 counter"),
    ("venture_marker", "fr", "vous déplacez votre marqueur", "retirez un marqueur +1/+1"),
    ("venture_marker", "it", "sposti il tuo segnalino", "rimuovi un segnalino +1/+1"),
    ("venture_marker", "ru", "вы перемещаете маркер в комнату", "на нем лежит маркер"),
    # Not being in a dungeon (701.49a's condition), not completing none or venturing elsewhere.
    ("not_in_dungeon", "en", "if a player isn't currently in a dungeon", "you complete no dungeon"),
    ("not_in_dungeon", "en", "while she has no dungeon in the command zone", "no dungeon ability"),
    (
        "not_in_dungeon",
        "ru",
        "если игрок не находится в подземелье",
        "игрок не завершает подземелье",
    ),
    ("not_in_dungeon", "it", "se non sei ancora in un dungeon", "non hai completato il dungeon"),
    ("not_in_dungeon", "it", "un giocatore che non si trova in un dungeon", "non è un dungeon"),
    (
        "not_in_dungeon",
        "fr",
        "s'il ne se trouve pas encore dans un donjon",
        "vous ne terminez aucun donjon",
    ),
    (
        "not_in_dungeon",
        "fr",
        "un joueur qui n'a aucun donjon",
        "un joueur qui n'a pas terminé le donjon",
    ),
    (
        "not_in_dungeon",
        "de",
        "wenn er sich nicht in einem Verlies befindet",
        "dich nicht in das Verlies vorwagen",
    ),
    (
        "not_in_dungeon",
        "de",
        "solange du kein Verlies in der Kommandozone hast",
        "kein Verlies beginnen",
    ),
    (
        "not_in_dungeon",
        "es",
        "si un jugador no está en una mazmorra",
        "no completas ninguna mazmorra",
    ),
    # ... and in the Comprehensive Rules' own words: not owning a dungeon card there.
    (
        "not_in_dungeon",
        "en",
        "if you don't own a dungeon card in the command zone",
        "you don't have to choose a dungeon",
    ),
    (
        "not_in_dungeon",
        "ru",
        "если вы не владеете картой подземелья",
        "если вы владеете картой подземелья",
    ),
    (
        "not_in_dungeon",
        "it",
        "se non possiedi un dungeon nella zona di comando",
        "se possiedi un dungeon",
    ),
    ("not_in_dungeon", "fr", "si vous ne possédez pas de donjon", "si vous possédez un donjon"),
    ("not_in_dungeon", "de", "wenn du kein Verlies besitzt", "wenn du ein Verlies besitzt"),
    (
        "not_in_dungeon",
        "es",
        "si no posees una mazmorra en la zona de mando",
        "si posees una mazmorra",
    ),
    # The top and the bottom of a dungeon, the room next to one, and outside the game, as the
    # languages' rules and cards also put them.
    ("first_room", "en", "the uppermost room", "the lowermost room"),
    ("first_room", "it", "la stanza superiore", "la stanza inferiore"),
    ("last_room", "it", "la stanza inferiore", "la stanza superiore"),
    ("first_room", "fr", "la salle du haut", "la salle du bas"),
    ("last_room", "fr", "la salle du bas", "la salle du haut"),
    ("first_room", "es", "la sala de más arriba", "la sala de más abajo"),
    ("next_room", "ru", "в смежную комнату", "в ту же комнату"),
    ("next_room", "es", "la sala contigua", "la misma sala"),
    ("outside_game", "ru", "из-за пределов игры", "из игры"),
    ("outside_game", "it", "dall'esterno della partita", "dalla partita"),
    ("outside_game", "fr", "de l'extérieur de la partie", "de la partie"),
    ("outside_game", "de", "außerhalb der Partie", "in der Partie"),
    # Completing and removing, with "zu" before the infinitive, an accented imperative, a
    # state after "está" ("finish" is left out: a ruling saying one need not venture again to
    # finish a dungeon then names 701.49c's venture from the last room).
    ("complete_dungeon", "de", "um ein Verlies abzuschließen", "um ein Verlies zu beginnen"),
    (
        "complete_dungeon",
        "es",
        "la mazmorra está completada",
        "la mazmorra está en la zona de mando",
    ),
    (
        "remove_from_game",
        "de",
        "das Verlies aus dem Spiel zu entfernen",
        "das Verlies im Spiel zu lassen",
    ),
    ("remove_from_game", "es", "quítala del juego", "ponla en el juego"),
    # Beginning a dungeon, and effects that ask a player to act.
    ("start_dungeon", "en", "you begin a new dungeon", "you begin your turn"),
    ("start_dungeon", "es", "comienzas una mazmorra nueva", "comienza tu turno"),
    (
        "instruct",
        "it",
        "un effetto ti chiede di avventurarti",
        "un effetto ti permette di avventurarti",
    ),
    (
        "instruct",
        "fr",
        "un effet vous indique de vous aventurer",
        "un effet vous permet de vous aventurer",
    ),
    ("instruct", "es", "un efecto te pide que te adentres", "un efecto te permite adentrarte"),
    # "Once more" in Russian, French "re-" starting, Italian's noun of resolving and its "no
    # longer has it".
    ("again", "ru", "отправиться в подземелье еще раз", "отправиться в подземелье"),
    ("again", "fr", "ne peut pas vous faire recommencer Undercity", "commencer Undercity"),
    ("resolve", "it", "al momento della sua risoluzione", "al momento della sua attivazione"),
    ("cease", "it", "quel giocatore non ce l'ha più", "quel giocatore ce l'ha"),
    # The Russian genitive plural drops the soft sign; an underground that is no card is not it.
    ("dungeon", "ru", "одну из своих карт подземелий", "под землёй"),
    # The dungeon to start named first, with its infinitive; the verb of starting before a
    # name, and "re-" starting it again.
    ("start_dungeon", "it", "scegli un dungeon da iniziare", "un dungeon da completare"),
    ("start_dungeon", "fr", "vous choisissez un donjon à commencer", "un donjon à terminer"),
    ("start_dungeon", "es", "eliges una mazmorra para empezar", "una mazmorra para completar"),
    ("start_dungeon", "fr", "ne peut vous faire commencer qu'Undercity", "commencer le tour"),
    ("start_dungeon", "fr", "vous faire recommencer Undercity", "recommencer le tour"),
    ("start_dungeon", "de", "kann dich Undercity nicht erneut beginnen lassen", "Undercity ist"),
    # Completing with the pronoun before the verb; a French adverb between verb and dungeon.
    ("complete_dungeon", "ru", "когда вы его завершаете", "когда вы его начинаете"),
    ("complete_dungeon", "de", "so wie wenn du es abschließt", "so wie wenn du es beginnst"),
    ("complete_dungeon", "fr", "ne termine pas aussitôt un donjon", "ne commence pas un donjon"),
    # The German noun of venturing; a separable "weist ... an".
    ("venture", "de", "bringt dich dein nächster Vorstoß direkt", "dein Vorstoßmarker liegt"),
    ("instruct", "de", "ein Effekt weist dich an, dich", "es weist keine Fähigkeit"),
    # 725.5: no one is the monarch yet, however the sentence puts it.
    ("no_monarch", "ru", "а монарха в игре еще нет", "а монарх в игре"),
    ("no_monarch", "it", "non c'è ancora un monarca", "c'è un monarca"),
    ("no_monarch", "fr", "il n'y a pas encore de monarque", "il y a un monarque"),
    ("no_monarch", "es", "mientras ningún jugador sea el monarca", "mientras seas el monarca"),
    # 800.4j: the turn of a player who left goes on without an active player.
    ("turn_continues", "en", "that turn continues without an active player", "your next turn"),
    ("turn_continues", "ru", "этот ход продолжается без активного игрока", "ваш следующий ход"),
    ("turn_continues", "it", "quel turno continua senza un giocatore attivo", "il prossimo turno"),
    ("turn_continues", "fr", "ce tour continue sans joueur actif", "votre prochain tour"),
    ("turn_continues", "de", "dieser Zug geht ohne aktiven Spieler weiter", "dein nächster Zug"),
    ("turn_continues", "es", "ese turno continúa sin un jugador activo", "tu próximo turno"),
    # 603.3d: an ability for which no legal choice can be made, not one whose target is chosen.
    ("no_legal_target", "en", "if there's no legal target", "you choose its target"),
    ("no_legal_target", "ru", "если допустимой цели нет", "вы выбираете цель"),
    ("no_legal_target", "it", "se non c'è un bersaglio legale", "scegli il bersaglio"),
    ("no_legal_target", "fr", "s'il n'y a aucune cible légale", "vous choisissez sa cible"),
    ("no_legal_target", "de", "gibt es kein legales Ziel", "wählst du ihr Ziel"),
    ("no_legal_target", "es", "si no hay un objetivo legal", "eliges su objetivo"),
    # 603.2: an ability that triggers is a triggered ability; rulings say so with the verb.
    ("triggered_ability", "en", "both abilities trigger at the same time", "the ability resolves"),
    ("triggered_ability", "ru", "обе способности срабатывают", "способность разрешается"),
    ("triggered_ability", "it", "entrambe le abilità si innescano", "l'abilità si risolve"),
    ("triggered_ability", "fr", "les deux capacités se déclenchent", "la capacité se résout"),
    ("triggered_ability", "de", "lösen beide Fähigkeiten gleichzeitig aus", "sie verrechnet"),
    ("triggered_ability", "es", "ambas habilidades se disparan", "la habilidad se resuelve"),
    # 701.49: rulings name venturing by the bare verb too; the marker is not the action.
    ("venture", "en", "each time you venture, you choose", "your venture marker is in a room"),
    ("venture", "it", "ogni volta che ti avventuri", "il tuo segnalino di avanzamento"),
    ("venture", "fr", "chaque fois que vous vous aventurez", "votre marqueur d'aventure"),
    ("venture", "de", "jedes Mal, wenn du dich vorwagst", "dein Vorstoßmarker"),
    ("venture", "es", "cada vez que te adentras", "tu marcador de aventura"),
    ("venture", "de", "wenn du dich aus dem Eingang vorwagst", "der Eingang des Verlieses"),
    ("venture", "de", "nur durch Vorwagen kommt es ins Spiel", "nur durch einen Effekt"),
    # ... and not a venture into a name the translation got wrong (the checks name that).
    ("venture", "it", "quando ti avventuri, scegli", "si avventuri di nuovo in Sottocittà"),
    ("venture", "it", "ogni volta che ti avventuri", "si avventura nel sotterraneo"),
    ("venture", "fr", "quand vous vous aventurez, vous", "vous vous aventurez dans Sous-Ville"),
    ("venture", "de", "wenn du dich vorwagst", "dich in Unterstadt vorzuwagen"),
    ("venture", "es", "cuando te adentras, eliges", "te adentras en Bajociudad"),
    # 309.7: a dungeon completed, named before the verb ("a dungeon you completed").
    ("complete_dungeon", "en", "a dungeon you completed", "the dungeon's last room"),
    # The participle as an adjective, after its noun or before it.
    ("complete_dungeon", "it", "un dungeon completato torna fuori", "un dungeon iniziato"),
    ("complete_dungeon", "fr", "un donjon terminé revient", "un donjon commencé"),
    ("complete_dungeon", "de", "ein abgeschlossenes Verlies", "ein begonnenes Verlies"),
    ("complete_dungeon", "es", "una mazmorra completada", "una mazmorra empezada"),
    ("simultaneously", "en", "becomes the monarch at the same moment", "at the next moment"),
    ("complete_dungeon", "it", "un dungeon che hai completato", "un dungeon che possiedi"),
    ("complete_dungeon", "fr", "un donjon que vous avez terminé", "un donjon que vous possédez"),
    ("complete_dungeon", "de", "du hast es abgeschlossen", "du hast es gewählt"),
    ("complete_dungeon", "es", "una mazmorra que completaste", "una mazmorra que posees"),
    # 701.49a: the dungeon started, named before its verb in a relative clause.
    ("start_dungeon", "en", "the dungeon you start may be any", "the dungeon you own"),
    ("start_dungeon", "ru", "подземелье, которое вы начнете", "подземелье, которым вы владеете"),
    ("start_dungeon", "it", "il dungeon che inizierai", "il dungeon che possiedi"),
    ("start_dungeon", "fr", "le donjon que vous commencez", "le donjon que vous possédez"),
    ("start_dungeon", "de", "das Verlies, das du beginnst", "das Verlies, das du besitzt"),
    ("start_dungeon", "es", "la mazmorra que empieces", "la mazmorra que posees"),
    ("start_dungeon", "es", "si empiezas una mazmorra", "si completas una mazmorra"),
    # 309.7, 704.5t: the passive a few words after its dungeon.
    ("remove_from_game", "it", "il dungeon non è ancora stato rimosso", "il dungeon è ancora qui"),
    ("remove_from_game", "fr", "le donjon n'a pas encore été retiré", "le donjon est encore là"),
    ("remove_from_game", "es", "la mazmorra aún no se ha quitado", "la mazmorra sigue ahí"),
    # An instruction, the noun, as the verb ("an instruction to venture").
    ("instruct", "ru", "указание отправиться в подземелье", "отправиться в подземелье"),
    ("instruct", "it", "un'istruzione di avventurarti", "la decisione di avventurarti"),
    ("instruct", "es", "una instrucción de adentrarte", "la decisión de adentrarte"),
    ("last_room", "es", "la sala de más abajo", "la sala de arriba"),
    # 725.1: an effect that makes someone the monarch makes them become it.
    ("become_monarch", "ru", "монархом вместо вас становится он", "монарх берет карту"),
    ("become_monarch", "en", "until an ability makes someone the monarch", "you are the monarch"),
    ("become_monarch", "ru", "пока способность не сделает кого-либо монархом", "вы монарх"),
    ("become_monarch", "it", "non rende nessuno il monarca", "sei il monarca"),
    ("become_monarch", "de", "wenn ein Gegner der Monarch wird", "wenn der Monarch angreift"),
    # 726.3, 725.3: no longer having a designation, however the sentence puts it.
    ("cease", "en", "you stop being the monarch", "the ability stops nothing"),
    ("cease", "ru", "у вас инициативы больше нет", "у вас нет инициативы"),
    ("cease", "it", "non ti trovi più in un dungeon", "ti trovi in un dungeon"),
    ("cease", "it", "tu non la hai più", "tu la hai"),
    # An object ceasing to exist, and a player losing the game, are other concepts.
    ("cease_to_exist", "en", "the ability ceases to exist", "the ability resolves"),
    ("lose_game", "de", "wenn der Monarch das Spiel verliert", "wenn der Monarch angreift"),
    # 726.5: rulings name the initiative, then take it.
    ("take_initiative", "en", "instructs a player to take it", "you take its damage"),
    # German "wirken" casts a spell, but an ability or effect that "wirkt" takes effect.
    ("cast", "de", "wenn du einen Zauberspruch wirkst", "die Fähigkeit wirkt sich auf sie aus"),
    ("cast", "de", "der Zauberspruch wurde gewirkt", "der Effekt beginnt erst zu wirken"),
    ("cast", "de", "sobald er einen Zauberspruch wirkt", "ihre Fähigkeiten wirken bis zum Zugende"),
    # German stops being with "aufhören, ... zu sein", not wherever "auf" is.
    ("cease", "de", "hört er auf, der Monarch zu sein", "die Fähigkeit ist auf dem Stapel"),
    # Italian "effettivamente" is "actually", not an effect.
    ("effect", "it", "l'effetto si applica", "il giocatore che ha effettivamente l'iniziativa"),
    # Italian "controllare" also checks: the state-based actions are checked, not controlled.
    ("control", "it", "che controlli", "vengono controllate le azioni generate dallo stato"),
    ("control", "it", "chi la controlla", "il gioco controlla le azioni generate dallo stato"),
    # The venture as a noun; the venture marker's "путешествия" and "de aventura" are not it.
    ("venture", "ru", "каждое путешествие перемещает его маркер", "ваш маркер путешествия"),
    ("venture", "es", "si la aventura ocurrió a mitad", "tu marcador de aventura"),
    ("venture_into_undercity", "ru", "путешествие в Undercity", "путешествие в подземелье"),
    # Finishing a dungeon is completing it; finishing a turn or a spell is not.
    ("complete_dungeon", "en", "after a dungeon has been finished", "after the turn has finished"),
    ("complete_dungeon", "ru", "чтобы закончить подземелье", "чтобы закончить ход"),
    ("complete_dungeon", "ru", "подземелье завершается", "ход завершается"),
    ("complete_dungeon", "it", "per finire un dungeon", "per finire il turno"),
    ("complete_dungeon", "fr", "pour finir un donjon", "pour finir le tour"),
    ("complete_dungeon", "de", "um ein Verlies zu beenden", "um den Zug zu beenden"),
    ("complete_dungeon", "es", "para terminar una mazmorra", "para terminar el turno"),
    ("complete_dungeon", "en", "it counts as completed", "it counts as a creature"),
    ("complete_dungeon", "ru", "подземелье считается завершенным", "подземелье считается картой"),
    ("complete_dungeon", "de", "das Verlies gilt als abgeschlossen", "das Verlies gilt als Karte"),
    ("complete_dungeon", "es", "cuenta como completada", "cuenta como una carta"),
    # The marker moved down is the marker moving on; more than one dungeon card is a second.
    ("move_on", "en", "every venture moves their marker down", "every venture moves their marker"),
    ("move_on", "ru", "перемещает его маркер вниз по подземелью", "перемещает его маркер"),
    ("move_on", "de", "bewegt seinen Marker im Verlies nach unten", "bewegt seinen Marker"),
    ("only_one", "fr", "plus d'une carte de donjon", "une carte de donjon"),
    ("only_one", "es", "más de una carta de mazmorra", "una carta de mazmorra"),
    # Venturing without a dungeon, as a gerund or participle clause, is not being in one.
    (
        "not_in_dungeon",
        "ru",
        "не имея подземелья в командной зоне",
        "имея подземелье в командной зоне",
    ),
    ("not_in_dungeon", "it", "senza avere un dungeon", "dopo avere un dungeon"),
    ("not_in_dungeon", "fr", "sans avoir de donjon", "après avoir un donjon"),
    (
        "not_in_dungeon",
        "de",
        "ohne ein Verlies in der Kommandozone",
        "mit einem Verlies in der Kommandozone",
    ),
    (
        "not_in_dungeon",
        "es",
        "sin tener ninguna en la zona de mando",
        "al tener una en la zona de mando",
    ),
    # An ability that has left the stack, not one still on it.
    (
        "leave_stack",
        "en",
        "once that ability has left the stack",
        "while that ability is still on the stack",
    ),
    ("leave_stack", "ru", "когда способность покинула стек", "пока способность находится в стеке"),
    (
        "leave_stack",
        "de",
        "sobald die Fähigkeit den Stapel verlassen hat",
        "solange die Fähigkeit auf dem Stapel liegt",
    ),
    (
        "leave_stack",
        "es",
        "cuando la habilidad ha dejado la pila",
        "mientras la habilidad está en la pila",
    ),
    # The same instant, however each language says it; one at a time is not it.
    ("simultaneously", "de", "im selben Augenblick", "im nächsten Augenblick"),
    ("simultaneously", "es", "en ese mismo momento", "en ese momento"),
    ("simultaneously", "ru", "в тот же момент", "в этот момент"),
    ("simultaneously", "it", "si spostano simultaneamente", "si spostano uno alla volta"),
    (
        "only_one",
        "de",
        "die Fähigkeit wird nur einmal ausgelöst",
        "die Fähigkeit wird einmal mehr ausgelöst",
    ),
    # The resolution, the noun; its members, of a team named after them.
    ("resolve", "en", "partway through a spell's resolution", "partway through a spell's text"),
    ("resolve", "de", "bis zur Verrechnung", "bis zum Zugende"),
    ("team_member", "en", "the members of the active team", "the active team"),
    ("team_member", "de", "die Mitglieder des aktiven Teams", "das aktive Team"),
    ("leave_game", "de", "scheidet ein Spieler aus der Partie aus", "ein Spieler scheitert"),
    ("choose_order", "ru", "выбирает, в каком порядке положить их", "выбирает, какую цель"),
    ("choose_order", "es", "elige en qué orden se ponen", "elige qué objetivo"),
    # Conceding the game, not granting control; resolving, not resolutely.
    ("concede", "es", "si un jugador concede, su equipo", "le concede el control de la criatura"),
    ("concede", "it", "se un giocatore concede la partita", "gli concede il controllo"),
    ("resolve", "fr", "une fois la capacité résolue", "le joueur est résolument en tête"),
    # "Одновременно ... только один" is "only one at a time", not two things at once.
    (
        "simultaneously",
        "ru",
        "обе способности срабатывают одновременно",
        "одновременно инициативой может обладать только один игрок",
    ),
    # The order of triggers said as "in any order you choose"; cards put in any order are not.
    ("choose_order", "en", "on the stack in any order it chooses", "the cards in any order"),
    ("choose_order", "ru", "в стек в любом порядке по своему выбору", "в любом порядке"),
    ("choose_order", "de", "in beliebiger Reihenfolge auf den Stapel", "in beliebiger Reihenfolge"),
    ("no_legal_target", "ru", "нельзя выбрать допустимую цель", "можно выбрать допустимую цель"),
    (
        "no_legal_target",
        "it",
        "non è possibile scegliere un bersaglio legale",
        "sceglie un bersaglio legale",
    ),
]


@pytest.mark.parametrize("concept, lang, names, near", NEAR_MISSES)
def test_a_concept_is_found_in_its_wording_and_not_in_a_near_one(g, concept, lang, names, near):
    assert concept in g.concept_ids(names, lang)
    assert concept not in g.concept_ids(near, lang)


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


def test_straight_and_typographic_apostrophes_match_alike(g):
    for text in ("le joueur qui a l’initiative", "le joueur qui a l'initiative"):
        (m,) = [m for m in g.find(text, "fr") if m.concept == "initiative"]
        assert m.surface == "initiative" and text[m.start : m.end] == m.surface


def test_words_inside_other_words_are_not_matches(g):
    # "start" must not be found in "restart", nor "room" in "bathroom".
    assert g.concept_ids("restart the bathroom", "en") == set()


def test_plain_venture_is_not_venture_into_undercity(g):
    found = g.concept_ids(
        "dich in das Verlies vorzuwagen (nicht, dich in Undercity vorzuwagen)", "de"
    )
    assert {"venture", "venture_into_undercity"} <= found
    assert "venture_into_undercity" not in g.concept_ids("dich in das Verlies vorzuwagen", "de")


@pytest.mark.parametrize(
    "concept, lang, text, longer",
    [
        ("venture", "en", "you venture into Undercity", "venture_into_undercity"),
        ("venture", "en", "move your venture marker", "venture_marker"),
        ("venture", "fr", "votre marqueur d'aventure", "venture_marker"),
        ("venture", "de", "das Vorwagen in Undercity", "venture_into_undercity"),
        ("venture", "es", "te adentras en Undercity", "venture_into_undercity"),
        # Ceasing to exist, or losing the game, is not ceasing to have a designation.
        ("cease", "en", "the ability ceases to exist", "cease_to_exist"),
        ("cease", "fr", "ces capacités cessent d'exister", "cease_to_exist"),
        ("cease", "de", "wenn der Monarch das Spiel verliert", "lose_game"),
    ],
)
def test_a_word_of_a_longer_term_is_not_its_own_concept_there(g, concept, lang, text, longer):
    found = g.concept_ids(text, lang)
    assert longer in found and concept not in found


def test_yielding_to_an_unknown_concept_is_a_clear_error(tmp_path):
    bad = tmp_path / "glossary.yaml"
    terms = "".join(f"      {lang}: [x]\n" for lang in UI_LANGUAGES)
    bad.write_text(
        f"concepts:\n  - id: x\n    yields_to: [nowhere]\n    terms:\n{terms}", encoding="utf-8"
    )
    with pytest.raises(KbError, match="'x' yields to 'nowhere', which is not in the glossary"):
        glossary.load(bad)


# A "!word" comes after the words it follows; a gap joins two words (in a YAML list,
# "[auf, ~3 zu sein]" is two patterns, "auf" and "~3 zu sein", and the first finds every "auf").
@pytest.mark.parametrize(
    "form, problem",
    [
        ("!in avventur*", "'!word' comes after the words it follows"),
        ("avventur* !in nel", "'!word' comes after the words it follows"),
        ("!in", "'!word' comes after the words it follows"),
        ("~3 zu sein", "'~N' comes between two words"),
        ("avventur* ~2", "'~N' comes between two words"),
        ("~1", "'~N' comes between two words"),
        ("abgeschlossen ~", "'~N' comes between two words"),
    ],
)
def test_a_misplaced_word_to_exclude_or_gap_is_a_clear_error(tmp_path, form, problem):
    bad = tmp_path / "glossary.yaml"
    terms = "".join(f"      {lang}: [x]\n" for lang in UI_LANGUAGES)
    bad.write_text(
        f"concepts:\n  - id: x\n    terms:\n{terms}    forms:\n      it: ['{form}']\n",
        encoding="utf-8",
    )
    with pytest.raises(KbError, match=re.escape(f"x: '{form}': {problem}")):
        glossary.load(bad)


def test_names_kept_in_english(g):
    assert g.get("undercity").keep_english and g.get("secret_entrance").keep_english
    assert not g.get("dungeon").keep_english
    assert g.get("secret_entrance").term("ru") == "Secret Entrance"
    assert "secret_entrance" in g.concept_ids("vers Entrée secrète (la première salle)", "fr")
    assert "secret_entrance" in g.concept_ids("в Secret Entrance (первую комнату)", "ru")


def test_english_left_in_a_translation_is_found_only_when_asked(g):
    text = "un membro della squadra prende l'iniziativa (and ventures into Undercity)"
    assert "venture_into_undercity" not in g.concept_ids(text, "it")
    english = [m for m in g.find(text, "it", also=("en",)) if m.concept == "venture_into_undercity"]
    assert [(m.lang, m.surface) for m in english] == [("en", "ventures into Undercity")]


def test_get_unknown_concept_names_it(g):
    with pytest.raises(KeyError, match="no_such"):
        g.get("no_such")


def test_a_concept_missing_a_language_is_a_clear_error(tmp_path):
    bad = tmp_path / "glossary.yaml"
    bad.write_text("concepts:\n  - id: orphan\n    terms:\n      en: [orphan]\n", encoding="utf-8")
    with pytest.raises(KbError, match=r"orphan: no term in ru, it, fr, de, es"):
        glossary.load(bad)


def test_a_bad_id_is_a_clear_error(tmp_path):
    bad = tmp_path / "glossary.yaml"
    terms = "".join(f"      {lang}: [x]\n" for lang in UI_LANGUAGES)
    bad.write_text(f"concepts:\n  - id: Bad-Id\n    terms:\n{terms}", encoding="utf-8")
    with pytest.raises(KbError, match="not snake_case"):
        glossary.load(bad)


def _scan_everything(g, text: str, lang: str, also: tuple[str, ...]) -> list[tuple]:
    """The matcher without its shortcuts: every concept's regex run over the whole text."""
    found = []
    for concept in g.concepts:
        spans = []
        for code in (lang, *also):
            regex = g.compiled(concept, code)
            if regex is not None:
                spans += [
                    glossary.Match(concept.id, m.start(), m.end(), m.group(0), code)
                    for m in regex.finditer(text)
                ]
        found += glossary.non_overlapping(spans)
    found = glossary.yielded(found, g.by_id)
    return sorted((m.start, -m.end, m.concept, m.surface, m.lang) for m in found)


def _surfaces(g) -> list[str]:
    words = {
        p.replace("*", "").replace("'", "’")
        for c in g.concepts
        for lang in UI_LANGUAGES
        for p in c.patterns(lang)
        if "~" not in p
    }
    return sorted(words)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_shortcuts_find_exactly_what_scanning_finds(g, data):
    pieces = st.one_of(
        st.sampled_from(_surfaces(g)),
        st.text(max_size=6),
        st.sampled_from([" ", "’", "'", "-", "İ", "ẞ", "ß", "K", "\u0301"]),
    )
    text = "".join(data.draw(st.lists(pieces, max_size=12)))
    text = data.draw(st.sampled_from([text, text.upper(), text.title()]))
    lang = data.draw(st.sampled_from(UI_LANGUAGES))
    expected = _scan_everything(g, text, lang, ("en",))
    assert (
        sorted(
            (m.start, -m.end, m.concept, m.surface, m.lang)
            for m in g.find(text, lang, also=("en",))
        )
        == expected
    )


def _audited_pairs() -> list[tuple[str, str, str, str]]:
    path = Path(__file__).parent / "data" / "glossary" / "near_misses.tsv"
    rows = path.read_text(encoding="utf-8").splitlines()
    return [tuple(row.split("\t")) for row in rows if row and not row.startswith("#")]


@pytest.mark.parametrize("lang, concept, names, near", _audited_pairs())
def test_the_audited_wordings_are_found_and_their_near_ones_are_not(g, lang, concept, names, near):
    assert concept in g.concept_ids(names, lang)
    assert concept not in g.concept_ids(near, lang)
