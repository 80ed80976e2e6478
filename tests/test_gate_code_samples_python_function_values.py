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
        "from embedkit.registry import Registry, cached_names, get_registry, tagged\n"
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
        "tagged.label = 'x'\n"
    ),
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
    # lru_cache makes `cache_clear`; `tagged.label = 'x'` gives tagged an attribute: neither
    # name holds a plain function, and their attributes are not judged as a function's.
    code = "import embedkit\nembedkit.cached_names.cache_clear()\nembedkit.tagged.label\n"
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == []
    assert unjudged_reasons(card) == [
        f"embedkit.{name}: embedkit.{function} is decorated or given attributes: what its "
        "name holds is not known"
        for name, function in (
            ("cached_names.cache_clear", "cached_names"),
            ("tagged.label", "tagged"),
        )
    ]
