"""jsontext.indented writes exactly what json.dumps(sort_keys, indent=2, ensure_ascii=False)
writes, or raises exactly its error."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_postgates.jsontext import indented


def reference(data: Any) -> str:
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False)


# Text with every kind of character json escapes or keeps (controls, quotes, backslashes,
# non-ASCII, lone surrogates as a gate might read them from a bad file).
TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | TEXT
)
KEYS = TEXT  # one type a dict: keys of mixed types cannot be sorted (tested below)
VALUES = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(KEYS, inner, max_size=4)
    ),
    max_leaves=30,
)


@given(VALUES)
def test_the_text_is_json_dumps_text(data: Any) -> None:
    assert indented(data) == reference(data)


@given(
    st.dictionaries(st.integers(), LEAVES, max_size=4)
    | st.dictionaries(st.floats(allow_nan=False), LEAVES, max_size=4)
    | st.dictionaries(st.booleans(), LEAVES, max_size=2)
    | st.dictionaries(st.none(), LEAVES, max_size=1)
)
def test_non_string_keys_are_converted_like_json(data: dict[Any, Any]) -> None:
    assert indented(data) == reference(data)


class Number(int):
    def __repr__(self) -> str:
        return "not json"


class Ratio(float):
    def __repr__(self) -> str:
        return "not json"


def test_subclasses_of_int_and_float_are_written_as_their_base_value() -> None:
    data = {"n": Number(3), "r": Ratio(0.5), "t": (1, [True, None])}
    assert indented(data) == reference(data)


@pytest.mark.parametrize(
    "data",
    [
        {"a": object()},
        [1, {2: "x", "y": 3}],  # keys that cannot be sorted together
        {("tuple",): 1},
        {"s": {1, 2}},
    ],
)
def test_what_json_refuses_raises_its_error(data: Any) -> None:
    with pytest.raises(TypeError) as expected:
        reference(data)
    with pytest.raises(TypeError) as got:
        indented(data)
    assert str(got.value) == str(expected.value)


def test_a_circular_structure_raises_json_error() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference detected"):
        indented(loop)


def test_deep_nesting_is_json_text_or_json_error() -> None:
    deep: Any = "leaf"
    for _ in range(200):
        deep = {"k": [deep]}
    assert indented(deep) == reference(deep)
