"""bench/ablation.py: its rule list and its table, without the mirrors the runs need."""

from __future__ import annotations

import pytest

from pytest_postgates.helpers.anchor_rules import RULES as ANCHORS
from pytest_postgates.helpers.dependency_rules import RULES as DEPENDENCY_RULES
from pytest_postgates.helpers.history_cues import RULES as CUE_RULES
from pytest_postgates.helpers.model_grounding import RULES
from pytest_postgates.helpers.page_names import RULES as PAGE_RULES
from pytest_postgates.helpers.past_names import RULES as PAST_RULES
from tests.helpers import load_bench

ablation = load_bench("ablation", "ablation.py")


def test_every_declared_model_rule_anchor_and_the_history_cue_can_be_turned_off() -> None:
    rules = (*RULES, *ANCHORS, *PAGE_RULES, *PAST_RULES, *CUE_RULES, *DEPENDENCY_RULES)
    declared = {rule.name for rule in rules}
    assert set(ablation.ABLATABLE) == declared | {"historical", "linked-elsewhere"}


def test_an_unknown_rule_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        ablation.main(["--rules", "no-such-rule"])
    assert "not a rule that can be turned off" in capsys.readouterr().err


def test_a_line_shows_the_change_against_every_rule_on() -> None:
    base = {
        "findings": 900,
        "defect": 5,
        "labelled": 135,
        "precision": 5 / 135,
        "labelled_flagged": {"defect": 9, "false": 200},
    }
    off = {"findings": 1000, "defect": 5, "labelled": 155, "precision": 5 / 155,
           "labelled_flagged": {"defect": 8, "false": 230}}  # fmt: skip
    line = ablation._line("historical", off, base)
    assert "findings 1000 (+100)" in line
    assert "defects 8 (-1), false 230 (+30)" in line and "precision 3.2% (5/155)" in line
