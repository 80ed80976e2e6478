"""Gate 15 on an instance attribute the product's class declares with a type (issue 26:
members through chains): ``beta: resources.Beta`` in the class body, a base's or a
dataclass field makes the attribute an instance of that class, so each link of
``client.beta.threads.runs.submit_tool_ouptputs_and_poll()`` is judged (openai's helpers
page: the method's misspelling) where the chain stopped at an attribute of unknown type."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

FILES = {
    "pyproject.toml": "[project]\nname = 'kit'\nversion = '1'\n",
    "src/kit/__init__.py": "from ._client import Client, Settings\n",
    "src/kit/_client.py": (
        "from __future__ import annotations\n"
        "from dataclasses import dataclass\n"
        "from . import resources\n\n"
        "class Base:\n"
        "    beta: resources.Beta\n\n"
        "class Client(Base):\n"
        "    either: resources.Beta | resources.Threads\n"
        "    maybe: resources.Threads | None\n\n"
        "    def __init__(self) -> None:\n"
        "        self.beta = resources.Beta(self)\n\n"
        "@dataclass\n"
        "class Settings:\n"
        "    threads: resources.Threads\n"
        "    name: str = ''\n"
    ),
    "src/kit/resources/__init__.py": "from .beta import Beta, Threads\n",
    "src/kit/resources/beta/__init__.py": "from .beta import Beta\nfrom .threads import Threads\n",
    "src/kit/resources/beta/beta.py": (
        "from functools import cached_property\n"
        "from .threads import Threads\n\n"
        "class Beta:\n"
        "    def __init__(self, client) -> None: ...\n"
        "    @cached_property\n"
        "    def threads(self) -> Threads:\n"
        "        return Threads()\n"
    ),
    "src/kit/resources/beta/threads.py": (
        "class Runs:\n"
        "    def submit_tool_outputs_and_poll(self) -> None: ...\n\n"
        "class Threads:\n"
        "    @property\n"
        "    def runs(self) -> Runs:\n"
        "        return Runs()\n"
    ),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("kit"), FILES)


def test_an_annotated_attribute_types_the_chain(tmp_path: Path, repo: Path) -> None:
    code = (
        "from kit import Client, Settings\n"
        "client = Client()\n"
        "client.beta.threads.runs.submit_tool_ouptputs_and_poll()\n"
        "client.beta.threads.runs.submit_tool_outputs_and_poll()\n"
        "client.maybe.runs.submit()\n"
        "settings = Settings(threads=None)\n"
        "settings.threads.run\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [
        ("member", "client.beta.threads.runs.submit_tool_ouptputs_and_poll"),
        ("member", "client.maybe.runs.submit"),
        ("member", "settings.threads.run"),
    ]
    assert not unjudged_reasons(card)


def test_an_attribute_of_two_types_is_not_typed(tmp_path: Path, repo: Path) -> None:
    code = "from kit import Client\nclient = Client()\nclient.either.anything\n"
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == []
    assert unjudged_reasons(card) == [
        "client.either.anything: the model does not know the type of client.either"
    ]
