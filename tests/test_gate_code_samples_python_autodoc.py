"""Gate 15 on the Sphinx autodoc directives a MyST Markdown page runs (issue 26, natural
drift wave 7: ``.. autoclass:: httpcore.AsyncHTTPTransport`` with ``:members: arequest,
aclose`` after the method was renamed): the path must name the product's class or module
and each member ``:members:`` lists must be one of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import make_post, make_repo, repo_context, sample_violations, unjudged_reasons

FILES = {
    "pyproject.toml": "[project]\nname = 'corekit'\nversion = '1'\n",
    "corekit/__init__.py": (
        "from corekit.base import Stream, Transport\n__all__ = ['Stream', 'Transport']\n"
    ),
    "corekit/base.py": (
        "class Transport:\n"
        "    async def handle_async_request(self, request) -> None: ...\n"
        "    async def aclose(self) -> None: ...\n\n"
        "class Stream:\n    async def aclose(self) -> None: ...\n"
    ),
}

PAGE = """# API

:::{eval-rst}
.. autoclass:: corekit.Transport
    :members: arequest, aclose

.. autoclass:: corekit.Stream
    :members: __aiter__, aclose

.. autoclass:: corekit.Pool
    :show-inheritance:
:::

```{eval-rst}
.. autoclass:: corekit.Transport
    :members: handle_async_request
```
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("corekit"), FILES)


def test_autodoc_paths_and_members_are_judged(tmp_path: Path, repo: Path) -> None:
    from pytest_postgates.gates import code_samples

    card = code_samples.GATE.evaluate(make_post(PAGE, tmp_path), repo_context(repo, tmp_path / "c"))
    assert sample_violations(card) == [
        ("member", "corekit.Transport.arequest"),
        ("python_attribute", "corekit.Pool"),
    ]
    lines = {v["name"]: v["line"] for v in card.detail["violations"]}
    assert lines["corekit.Transport.arequest"] == lines["corekit.Pool"] - 5  # the :members: line
    assert any("__aiter__" in r and "special member" in r for r in unjudged_reasons(card))
