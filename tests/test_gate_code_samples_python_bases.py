"""Gate 15 and the API model on a Python class's bases when the product has another class
of the same name: a base is the class its file imports or declares, never any product class
that shares its name. A base imported from another package (``from pydantic import
BaseModel``) is that package's even where the product declares a ``BaseModel`` of its own,
and among several product classes of one name the file's import decides."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.evidence.api_model import build_model
from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

FILES = {
    "pyproject.toml": "[project]\nname = 'shapegen'\nversion = '1'\n",
    "shapegen/__init__.py": (
        "from shapegen.config import GenerateConfig, Options\n"
        "__all__ = ['GenerateConfig', 'Options']\n"
    ),
    "shapegen/model/__init__.py": "",
    "shapegen/types/__init__.py": "",
    # The product's own BaseModel: a generated-code template class with an __init__.
    "shapegen/model/base.py": (
        "class BaseModel:\n"
        "    def __init__(self, reference: str, fields: list) -> None:\n"
        "        self.reference = reference\n"
    ),
    # Two product classes named BaseConfig: a TypedDict and a pydantic model.
    "shapegen/types/config_dict.py": (
        "from typing import TypedDict\n\n"
        "class BaseConfig(TypedDict, total=False):\n"
        "    output_dir: str\n"
    ),
    "shapegen/base_config.py": (
        "from pydantic import BaseModel\n\n"
        "class BaseConfig(BaseModel):\n"
        "    input_type: str = 'json'\n"
    ),
    "shapegen/config.py": (
        "from shapegen.base_config import BaseConfig\n"
        "from shapegen.types.config_dict import BaseConfig as BaseConfigDict\n\n"
        "class GenerateConfig(BaseConfig):\n"
        "    input_filename: str | None = None\n\n"
        "class Options(BaseConfigDict):\n"
        "    verbose: bool\n"
    ),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("shapegen"), FILES)


def test_a_base_imported_from_another_package_is_not_the_products_namesake(
    tmp_path: Path, repo: Path
) -> None:
    """GenerateConfig is a pydantic model: its keywords are not the product BaseModel's
    __init__ parameters, and the card says why it does not judge them."""
    code = (
        "from shapegen import GenerateConfig\n"
        "config = GenerateConfig(input_filename='a.json', input_type='json')\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == []
    reasons = " ".join(unjudged_reasons(card))
    assert "extends BaseModel, outside the product's code" in reasons, reasons


def test_among_product_classes_of_one_name_the_files_import_decides(
    tmp_path: Path, repo: Path
) -> None:
    """Options extends the TypedDict BaseConfig (imported under another name): its keys are
    that TypedDict's and its own; a key of neither is a finding."""
    code = (
        "from shapegen import Options\n"
        "options = Options(output_dir='out', verbose=True, output_dri='x')\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [("keyword_argument", "Options(output_dri=)")]


def test_the_models_members_skip_a_namesake_of_an_imported_base() -> None:
    """The model's members of a class whose base is imported from another package do not
    include the product namesake's members, and say the list may be incomplete."""
    model = build_model("c", {path: text for path, text in FILES.items() if path.endswith(".py")})
    members, problem = model.members("BaseConfig")
    assert "reference" not in members
    assert problem and "extends BaseModel, outside the product's code" in problem
