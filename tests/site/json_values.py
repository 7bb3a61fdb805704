"""Hypothesis strategies for JSON-like values, shared by the data dump's property tests."""

from __future__ import annotations

from hypothesis import strategies as st

#: Scalars json and orjson may write differently: big integers, floats (NaN, exponents), text.
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text()
)
