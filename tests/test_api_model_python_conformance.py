"""Conformance of the API model's Python half with Python's own view of a package.

The oracle is the interpreter: the package is imported and ``inspect`` lists, for every
public module, its public names (``__all__`` or the names without an underscore that the
module itself binds), every public class's members (``dir``, inherited ones included),
and every public function's and method's parameters (``inspect.signature``). The model is
built from the same package's source files (installed dependencies of this project:
markdown-it-py, PyYAML and requests), and must agree name for name.

What the model cannot know by reading the code is listed per kind, with the reason, and
kept small; every other difference fails the test.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pytest_postgates.evidence.api_model import ApiModel, build_model

PACKAGES = ("markdown_it", "yaml", "requests")

# Members a class gets from outside the package's source, which the model does not table:
# the instance attributes Python itself gives every object, and attributes made at run time.
RUNTIME_MEMBERS = frozenset(
    {"__dict__", "__weakref__", "__module__", "__doc__", "__annotations__", "__slots__"}
)


def _source_model(package: ModuleType) -> tuple[ApiModel, Path]:
    folder = Path(package.__file__ or "").parent
    base = folder.parent
    sources = {
        str(path.relative_to(base)): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*.py"))
    }
    return build_model("installed", sources), base


def _public_modules(package: ModuleType) -> list[ModuleType]:
    modules = [package]
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        try:
            modules.append(importlib.import_module(info.name))
        except Exception:  # an optional dependency the environment lacks
            continue
    return modules


def _own(module: ModuleType, name: str, value: Any) -> bool:
    """Whether ``module`` itself defines ``value`` (not an import of another package)."""
    home = getattr(value, "__module__", None)
    return isinstance(home, str) and home.split(".")[0] == module.__name__.split(".")[0]


@pytest.fixture(scope="module", params=PACKAGES)
def package(request: pytest.FixtureRequest) -> ModuleType:
    return importlib.import_module(request.param)


def test_public_names_of_every_module(package: ModuleType) -> None:
    model, _ = _source_model(package)
    checked = 0
    missing: list[str] = []
    for module in _public_modules(package):
        names = getattr(module, "__all__", None) or [
            n for n in vars(module) if not n.startswith("_")
        ]
        for name in names:
            if inspect.ismodule(getattr(module, name, None)):
                continue  # submodules: resolved as modules, not names
            checked += 1
            if model.resolve([*module.__name__.split("."), name]).outcome != "found":
                missing.append(f"{module.__name__}.{name}")
    assert checked > 20
    assert missing == [], f"{len(missing)} of {checked} public names not in the model"


def test_members_of_every_public_class(package: ModuleType) -> None:
    model, _ = _source_model(package)
    checked = 0
    missing: list[str] = []
    for module in _public_modules(package):
        for name, value in vars(module).items():
            if name.startswith("_") or not inspect.isclass(value) or not _own(module, name, value):
                continue
            members, problem = model.members(value.__name__)
            if problem:
                continue  # a base outside the package: the model says it cannot list them
            for member in dir(value):
                if member in RUNTIME_MEMBERS:
                    continue
                checked += 1
                if member not in members:
                    missing.append(f"{value.__module__}.{value.__qualname__}.{member}")
    assert checked > 100
    assert missing == [], f"{len(missing)} of {checked} members not in the model: {missing[:20]}"


def test_parameters_of_every_public_callable(package: ModuleType) -> None:
    model, _ = _source_model(package)
    checked = 0
    wrong: list[str] = []
    for module in _public_modules(package):
        for name, value in vars(module).items():
            if name.startswith("_") or not _own(module, name, value):
                continue
            targets: list[tuple[str, Any]] = []
            if inspect.isfunction(value):
                targets.append((f"{value.__module__}.{value.__qualname__}", value))
            elif inspect.isclass(value):
                for member_name, member in vars(value).items():
                    if member_name.startswith("_"):
                        continue
                    if isinstance(member, staticmethod):
                        function = member.__func__
                        targets.append((f"{value.__module__}.{function.__qualname__}", function))
                    elif isinstance(member, classmethod):
                        bound = member.__get__(None, value)  # bound: its class is not a parameter
                        targets.append((f"{value.__module__}.{member.__qualname__}", bound))
                    elif inspect.isfunction(member):
                        targets.append((f"{value.__module__}.{member.__qualname__}", member))
            for qualname, function in targets:
                facts = model.callables.get(qualname)
                if not facts:
                    continue  # defined under another name (an alias): judged by name above
                parameters = list(inspect.signature(function).parameters.values())
                if inspect.isfunction(function) and "." in function.__qualname__.split("<")[0]:
                    # A plain method read off its class: its first parameter is the instance.
                    owner = vars(importlib.import_module(function.__module__)).get(
                        function.__qualname__.split(".")[0]
                    )
                    raw = vars(owner).get(function.__name__) if inspect.isclass(owner) else None
                    if not isinstance(raw, staticmethod) and parameters:
                        parameters = parameters[1:]
                expected = [
                    ("*" if p.kind is p.VAR_POSITIONAL else "") + p.name
                    for p in parameters
                    if p.kind is not p.VAR_KEYWORD
                ]
                signature_parameters = parameters
                has_kwargs = any(p.kind is p.VAR_KEYWORD for p in signature_parameters)
                checked += 1
                if facts[-1].params != expected or facts[-1].var_keyword != has_kwargs:
                    wrong.append(f"{qualname}: {facts[-1].params} != {expected}")
    assert checked > 20
    assert wrong == [], f"{len(wrong)} of {checked} signatures differ: {wrong[:10]}"
