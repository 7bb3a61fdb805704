"""Alignment: one group per ruling across languages and cards, under reorderings and changes."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from kb import align, store
from kb.align import scoring as align_scoring
from kb.align import units as align_units
from kb.corpus import parse
from kb.reference.glossary import load as load_glossary


def read_seed(path: Path) -> tuple[str, list[tuple[str, str]]]:
    """A seed file as (card, [(date line, text)]), dates as written."""
    blocks = path.read_text(encoding="utf-8").strip().split("\n\n")
    return blocks[0], list(zip(blocks[1::2], blocks[2::2]))


def write_file(folder: Path, name: str, card: str, rulings: list[tuple[str, str]]) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "\n\n".join(f"{date}\n\n{text}" for date, text in rulings)
    path.write_text(f"{card}\n\n{body}\n", encoding="utf-8")
    return path


def stored_rows(tmp_path: Path, paths: list[Path]) -> tuple[object, list[dict]]:
    db = store.open_db(tmp_path / "rulings.db")
    store.store_files(db, parse.parse_files([str(p) for p in paths]))
    return db, store.rulings(db)


def partition(groups) -> set[frozenset]:
    """Groups as sets of (lang, card, text): independent of ids, paths and order."""
    return {
        frozenset((m.ruling["lang"], m.ruling["card"], m.ruling["text"]) for m in g.memberships)
        for g in groups
    }


@pytest.fixture(scope="module")
def seed_groups(tmp_path_factory):
    paths = sorted((Path(__file__).parent.parent / "rulings").glob("*.txt"))
    _, rows = stored_rows(tmp_path_factory.mktemp("seeds"), paths)
    return align.align(rows)


def test_seeds_make_ten_groups_of_five_languages(seed_groups):
    assert len(seed_groups) == 10
    for group in seed_groups:
        langs = [m.ruling["lang"] for m in group.memberships]
        assert sorted(langs) == sorted(["ru", "it", "fr", "de", "es"])
        # The seed files list the rulings in the same order: a group is one position.
        assert len({m.ruling["position"] for m in group.memberships}) == 1
        assert all(
            m.score is not None and m.score > align_scoring.WEAK and not m.weak
            for m in group.memberships
        )


def test_group_ids_are_rule_and_fingerprint_and_unique(seed_groups):
    ids = [g.id for g in seed_groups]
    assert len(set(ids)) == 10
    for group in seed_groups:
        rule, fingerprint = group.id.rsplit("-", 1)
        assert fingerprint == group.fingerprint == align_units.fingerprint(group.signature)
        assert rule[0].isdigit()


def test_shuffled_files_give_the_same_groups_and_ids(seed_groups, tmp_path, seeds):
    rng = random.Random(7)
    paths = []
    for index, seed in enumerate(seeds):
        card, rulings = read_seed(seed)
        paths.append(
            write_file(tmp_path, f"z{9 - index}.txt", card, rng.sample(rulings, len(rulings)))
        )
    _, rows = stored_rows(tmp_path, paths)
    shuffled = align.align(rows)
    assert partition(shuffled) == partition(seed_groups)
    assert [g.id for g in shuffled] == [g.id for g in seed_groups]


def test_a_ruling_missing_in_one_language_leaves_a_group_without_it(tmp_path, seeds):
    paths = []
    for seed in seeds:
        card, rulings = read_seed(seed)
        if "fr-" in seed.name:
            dropped = rulings.pop(5)
        paths.append(write_file(tmp_path, seed.name, card, rulings))
    _, rows = stored_rows(tmp_path, paths)
    groups = align.align(rows)
    assert len(groups) == 10
    sizes = sorted(len(g.memberships) for g in groups)
    assert sizes == [4] + [5] * 9
    (short,) = [g for g in groups if len(g.memberships) == 4]
    assert "fr" not in {m.ruling["lang"] for m in short.memberships}
    assert dropped[1] not in {m.ruling["text"] for g in groups for m in g.memberships}


def test_an_extra_ruling_in_one_language_is_a_group_of_its_own(tmp_path, seeds):
    extra = "Un joueur ne peut avoir qu’un seul donjon dans la zone de commandement."
    paths = []
    for seed in seeds:
        card, rulings = read_seed(seed)
        if "fr-" in seed.name:
            rulings.insert(3, ("10/06/2022", extra))
        paths.append(write_file(tmp_path, seed.name, card, rulings))
    _, rows = stored_rows(tmp_path, paths)
    groups = align.align(rows)
    assert len(groups) == 11
    (alone,) = [g for g in groups if len(g.memberships) == 1]
    assert alone.memberships[0].ruling["text"] == extra
    assert alone.memberships[0].score is None and alone.memberships[0].evidence["alone"]


def test_the_same_text_on_many_cards_is_one_group(tmp_path, seeds):
    paths = []
    for seed in seeds:
        card, rulings = read_seed(seed)
        paths.append(write_file(tmp_path, seed.name, card, rulings))
        paths.append(write_file(tmp_path, "copy-" + seed.name, card + " II", rulings))
    _, rows = stored_rows(tmp_path, paths)
    groups = align.align(rows)
    assert len(groups) == 10
    for group in groups:
        assert len(group.memberships) == 10
        per_lang_card = [(m.ruling["lang"], m.ruling["card_id"]) for m in group.memberships]
        assert len(set(per_lang_card)) == len(per_lang_card)
        assert all(m.evidence["same_text_cards"] == 2 for m in group.memberships)


def test_a_card_repeating_a_text_keeps_one_text_per_language_per_card(tmp_path, seeds):
    card, rulings = read_seed(seeds[0])
    path = write_file(tmp_path, "de.txt", card, rulings + [rulings[2]])
    _, rows = stored_rows(tmp_path, [path] + list(seeds[1:]))
    groups = align.align(rows)
    for group in groups:
        keys = [(m.ruling["lang"], m.ruling["card_id"]) for m in group.memberships]
        assert len(keys) == len(set(keys))
    assert len(groups) == 11


def test_an_initiative_ruling_and_its_monarch_twin_are_two_groups(tmp_path, seeds):
    glossary = load_glossary()
    paths = []
    for seed in seeds:
        card, rulings = read_seed(seed)
        lang = parse.parse_file(seed).lang
        date, text = rulings[5]  # only one player can have the initiative at a time
        twin = text
        for m in reversed([m for m in glossary.find(text, lang) if m.concept == "initiative"]):
            twin = twin[: m.start] + glossary.get("monarch").term(lang) + twin[m.end :]
        assert twin != text
        paths.append(write_file(tmp_path, seed.name, card, rulings))
        paths.append(write_file(tmp_path, "monarch-" + seed.name, card + " M", [(date, twin)]))
    _, rows = stored_rows(tmp_path, paths)
    groups = align.align(rows)
    assert len(groups) == 11
    for group in groups:
        about = {frozenset(m.unit.contrast) for m in group.memberships}
        assert len(about) == 1, group.id
        assert len(group.memberships) == 5


FIRST_STRIKE = {  # French Magic's keyword "initiative" is first strike, not the designation
    "ru": (
        "Рыцарь Рассвета",
        [
            "Существо с Двойным ударом наносит боевые повреждения дважды.",
            "Если Рыцарь Рассвета получает Первый удар до конца хода после шага боевых "
            "повреждений Первого удара, он не наносит повреждения второй раз.",
        ],
    ),
    "it": (
        "Cavaliere dell'Alba",
        [
            "Una creatura con doppio attacco infligge danno da combattimento due volte.",
            "Se il Cavaliere dell'Alba acquisisce attacco improvviso fino alla fine del turno dopo "
            "la sottofase di danno da combattimento di attacco improvviso, non infligge danno una "
            "seconda volta.",
        ],
    ),
    "fr": (
        "Chevalier de l'aube",
        [
            "Une créature avec la double initiative inflige des blessures de combat deux fois.",
            "Si le Chevalier de l'aube acquiert l'initiative jusqu'à la fin du tour après l'étape "
            "de blessures de combat d'initiative, il n'inflige pas de blessures une seconde fois.",
        ],
    ),
    "de": (
        "Ritter der Morgendämmerung",
        [
            "Eine Kreatur mit Doppelschlag fügt zweimal Kampfschaden zu.",
            "Falls der Ritter der Morgendämmerung Erstschlag bis zum Ende des Zuges erhält, "
            "nachdem der Erstschlag-Kampfschadensschritt vorbei ist, fügt er kein zweites Mal "
            "Schaden zu.",
        ],
    ),
    "es": (
        "Caballero del Alba",
        [
            "Una criatura con la habilidad de dañar dos veces hace daño de combate dos veces.",
            "Si el Caballero del Alba gana la habilidad de dañar primero hasta el final del turno "
            "después del paso de daño de combate de dañar primero, no hace daño una segunda vez.",
        ],
    ),
}


def test_first_strike_in_french_is_not_the_initiative(tmp_path, seeds):
    # A French ruling on a creature gaining first strike ("acquiert l'initiative") names no
    # designation: it is grouped with its translations, beside the seeds' initiative rulings.
    paths = [write_file(tmp_path, seed.name, *read_seed(seed)) for seed in seeds]
    for lang, (card, texts) in FIRST_STRIKE.items():
        paths.append(
            write_file(tmp_path, f"{lang}-knight.txt", card, [("2023-01-01", t) for t in texts])
        )
    _, rows = stored_rows(tmp_path, paths)
    groups = align.align(rows)
    knights = [g for g in groups if any(m.ruling["date"] == "2023-01-01" for m in g.memberships)]
    assert sorted(len(g.memberships) for g in knights) == [5, 5]
    assert all(not m.unit.contrast for g in knights for m in g.memberships)


def test_a_mutilated_translation_is_reported_weak_not_forced(tmp_path, seeds):
    paths = []
    for seed in seeds:
        card, rulings = read_seed(seed)
        if "es-" in seed.name:
            date, text = rulings[7]
            rulings[7] = (date, text.split(". ")[0] + ".")  # keep one sentence of six
        paths.append(write_file(tmp_path, seed.name, card, rulings))
    _, rows = stored_rows(tmp_path, paths)
    groups = align.align(rows)
    (member,) = [
        m
        for g in groups
        for m in g.memberships
        if m.ruling["lang"] == "es" and m.ruling["position"] == 8
    ]
    assert member.weak
    assert member.evidence.get("alone") or member.evidence["missing"]
    lines = align.weak_report(groups)
    (line,) = [line for line in lines if "es-vidente" in line]
    assert f"es-vidente-del-pasaje.txt:{member.ruling['line']}: " in line
    assert "726.1-" in line  # the ruling it was cut from is named as a candidate


def test_store_tables_with_foreign_keys_and_readback(tmp_path, seeds):
    db, rows = stored_rows(tmp_path, seeds)
    glossary = load_glossary()
    align.store_groups(db, align.align(rows, glossary), glossary)
    tables = set(db.table_names())
    assert {"groups", "memberships", "ruling_concepts", "card_identities"} <= tables
    fks = {(fk.column, fk.other_table) for fk in db["memberships"].foreign_keys}
    assert fks == {("ruling_id", "rulings"), ("group_id", "groups")}
    assert {(fk.column, fk.other_table) for fk in db["card_identities"].foreign_keys} == {
        ("card_id", "cards")
    }
    problems = (
        sqlite3.connect(tmp_path / "rulings.db").execute("PRAGMA foreign_key_check").fetchall()
    )
    assert problems == []
    assert db["memberships"].count == 50
    read = align.groups(db)
    assert len(read) == 10
    for group in read:
        assert [m["lang"] for m in group["members"]] == ["ru", "it", "fr", "de", "es"]
        assert all(isinstance(m["evidence"], dict) and m["card_identity"] for m in group["members"])
    for row in db.query(
        "SELECT rc.*, r.text FROM ruling_concepts rc JOIN rulings r ON r.id = rc.ruling_id"
    ):
        assert row["text"][row["start"] : row["end"]] == row["surface"]
    identities = {r["card_id"]: r["identity"] for r in db["card_identities"].rows}
    assert identities["fr:Chasseur vengeur"] == identities["it:Cacciatore Vendicatore"]
    assert align.find_group(db, "999.9-" + read[0]["fingerprint"])["id"] == read[0]["id"]
    evidence = json.loads(next(db["memberships"].rows)["evidence"])
    assert {"concepts", "missing", "extra", "with"} <= set(evidence)


def numbered_cards(tmp_path: Path, cards: int) -> list[Path]:
    """Every seed file under ``cards`` card names; rulings 3, 5 and 8 name the card's number,
    so they are one group per card, and the others are shared by all cards."""
    paths = []
    for seed in sorted((Path(__file__).parent.parent / "rulings").glob("*.txt")):
        if seed.name.startswith("it-"):
            continue  # it and fr name the same card; one file per language per card
        card, rulings = read_seed(seed)
        for k in range(1, cards + 1):
            texts = [
                (date, f"{k:04d}: {text}" if i in (3, 5, 8) else text)
                for i, (date, text) in enumerate(rulings, start=1)
            ]
            paths.append(write_file(tmp_path, f"{k}-{seed.name}", f"{card} {k}", texts))
    return paths


def test_blocking_keys_give_the_all_pairs_grouping(tmp_path, monkeypatch):
    _, rows = stored_rows(tmp_path, numbered_cards(tmp_path, 6))
    every_pair = partition(align.align(rows))
    monkeypatch.setattr(align_scoring, "ALL_PAIRS_LIMIT", 0)  # force the blocked path
    blocked = align.align(rows)
    assert partition(blocked) == every_pair
    # 7 shared rulings + 3 per card, each in the four languages of the files.
    assert len(blocked) == 7 + 3 * 6
    for group in blocked:
        numbers = {m.ruling["text"][:4] for m in group.memberships if m.ruling["text"][0].isdigit()}
        assert len(numbers) <= 1 and len({m.ruling["lang"] for m in group.memberships}) == 4


def test_candidate_pairs_keep_every_same_number_pair_and_skip_most_others(tmp_path, monkeypatch):
    _, rows = stored_rows(tmp_path, numbered_cards(tmp_path, 5))
    units = align_units.make_units(rows, load_glossary())
    monkeypatch.setattr(align_scoring, "ALL_PAIRS_LIMIT", 0)
    monkeypatch.setattr(align_scoring, "KEY_LIMIT", 12)
    pairs = align_scoring.candidate_pairs(units)
    assert all(units[i].lang != units[j].lang and i < j for i, j in pairs)
    # A card's numbered units are all proposed with each other...
    numbered = [i for i, u in enumerate(units) if u.numbers]
    for i in numbered:
        for j in numbered:
            if i < j and units[i].numbers == units[j].numbers and units[i].lang != units[j].lang:
                assert (i, j) in pairs
    # ...and far fewer pairs are scored than all of them.
    every = sum(
        1
        for i in range(len(units))
        for j in range(i + 1, len(units))
        if units[i].lang != units[j].lang
    )
    assert len(pairs) < every / 2
    # Units without a usable key (the shared ones: common concepts only) meet each other.
    shared = [i for i, u in enumerate(units) if not u.numbers]
    assert any(i in shared and j in shared for i, j in pairs)


def test_twin_ids_depend_on_each_groups_own_content():
    """A new twin renames no other group (unless it sorts first: then only the plain one)."""
    before = align.twin_ids("726.3-1df600", ["b" * 12, "c" * 12])
    after = align.twin_ids("726.3-1df600", ["b" * 12, "c" * 12, "d" * 12])
    assert before == ["726.3-1df600", f"726.3-1df600-{'c' * 12}"]
    assert after[:2] == before and after[2] == f"726.3-1df600-{'d' * 12}"
    first = align.twin_ids("726.3-1df600", ["b" * 12, "c" * 12, "a" * 12])
    assert first == [f"726.3-1df600-{'b' * 12}", f"726.3-1df600-{'c' * 12}", "726.3-1df600"]


def test_the_largest_twin_keeps_the_plain_id():
    """A ruling on 2,000 cards edited on one: the edited copy (1 ruling) sorts first by key but
    must not take the id (and the page address) of the 9,999 others."""
    ids = align.twin_ids("726.4-f90a33", ["b" * 12, "a" * 12], [9999, 1])
    assert ids == ["726.4-f90a33", f"726.4-f90a33-{'a' * 12}"]
    ties = align.twin_ids("726.4-f90a33", ["b" * 12, "a" * 12], [5, 5])
    assert ties == [f"726.4-f90a33-{'b' * 12}", "726.4-f90a33"]
    # A gone group's base that no group has any more (its texts came to link otherwise, with
    # the same signature: the id names what the links say) names none, in an incremental
    # build as in a full one.
    assert align.twin_ids("726.4-f90a33", [], []) == []


def test_a_units_score_does_not_depend_on_how_its_concept_set_was_built():
    rows = [
        {
            "id": f"f{i}#1",
            "source": f"f{i}",
            "card_id": f"{lang}:c",
            "lang": lang,
            "date": "2022-06-10",
            "position": 1,
            "text": text,
            "line": 3,
        }
        for i, (lang, text) in enumerate(
            [
                ("fr", "Un joueur qui a l’initiative peut la prendre à nouveau."),
                ("it", "Un giocatore che ha l'iniziativa può prenderla di nuovo."),
            ]
        )
    ]
    units = align_units.make_units(rows, load_glossary())
    scorer = align_scoring.Scorer(units)
    rebuilt = [align_units.Unit.from_features(u.lang, u.key, u.features(), u.bucket) for u in units]
    rebuilt[0].concepts = frozenset(reversed(sorted(rebuilt[0].concepts)))
    assert (
        scorer.value(*units)
        == align_scoring.Scorer.with_statistics(scorer.weights, scorer.lang_length).value(*rebuilt)
        > 0
    )
