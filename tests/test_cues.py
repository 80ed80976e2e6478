"""The example cues gates 2 and 7 share (pytest_postgates.helpers.cues): one word list,
read by both gates' patterns."""

from __future__ import annotations

import pytest

from pytest_postgates.helpers import cues, number_cues, outcome_rules


def test_both_gates_build_their_example_cues_from_the_shared_list() -> None:
    assert cues.EXAMPLE in outcome_rules.HYPOTHETICAL_CUE.pattern
    assert cues.EXAMPLE in number_cues.EXAMPLE_CUE.pattern


@pytest.mark.parametrize("phrase", ["for example", "For instance", "e.g."])
def test_each_shared_cue_is_a_cue_in_both_gates(phrase: str) -> None:
    # Gate 2: the cue just before a code span; gate 7: the cue near a number.
    assert outcome_rules.HYPOTHETICAL_CUE.search(f"a name, {phrase} `x`") is not None
    assert number_cues.EXAMPLE_CUE.search(f"a budget, {phrase} 500 ms") is not None
    # Not inside a longer word.
    assert outcome_rules.HYPOTHETICAL_CUE.search(phrase.replace(" ", "") + "s") is None


@pytest.mark.parametrize(
    ("before", "negated"),
    [
        ("There is no separate `", True),
        ("there's no dedicated `", True),
        ("There are no such `", True),
        # Usage, not absence: not a negation cue.
        ("It runs with `-a` and never with `", False),
        ("There is no separate step, and `", False),  # about something else
    ],
)
def test_the_shared_negation_cue_is_read_just_before_gate_2s_token(
    before: str, negated: bool
) -> None:
    assert cues.NEGATION in outcome_rules.NEGATED_CUE.pattern
    assert outcome_rules._cue_before(outcome_rules.NEGATED_CUE, before) is negated
