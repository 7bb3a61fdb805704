"""Near misses of the game's concepts outside the dungeons (the designations, players and
teams, spells, abilities and the stack): each is found in a wording that names it and not in
a near wording that does not."""

from __future__ import annotations

import pytest

#: (concept, language, a wording that names it, a near wording that does not).
NEAR_MISSES = [
    # 726.5, 725.3: a designation is never doubled, however the sentence says there is one.
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
    # The active team is the team whose turn it is, not any team.
    ("active_team", "en", "during your team's turn", "your team's life total"),
    ("active_team", "de", "während des Zuges deines Teams", "dein Team verliert"),
    ("active_team", "fr", "pendant le tour de votre équipe", "votre équipe perd la partie"),
    # Effects that ask a player to act.
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
    # A separable German "weist ... an".
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
    # An instruction, the noun, as the verb ("an instruction to venture").
    ("instruct", "ru", "указание отправиться в подземелье", "отправиться в подземелье"),
    ("instruct", "it", "un'istruzione di avventurarti", "la decisione di avventurarti"),
    ("instruct", "es", "una instrucción de adentrarte", "la decisión de adentrarte"),
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
    ("simultaneously", "en", "becomes the monarch at the same moment", "at the next moment"),
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
