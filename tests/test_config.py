"""Settings: conversion, validation, the environment overrides, and each gate's own
settings dataclass (declared in its module, parsed and validated by config, keyed in the
result cache with that gate's results only)."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

import pytest

from pytest_postgates.config import (
    KEYS,
    KINDS,
    Settings,
    SettingsError,
    apply,
    find_pyproject,
    from_environment,
    from_pyproject,
    gate_options,
    option,
)
from pytest_postgates.gates import BY_ID, GATES, SETTINGS_TYPES, default_settings
from pytest_postgates.gates import blog_quality as gate1
from pytest_postgates.gates import call_graph_claims as gate13
from pytest_postgates.gates import narrative_opening as gate11
from pytest_postgates.gates.base import GateContext, NoSettings
from pytest_postgates.runner import PostRun
from tests.helpers import FRONT_MATTER, make_repo


def test_apply_converts_each_kind(tmp_path: Path) -> None:
    settings = apply(
        default_settings(),
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
    assert settings.for_gate(gate11.NarrativeOpeningSettings).known_entities == ("Yama",)
    assert settings.paths == ((tmp_path / "drafts").resolve(),)
    assert settings.for_gate(gate1.BlogQualitySettings).body_line_floor == 150
    assert settings.is_advisory("call_graph_claims", True) is False
    assert settings.is_advisory("hhem", True) is True


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"repoo": "x"}, "unknown postgates setting"),
        ({"only": "2.5"}, "gate ids or names"),
        ({"short_circuit": "some"}, '"judges", "all" or "none"'),
        ({"offline": "maybe"}, "true or false"),
        ({"body_line_floor": "many"}, "an integer"),
        ({"known_entities": [1, 2]}, "a list of strings"),
        ({"gates": {"call_graph_claims": {"threshold": 3}}}, "only 'advisory'"),
        ({"lint_backend": "eslint"}, '"auto", "rumdl" or "markdownlint-cli"'),
        ({"max_paragraph_sentences": 0}, "max_paragraph_sentences"),
        ({"hhem_threshold": 1.5}, "a number from 0 to 1"),
        ({"tone_floor": "nan"}, "a finite number"),
    ],
)
def test_bad_settings_are_reported_by_name(
    values: dict[str, object], message: str, tmp_path: Path
) -> None:
    with pytest.raises(SettingsError, match=message) as raised:
        apply(default_settings(), values, tmp_path, "test")
    assert next(iter(values)) in str(raised.value)  # the message names the key


def test_unknown_keys_are_checked_against_the_declared_gate_keys(tmp_path: Path) -> None:
    """A gate key is known exactly when its gate's settings dataclass is declared, and the
    error lists the run-wide and the declared gate keys alike."""
    with pytest.raises(SettingsError, match="unknown postgates setting") as raised:
        apply(default_settings(), {"body_line_flor": 3}, tmp_path, "pyproject.toml")
    known = str(raised.value).split("known: ", 1)[1].split(", ")
    assert known == sorted(known)
    every_gate_key = {key for kind in SETTINGS_TYPES for key in gate_options(kind)}
    assert every_gate_key | set(KEYS) == set(known)
    # Without the gates' declarations config knows the run-wide keys only.
    with pytest.raises(SettingsError, match="body_line_floor"):
        apply(Settings(), {"body_line_floor": 3}, tmp_path, "test")
    assert apply(Settings(), {"ref": "main"}, tmp_path, "test").ref == "main"


def test_seed_environment_variables_win() -> None:
    settings = from_environment(
        default_settings(),
        {"CALL_GRAPH_CLAIM_THRESHOLD": "9", "SYMBOL_GROUNDING_THRESHOLD": "90.5"},
    )
    assert settings.for_gate(gate13.CallGraphClaimsSettings).call_graph_threshold == 9
    grounding = settings.for_gate(BY_ID[2].settings)
    assert grounding.symbol_grounding_threshold == 90.5
    with pytest.raises(SettingsError, match="CALL_GRAPH_CLAIM_THRESHOLD"):
        from_environment(default_settings(), {"CALL_GRAPH_CLAIM_THRESHOLD": "six"})
    assert from_environment(default_settings(), {}) == default_settings()


def test_nearest_pyproject_with_a_postgates_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.postgates]\nref = "main"\ncall_graph_threshold = 3\n'
    )
    inner = tmp_path / "blog"
    inner.mkdir()
    (inner / "pyproject.toml").write_text('[project]\nname = "x"\n')  # no table: skipped
    found = find_pyproject(inner)
    assert found == tmp_path / "pyproject.toml"
    settings = from_pyproject(default_settings(), found)
    assert settings.ref == "main"
    assert settings.for_gate(gate13.CallGraphClaimsSettings).call_graph_threshold == 3


# ------------------------------------------------------------ the gates' declarations
@pytest.mark.parametrize("gate", GATES, ids=lambda gate: gate.name)
def test_every_gate_declares_a_frozen_settings_dataclass_its_decide_takes(gate: object) -> None:
    kind = gate.settings  # type: ignore[attr-defined]
    assert dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen
    assert kind is NoSettings or kind.__module__ == gate.check.__module__  # type: ignore[attr-defined]
    hints = typing.get_type_hints(gate.decide)  # type: ignore[attr-defined]
    assert hints["settings"] is kind, f"{gate}: decide must take {kind.__name__}"
    options = gate_options(kind)
    # Every field is a configuration key, declared with its kind, meaning and default.
    assert set(options) == {f.name for f in dataclasses.fields(kind)}
    for key, declared in options.items():
        assert declared.kind in KINDS and declared.help, key
    assert kind() == default_settings().for_gate(kind)


def test_gate_keys_are_unique_and_never_shadow_a_run_wide_key() -> None:
    seen: dict[str, str] = {}
    for kind in SETTINGS_TYPES:
        for key in gate_options(kind):
            assert key not in KEYS, key
            assert key not in seen, f"{key}: {kind.__name__} and {seen[key]}"
            seen[key] = kind.__name__

    @dataclasses.dataclass(frozen=True)
    class Clash:
        ref: str = option("x", "str", "clashes with the run-wide ref")

    @dataclasses.dataclass(frozen=True)
    class Twice:
        body_line_floor: int = option(1, "int", "clashes with gate 1")

    for kind in (Clash, Twice):
        with pytest.raises(TypeError, match="also"):
            Settings.declare((*SETTINGS_TYPES, kind))
    with pytest.raises(TypeError, match="kind"):
        option(1, "number", "not a kind config can parse")
    with pytest.raises(TypeError, match="frozen dataclass"):
        Settings.declare((dict,))


def test_for_gate_is_typed_and_falls_back_to_the_defaults() -> None:
    settings = default_settings(body_line_floor=7, offline=True)
    own = settings.for_gate(gate1.BlogQualitySettings)
    assert isinstance(own, gate1.BlogQualitySettings) and own.body_line_floor == 7
    assert settings.offline is True
    # Bare Settings() (library use): every gate gets its defaults.
    assert Settings().for_gate(gate1.BlogQualitySettings) == gate1.BlogQualitySettings()
    changed = settings.with_gate(gate1.BlogQualitySettings(body_line_floor=9))
    assert changed.for_gate(gate1.BlogQualitySettings).body_line_floor == 9
    assert settings.for_gate(gate1.BlogQualitySettings).body_line_floor == 7  # frozen
    with pytest.raises(TypeError, match="unknown settings"):
        default_settings(body_line_flor=3)


# ------------------------------------------------------------ the result cache
def test_a_gate_setting_invalidates_only_that_gates_cached_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A gate's results are keyed with its own settings and the run-wide ones: changing
    gate 13's threshold recomputes gate 13 alone, gate 11's list gate 11 alone, a run-wide
    setting every gate."""
    body = "We run pytest on Python posts; `render` is real.\n\n" + "Words.\n" * 5
    repo = make_repo(tmp_path / "blog", {"_posts/2026-06-03-test.md": FRONT_MATTER + body})
    path = repo / "_posts" / "2026-06-03-test.md"
    gates = [BY_ID[1], BY_ID[11], BY_ID[13]]
    computed: list[int] = []
    original = PostRun._budgeted

    def spy(self: PostRun, spec: typing.Any) -> typing.Any:
        computed.append(spec.id)
        return original(self, spec)

    monkeypatch.setattr(PostRun, "_budgeted", spy)

    def run(**values: object) -> list[int]:
        computed.clear()
        settings = default_settings(repo=repo, run_all=True, **values)
        context = GateContext.create(settings, tmp_path / "cache", cache_results=True)
        post_run = PostRun(path, path.name, path.stem, context, gates, roots=(repo,))
        verdicts = {gate.id: post_run.evaluate(gate).verdict for gate in gates}
        assert "ERROR" not in verdicts.values(), verdicts
        return sorted(computed)

    assert run() == [1, 11, 13]
    assert run() == []  # all cached
    assert run(call_graph_threshold=2) == [13]
    assert run(call_graph_threshold=2, known_entities=("Yama",)) == [11]
    assert run(call_graph_threshold=2, known_entities=("Yama",), body_line_floor=3) == [1]
    assert run(call_graph_threshold=2, known_entities=("Yama",), body_line_floor=3) == []
    # A run-wide setting that feeds every gate's evidence recomputes them all.
    everything = {"call_graph_threshold": 2, "known_entities": ("Yama",), "body_line_floor": 3}
    assert run(**everything, symbol_allowlist=("x",)) == [1, 11, 13]
    # Back to the defaults: the first run's entries are still there.
    assert run() == []


# ------------------------------------------------------------ through pytest
def test_gate_keys_from_ini_and_help(pytester: pytest.Pytester) -> None:
    """The ini keys of the gates' settings exist, show their declared meaning in --help,
    and a bad value is a usage error naming the key."""
    help_text = pytester.runpytest("--help").stdout.str()
    for kind in SETTINGS_TYPES:
        for key in gate_options(kind):
            assert f"postgates_{key}" in help_text, key
    assert "'body_line_floor': minimum body" in help_text  # the declared meaning
    pytester.makeini("[pytest]\npostgates_body_line_floor = many\n")
    (pytester.path / "_posts").mkdir()
    (pytester.path / "_posts" / "2026-06-03-a.md").write_text(FRONT_MATTER + "Hello.\n")
    result = pytester.runpytest("_posts")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "body_line_floor" in result.stderr.str()
    assert "an integer" in result.stderr.str()


def test_a_gate_key_in_the_ini_reaches_the_gate(pytester: pytest.Pytester) -> None:
    import json

    pytester.makeini("[pytest]\npostgates_body_line_floor = 2\n")
    (pytester.path / "_posts").mkdir()
    (pytester.path / "_posts" / "2026-06-03-a.md").write_text(FRONT_MATTER + "One.\n\nTwo.\n")
    pytester.runpytest("_posts", "--postgates-only=1", "-p", "no:cacheprovider")
    card = pytester.path / ".postgates" / "scorecards" / "2026-06-03-a-gate1-blog_quality.json"
    assert json.loads(card.read_text())["detail"]["body_line_floor"] == 2


@pytest.mark.parametrize(
    "written", ["drafts notes", "drafts, notes", "drafts,notes", "drafts\n  notes"]
)
def test_ini_paths_split_on_commas_and_whitespace(pytester: pytest.Pytester, written: str) -> None:
    """``postgates_paths = drafts notes`` names two folders, as ``drafts, notes`` does: a
    space-separated list is never silently one path."""
    pytester.makeini(f"[pytest]\npostgates_paths = {written}\n")
    for folder in ("drafts", "notes"):
        (pytester.path / folder).mkdir()
        (pytester.path / folder / "page.md").write_text(FRONT_MATTER + "Hello.\n")
    result = pytester.runpytest("--collect-only", "-q", "--postgates-only=blog_quality")
    ids = [line for line in result.outlines if "::" in line]
    assert ids == ["drafts/page.md::blog_quality", "notes/page.md::blog_quality"]


# ------------------------------------------------------------ the documentation
CONFIGURATION_PAGE = Path(__file__).resolve().parent.parent / "docs" / "configuration.md"


def test_docs_settings_table_is_generated_from_the_declarations() -> None:
    """Every declared gate key is documented: the configuration page's table of gate
    settings is exactly what the declarations generate (meaning, default, range,
    environment)."""
    from pytest_postgates.docs_pages import SETTINGS_END, SETTINGS_START, settings_table

    readme = CONFIGURATION_PAGE.read_text(encoding="utf-8")
    start = readme.index(SETTINGS_START) + len(SETTINGS_START) + 1
    assert readme[start : readme.index(SETTINGS_END)] == settings_table(), (
        "regenerate it: python -m pytest_postgates.docs_pages --update docs"
    )
    for kind in SETTINGS_TYPES:
        for key in gate_options(kind):
            assert f"| `{key}` |" in settings_table()


def test_docs_document_every_run_wide_key() -> None:
    section = CONFIGURATION_PAGE.read_text(encoding="utf-8")
    for key in KEYS:
        assert (f"`{key}.<name>" if key == "gates" else f"`{key}`") in section, key
