"""Gate 15 on the keywords of a dataclass that extends a class outside the product (issue
26, natural drift wave 7: ``SFTConfig(...)``, a dataclass over transformers'
``TrainingArguments``): its constructor takes the fields of the dataclass and of all its
bases, so a base outside the product decides too. One read in the model of the installed
dependency it is imported from adds its members; one that cannot be read leaves a keyword
that no product class of the lineage declares unjudged, with the reason (never a finding:
the base may declare it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

FILES = {
    "pyproject.toml": "[project]\nname = 'tunekit'\nversion = '1'\n",
    "tunekit/__init__.py": (
        "from tunekit.config import LocalConfig, TuneConfig, WorkerConfig\n"
        "__all__ = ['LocalConfig', 'TuneConfig', 'WorkerConfig']\n"
    ),
    "tunekit/base.py": (
        "from dataclasses import dataclass\n"
        "from transformers import TrainingArguments\n\n"
        "@dataclass\nclass BaseConfig(TrainingArguments):\n    report_every: int = 10\n"
    ),
    "tunekit/config.py": (
        "import threading\n"
        "from dataclasses import dataclass\n"
        "from tunekit.base import BaseConfig\n\n"
        "@dataclass\nclass TuneConfig(BaseConfig):\n    max_length: int = 1024\n\n"
        "@dataclass\nclass WorkerConfig(threading.Thread):\n    retries: int = 0\n\n"
        "@dataclass\nclass LocalConfig:\n    max_length: int = 1024\n"
    ),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("tunekit"), FILES)


def test_a_base_that_cannot_be_read_leaves_other_keywords_unjudged(
    tmp_path: Path, repo: Path
) -> None:
    code = (
        "from tunekit import TuneConfig\n"
        "args = TuneConfig(max_length=2048, report_every=5, per_device_train_batch_size=4,\n"
        "                  max_seq_length=4096)\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == []
    reasons = unjudged_reasons(card)
    assert any(
        "max_seq_length" in r and "extends TrainingArguments, outside the product's code" in r
        for r in reasons
    ), reasons
    assert not any("max_length=" in r or "report_every" in r for r in reasons), reasons


def test_a_base_read_in_a_dependency_model_adds_its_members(tmp_path: Path, repo: Path) -> None:
    code = "from tunekit import WorkerConfig\nw = WorkerConfig(retries=1, daemon=True, retrys=2)\n"
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [("keyword_argument", "WorkerConfig(retrys=)")]


def test_a_dataclass_of_the_product_alone_is_judged_whole(tmp_path: Path, repo: Path) -> None:
    code = "from tunekit import LocalConfig\nc = LocalConfig(max_length=1, max_seq_length=2)\n"
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [("keyword_argument", "LocalConfig(max_seq_length=)")]
