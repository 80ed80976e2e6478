"""Gate 15 on a product function read as a value (issue 26): a plain ``def``'s name holds
the function, so ``get_registry.get`` is no member of what it returns (lancedb's docs,
fixed to ``get_registry().get``); a property, a decorated function and a function the
product sets attributes on keep the reading they had."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

FILES = {
    "pyproject.toml": "[project]\nname = 'embedkit'\nversion = '1'\n",
    "embedkit/__init__.py": (
        "from embedkit.registry import (Holder, Registry, cached_names, get_registry, noted,\n"
        "    tagged, wrapped)\n"
    ),
    "embedkit/registry.py": (
        "import functools\n\n"
        "class Registry:\n"
        "    def get(self, name: str) -> 'Registry':\n"
        "        return self\n\n"
        "    @property\n"
        "    def default(self) -> 'Registry':\n"
        "        return self\n\n"
        "    def create(self) -> None: ...\n\n"
        "def get_registry() -> Registry:\n"
        "    return Registry()\n\n"
        "@functools.lru_cache\n"
        "def cached_names() -> Registry:\n"
        "    return Registry()\n\n"
        "def tagged() -> Registry:\n"
        "    return Registry()\n\n"
        "tagged.label = 'x'\n\n"
        "def wrapped() -> Registry:\n"
        "    return Registry()\n\n"
        "wrapped = functools.lru_cache(wrapped)\n\n"
        "def noted() -> Registry:\n"
        "    return Registry()\n\n"
        "class Holder:\n"
        "    def registry(self) -> Registry:\n"
        "        return Registry()\n\n"
        "    registry = property(registry)\n"
    ),
    "embedkit/boot.py": ("from embedkit import registry\n\nregistry.noted.cache = {}\n"),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("embedkit"), FILES)


def test_an_attribute_of_a_plain_function_is_a_functions(tmp_path: Path, repo: Path) -> None:
    code = (
        "from embedkit import get_registry\n"
        "model = get_registry.get('clip').create()\n"
        "print(get_registry.__name__, get_registry.__doc__)\n"
        "model = get_registry().get('clip').create()\n"
        "get_registry.lookup('clip')\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [
        ("member", "get_registry.get"),
        ("member", "get_registry.lookup"),
    ]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "did you mean `get_registry().get`?" in reasons["get_registry.get"], reasons
    assert "did you mean" not in reasons["get_registry.lookup"], reasons
    # What follows the missing member is not judged again (`.create()` on it).
    assert not any("create" in v["name"] for v in card.detail["violations"])


def test_a_bound_method_read_as_a_value_and_a_property(tmp_path: Path, repo: Path) -> None:
    code = (
        "from embedkit import Registry\n"
        "registry = Registry()\n"
        "registry.default.create()\n"
        "print(registry.create.__self__)\n"
        "registry.create.name\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [("member", "registry.create.name")]


def test_a_decorated_or_altered_function_keeps_its_reading(tmp_path: Path, repo: Path) -> None:
    # lru_cache makes `cache_clear` (as a decorator or a call rebinding the name); code that
    # sets an attribute on a function, by its name or through its module, gives it more; a
    # class body's `registry = property(registry)` makes a property. None of these names
    # holds a plain function, and their attributes are not judged as a function's.
    code = (
        "import embedkit\n"
        "embedkit.cached_names.cache_clear()\n"
        "embedkit.tagged.label\n"
        "embedkit.wrapped.cache_clear()\n"
        "embedkit.noted.cache\n"
        "embedkit.Holder().registry.get('x')\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == []
    assert unjudged_reasons(card) == [
        f"embedkit.{name}: embedkit.{function} is decorated or given attributes: what its "
        "name holds is not known"
        for name, function in (
            ("cached_names.cache_clear", "cached_names"),
            ("tagged.label", "tagged"),
            ("wrapped.cache_clear", "wrapped"),
            ("noted.cache", "noted"),
        )
    ]


def test_a_name_the_page_never_binds_is_not_judged_as_a_function(
    tmp_path: Path, repo: Path
) -> None:
    # click's exceptions page: `command.invoke(ctx)`, `command` a Command the page never
    # binds, named like the product's function `command`.
    code = "ctx = get_registry.make_context()\n"
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == []
    assert unjudged_reasons(card) == [
        "get_registry.make_context: get_registry is never bound in the samples: the "
        "product's function, or a value named like it"
    ]
