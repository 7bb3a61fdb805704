"""Property-based: the parser raises nothing but its documented error on arbitrary input."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kb.corpus.parse import FileProblem, parse_bytes

LINES = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "10/06/2022",
            "31/02/2022",
            "10 juin 2022",
            "13/13/13",
            "",
            "  ",
            "\ufeff",
            "Un joueur qui a l’initiative la garde jusqu’à ce qu’un autre la prenne.",
        ]
    ),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINES, max_size=12), st.sampled_from(["\n", "\r\n", "\r"]))
def test_arbitrary_text_parses_or_fails_with_a_located_problem(lines, newline):
    data = newline.join(lines).encode("utf-8", "surrogatepass")
    try:
        parsed = parse_bytes(data, "x.txt", lang="fr")
    except FileProblem as problem:
        assert problem.line >= 1 and problem.message
        return
    assert parsed.card and parsed.rulings
    assert all(r.text.strip() for r in parsed.rulings)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes(data):
    try:
        parse_bytes(data, "x.txt")
    except FileProblem as problem:
        assert problem.line >= 1


CONTROL = "".join(
    map(chr, [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0)])
)


@settings(max_examples=200, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=12), st.data())
def test_a_control_character_is_a_problem_on_its_line(lines, data):
    """Control characters (issue 23): never in a parsed text; always reported, on the line
    of the first one (tab and line ends are text)."""
    at = data.draw(st.integers(0, len(lines) - 1))
    char = data.draw(st.sampled_from(CONTROL))
    line = lines[at]
    cut = data.draw(st.integers(0, len(line)))
    lines = [*lines[:at], line[:cut] + char + line[cut:], *lines[at + 1 :]]
    text = "\n".join(lines)
    assume(not any("\ud800" <= c <= "\udfff" for c in text))  # not UTF-8: reported first
    seen = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    first = next(i for i, c in enumerate(seen) if c in CONTROL)
    try:
        parse_bytes(text.encode("utf-8"), "x.txt", lang="fr")
    except FileProblem as problem:
        assert problem.line == seen.count("\n", 0, first) + 1, (problem.line, problem.message)
        assert ("NUL" if seen[first] == "\x00" else "control character") in problem.message
        return
    raise AssertionError("a control character was accepted")
