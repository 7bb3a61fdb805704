"""The checks of issue 22 on the seeds (no English originals: the translations compared with
one another), each on a mistake of our own: what is found, at what severity, and that the
excerpt is the words or the sentence at fault, never the whole text."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kb.checks import sentences
from kb.checks.lexicon import occurrences
from kb.checks.load import load_corpus
from kb.checks.run import check_corpus
from kb.corpus.files import corpus_files
from kb.pipeline import build
from kb.pipeline.context import BuildContext

SEEDS = Path(__file__).resolve().parent.parent / "rulings"


def findings_after(tmp_path: Path, name: str, old: str, new: str, lang: str):
    corpus = tmp_path / "rulings"
    shutil.copytree(SEEDS, corpus)  # with the seeds' suppressions
    path = corpus / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    ctx = build.run_through(
        BuildContext(corpus=corpus_files([str(corpus)]), work=tmp_path), "align"
    )
    from kb.checks import suppressions

    accepted = [s for p in suppressions.discover(ctx.corpus) for s in suppressions.load(p)]
    report = check_corpus(load_corpus(ctx.db), accepted)
    texts = {r["id"]: r["text"] for r in ctx.db["rulings"].rows}
    found = [f for f in report.findings if f.lang == lang]
    for f in found:  # never the whole text
        assert f.excerpt == texts[f.ruling][f.start : f.end] if f.ruling else True
        assert (
            not f.ruling
            or f.excerpt != texts[f.ruling]
            or len(sentences.sentences(texts[f.ruling])) == 1
        ), f
    return found


def only(found, check):
    return [f for f in found if f.check == check]


def test_seeds_give_no_error_with_their_suppressions(tmp_path):
    found = findings_after(tmp_path, "fr-chasseur-vengeur.txt", "Un seul", "Un seul", "it")
    assert not [f for f in found if f.severity == "error"]


def test_a_negation_dropped_leaving_none_is_an_error_at_its_sentence(tmp_path):
    found = findings_after(
        tmp_path, "es-vidente-del-pasaje.txt", "pero no hace que tenga", "pero hace que tenga", "es"
    )
    [negation] = only(found, "negation")
    assert negation.severity == "error"
    assert negation.excerpt.startswith("Esto hace que ese jugador se adentre")
    assert negation.excerpt.endswith("varias designaciones de iniciativa.")


def test_a_negation_dropped_from_an_until_clause_is_found(tmp_path):
    # "tant qu'un effet n'instruit pas" is "until an effect instructs": without the "ne" the
    # French says "as long as"; the other languages' "until" counts as its negation.
    found = findings_after(
        tmp_path,
        "fr-chasseur-vengeur.txt",
        "tant qu’un effet n’instruit pas",
        "tant qu’un effet instruit",
        "fr",
    )
    [negation] = only(found, "negation")
    assert negation.severity == "warning" and negation.excerpt.startswith("Il n’y a pas")


def test_a_condition_cut_out_is_an_error_at_its_sentence(tmp_path):
    found = findings_after(
        tmp_path,
        "fr-chasseur-vengeur.txt",
        "Si vous êtes déjà dans la dernière salle, vous terminez",
        "Vous terminez",
        "fr",
    )
    [condition] = only(found, "condition")
    assert condition.severity == "error" and condition.excerpt.startswith("Vous terminez")


def test_a_number_replaced_is_an_error_naming_both_values(tmp_path):
    found = findings_after(
        tmp_path, "de-unterkellersaeuberung.txt", "Wenn beide Spieler", "Wenn drei Spieler", "de"
    )
    [number] = only(found, "number-mismatch")
    assert (number.severity, number.excerpt) == ("error", "drei")
    assert "(3) where the" in number.message and "(2)" in number.message


def test_an_ordinal_replaced_is_an_error(tmp_path):
    found = findings_after(
        tmp_path, "ru-issledovatel-podzemya.txt", "последней комнате", "первой комнате", "ru"
    )
    assert any(
        f.check == "number-mismatch" and f.severity == "error" and f.excerpt == "первой"
        for f in found
    )


def test_a_synonym_of_the_glossary_term_names_the_word_and_the_term(tmp_path):
    found = findings_after(
        tmp_path, "de-unterkellersaeuberung.txt", "Kommandozone", "Befehlszone", "de"
    )
    [synonym] = only(found, "term-synonym")
    assert synonym.severity == "warning" and synonym.excerpt == "Befehlszone"
    assert "“Befehlszone” where the glossary has “Kommandozone” (command_zone)" in synonym.message


def test_a_forbidden_term_is_reported_with_the_term_expected(tmp_path):
    found = findings_after(
        tmp_path, "fr-chasseur-vengeur.txt", "blessures de combat", "dégâts de combat", "fr"
    )
    [synonym] = only(found, "term-synonym")
    assert synonym.excerpt == "dégâts de combat"
    assert "where the glossary has “blessures de combat”" in synonym.message


def test_another_concepts_term_is_a_wrong_term(tmp_path):
    found = findings_after(
        tmp_path, "de-unterkellersaeuberung.txt", "Kommandozone", "Exilzone", "de"
    )
    [wrong] = only(found, "wrong-term")
    assert (wrong.severity, wrong.excerpt) == ("error", "Exilzone")
    assert "expected “Kommandozone”" in wrong.message


def test_a_misspelt_name_kept_in_english(tmp_path):
    found = findings_after(
        tmp_path,
        "it-cacciatore-vendicatore.txt",
        "non puoi iniziare un dungeon diverso da Undercity",
        "non puoi iniziare un dungeon diverso da Undercty",
        "it",
    )
    assert any(f.check == "term-synonym" and f.excerpt == "Undercty" for f in found)


def test_a_sentence_dropped_points_next_to_the_gap(tmp_path):
    found = findings_after(
        tmp_path,
        "es-vidente-del-pasaje.txt",
        " Una vez que se indica a un jugador que haga esto, tiene la "
        "iniciativa hasta que otro jugador tome la iniciativa.",
        "",
        "es",
    )
    [count] = only(found, "sentence-count")
    assert count.severity == "error" and count.excerpt.startswith("No hay iniciativa")
    assert "no counterpart of its sentence 2" in count.message


@pytest.mark.parametrize(
    "lang, text, count",
    [
        # "until" is "as long as not": counted the same in every language
        ("fr", "Il n’y a pas d’initiative tant qu’un effet n’instruit pas un joueur.", 2),
        ("it", "Non c'è iniziativa finché un effetto non lo richiede.", 2),
        ("ru", "Нет инициативы, пока эффект не предпишет.", 2),
        ("en", "A game has no initiative until an effect says so.", 2),
        ("de", "Es gibt keine Initiative, bis ein Effekt es sagt.", 2),
        # expletive negators are not negations
        ("it", "Non puoi, a meno che non ti venga richiesto.", 2),
        ("fr", "Vous ne pouvez pas, à moins qu’on ne vous le demande.", 2),
        ("en", "You can’t, unless you’re told to, and not otherwise.", 3),
        # Italian "non appena" is "as soon as", no negation
        ("it", "Si applica non appena un giocatore diventa il monarca.", 0),
        ("it", "Non appena lo fai, non puoi tornare indietro.", 1),
        # French "ne ... que" says "only": a "ne" with no "pas", "plus", "jamais", "rien",
        # "aucun" ... before the "que" of its clause is restrictive, not a negation
        ("fr", "Vous ne pouvez être que dans un seul donjon à la fois.", 0),
        ("fr", "Il n’y a qu’un seul monarque.", 0),
        ("fr", "Vous ne pouvez pas choisir le donjon que vous avez terminé.", 1),
        ("fr", "Il n’y a aucun donjon qu’il puisse choisir.", 1),
        ("fr", "Vous ne l’avez plus, même si c’est vous qu’il a choisi.", 1),
        # ... and "n'importe quel" is "any"
        ("fr", "Vous pouvez commencer n’importe quel donjon.", 0),
        # Italian and Spanish negative words before the verb negate without "non" / "no";
        # after a negator in their clause they agree with it (negative concord): counted once
        ("it", "Nessun effetto può togliertela.", 1),
        ("it", "Non c'è nessun monarca.", 1),
        ("it", "Niente può spostarla, e non puoi farlo.", 2),
        ("es", "Ningún jugador tiene la iniciativa.", 1),
        ("es", "No hay ningún monarca.", 1),
        ("es", "Nada puede moverla; nunca deja la zona.", 2),
        ("es", "No lo haces nunca.", 1),
        # negators that are one word: "нельзя" (cannot), "weder ... noch", "neither ... nor"
        ("ru", "Ее нельзя разыграть.", 1),
        ("de", "Sie sind weder Teil deines Decks noch deines Sideboards.", 1),
        ("de", "Zu Beginn des Spiels hat niemand die Initiative.", 1),
        ("en", "They're neither part of your deck nor your sideboard.", 1),
        # a negative word after "and" / "or" opens a clause of its own ("... y nadie roba")
        ("es", "No elige a nadie y nadie gana la partida.", 2),
        ("it", "Non sceglie nessuno e niente cambia.", 2),
        # "or not" is "whether or not", in every language: no clause is negated
        ("en", "It triggers whether or not you're the monarch.", 0),
        ("es", "Se dispara, seas o no el monarca.", 0),
        ("fr", "Elle se déclenche, que vous soyez le monarque ou non.", 0),
        ("de", "Sie wird ausgelöst, ob du der Monarch bist oder nicht.", 0),
        ("ru", "Она срабатывает, монарх вы или нет.", 0),
        # "however", "not ... either" are no negations; "tampoco" alone is one
        ("es", "Sin embargo, la tomas.", 0),
        ("fr", "Vous ne la gardez pas non plus.", 1),
        ("es", "Tampoco la robas.", 1),
        ("es", "No la robas tampoco.", 1),
        ("en", "You no longer have it.", 1),
        ("es", "Ya no la tienes.", 1),
        ("de", "Du bist nicht mehr der Monarch.", 1),
        # "rather than" is "and not"
        ("en", "It advances you rather than starting Undercity.", 1),
        ("ru", "Оно продвигает вас, а не начинает Undercity.", 1),
        ("ru", "Вместо этого монархом становится другой игрок.", 0),
        ("de", "Es bringt dich weiter, statt Undercity zu beginnen.", 1),
        # idioms for "nevertheless"
        ("ru", "Тем не менее вы становитесь монархом.", 0),
        ("es", "No obstante, la tomas.", 0),
        # French without "ne": "pas" or "jamais" alone negates ("mais pas deux fois")
        ("fr", "Vous l'obtenez une fois, mais pas deux.", 1),
        ("fr", "Seulement vers le bas, jamais vers le haut.", 1),
        ("fr", "Vous ne la perdez jamais.", 1),
        # "unless" in every language, and the answer "no"
        ("fr", "Vous la gardez, sauf si un adversaire la prend.", 1),
        ("de", "Du behältst sie, es sei denn, ein Gegner ergreift sie.", 1),
        ("de", "Die Antwort lautet Nein.", 1),
        ("it", "La risposta è no.", 1),
    ],
)
def test_negations_are_counted_per_language_with_expletives_left_out(lang, text, count):

    assert len(occurrences(text, lang, "negations")) == count


@pytest.mark.parametrize(
    "lang, text",
    [
        ("en", "You stop being the monarch."),
        ("es", "Dejas de tenerla."),
        ("fr", "Vous cessez d'être le monarque."),
        ("it", "Smetti di essere il monarca."),
        ("ru", "Вы перестаёте быть монархом."),
        ("de", "Die Fähigkeiten hören auf zu existieren."),
        # The German verb split around its subject, "auf" opening the infinitive clause.
        ("de", "Dann hörst du auf, der Monarch zu sein."),
        ("de", "Dann hört der andere Spieler auf, die Initiative zu haben."),
    ],
)
def test_verbs_of_ceasing_are_found_apart_from_negations(lang, text):
    assert len(occurrences(text, lang, "ceasing")) == 1
    assert occurrences(text, lang, "negations") == ()


def test_a_german_auf_after_a_subject_is_ceasing_only_before_its_clause():
    # "auf" is also a preposition: "hörst du auf den Namen" is no ceasing.
    assert occurrences("Hörst du auf den Namen des Monarchen?", "de", "ceasing") == ()


def test_no_longer_and_ceasing_to_have_say_the_same(tmp_path):
    # "больше не обладает" (no longer has) where the others say "cesse de l'avoir", "smette
    # di averla", "deja de tenerla" or "verliert sie": one negation or none, both right.
    found = findings_after(
        tmp_path,
        "ru-issledovatel-podzemya.txt",
        "перестает ею обладать",
        "больше не обладает ею",
        "ru",
    )
    assert not only(found, "negation")
