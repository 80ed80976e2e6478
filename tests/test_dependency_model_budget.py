"""A dependency's model is shared by every post of the run: its build is not charged to the
post that first asks for it (a large dependency, transformers' 2,000 modules, would
otherwise stop every post's gate at its ``gate_timeout`` and never be written, so that the
next post starts it again)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates import budget
from pytest_postgates.evidence import dependency_models
from pytest_postgates.evidence.api_model import build_model


def test_a_dependency_model_build_is_not_charged_to_the_post(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = build_model

    def slow_build(*args: Any, **kwargs: Any) -> Any:
        deadline = time.monotonic() + 0.6
        while time.monotonic() < deadline:  # busy Python work, as a model build is
            sum(range(1000))
        return real(*args, **kwargs)

    monkeypatch.setattr(dependency_models, "build_model", slow_build)
    module = tmp_path / "site" / "big" / "__init__.py"
    module.parent.mkdir(parents=True)
    module.write_text("def run(x: int) -> int:\n    return x\n", encoding="utf-8")
    files = {"big/__init__.py": module}
    with budget.limit(0.2, "a post"):
        model = dependency_models._cached_model("python", "big", "1.0", files, tmp_path, set())
    assert "run" in model.facts.modules.get("big", [])
    assert list(tmp_path.glob("depmodel-*.json")), "the model is written for the next post"
