"""A look-ahead or xdist worker loads the API model another process of its run built or
checked without checking it against the code again (api_model.vouch_in): the bytes it
reads must be the ones noted in the run's scratch folder, so a planted model is still
refused."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence import api_model as module
from pytest_postgates.evidence import model_check
from pytest_postgates.evidence.api_model import ApiModel, api_model, vouch_in
from pytest_postgates.evidence.index import open_index
from pytest_postgates.evidence.model_facts import ModelFacts
from tests.helpers import make_repo


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The model files checked against the code (model_check), one entry per check."""
    monkeypatch.delenv("POSTGATES_CACHE_KEY", raising=False)
    seen: list[str] = []
    original = model_check.unconfirmed

    def counted(*args: Any) -> Any:
        seen.append("checked")
        return original(*args)

    monkeypatch.setattr(model_check, "unconfirmed", counted)
    module._MODELS.clear()
    yield seen
    vouch_in(None)
    module._MODELS.clear()


def test_a_model_this_run_built_is_loaded_unchecked_by_its_other_processes(
    tmp_path: Path, checks: list[str]
) -> None:
    root = make_repo(tmp_path / "repo", {"pkg/__init__.py": "def hello(): ...\n"})
    cache, run = tmp_path / "cache", tmp_path / "run"
    run.mkdir()
    index = open_index(root, "HEAD", cache)
    vouch_in(run)
    api_model(index, cache)  # built: noted in the run's folder
    assert [p.name for p in run.iterdir()] == [
        next(cache.glob("apimodel-*.json")).stem + ".vouched"
    ]
    module._MODELS.clear()  # another process of the run (nothing in memory)
    again = api_model(index, cache)
    assert checks == []
    assert again.resolve(["pkg", "hello"]).outcome == "found"
    # A process of another run (no note) checks the file, and notes it once checked.
    vouch_in(None)
    module._MODELS.clear()
    api_model(index, cache)
    assert checks == ["checked"]


def test_a_model_changed_after_the_note_is_checked_and_a_planted_one_refused(
    tmp_path: Path, checks: list[str]
) -> None:
    root = make_repo(tmp_path / "repo", {"pkg/__init__.py": "def hello(): ...\n"})
    cache, run = tmp_path / "cache", tmp_path / "run"
    run.mkdir()
    index = open_index(root, "HEAD", cache)
    vouch_in(run)
    api_model(index, cache)
    (written,) = cache.glob("apimodel-*.json")
    data = json.loads(written.read_text())
    data["facts"]["modules"]["pkg"].append("explode")
    # Loaded as it is, the planted name would ground.
    planted = ApiModel(index.commit, ModelFacts.from_json(data["facts"]))
    assert planted.resolve(["pkg", "explode"]).outcome == "found"
    written.write_text(json.dumps(data, sort_keys=True))
    module._MODELS.clear()
    loaded = api_model(index, cache)
    assert checks  # checked (before the build lock and under it), refused, rebuilt
    assert loaded.resolve(["pkg", "explode"]).outcome == "missing"
    assert loaded.resolve(["pkg", "hello"]).outcome == "found"
