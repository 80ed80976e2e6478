"""The example cues gate 7 reads near a number (pytest_postgates.helpers.number_cues)."""

from __future__ import annotations

import pytest

from pytest_postgates.helpers import number_cues


@pytest.mark.parametrize("phrase", ["for example", "For instance", "e.g."])
def test_each_example_cue_is_a_cue_near_a_number(phrase: str) -> None:
    assert number_cues.EXAMPLE in number_cues.EXAMPLE_CUE.pattern
    assert number_cues.EXAMPLE_CUE.search(f"a budget, {phrase} 500 ms") is not None
    # Not inside a longer word.
    assert number_cues.EXAMPLE_CUE.search(phrase.replace(" ", "") + "s 500") is None
