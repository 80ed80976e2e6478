"""bench/install_dependencies.py: which npm packages a project's manifests declare."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers import load_bench

bench = load_bench("install_dependencies", "install_dependencies.py")

WORKSPACE = """packages:
  - packages/*
catalog:
  chai: ^5.2.0
  '@types/chai': ^5.2.2
catalogs:
  legacy:
    tinyspy: ^3.0.0
"""


def _manifest(deps: dict[str, str], name: str = "") -> str:
    return json.dumps({"name": name, "dependencies": deps} if name else {"dependencies": deps})


def test_a_pnpm_catalog_reference_is_installed_at_the_range_its_catalog_keeps() -> None:
    files = {
        "pnpm-workspace.yaml": WORKSPACE,
        "packages/expect/package.json": _manifest(
            {
                "chai": "catalog:",
                "@types/chai": "catalog:default",
                "tinyspy": "catalog:legacy",
                "nowhere": "catalog:",
                "@vitest/utils": "workspace:*",
                "pathe": "^2.0.0",
            },
            name="@vitest/expect",
        ),
        "packages/utils/package.json": _manifest({}, name="@vitest/utils"),
    }
    assert bench.npm_specs(files) == [
        "@types/chai@^5.2.2",
        "chai@^5.2.0",
        "pathe@^2.0.0",
        "tinyspy@^3.0.0",
    ]


def test_without_a_workspace_file_catalog_references_are_left_out() -> None:
    files = {"package.json": _manifest({"chai": "catalog:", "pathe": "^2.0.0"})}
    assert bench.npm_specs(files) == ["pathe@^2.0.0"]
    assert bench.pnpm_catalogs({"pnpm-workspace.yaml": "catalog: [not, a, table]\n"}) == {}


def test_the_drift_install_skips_heavy_frameworks_and_names_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pyproject = '[project]\nname = "trl"\ndependencies = ["torch>=2.0", "accelerate>=1.4"]\n'
    monkeypatch.setattr(bench, "manifests", lambda _mirror, _commit: {"pyproject.toml": pyproject})
    ran: list[list[str]] = []

    def run(command: list[str], **_kwargs: object) -> subprocess.CompletedProcess[bytes]:
        ran.append(command)
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(bench.subprocess, "run", run)
    lines = bench.install("o/trl", tmp_path, "c" * 40, tmp_path / "deps", bench.HEAVY)
    assert lines[1] == "  skipped (heavy, or the product itself): torch>=2.0"
    assert [c[-1] for c in ran] == ["accelerate>=1.4"]
    assert bench.requirement_name("Flash_Attn[x]>=2") == "flash-attn"


def test_a_requirement_failing_for_a_newer_python_is_tried_for_this_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pyproject = '[project]\nname = "kit"\ndependencies = ["numpy", "nosuchthing"]\n'
    monkeypatch.setattr(bench, "manifests", lambda _mirror, _commit: {"pyproject.toml": pyproject})

    def run(command: list[str], **_kwargs: object) -> subprocess.CompletedProcess[bytes]:
        fits = "--ignore-requires-python" not in command and command[-1] == "numpy"
        return subprocess.CompletedProcess(command, 0 if fits else 1)

    monkeypatch.setattr(bench.subprocess, "run", run)
    lines = bench.install("o/kit", tmp_path, "c" * 40, tmp_path / "deps")
    assert lines[-1] == "  not installed: nosuchthing"
