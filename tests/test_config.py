"""Settings: conversion, validation and the environment overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.config import (
    Settings,
    SettingsError,
    apply,
    find_pyproject,
    from_environment,
    from_pyproject,
)


def test_apply_converts_each_kind(tmp_path: Path) -> None:
    settings = apply(
        Settings(),
        {
            "repo": "repo",
            "only": "11, 13",
            "offline": "true",
            "known_entities": ["Yama"],
            "paths": ["drafts"],
            "body_line_floor": 150,
            "gates": {"call_graph_claims": {"advisory": False}},
        },
        tmp_path,
        "test",
    )
    assert settings.repo == (tmp_path / "repo").resolve()
    assert settings.only == frozenset({11, 13})
    assert settings.offline is True
    assert settings.known_entities == ("Yama",)
    assert settings.paths == ((tmp_path / "drafts").resolve(),)
    assert settings.body_line_floor == 150
    assert settings.is_advisory("call_graph_claims", True) is False
    assert settings.is_advisory("hhem", True) is True


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"repoo": "x"}, "unknown postgates setting"),
        ({"only": "two"}, "gate ids"),
        ({"offline": "maybe"}, "true or false"),
        ({"body_line_floor": "many"}, "an integer"),
        ({"known_entities": [1, 2]}, "a list of strings"),
        ({"gates": {"call_graph_claims": {"threshold": 3}}}, "only 'advisory'"),
    ],
)
def test_bad_settings_are_reported_by_name(
    values: dict[str, object], message: str, tmp_path: Path
) -> None:
    with pytest.raises(SettingsError, match=message):
        apply(Settings(), values, tmp_path, "test")


def test_seed_environment_variables_win() -> None:
    settings = from_environment(
        Settings(), {"CALL_GRAPH_CLAIM_THRESHOLD": "9", "SYMBOL_GROUNDING_THRESHOLD": "90.5"}
    )
    assert (settings.call_graph_threshold, settings.symbol_grounding_threshold) == (9, 90.5)
    with pytest.raises(SettingsError, match="CALL_GRAPH_CLAIM_THRESHOLD"):
        from_environment(Settings(), {"CALL_GRAPH_CLAIM_THRESHOLD": "six"})


def test_nearest_pyproject_with_a_postgates_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.postgates]\nref = "main"\n')
    inner = tmp_path / "blog"
    inner.mkdir()
    (inner / "pyproject.toml").write_text('[project]\nname = "x"\n')  # no table: skipped
    found = find_pyproject(inner)
    assert found == tmp_path / "pyproject.toml"
    assert from_pyproject(Settings(), found).ref == "main"
