"""The mistakes benchmarks/checks.py injects: per-language tables of what each kind changes, and
:func:`mutate`, which makes one mistake of one kind in a ruling file's rulings.
"""

from __future__ import annotations

import random
import re

DATE = re.compile(r"^\s*(\d{1,2})([./-])(\d{1,2})\2(\d{4})\s*$|^\s*\d{4}-\d{2}-\d{2}\s*$")
SENTENCE_END = re.compile(r"(?<=[.!?»“”])\s+(?=[A-ZÀ-ÖØ-ÞА-ЯЁ«„“\"(])")

# Per-language tables of (pattern, replacement); patterns are regular expressions. Written
# here, not taken from kb's glossary, so that what is measured is not what the checks were
# tuned on.
NEGATIONS = {
    "fr": [
        (r"\b[Nn]e\s+((?:[\w’']+\s+){0,3}?[\w’']+?)\s+pas\b", r"\1"),
        (r"\b[Nn][’']((?:[\w’']+\s+){0,3}?[\w’']+?)\s+pas\b", r"\1"),
    ],
    "de": [(r"\bnicht\s+", ""), (r"\b([Kk])ein", lambda m: "Ein" if m[1] == "K" else "ein")],
    "es": [(r"\b[Nn]o\s+", "")],
    "it": [(r"\b[Nn]on\s+", "")],
    "ru": [(r"(?<!\w)[Нн]е\s+", "")],
}
EXPLETIVE = {"it": re.compile(r"finché[^,.;]*$")}  # expletive "finché ... non"


def pairs(spec: str, sep: str = "=") -> list[tuple[str, ...]]:
    """ "a=b; c=d" -> [("a", "b"), ("c", "d")]: the tables below stay short."""
    return [tuple(item.split(sep)) for item in spec.split("; ")]


# A glossary term (a pattern) = a synonym = another concept's term = English; "-": none.
TERMS = {
    lang: pairs(spec)
    for lang, spec in {
        "de": r"Kommandozone=Befehlszone=Exilzone=command zone; Kreaturen=-=Artefakte=creatures; "
        r"Versorgungssegments?=Unterhaltssegments=Endsegments=upkeep; Verlies\b=Kerker=-="
        r"dungeon; Kampfschaden=Gefechtsschaden=-=combat damage; Vorstoßmarker=Abenteuermarker"
        r"=-=venture marker; Zugreihenfolge=Spielerreihenfolge=-=-",
        "fr": r"zone de commandement=zone de commande=zone d’exil=command zone; créatures=-=artefacts="
        r"creatures; marqueur d’aventure=jeton d’aventure=-=venture marker; \bdonjon\b=cachot=-="
        r"dungeon; blessures de combat=dégâts de combat=-=combat damage; étape d’entretien=étape "
        r"de maintenance=étape de fin=upkeep",
        "es": r"zona de mando=zona de comando=zona de exilio=command zone; criaturas=-=artefactos="
        r"creatures; marcador de aventura=contador de aventura=-=venture marker; \bmazmorra\b="
        r"calabozo=-=dungeon; daño de combate=daño en combate=-=combat damage; mantenimiento=-="
        r"paso final=upkeep",
        "it": r"zona di comando=zona del comando=zona di esilio=command zone; \bstanza\b=camera=-="
        r"room; segnalino di avanzamento=segnalino avventura=-=venture marker; \bsquadra\b=-=-="
        r"team; danno da combattimento=danno di combattimento=-=combat damage; \bcreature\b=-="
        r"artefatti=-; mantenimento=sostentamento=sottofase finale=upkeep",
        "ru": r"командную зону=зону командования=зону изгнания=command zone; комнат=палат=-=-; "
        r"маркер путешествия=жетон путешествия=-=venture marker; существ\b=-=артефактов="
        r"creatures; боевой урон=урон в бою=-=combat damage; подземелье\b=-=-=dungeon; "
        r"шага поддержки=фазы поддержки=заключительного шага=upkeep",
    }.items()
}


def terms(lang: str, column: int) -> list[tuple[str, str]]:
    return [(row[0], row[column]) for row in TERMS[lang] if row[column] != "-"]


PHRASES = [
    "as long as the player keeps it",
    "even if another player has it",
    "at the beginning of the next turn",
    "which is not the same thing",
    "unless an effect says otherwise",
    "and then the game goes on",
]
NUMBERS = {  # pattern : its value : a word for a higher value (elided "qu’une" left alone)
    "ru": r"\bдва\b : 2 : три; \bоба\b : 2 : три; \bодно(?= или более) : 1 : два; "
    r"(?<=только )один\b : 1 : два",
    "it": r"\bdue\b : 2 : tre; \bentrambi\b : 2 : tutti e tre; \buna(?= o più) : 1 : due",
    "fr": r"\bdeux\b : 2 : trois; (?<![’'])\bune(?= ou plusieurs) : 1 : deux",
    "de": r"\bzwei\b : 2 : drei; \bbeide\b : 2 : alle drei; \beine(?= oder mehrere) : 1 : zwei",
    "es": r"\bdos\b : 2 : tres; \bambos\b : 2 : los tres; \buna(?= o más) : 1 : dos",
}
NUMBERS = {lang: pairs(spec, " : ") for lang, spec in NUMBERS.items()}
ORDINALS = {
    "fr": pairs(
        "première salle=deuxième salle; Premièrement=Troisièmement; "
        "premier joueur=deuxième joueur; dernière salle=première salle"
    ),
    "de": pairs(
        "ersten Raum=zweiten Raum; Erstens=Drittens; erste Spieler=zweite Spieler; "
        "letzten Raum=ersten Raum"
    ),
    "es": pairs(
        "primera sala=segunda sala; Primero=Tercero; primer jugador=segundo jugador; "
        "última sala=primera sala"
    ),
    "it": pairs(
        r"\bPrimo,=Terzo,; primo giocatore=secondo giocatore; "
        "nell'ultima stanza=nella prima stanza"
    ),
    "ru": pairs(
        "первую комнату=вторую комнату; Во-первых=В-третьих; первый игрок=второй игрок; "
        "последней комнате=первой комнате"
    ),
}
CONDITIONS = {
    "fr": r"[Ss]i|[Ss][’']il",
    "es": r"[Ss]i",
    "it": r"[Ss]e",
    "de": r"[Ww]enn|[Ff]alls",
    "ru": r"[Ее]сли",
}
# A German clause may carry an infinitive clause of its own ("wenn du angewiesen wirst, dich
# in Undercity vorzuwagen, ..."): it goes with it.
CLAUSE_TAIL = {"de": r"(?:(?:dich|sich) [^,.;:()]*zu\w*(?: \([^)]*\))?, )?"}
# CLDR quotation marks (outer, inner) per locale; German also prints »...«.
QUOTES_OK = {
    "ru": ["«»", "„“"],
    "it": ["«»", "“”"],
    "fr": ["«»"],
    "de": ["„“", "‚‘", "»«"],
    "es": ["“”", "‘’"],
}
QUOTE_PAIRS = ["«»", "„“", "“”", "‚‘", "‘’", '""', "»«"]
FOREIGN_QUOTES = {"ru": "“”", "it": "„“", "fr": "“”", "de": "«»", "es": "„“"}
ROOMS = r"Secret Entrance|Throne of the Dead Three|Lost Well|Catacombs|Archives|Entrée secrète"
OTHER_ROOMS = ["Cave Entrance", "Yawning Portal", "Trapped Entry", "Dark Pool"]
OTHER_DUNGEONS = ["Lost Mine of Phandelver", "Dungeon of the Mad Mage", "Tomb of Annihilation"]
UNDERCITY_TRANSLATED = {
    "de": "Unterstadt",
    "fr": "Sous-Cité",
    "es": "Subciudad",
    "it": "Sottocittà",
    "ru": "Подгород",
}


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE_END.split(text) if s.strip()]


def capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def replace_one(text, table, rng, every=False, skip=None):
    """Apply one (pattern, replacement) of ``table`` at one seeded match (at all of that
    pattern's matches with ``every``); None when nothing in the table matches."""
    hits = [
        (pat, rep, m)
        for pat, rep in table
        for m in re.finditer(pat, text)
        if not (skip and skip.search(text[: m.start()]))
    ]
    if not hits:
        return None
    pat, rep, m = rng.choice(hits)
    if every:
        return re.sub(pat, rep, text)
    out = text[: m.start()] + (m.expand(rep) if isinstance(rep, str) else rep(m)) + text[m.end() :]
    return capitalize(out) if m.start() == 0 else out


def misspell(name: str, rng: random.Random) -> str:
    at = rng.choice([i for i in range(1, len(name) - 1) if name[i].isalpha()])
    return name[:at] + name[at + 1 :]


def _condition(text, lang, rng):
    """The clause from a conditional word to its comma, removed (the rest capitalised)."""
    clause = rf"(?:(?<=^)|(?<=[.!?] )|(?<=, ))(?:{CONDITIONS[lang]})\b[^,.;:()—]+, "
    hits = list(re.finditer(clause + CLAUSE_TAIL.get(lang, ""), text))
    if not hits:
        return None
    m = rng.choice(hits)
    rest = text[m.end() :]
    return text[: m.start()] + (
        capitalize(rest) if m.start() == 0 or text[m.start() - 2] in ".!?" else rest
    )


def _quotes_wrong(text, lang, rng):
    for pair in QUOTE_PAIRS:
        a = text.find(pair[0])
        b = text.find(pair[1], a + 1) if a >= 0 else -1
        if a >= 0 and b > a:
            wrong = rng.choice([p for p in QUOTE_PAIRS if p not in QUOTES_OK[lang] and p != pair])
            return text[:a] + wrong[0] + text[a + 1 : b] + wrong[1] + text[b + 1 :]
    return None


def _name(text, rng, pattern, others):
    """A name replaced by one of ``others``, or misspelled."""

    def wrong(m):
        variant = rng.choice(others + ["misspelled"])
        return misspell(m[0], rng) if variant == "misspelled" else variant

    return replace_one(text, [(pattern, wrong)], rng)


TEXT_KINDS = {  # kind -> function(text, lang, rng) -> new text or None
    "negation": lambda t, lang, r: replace_one(t, NEGATIONS[lang], r, skip=EXPLETIVE.get(lang)),
    "synonym": lambda t, lang, r: replace_one(t, terms(lang, 1), r, every=True),
    "wrong-term": lambda t, lang, r: replace_one(t, terms(lang, 2), r, every=True),
    "english-word": lambda t, lang, r: replace_one(t, terms(lang, 3), r),
    "english-phrase": lambda t, lang, r: replace_one(
        t, [(r"(?<=\w), ", lambda m: f", {r.choice(PHRASES)}, ")], r
    ),
    "number": lambda t, lang, r: replace_one(
        t, [(p, str(int(v) + r.choice((1, 2)))) for p, v, _ in NUMBERS[lang]], r
    ),
    "number-word": lambda t, lang, r: replace_one(t, [(p, w) for p, _, w in NUMBERS[lang]], r),
    "ordinal": lambda t, lang, r: replace_one(t, ORDINALS[lang], r),
    "condition": _condition,
    "quotes-wrong": _quotes_wrong,
    "quotes-foreign": lambda t, lang, r: replace_one(  # three words, not the first or last
        t, [(r"(?<=\w )\w+ \w+ \w+(?= \w)", lambda m: m[0].join(FOREIGN_QUOTES[lang]))], r
    ),
    "room-name": lambda t, lang, r: _name(t, r, ROOMS, OTHER_ROOMS),
    "card-name": lambda t, lang, r: _name(
        t, r, r"\bUndercity\b", OTHER_DUNGEONS + [UNDERCITY_TRANSLATED[lang]]
    ),
}
KINDS = [
    "negation",
    "date-swap",
    "synonym",
    "wrong-term",
    "english-word",
    "english-phrase",
    "number",
    "number-word",
    "ordinal",
    "deleted",
    "sentence-dropped",
    "sentence-moved",
    "condition",
    "quotes-wrong",
    "quotes-foreign",
    "room-name",
    "card-name",
]


def mutate(kind, rulings, lang, rng):
    """(new rulings, touched 1-based positions, what changed), or None if nothing fits."""
    new = [list(r) for r in rulings]
    order = rng.sample(range(len(new)), len(new))
    if kind == "deleted":
        return new[: order[0]] + new[order[0] + 1 :], [order[0] + 1], "ruling removed"
    for i in order:
        date, text = new[i]
        if kind == "sentence-dropped" and len(parts := sentences(text)) >= 2:
            dropped = parts.pop(rng.randrange(len(parts)))
            new[i][1] = " ".join(parts)
            return new, [i + 1], f"“{dropped[:40]}…” removed"
        if kind == "sentence-moved" and len(parts := sentences(text)) >= 2:
            moved = parts.pop(rng.randrange(len(parts)))
            j = rng.choice([k for k in order if k != i])
            new[i][1], new[j][1] = " ".join(parts), f"{new[j][1]} {moved}"
            return new, [i + 1, j + 1], f"“{moved[:40]}…” moved to #{j + 1}"
        if (
            kind == "date-swap"
            and (m := DATE.match(date))
            and m[1]
            and m[1] != m[3]
            and int(m[1]) <= 12
        ):
            new[i][0] = f"{m[3]}{m[2]}{m[1]}{m[2]}{m[4]}"
            return new, [i + 1], f"{date} -> {new[i][0]}"
        if kind in TEXT_KINDS and (out := TEXT_KINDS[kind](text, lang, rng)) not in (None, text):
            new[i][1] = out
            return new, [i + 1], _diff(text, out)
    return None


def _diff(old: str, new: str) -> str:
    """The changed words, as "before -> after"."""
    a = b = 0
    while a < min(len(old), len(new)) and old[a] == new[a]:
        a += 1
    while b < min(len(old), len(new)) - a and old[-1 - b] == new[-1 - b]:
        b += 1
    a = old.rfind(" ", 0, a) + 1  # whole words on both sides
    tail = old[len(old) - b :]
    b -= tail.find(" ") if " " in tail else len(tail)
    return f"“{old[a : len(old) - b][:40]}” -> “{new[a : len(new) - b][:40]}”"
