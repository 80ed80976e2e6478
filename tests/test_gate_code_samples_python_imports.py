"""Gate 15 on a Python callable the sample reaches through a module that imports it: the
keyword arguments are judged against the function that import names, never a same-named
function elsewhere in the package; a name imported from another library, or from where the
model reads no function, is unjudged with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

FETCHKIT = {
    "pyproject.toml": '[project]\nname = "fetchkit"\nversion = "1.0"\n',
    "fetchkit/__init__.py": (
        "from fetchkit.client import get\n"
        "from fetchkit.compat import fetch\n"
        "from fetchkit.table import build\n"
        "__all__ = ['get', 'fetch', 'build']\n"
    ),
    "fetchkit/client.py": "def get(url: str, *, timeout: float = 5.0) -> None: ...\n",
    "fetchkit/cli.py": "def get(name: str, verbose: bool = False) -> None: ...\n",
    "fetchkit/compat.py": "from otherlib import fetch\n",
    "fetchkit/tools.py": "def fetch(path: str) -> None: ...\n",
    "fetchkit/table.py": "build = dict\n",
    "fetchkit/builders.py": "def build(rows: list) -> None: ...\n",
}


@pytest.fixture(scope="module")
def fetch_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("fetchkit"), FETCHKIT)


def _check(code: str, tmp_path: Path, repo: Path) -> Scorecard:
    card: Scorecard = sample_card(code, "python", tmp_path, repo)
    return card


def test_a_keyword_is_judged_against_the_function_the_import_names(
    tmp_path: Path, fetch_repo: Path
) -> None:
    """fetchkit.get is client.get (timeout), not cli.get (verbose)."""
    card = _check(
        'import fetchkit\nfetchkit.get("x", timeout=3)\nfetchkit.get("x", verbose=True)',
        tmp_path,
        fetch_repo,
    )
    assert _violations(card) == [("keyword_argument", "fetchkit.get(verbose=)")]


def test_a_name_imported_from_another_library_is_unjudged_not_a_same_named_function(
    tmp_path: Path, fetch_repo: Path
) -> None:
    card = _check('from fetchkit import fetch\nfetch("u", retries=3)', tmp_path, fetch_repo)
    assert _violations(card) == []
    assert any("retries" in r and "otherlib" in r for r in _unjudged(card))


def test_a_name_the_import_leads_to_no_function_is_unjudged(
    tmp_path: Path, fetch_repo: Path
) -> None:
    """fetchkit.table.build is an assignment the model reads no parameters of; the
    builders module's build is another function."""
    card = _check("from fetchkit import build\nbuild(strict=True)", tmp_path, fetch_repo)
    assert _violations(card) == []
    assert any("strict" in r and "fetchkit.table" in r for r in _unjudged(card))
