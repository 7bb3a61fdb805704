"""A corpus with a translator's mistake of every kind the checks know (a plain module, used by
test_findings_i18n.py): the seeds, English originals of half their rulings (so findings compare
with a source in some groups and with the other translations in the rest), a few rulings of
our own, a team checklist, and the edits below, each one realistic slip in one translation.

Each group of the seeds gets at most one mistake per language, so the others still agree on
what the text should say. Groups by their first words: 1 "a player who already has the
initiative", 2 "leaves the game", 3 "not in a dungeon", 4 "already in a dungeon", 5
"Two-Headed Giant", 6 "only one player", 7 "similarly", 8 "the initiative is a designation",
9 "no initiative until", 10 "can't venture unless"; the English originals are those of the odd
groups.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SEEDS = ROOT / "rulings"
ENGLISH = ROOT / "tests" / "data" / "english" / "en-avenging-hunter.txt"
#: The seed groups (0-based) whose English original the corpus holds.
WITH_SOURCE = (0, 2, 4, 6, 8)

DE, ES, FR = "de-unterkellersaeuberung.txt", "es-vidente-del-pasaje.txt", "fr-chasseur-vengeur.txt"
IT, RU, EN = (
    "it-cacciatore-vendicatore.txt",
    "ru-issledovatel-podzemya.txt",
    "en-avenging-hunter.txt",
)

#: (file, words, the words after the mistake), applied in order, each once.
EDITS: list[tuple[str, str, str]] = [
    # Group 1 (with its source): a sentence dropped at the start, a negation dropped, two
    # sentences made one, the date's day and month swapped, a name kept in English translated.
    (
        DE,
        "Ein Spieler, der momentan die Initiative hat, kann die Initiative erneut ergreifen. ",
        "",
    ),
    (ES, "pero no hace que tenga", "pero hace que tenga"),
    (FR, "peut la prendre à nouveau. Cela l’amène", "peut la prendre à nouveau, et cela l’amène"),
    (RU, "10/06/2022\n\nИгрок, который уже имеет", "06/10/2022\n\nИгрок, который уже имеет"),
    (IT, "si avventuri di nuovo in Undercity", "si avventuri di nuovo in Sottocittà"),
    # Group 2 (translations only): a sentence dropped at the end, a negation added, a date
    # typed wrong, a number added, a name the others keep left out, an English glossary term
    # no other translation has.
    (
        ES,
        " Si el jugador activo está dejando el juego o si no hay un jugador activo, el "
        "siguiente jugador en el orden de turnos toma la iniciativa.",
        "",
    ),
    (
        DE,
        "ergreift der aktive Spieler gleichzeitig",
        "ergreift der aktive Spieler nicht gleichzeitig",
    ),
    (IT, "10/06/2022\n\nSe il giocatore che ha", "11/06/2022\n\nSe il giocatore che ha"),
    (
        RU,
        "Если игрок с инициативой покидает игру, активный",
        "Если игрок с инициативой покидает игру в 2 часа, активный",
    ),
    (DE, "das Spiel verlässt, ergreift", "das Spiel in Zendikar verlässt, ergreift"),
    (FR, "quitte la partie, le joueur actif", "quitte la partie à Zendikar, le joueur actif"),
    (
        IT,
        "lascia la partita, il giocatore attivo",
        "lascia la partita a Zendikar durante il suo upkeep, il giocatore attivo",
    ),
    (RU, "в 2 часа, активный", "в 2 часа в Zendikar, активный"),
    # Group 3 (with its source): a synonym of the glossary's term, a sentence split, a name
    # kept in English left out, the first room's ordinal dropped, a date before the source's,
    # another concept's term.
    (DE, "in die Kommandozone", "in die Befehlszone"),
    (RU, "в командную зону и переместите", "в командную зону. Переместите"),
    (ES, "pondrás Undercity en la zona de mando", "pondrás la mazmorra en la zona de mando"),
    (RU, "(первую комнату)", "(комнату)"),
    (RU, "10/06/2022\n\nЕсли вы не находитесь", "09/06/2022\n\nЕсли вы не находитесь"),
    (
        FR,
        "vous mettez Undercity dans la zone de commandement",
        "vous mettez Undercity dans la pile",
    ),
    # Group 4 (translations only): a condition cut out (and with it "last"), an ordinal
    # replaced, a sentence split, another name for Undercity, an English phrase, a space
    # before a colon and Undercity translated.
    (FR, "Si vous êtes déjà dans la dernière salle, vous terminez", "Vous terminez"),
    (RU, "последней комнате", "первой комнате"),
    (
        ES,
        "completarás esa mazmorra y empezarás Undercity.",
        "completarás esa mazmorra. Empezarás Undercity.",
    ),
    (
        IT,
        "sia che tu ti trovi già in Undercity sia",
        "sia che tu ti trovi già in Tomb of Annihilation sia",
    ),
    (RU, "в следующую комнату этого подземелья", "в следующую комнату (the dungeon you are in)"),
    (
        DE,
        "Dies gilt unabhängig davon, ob du dich bereits in Undercity",
        "Dies gilt unabhängig davon : ob du dich bereits in Unterstadt",
    ),
    # Group 5 (with its source): a condition cut out, a forbidden term, a number replaced, a
    # number said once more.
    (
        IT,
        "In una partita Two-Headed Giant, se entrambi i giocatori di una squadra infliggono "
        "danno da combattimento al giocatore che ha l'iniziativa nello stesso momento, il "
        "giocatore",
        "In una partita Two-Headed Giant, entrambi i giocatori di una squadra "
        "infliggono danno da combattimento al giocatore che ha l'iniziativa "
        "nello stesso momento e il giocatore",
    ),
    (FR, "infligent des blessures de combat au joueur", "infligent des dégâts de combat au joueur"),
    (ES, "si ambos jugadores de un equipo", "si tres jugadores de un equipo"),
    (
        RU,
        "то же самое делает другой член команды",
        "то же самое два раза делает другой член команды",
    ),
    # Group 6 (translations only): two sentences made one,
    # a straight apostrophe, a question mark without its opening one, the locale's quotation
    # marks where the rest of the Spanish corpus uses others.
    (RU, "только один игрок. Когда один", "только один игрок, и когда один"),
    (FR, "Un seul joueur peut avoir l’initiative", "Un seul joueur peut avoir l'initiative"),
    (ES, "tener la iniciativa a la vez.", "tener la iniciativa a la vez?"),
    (ES, "deja de tenerla.", "deja de «tenerla»."),
    # Group 7 (with its source): a sentence added, a misspelt name, another name, a later
    # date.
    (
        FR,
        "un donjon qui n’est pas Undercity.",
        "un donjon qui n’est pas Undercity. Cette "
        "précision vaut aussi pour les parties à plusieurs équipes.",
    ),
    (
        IT,
        "non puoi iniziare un dungeon diverso da Undercity",
        "non puoi iniziare un dungeon diverso da Undercty",
    ),
    (ES, "una mazmorra que no sea Undercity.", "una mazmorra que no sea Tomb of Annihilation."),
    (RU, "10/06/2022\n\nАналогично", "20/06/2022\n\nАналогично"),
    # Group 8 (translations only): a number dropped, straight quotes, a number word added,
    # quotation marks of no locale, no space inside French quotation marks, another
    # concept's term, the date's day and month swapped, a name kept in English left out, a
    # sentence dropped at the start.
    (FR, "L’initiative implique deux règles.", "L’initiative implique des règles."),
    (DE, "„die Initiative hat“", '"die Initiative hat"'),
    (DE, "Außerdem beziehen sich manche Fähigkeiten", "Außerdem beziehen sich drei Fähigkeiten"),
    (IT, "“ha l'iniziativa.”", "‹ha l'iniziativa›."),
    (FR, "« a l’initiative »", "«a l’initiative»"),
    (FR, "Premièrement, à chaque fois", "Premièrement: à chaque fois"),
    (
        DE,
        "zu Beginn des Versorgungssegments des Spielers",
        "zu Beginn des Endsegments des Spielers",
    ),
    (ES, "10/06/2022\n\nLa iniciativa es una", "06/10/2022\n\nLa iniciativa es una"),
    (ES, "“tiene la iniciativa”", "«tiene la iniciativa»"),
    (IT, "L'iniziativa è una designazione che un giocatore può avere. ", ""),
    (IT, "quel giocatore si avventura in Undercity", "quel giocatore si avventura nel sotterraneo"),
    # Group 9 (with its source): a sentence dropped at the end, a text copied from French, a
    # negation added.
    (
        ES,
        " Una vez que se indica a un jugador que haga esto, tiene la iniciativa hasta que "
        "otro jugador tome la iniciativa.",
        "",
    ),
    (
        IT,
        "Non c'è iniziativa in una partita finché un effetto non richiede a un giocatore di "
        "prendere l'iniziativa. Una volta che a un giocatore viene richiesto di farlo, quel "
        "giocatore ha l'iniziativa finché un altro giocatore non la prende.",
        "Il n’y a pas d’initiative dans une partie tant qu’un effet n’instruit pas un joueur de "
        "prendre l’initiative. Une fois qu’un joueur reçoit cette instruction, il a l’initiative "
        "jusqu’à ce qu’un autre joueur la prenne.",
    ),
    (DE, "hat er die Initiative, bis", "hat er nicht die Initiative, bis"),
    # Group 10 (translations only): a negation dropped, an English word, a misspelt term, an
    # English name, Undercity left out once and the inner quotation marks at the top level, French quotation marks with a breaking space and without one, a sentence
    # added, the Spanish corpus's usual quotation marks and a comma inside them; the
    # Italian ruling deleted (so the seeds' suppression of its English words accepts nothing).
    (ES, "No puedes adentrarte en Undercity a menos", "Puedes adentrarte en Undercity a menos"),
    (DE, "außer du wirst dazu angewiesen", "außer du wirst always dazu angewiesen"),
    (DE, "zu Beginn deines Versorgungssegments", "zu Beginn deines Versorgungsegments"),
    (RU, "в начале вашего шага поддержки", "в начале вашего шага поддержки в Lost Caverns"),
    (RU, "(а не отправиться в Undercity)", "(а не „отправиться туда“)"),
    (FR, "(et non dans Undercity)", "(et non dans «Undercity\u202f» ni dans « Undercity »)"),
    (ES, "a menos que se te indique que lo hagas,", "a menos que se te indique «que lo hagas,»"),
    (
        FR,
        "vous ne pouvez pas commencer Undercity.",
        "vous ne pouvez pas commencer Undercity. Cela vaut aussi pour la partie suivante.",
    ),
    (ES, "(no que te adentres en Undercity)", "(no que te adentres en “Undercity”)"),
]

#: Whole rulings taken out: (file, its first words).
DELETED = [(IT, "Non puoi avventurarti in Undercity a meno")]

#: Rulings of our own, appended to a file: a ruling in English and French only (the French
#: leaves out a name and a number the source has: nothing else to compare with), one in every
#: language where Russian leaves out a name, and one entered twice for its card.
ADDED: dict[str, list[str]] = {
    EN: [
        "On Zendikar, three dungeons wait below the city.",
        "The Zendikar decks print the initiative on every card of the team.",
    ],
    FR: [
        "Des donjons attendent sous la ville.",
        "Les decks Zendikar impriment l’initiative sur chaque carte de l’équipe.",
    ],
    DE: ["Die Zendikar-Decks drucken die Initiative auf jede Karte des Teams."],
    ES: ["Los mazos de Zendikar imprimen la iniciativa en cada carta del equipo."],
    IT: ["I mazzi Zendikar stampano l'iniziativa su ogni carta della squadra."],
    RU: ["Эти колоды печатают инициативу на каждой карте команды."],
}
DATES = {EN: "2022-06-10"}
#: Rulings entered twice for their card: (file, the ruling's first words).
TWICE = [(DE, "Wenn beide Spieler eines Teams")]

#: The team's own rules: one message in English, one in French.
CHECKLIST = """\
[[rule]]
id = "de-verlies"
lang = "de"
pattern = "Verlies"
message = "check the dungeon's name against the printed card"
severity = "info"

[[rule]]
id = "fr-aventurer"
lang = "fr"
pattern = "vous aventurer"
message = "préférez « s’aventurer » à la forme pronominale complète"
severity = "info"
"""


def write_corpus(folder: Path) -> Path:
    """The corpus above in ``folder`` (created), returned."""
    shutil.copytree(SEEDS, folder)
    blocks = ENGLISH.read_text(encoding="utf-8").strip().split("\n\n")
    pairs = [blocks[i : i + 2] for i in range(1, len(blocks), 2)]
    english = [blocks[0]] + [part for i in WITH_SOURCE for part in pairs[i]]
    (folder / EN).write_text("\n\n".join(english) + "\n", encoding="utf-8")
    for name, first in DELETED:
        path = folder / name
        text = path.read_text(encoding="utf-8")
        start = text.index(first)
        date = text.rindex("\n\n", 0, text.rindex("\n\n", 0, start))
        end = text.find("\n\n", start)
        path.write_text(text[:date] + (text[end:] if end >= 0 else "\n"), encoding="utf-8")
    for name, old, new in EDITS:
        path = folder / name
        text = path.read_text(encoding="utf-8")
        if old not in text:
            raise AssertionError(f"{name}: no {old!r} to change")
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    added = {name: list(rulings) for name, rulings in ADDED.items()}
    for name, first in TWICE:
        text = (folder / name).read_text(encoding="utf-8")
        start = text.index(first)
        end = text.find("\n\n", start)
        added.setdefault(name, []).append(text[start : end if end >= 0 else None].strip())
    for name, rulings in added.items():
        path = folder / name
        date = DATES.get(name, "10/06/2022")
        text = path.read_text(encoding="utf-8").rstrip("\n")
        text += "".join(f"\n\n{date}\n\n{ruling}" for ruling in rulings)
        path.write_text(text + "\n", encoding="utf-8")
    (folder / "checklist.toml").write_text(CHECKLIST, encoding="utf-8")
    return folder
