"""data/rulings.json: a group's head (all but its rulings: links, examples, findings) is
encoded by orjson where that gives json's bytes, and by json where it would not."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from json_values import SCALARS

from kb.site import dump

_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        | st.dictionaries(st.integers(), inner, max_size=2)  # json turns the keys to text
    ),
    max_leaves=16,
)
_AWKWARD = [1e-05, 5e-324, 1e16, 1e22, -0.0, 0.0001, 123456789012345.67, float("nan")]
_AWKWARD += [float("inf"), 2**64, "1e-05 NaN", "\ud800", {1: "x"}, [], {}]


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(st.text(max_size=8).filter(lambda k: k != "rulings"), _VALUES, max_size=6),
    st.sampled_from(_AWKWARD),
    st.lists(st.dictionaries(st.text(max_size=4), SCALARS, max_size=3), max_size=2),
)
def test_a_head_encoded_by_orjson_is_the_bytes_json_gives(head, awkward, rulings):
    group = {"id": "g", **head, "links": {"726.3": {"score": awkward}}, "rulings": rulings}
    whole = json.dumps(group, ensure_ascii=False, indent=2).replace("\n", "\n    ")
    assert b"".join(dump.indented(group)) == whole.encode("utf-8", "surrogatepass")


def test_a_real_head_takes_the_fast_way_and_gives_the_same_bytes(monkeypatch):
    """The usual head (no awkward number) is orjson's; and it is what json writes."""
    head = {
        "id": "726.3-abc",
        "rules": ["726.3"],
        "links": {"726.3": {"score": 0.75, "concepts": ["initiative"], "words": {"fr": ["x"]}}},
        "examples": [{"steps": [{"take_initiative": "Ann"}], "passed": True, "n": 2}],
        "findings": [],
    }
    group = {**head, "rulings": [{"id": "fr#1", "text": "« l’initiative »"}]}
    whole = json.dumps(group, ensure_ascii=False, indent=2).replace("\n", "\n    ")
    calls = []
    real = dump.orjson.dumps
    monkeypatch.setattr(dump.orjson, "dumps", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    assert b"".join(dump.indented(group)) == whole.encode("utf-8")
    assert head in calls
