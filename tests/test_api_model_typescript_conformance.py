"""The API model's TypeScript half against the TypeScript compiler, on the declaration files
(.d.ts) of real npm packages at pinned versions.

The oracle (tests/ts_declarations_oracle.js) runs the ``typescript`` package's compiler API
under Node on a package's entry declaration file and reports, for each of the package's
declaration files, the names the module exports (``checker.getExportsOfModule``), the
members of each exported class and interface (``checker.getPropertiesOfType`` of its
declared type: inherited members included) and the parameters of each exported function
and of each method of those classes and interfaces. The model is built from the same files
(``build_model``) and must agree: every exported name in ``model.facts.modules[path]``,
every member in ``model.members(name)``, every parameter among the function's or method's
(overloads together); and every name the model says a module exports, the compiler exports
too. What the model cannot know is listed in ``KNOWN_LIMITATIONS`` with why; every other
disagreement fails the test.

The packages come from ``POSTGATES_TS_ORACLE_DIR`` (a ``node_modules`` folder holding
``typescript`` and the packages below at these versions; .ci/run installs them and sets
it; without it, the folder .ci/run installs into). Without either, or without Node, the
test skips saying so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.api_model import ApiModel, build_model

ORACLE_ENV = "POSTGATES_TS_ORACLE_DIR"
ORACLE_SCRIPT = Path(__file__).with_name("ts_declarations_oracle.js")
TYPESCRIPT_VERSION = "5.9.3"
# The packages compared, at the versions .ci/run installs: chalk 4 declares its API in a
# namespace exported with `export =`, commander overloads methods, zod re-exports with
# `export *` and aliases (`export { ZodType as Schema }`).
PACKAGES = {"chalk": "4.1.2", "commander": "14.0.2", "zod": "3.23.8"}

# (package, what, owner, name) -> why the model cannot agree. ``what`` is export, claimed
# export, member or parameter; ``owner`` the module path, class or function. Kept short:
# each is a real limit.
_DEFAULT_IS_NO_NAME = (
    "the model keeps `default` out of a module's names by design: the default export is "
    "imported under a name the importer chooses, and no post writes `default` as a name"
)
KNOWN_LIMITATIONS: dict[tuple[str, str, str, str], str] = {
    ("zod", "export", "lib/index.d.ts", "default"): _DEFAULT_IS_NO_NAME,
    ("zod", "export", "lib/locales/en.d.ts", "default"): _DEFAULT_IS_NO_NAME,
}


def _oracle_dir() -> Path:
    configured = os.environ.get(ORACLE_ENV)
    ci_node = Path(__file__).parents[1] / ".ci-node" / "node_modules"
    if not configured and (ci_node / "typescript").is_dir():
        configured = str(ci_node)  # where .ci/run installs them
    if not configured:
        pytest.skip(
            f"{ORACLE_ENV} is not set (a node_modules folder with typescript@{TYPESCRIPT_VERSION}"
            f" and {', '.join(f'{p}@{v}' for p, v in PACKAGES.items())}; .ci/run installs them)"
        )
    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed: the TypeScript compiler cannot run")
    folder = Path(configured)
    # Set but wrong is an error, never a skip: CI sets it.
    for package, version in {"typescript": TYPESCRIPT_VERSION, **PACKAGES}.items():
        manifest = folder / package / "package.json"
        assert manifest.is_file(), f"{ORACLE_ENV}={folder} has no {package}"
        installed = json.loads(manifest.read_text(encoding="utf-8"))["version"]
        assert installed == version, f"{package} is {installed}, the test pins {version}"
    return folder


def compiler_view(folder: Path, package: str) -> dict[str, Any]:
    """The oracle's JSON for ``package`` (see tests/ts_declarations_oracle.js)."""
    completed = subprocess.run(
        ["node", str(ORACLE_SCRIPT), str(folder), package],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    view: dict[str, Any] = json.loads(completed.stdout)
    return view


def model_of(folder: Path, package: str, files: list[str]) -> ApiModel:
    """The model of the package's declaration files, paths relative to its folder."""
    root = folder / package
    sources = {path: (root / path).read_text(encoding="utf-8") for path in files}
    return build_model(f"{package}@{PACKAGES[package]}", sources)


@dataclass
class Agreement:
    """How many facts the compiler states, and the ones the model disagrees on."""

    checked: int = 0
    known: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)

    def check(self, key: tuple[str, str, str, str], agrees: bool) -> None:
        self.checked += 1
        if agrees:
            return
        shown = f"{key[1]} {key[3]} of {key[2]}"
        if key in KNOWN_LIMITATIONS:
            self.known.append(f"{shown} ({KNOWN_LIMITATIONS[key]})")
        else:
            self.disagreements.append(shown)

    def figure(self) -> str:
        agreeing = self.checked - len(self.known) - len(self.disagreements)
        return f"{agreeing}/{self.checked} agree, {len(self.known)} known limitations"


def compare(package: str, view: dict[str, Any], model: ApiModel) -> dict[str, Agreement]:
    """The compiler's exports, members and parameters, each looked up in the model."""
    results = {what: Agreement() for what in ("export", "claimed export", "member", "parameter")}
    classes: dict[str, list[str]] = {}
    functions: dict[str, list[str]] = {}
    methods: dict[str, list[str]] = {}
    for path, report in sorted(view["files"].items()):
        exported = set(model.facts.modules.get(path, []))
        for name in report["exports"]:
            results["export"].check((package, "export", path, name), name in exported)
        # And the other way: the model claims no export the compiler does not see.
        for name in sorted(exported):
            key = (package, "claimed export", path, name)
            results["claimed export"].check(key, name in report["exports"])
        for name, members in report["classes"].items():
            classes.setdefault(name, members)
        for name, params in report["functions"].items():
            functions.setdefault(name, params)
        for name, params in report["methods"].items():
            methods.setdefault(name, params)
    for name, members in sorted(classes.items()):
        known = model.members(name)[0]
        for member in members:
            results["member"].check((package, "member", name, member), member in known)
    for name, params in sorted(functions.items()):
        modelled = {
            param
            for function in model.facts.callables
            if function.name == name and function.qualname == f"{function.path}.{name}"
            for param in function.params
        }
        for param in params:
            results["parameter"].check((package, "parameter", name, param), param in modelled)
    for name, params in sorted(methods.items()):
        modelled = {
            param
            for function in model.facts.callables
            if function.qualname.endswith(f":{name}")
            for param in function.params
        }
        for param in params:
            results["parameter"].check((package, "parameter", name, param), param in modelled)
    return results


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_model_agrees_with_the_typescript_compiler(package: str) -> None:
    folder = _oracle_dir()
    view = compiler_view(folder, package)
    assert view["entry"] in view["files"], f"the compiler did not read {view['entry']}"
    model = model_of(folder, package, sorted(view["files"]))
    assert not model.facts.unread, model.facts.unread
    results = compare(package, view, model)
    summary = "; ".join(f"{what}s: {result.figure()}" for what, result in results.items())
    for what, result in results.items():
        assert result.checked, f"the compiler reported no {what}s for {package}: {summary}"
    disagreements = [d for result in results.values() for d in result.disagreements]
    assert not disagreements, (
        f"{package}@{PACKAGES[package]}: the model disagrees with TypeScript on "
        f"{len(disagreements)} facts ({summary}): " + "; ".join(disagreements[:40])
    )
