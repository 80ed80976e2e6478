"""Gate 15 on a Python fence that shows a callable's signature as a call with annotated
parameters (issue 26, natural drift wave 7: ``WeaviateRM(collection_name: str ...)``): not
Python, but a claim of which parameters the callable takes. Once the page is read (its
import may come in a later fence) each parameter shown is judged as a keyword."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import make_post, make_repo, repo_context, sample_violations, unjudged_reasons

FILES = {
    "pyproject.toml": "[project]\nname = 'retkit'\nversion = '1'\n",
    "retkit/__init__.py": "",
    "retkit/stores.py": (
        "class StoreRM:\n"
        "    def __init__(self, store_collection_name: str, store_client, k: int = 3) -> None:\n"
        "        self.k = k\n\n"
        "class HiddenRM:\n    def __init__(self, k: int = 3) -> None: ...\n"
    ),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("retkit"), FILES)


def _card(body: str, tmp_path: Path, repo: Path) -> object:
    from pytest_postgates.gates import code_samples

    return code_samples.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "c"))


USE = "```python\nfrom retkit.stores import StoreRM\nrm = StoreRM(store_client=None)\n```\n"


def test_a_parameter_the_signature_shows_that_the_callable_lacks(
    tmp_path: Path, repo: Path
) -> None:
    signature = (
        "```python\nStoreRM(\n    collection_name: str\n    store_client: str,\n"
        "    k: int = 5\n)\n```\n"
    )
    card = _card(f"Intro.\n\n{signature}\nThen:\n\n{USE}", tmp_path, repo)
    assert sample_violations(card) == [("keyword_argument", "StoreRM(collection_name=)")]
    found = card.detail["violations"][0]  # type: ignore[attr-defined]
    assert "`store_collection_name`" in found["reason"], found


def test_a_signature_the_callable_has_is_clean(tmp_path: Path, repo: Path) -> None:
    signature = "```python\nStoreRM(store_collection_name: str, store_client, k: int = 3)\n```\n"
    card = _card(f"Intro.\n\n{signature}\n{USE}", tmp_path, repo)
    assert sample_violations(card) == []
    assert not any("parse" in r for r in unjudged_reasons(card))


def test_a_signature_the_page_does_not_tie_to_the_product(tmp_path: Path, repo: Path) -> None:
    card = _card("Intro.\n\n```python\nHiddenRM(k: int = 3, j: int)\n```\n", tmp_path, repo)
    assert sample_violations(card) == []
    assert any("does not tie it to the product" in r for r in unjudged_reasons(card))
