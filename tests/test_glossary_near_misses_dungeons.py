"""Near misses of the dungeons' concepts (venturing, rooms, the venture marker, starting and
completing a dungeon): each is found in a wording that names it and not in a near wording that
does not."""

from __future__ import annotations

import pytest

#: (concept, language, a wording that names it, a near wording that does not).
NEAR_MISSES = [
    # 309.3: a player's dungeon is never doubled, however the sentence says there is one, and
    # more than one arrow is no second dungeon.
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
    ("last_room", "es", "la sala de más abajo", "la sala de arriba"),
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
    # Beginning a dungeon.
    ("start_dungeon", "en", "you begin a new dungeon", "you begin your turn"),
    ("start_dungeon", "es", "comienzas una mazmorra nueva", "comienza tu turno"),
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
    # The German noun of venturing.
    ("venture", "de", "bringt dich dein nächster Vorstoß direkt", "dein Vorstoßmarker liegt"),
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
]


@pytest.mark.parametrize("concept, lang, names, near", NEAR_MISSES)
def test_a_concept_is_found_in_its_wording_and_not_in_a_near_one(g, concept, lang, names, near):
    assert concept in g.concept_ids(names, lang)
    assert concept not in g.concept_ids(near, lang)
