"""helpers/type_text.py: a type split at a separator outside brackets."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pytest_postgates.helpers.type_text import split_top_level


def test_a_separator_inside_brackets_does_not_split() -> None:
    assert split_top_level("A | B[C | D] | None", "|") == ["A", "B[C | D]", "None"]
    assert split_top_level("Map<K, V>, (a, b) => void", ",", "<>()") == [
        "Map<K, V>",
        "(a, b) => void",
    ]
    assert split_top_level("a,,b", ",") == ["a", "", "b"]  # empty parts are kept


@given(st.lists(st.text(alphabet="abcXY ", min_size=1), min_size=1, max_size=5))
def test_parts_without_brackets_come_back_stripped(parts: list[str]) -> None:
    assert split_top_level("|".join(parts), "|") == [part.strip() for part in parts]
