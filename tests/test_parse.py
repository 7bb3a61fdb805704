"""Parser: the seed files, every documented error, and tolerated variants."""

from __future__ import annotations

import pytest

from kb.corpus.parse import parse_file, parse_files
from kb.errors import KbError

SEED_CARDS = {
    "ru": "Исследователь Подземья",
    "it": "Cacciatore Vendicatore",
    "fr": "Chasseur vengeur",
    "de": "Unterkellersäuberung",
    "es": "Vidente del Pasaje",
}

FR_TEXT = "Un joueur qui a actuellement l’initiative peut la prendre à nouveau et s’aventurer dans Undercity."


def test_each_seed_parses_with_language_card_and_dates(seeds):
    parsed = {p.lang: p for p in map(parse_file, seeds)}
    assert sorted(parsed) == sorted(SEED_CARDS)
    for lang, card in SEED_CARDS.items():
        assert parsed[lang].card == card
        assert len(parsed[lang].rulings) == 10
        assert {r.date for r in parsed[lang].rulings} == {"2022-06-10"}
        assert [r.position for r in parsed[lang].rulings] == list(range(1, 11))
        assert not parsed[lang].lang_stated


def test_texts_are_kept_exactly(seeds):
    for path in seeds:
        raw = path.read_text(encoding="utf-8")
        for ruling in parse_file(path).rulings:
            assert ruling.text in raw
            assert raw.split("\n")[ruling.line - 1] == ruling.text.split("\n")[0]
    fr = next(parse_file(p) for p in seeds if "fr-" in p.name)
    assert "’" in fr.rulings[0].text and "«" in fr.rulings[7].text
    de = next(parse_file(p) for p in seeds if "de-" in p.name)
    assert "ß" in de.rulings[6].text or any("ß" in r.text for r in de.rulings)


def test_bom_crlf_and_trailing_spaces_give_the_same_rulings(seeds, write):
    original = seeds[0].read_bytes()
    variant = b"\xef\xbb\xbf" + original.replace(b"\n", b"  \r\n")
    a, b = parse_file(seeds[0]), parse_file(write("variant.txt", variant))
    assert (a.card, a.lang) == (b.card, b.lang)
    assert [(r.date, r.text, r.line) for r in a.rulings] == [
        (r.date, r.text, r.line) for r in b.rulings
    ]


def test_multi_paragraph_ruling(write):
    path = write(
        "x.txt",
        f"Chasseur vengeur\n\n10/06/2022\n\n{FR_TEXT}\n\nDeuxième paragraphe de la même décision.\n\n11/06/2022\n\n{FR_TEXT}\n",
    )
    rulings = parse_file(path).rulings
    assert len(rulings) == 2
    assert rulings[0].text == f"{FR_TEXT}\n\nDeuxième paragraphe de la même décision."
    assert rulings[1].date == "2022-06-11"


def test_stated_language_overrides_detection(write):
    path = write("x.txt", f"Chasseur vengeur\n\n10/06/2022\n\n{FR_TEXT}\n")
    parsed = parse_file(path, lang="es")
    assert parsed.lang == "es" and parsed.lang_stated


@pytest.mark.parametrize(
    "content, line, message",
    [
        (b"", 1, "empty file"),
        (b"  \n\n \n", 1, "empty file"),
        (
            b"Chasseur vengeur\n\n10/06/2022\n\nUn joueur \xff\xfe a l'initiative.\n",
            5,
            "not UTF-8: byte 0xff",
        ),
        (f"Chasseur vengeur\n\n{FR_TEXT}\n".encode(), 3, "ruling text with no date before it"),
        (
            f"Chasseur vengeur\n\n10/06/2022\n\n{FR_TEXT}\n\n11/06/2022\n".encode(),
            7,
            "date 2022-06-11 has no ruling text",
        ),
        (
            f"Chasseur vengeur\n\n31/02/2022\n\n{FR_TEXT}\n".encode(),
            3,
            "impossible date '31/02/2022'",
        ),
        (f"Chasseur vengeur\n\n06/13/2022\n\n{FR_TEXT}\n".encode(), 3, "there is no month 13"),
        (f"10/06/2022\n\n{FR_TEXT}\n".encode(), 1, "no card name"),
        (b"Card\n\n10/06/2022\n\nUndercity Undercity.\n", 1, "cannot decide the language"),
        (f"Chasseur vengeur\n\n10 juin 2022\n\n{FR_TEXT}\n".encode(), None, None),
        (
            f"Chasseur vengeur\n\n10 jiun 2022\n\n{FR_TEXT}\n".encode(),
            3,
            "unknown month name 'jiun'",
        ),
    ],
)
def test_errors_name_file_line_and_problem(write, content, line, message):
    path = write("bad.txt", content)
    if message is None:
        assert parse_file(path).rulings[0].date == "2022-06-10"
        return
    with pytest.raises(KbError) as caught:
        parse_file(path)
    [problem] = caught.value.problems
    assert problem.path == str(path) and problem.line == line
    assert message in problem.message
    assert str(problem).startswith(f"{path}:{line}: ")


def test_all_bad_files_are_reported(seeds, write):
    bad1, bad2 = write("a.txt", b""), write("b.txt", b"\xff")
    with pytest.raises(KbError) as caught:
        parse_files([str(seeds[0]), str(bad1), str(bad2)])
    assert [p.path for p in caught.value.problems] == [str(bad1), str(bad2)]
