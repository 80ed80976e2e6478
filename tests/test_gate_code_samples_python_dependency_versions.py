"""Gate 15 on a keyword of a dataclass over a class of an installed dependency (issue 26:
trl's ``CPOConfig(warmup_ratio=)``, a field transformers 5 removed from
``TrainingArguments`` and the 4.x releases trl's range allows still have). A name the
installed version lacks is unjudged, with the reason, when the installed version is outside
the range the product declares; inside it, the versions the range allows besides the
installed one cannot be read offline, and a name the one that can be read lacks is a
finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.evidence.dependency_models import DEPENDENCY_PATH_ENV
from pytest_postgates.evidence.dependency_versions import version_doubt
from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

TRAINLIB = (
    "from dataclasses import dataclass\n\n"
    "@dataclass\nclass TrainingArguments:\n"
    "    learning_rate: float = 1e-3\n    warmup_steps: float = 0\n"
)
CODE = "from tunekit import TuneConfig\nc = TuneConfig(learning_rate=1.0, warmup_ratio=0.1)\n"


def _site(root: Path) -> Path:
    """trainlib 5.0 as pip installs it."""
    info = root / "trainlib-5.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: trainlib\nVersion: 5.0\n")
    (info / "RECORD").write_text("trainlib/__init__.py,,\n")
    (root / "trainlib").mkdir()
    (root / "trainlib" / "__init__.py").write_text(TRAINLIB)
    return root


def _repo(root: Path, requirement: str) -> Path:
    return make_repo(
        root,
        {
            "pyproject.toml": f"[project]\nname = 'tunekit'\ndependencies = ['{requirement}']\n",
            "tunekit/__init__.py": (
                "from dataclasses import dataclass\n"
                "from trainlib import TrainingArguments\n\n"
                "@dataclass\nclass TuneConfig(TrainingArguments):\n    max_length: int = 1\n"
            ),
        },
    )


def test_a_name_the_installed_version_lacks_is_unjudged_when_it_is_outside_the_range(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DEPENDENCY_PATH_ENV, str(_site(tmp_path / "site")))
    card = sample_card(CODE, "python", tmp_path, _repo(tmp_path / "repo", "trainlib>=6"))
    assert sample_violations(card) == []
    reasons = unjudged_reasons(card)
    why = "installed trainlib 5.0 is outside the range the product declares (>=6)"
    assert any("warmup_ratio=" in r and why in r for r in reasons), reasons
    assert not any("learning_rate=" in r for r in reasons), reasons  # installed: judged


@pytest.mark.parametrize("requirement", ["trainlib==5.0", "trainlib>=4.5", "trainlib"])
def test_a_name_no_version_that_can_be_read_has_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, requirement: str
) -> None:
    # The installed version is inside the range: the other versions the range allows
    # cannot be read offline, so the one that can decides.
    monkeypatch.setenv(DEPENDENCY_PATH_ENV, str(_site(tmp_path / "site")))
    card = sample_card(CODE, "python", tmp_path, _repo(tmp_path / "repo", requirement))
    assert sample_violations(card) == [("keyword_argument", "TuneConfig(warmup_ratio=)")]


def test_version_doubt_reads_python_and_npm_ranges() -> None:
    assert version_doubt("x", "python", "5.0.0", ["==5.0"]) == ""
    assert "outside" in version_doubt("x", "python", "5.0.0", ["==4.0"])
    assert "not read" in version_doubt("x", "python", "5.0.0", ["^5.0"])  # poetry's, unread
    assert "allows versions not installed" in version_doubt("x", "python", "5.0", ["~=5.0"])
    assert version_doubt("x", "javascript", "5.0.0", ["5.0.0"]) == ""
    assert "outside" in version_doubt("x", "javascript", "5.0.0", ["=4.0.0"])
    assert "allows versions not installed" in version_doubt("x", "javascript", "5.0.0", ["^5.0.0"])
    assert "no version range" in version_doubt("x", "javascript", "5.0.0", None)
    # An extra's bare `x[kernels]` beside `x>=4.5` leaves the range `>=4.5`.
    assert "declares x>=4.5, which allows" in version_doubt("x", "python", "5.0", [">=4.5", ""])
    assert version_doubt("x", "python", "5.0", ["==5.0", ""]) == ""
