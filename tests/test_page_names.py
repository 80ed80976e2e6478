"""What a page's own samples import from other packages (helpers/page_names.py), read from
syntax trees; and a chain rooted in a declared dependency (``third-party-package``,
helpers/attribution_rules.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.evidence.dependency_models import DEPENDENCY_PATH_ENV
from pytest_postgates.evidence.grounding import dependencies_of
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.page_names import page_names
from tests.helpers import gate2_outcome, make_post, make_repo, repo_context, token_outcome

CLIENT_PY = """
class Session:
    def send(self) -> None: ...


class Client:
    def open_streams(self) -> None: ...


class Transport:
    pass


def stop_after_attempt(count: int) -> None: ...


class Limits:
    def __init__(self, max_retry_delay: float = 1.0) -> None:
        self.max_retry_delay = max_retry_delay
"""
PYPROJECT = """[project]
name = "mylib"
dynamic = ["dependencies"]

[tool.hatch.metadata.hooks.uv-dynamic-versioning]
dependencies = ["logfire>=1.0", "google-genai>=1"]
"""
FILES = {
    "pyproject.toml": PYPROJECT,
    "mylib/__init__.py": (
        "from .client import Client, Limits, Session, Transport, stop_after_attempt\n"
    ),
    "mylib/client.py": CLIENT_PY + 'MYLIB_API_KEY = "MYLIB_API_KEY"\n',
    # The repository's other code: an example reading an environment variable, a test
    # importing a plugin's helper and assigning a variable.
    "examples/app.py": 'import os\n\nKEY = os.getenv("MYLIB_APP_KEY")\n',
    "tests/test_app.py": "from pytest_plugin import stop_after_attempts\n\nmax_retry_delayz = 1\n",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("mylib"), FILES)


@pytest.fixture
def ctx(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache")


_outcome = gate2_outcome


PYTHON_SAMPLE = """```python
from tenacity import stop_after_delay
from requests import Session, Sesion
from mylib import Client

def open_stream(conn, max_retry=3):
    mylib.open_stream = conn
    max_retry_delays = {"open_streamz": max_retry}
```

"""
JS_SAMPLE = """```js
const { Sesion } = require('undici')
let max_retry_delays;
app.decorate('open_stream', (a) => a)
```

"""


def test_the_names_a_pages_samples_import_from_other_packages(tmp_path: Path) -> None:
    from pytest_postgates.evidence.repomap import load_parsers

    parsers = load_parsers()
    body = PYTHON_SAMPLE + JS_SAMPLE + "```python\n# mylib/client.py\nimport numpy as np\n```\n"
    names = page_names(make_post(body, tmp_path), lambda spec: spec == "mylib",
                       parsers if isinstance(parsers, dict) else None)  # fmt: skip
    assert names.imported["stop_after_delay"] == ("tenacity", "stop_after_delay")
    assert names.imported["np"] == ("numpy",)  # a fence quoting a repository file too
    assert names.foreign["Sesion"][0] == "requests"  # the first import of a name holds
    assert "Client" not in names.foreign  # the product's own import


def test_within_one_script_fence_the_first_import_of_a_name_holds(tmp_path: Path) -> None:
    # The fence is read in document order, as a Python fence is: its first import of a name
    # says where the name comes from (a later one rebinds it further down).
    from pytest_postgates.evidence.repomap import load_parsers

    parsers = load_parsers()
    body = "```js\nimport { z } from 'zod'\nconst { z: other } = require('other')\n"
    body += "import { z } from 'valibot'\n```\n"
    names = page_names(make_post(body, tmp_path), lambda _spec: False,
                       parsers if isinstance(parsers, dict) else None)  # fmt: skip
    assert names.imported["z"] == ("zod", "z")
    assert names.foreign["other"][0] == "other"  # a pattern's key binds nothing


def test_the_products_own_imports_instances_and_keys_stay_claims(
    tmp_path: Path, ctx: GateContext
) -> None:
    # Imported from the product: its member is a claim about the product.
    entry = _outcome(f"{PYTHON_SAMPLE}Then `Client.open_stream()` runs.\n",
                     "Client.open_stream()", tmp_path, ctx)  # fmt: skip
    assert entry["outcome"] == "ungrounded"
    # A member after another package's import may be an invention pinned on it: the
    # import does not decide it.
    entry = _outcome(f"{PYTHON_SAMPLE}Then `Session.mount()` runs.\n",
                     "Session.mount()", tmp_path, ctx)  # fmt: skip
    assert entry["outcome"] == "ungrounded"


def test_a_chain_rooted_in_a_declared_dependency_is_third_party(
    tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Counted as claims (the seeds' way), the chain would be a finding without the rule.
    # Nothing installed where the run looks: the dependency rule says so (logfire's import
    # name is its distribution's).
    monkeypatch.setenv(DEPENDENCY_PATH_ENV, str(tmp_path / "nothing-installed"))
    claims = repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=True)
    entry = _outcome("Call `logfire.configure()` first.\n", "logfire.configure()", tmp_path, claims)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-not-installed"), entry
    assert "dependency logfire not installed" in entry["reason"]


def test_hatch_hook_and_dependency_group_dependencies_are_read(tmp_path: Path, repo: Path) -> None:
    from pytest_postgates.evidence.index import open_index
    from tests.helpers import git

    root = make_repo(
        tmp_path / "groups",
        {**FILES, "pyproject.toml": PYPROJECT + '\n[dependency-groups]\ndev = ["pytest>=8"]\n'},
    )
    index = open_index(root, git(root, "rev-parse", "HEAD").strip(), tmp_path / "c")
    deps = dependencies_of(index)
    assert {"logfire", "google-genai", "pytest"} <= deps.direct


def test_a_fence_that_does_not_parse_imports_nothing(tmp_path: Path) -> None:
    post = make_post("```python\nimport (:\n```\n\n```js\nlet = ;\n```\n", tmp_path)
    names = page_names(post, lambda _spec: False, None)
    assert names.foreign == {} and names.imported == {}


def test_names_the_repositorys_other_code_imports_or_reads_are_no_near_misses(
    tmp_path: Path, ctx: GateContext
) -> None:
    # Near misses of `MYLIB_API_KEY` and `stop_after_attempt`, but real: the example reads
    # the variable, a test imports the helper. A variable a test assigns proves nothing.
    for token in ("MYLIB_APP_KEY", "stop_after_attempts"):
        entry = _outcome(f"Set `{token}` first.\n", token, tmp_path, ctx)
        assert entry["outcome"] != "ungrounded", entry
    entry = _outcome("Set `max_retry_delayz` first.\n", "max_retry_delayz", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-near-miss")


def test_a_name_holding_a_product_name_whole_is_no_typo_of_it(
    tmp_path: Path, ctx: GateContext
) -> None:
    # `MyTransport` spells `Transport` whole with a word added: not a typo of it (a near
    # miss by letters); letters swapped inside a long name still are.
    body = "Subclass it as `MyTransport`, or call `stop_after_attemtp()`.\n"
    card = gate.GATE.evaluate(make_post(body, tmp_path), ctx)
    assert token_outcome(card, "MyTransport")["outcome"] == "unjudged"
    assert token_outcome(card, "stop_after_attemtp()")["outcome"] == "ungrounded"
