"""Gate 15 on the names a Python sample uses that no working import binds (issue 26,
natural drift wave 7):

- a name whose import failed (no such module, or no such public name of it) and that no
  code of the product writes is invented: each use of it is a finding, with the nearest
  real names (a class whose name differs only by case first);
- a call of a name the page never binds, that no code of the product writes and that is a
  near miss of a name the page imports from the product (``replace_weights_loft`` beside
  ``from kit import replace_weights_loftq``), is a finding;
- a name the page uses before any sample binds it, that is a public class or function of
  the product's top-level package (``get_model(...)`` with no import), is that name: what
  it returns and its members are judged as they would be after the import;
- a value a product callable declares as one of several product classes (``-> Model |
  MixedModel``) has the members of any of them; a member none has is a finding.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

FILES = {
    "pyproject.toml": "[project]\nname = 'adaptkit'\nversion = '1'\n",
    "adaptkit/__init__.py": (
        "from adaptkit.config import AdaptConfig\n"
        "from adaptkit.model import AdaptModel, get_any, get_model\n"
        "from adaptkit.weights import replace_weights_loftq\n"
        "__all__ = ['AdaptConfig', 'AdaptModel', 'get_any', 'get_model',\n"
        "           'replace_weights_loftq']\n"
    ),
    "adaptkit/config.py": (
        "class AdaptConfig:\n    def __init__(self, r: int = 8, alpha: int = 16) -> None:\n"
        "        self.r = r\n"
    ),
    "adaptkit/model.py": (
        "class AdaptModel:\n"
        "    def save_pretrained(self, path: str) -> None: ...\n\n"
        "class MixedModel:\n"
        "    def save_pretrained(self, path: str) -> None: ...\n"
        "    def mix(self) -> None: ...\n\n"
        "def get_model(model, config) -> AdaptModel:\n    return AdaptModel()\n\n"
        "def get_any(model, mixed: bool = False) -> AdaptModel | MixedModel:\n"
        "    return AdaptModel()\n"
    ),
    "adaptkit/weights.py": "def replace_weights_loftq(model, callback=None) -> None: ...\n",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("adaptkit"), FILES)


def test_the_uses_of_a_name_whose_import_failed_are_findings(tmp_path: Path, repo: Path) -> None:
    code = (
        "from adaptkit import AdaptCONFIG, get_model\n"
        "from adaptkit.typed import optimize_config\n\n"
        "config = AdaptCONFIG(r=8)\n"
        "best = optimize_config(config)\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [
        ("python_import", "adaptkit.AdaptCONFIG"),
        ("python_import", "from adaptkit.typed import optimize_config"),
        ("python_name", "AdaptCONFIG"),
        ("python_name", "optimize_config"),
    ]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "`AdaptConfig`" in reasons["AdaptCONFIG"], reasons


def test_a_failed_import_of_a_name_the_product_writes_is_one_finding(
    tmp_path: Path, repo: Path
) -> None:
    # The path is wrong, not the name: its uses are not invented.
    code = "from adaptkit.config import get_model\nmodel = get_model(None, None)\n"
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [("python_import", "adaptkit.config.get_model")]


def test_a_free_call_near_an_imported_name_is_a_finding(tmp_path: Path, repo: Path) -> None:
    code = (
        "from adaptkit import replace_weights_loftq\n\n"
        "model = load()\n"
        "replace_weights_loft(model)\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [("python_name", "replace_weights_loft")]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "`replace_weights_loftq`" in reasons["replace_weights_loft"], reasons


def test_a_free_call_the_page_defines_later_is_no_finding(tmp_path: Path, repo: Path) -> None:
    code = (
        "from adaptkit import replace_weights_loftq\n"
        "replace_weights_loft(None)\n\n"
        "def replace_weights_loft(model):\n    return replace_weights_loftq(model)\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == []


def test_a_product_name_used_without_its_import_is_typed(tmp_path: Path, repo: Path) -> None:
    code = (
        "from adaptkit import AdaptConfig\n\n"
        "model = get_model(base, AdaptConfig(r=4))\n"
        "model.save_adapter('out')\n"
        "model.save_pretrained('out')\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [("member", "model.save_adapter")]
    assert not any("get_model" in r for r in unjudged_reasons(card))


def test_a_value_of_one_of_several_product_classes(tmp_path: Path, repo: Path) -> None:
    code = (
        "from adaptkit import get_any\n\n"
        "model = get_any(base)\n"
        "model.mix()\n"
        "model.save_pretrained('out')\n"
        "model.save_adapter('out')\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [("member", "model.save_adapter")]
    assert not unjudged_reasons(card)


def test_a_fence_that_binds_the_name_itself_is_not_read_for_it(tmp_path: Path, repo: Path) -> None:
    # Generated code shown as output: its own import binds the product's public name.
    code = "# __init__.py\nfrom ._models import AdaptConfig\n__all__ = ['AdaptConfig']\n"
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == []
    assert unjudged_reasons(card) == []
