"""Property-based: the parser raises nothing but its documented error on arbitrary input."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.corpus.parse import FileProblem, parse_bytes

LINES = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["10/06/2022", "31/02/2022", "10 juin 2022", "13/13/13", "", "  ", "\ufeff",
                     "Un joueur qui a l’initiative la garde jusqu’à ce qu’un autre la prenne."]),
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
