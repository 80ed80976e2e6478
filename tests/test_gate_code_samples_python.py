"""Gate 15 on Python fences, judged against the API model (issue 26): imports, module
attributes, members through chains (inherited ones included) and keyword arguments, for a
package however it is packaged."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.gates.base import CheckResult
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

# A small HTTP client packaged with setup.py only (no PEP 621 table).
WIREKIT = {
    "setup.py": "from setuptools import setup\nsetup(name='wirekit', packages=['wirekit'])\n",
    "wirekit/__init__.py": (
        "from wirekit._client import AsyncClient, Client\n"
        "from wirekit._config import BasicAuth, Limits, Timeout\n"
        "from wirekit._models import Response\n"
        "from wirekit import transports\n"
        "__all__ = ['AsyncClient', 'BasicAuth', 'Client', 'Limits', 'Response', 'Timeout',\n"
        "           'get', 'transports']\n\n"
        "def get(url: str, *, timeout: float = 5.0) -> Response: ...\n\n"
        "def connect(url: str, *, timeout: float = 5.0) -> Client: ...\n"
    ),
    "wirekit/_models.py": (
        "import enum\n\n"
        "class Status(enum.Enum):\n    OK = 200\n    MISSING = 404\n\n"
        "    def describe(self) -> str: ...\n\n"
        "class Request:\n"
        "    def __init__(self, method: str, url: str) -> None:\n"
        "        self.method = method\n        self.url = url\n\n"
        "class Response:\n"
        "    def __init__(self, status_code: int) -> None:\n"
        "        self.status_code = status_code\n\n"
        "    def json(self) -> dict: ...\n\n"
        "    def iter_bytes(self, chunk_size: int = 512): ...\n\n"
        "    async def aiter_bytes(self, chunk_size: int = 512): ...\n\n"
        "    @property\n    def request(self) -> 'Request': ...\n\n"
        "    @property\n    def status(self) -> Status: ...\n"
    ),
    "wirekit/_client.py": (
        "import contextlib\nimport typing\n\n"
        "from wirekit._config import Limits\nfrom wirekit._models import Response\n\n"
        "T = typing.TypeVar('T')\n\n"
        "class BaseClient:\n"
        "    def __init__(self, *, timeout: float = 5.0, limits: Limits | None = None) -> None:\n"
        "        self._timeout = timeout\n\n"
        "    @property\n    def timeout(self) -> float: ...\n\n"
        "class Client(BaseClient):\n"
        "    def get(self, url: str, *, params: dict | None = None, auth=None) -> Response: ...\n\n"
        "    def request(self, method: str, url: str, **kwargs: typing.Any) -> Response: ...\n\n"
        "    def __enter__(self: T) -> T: ...\n\n"
        "    @contextlib.contextmanager\n"
        "    def stream(self, method: str, url: str) -> typing.Iterator[Response]: ...\n\n"
        "    def close(self) -> None: ...\n\n"
        "    @typing.overload\n"
        "    def fetch(self, url: str, *, raw: typing.Literal[True]) -> bytes: ...\n\n"
        "    @typing.overload\n"
        "    def fetch(self, url: str, *, raw: typing.Literal[False] = False) -> Response: ...\n\n"
        "    def fetch(self, url: str, *, raw: bool = False) -> Response | bytes: ...\n\n"
        "class AsyncClient(BaseClient):\n"
        "    async def get(self, url: str) -> Response: ...\n\n"
        "    async def __aenter__(self) -> 'AsyncClient': ...\n\n"
        "    @contextlib.asynccontextmanager\n"
        "    async def stream(self, method: str, url: str) -> typing.AsyncIterator[Response]: ...\n"
    ),
    "wirekit/_config.py": (
        "import typing\nfrom dataclasses import dataclass\n\nimport pluggy\n\n"
        "class Limits:\n"
        "    def __init__(self, *, max_connections: int | None = None,\n"
        "                 max_keepalive_connections: int | None = None) -> None: ...\n\n"
        "class BasicAuth:\n"
        "    def __init__(self, username: str, password: str) -> None: ...\n\n"
        "@dataclass\nclass Timeout:\n    connect: float = 5.0\n    read: float = 5.0\n\n"
        "class Plugin(pluggy.Base):\n    pass\n\n"
        "class Options(typing.TypedDict, total=False):\n    verbose: bool\n    level: int\n\n"
        "class MoreOptions(Options, total=False):\n    color: str\n"
    ),
    "wirekit/transports/__init__.py": "from .mock import MockTransport\n",
    "wirekit/transports/mock.py": "class MockTransport:\n    def __init__(self, handler): ...\n",
    # Names another subpackage declares too: a Client and a connect of its own.
    "wirekit/extras/__init__.py": "from .proxy import Client, connect\n",
    "wirekit/extras/proxy.py": (
        "class Client:\n    def __init__(self, *, proxy: str = '') -> None: ...\n\n"
        "def connect(url: str, *, retries: int = 3) -> Client: ...\n"
    ),
    # An empty __init__.py has no text to index, yet makes its folder a package.
    "wirekit/contrib/__init__.py": "",
    "wirekit/contrib/retry.py": "class Retry:\n    def __init__(self, total: int = 3): ...\n",
}


@pytest.fixture(scope="module")
def wirekit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("wirekit"), dict(WIREKIT))


def _check(body: str, tmp_path: Path, repo: Path, **settings: object) -> Scorecard:
    return gate.GATE.evaluate(
        make_post(body, tmp_path), repo_context(repo, tmp_path / "cache", **settings)
    )


def _py(code: str, lang: str = "python") -> str:
    return f"Intro.\n\n```{lang}\n{code}\n```\n"


def _violations(card: Scorecard) -> list[tuple[str, str]]:
    return [(v["kind"], v["name"]) for v in card.detail["violations"]]


def _reasons(card: Scorecard) -> list[str]:
    return [str(v["reason"]) for v in card.detail["violations"]]


def _unjudged(card: Scorecard) -> list[str]:
    return [str(u["reason"]) for u in card.detail["unjudged"]]


# ---------------------------------------------------------------------- point 1


def test_a_setup_py_package_is_found_in_the_code_and_judged(tmp_path: Path, wirekit: Path) -> None:
    card = _check(_py("from wirekit import Client, Clint\n"), tmp_path, wirekit)
    assert card.verdict == "FAIL"
    assert _violations(card) == [("python_import", "wirekit.Clint")]
    assert "did you mean `Client`" in _reasons(card)[0]
    assert card.detail["checked"] == 3  # the module and both names
    assert card.detail["resolved"] == {"wirekit": "wirekit/__init__.py"}


def test_a_poetry_project_needs_no_package_setting(tmp_path: Path) -> None:
    files = {k: v for k, v in WIREKIT.items() if k != "setup.py"}
    files["pyproject.toml"] = '[tool.poetry]\nname = "wirekit"\nversion = "1.0"\n'
    repo = make_repo(tmp_path / "repo", files)
    card = _check(_py("import wirekit\nwirekit.Limts()\n"), tmp_path, repo)
    assert card.verdict == "FAIL", card.summary
    assert _violations(card) == [("python_attribute", "wirekit.Limts")]


def test_a_card_that_checked_nothing_says_so(tmp_path: Path, wirekit: Path) -> None:
    card = _check(_py("import os\nprint(os.getcwd())\n"), tmp_path, wirekit)
    assert card.verdict == "PASS"
    assert card.detail["checked"] == 0
    assert card.summary.startswith("nothing checked")
    unjudged = {"checked": 0, "unjudged": [{"line": 9, "text": "x", "reason": "why"}]}
    decided = gate.decide(CheckResult([], unjudged), gate.CodeSamplesSettings())
    assert decided.summary == "nothing checked: 1 use(s) of the product not judged"


# ---------------------------------------------------------------------- point 2


def test_imports_resolve_to_modules_and_public_names(tmp_path: Path, wirekit: Path) -> None:
    code = (
        "import wirekit.transports.mock\n"
        "import wirekit.transport\n"
        "from wirekit.transports import MockTransport, MockTransprt\n"
        "from wirekit.transports.mok import MockTransport\n"
        "from wirekit._models import Request\n"
        "import os.path\n"
        "from wirekit import (\n    Client,\n    Clientt,\n)\n"
    )
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == [
        ("python_import", "wirekit.transport"),
        ("python_import", "wirekit.transports.MockTransprt"),
        ("python_import", "from wirekit.transports.mok import MockTransport"),
        ("python_import", "wirekit.Clientt"),
    ]
    reasons = _reasons(card)
    assert "did you mean `transports`" in reasons[0]
    assert "did you mean `MockTransport`" in reasons[1]
    assert "did you mean `mock`" in reasons[2]
    assert [v["line"] for v in card.detail["violations"]] == [10, 11, 12, 17]


def test_repl_fences_are_read_without_prompts_and_output(tmp_path: Path, wirekit: Path) -> None:
    code = (
        ">>> from wirekit import Limit\n"
        "Traceback (most recent call last):\n"
        ">>> import wirekit\n"
        ">>> for part in [1]:\n"
        "...     wirekit.gett(part)\n"
        "...\n"
        "<Response [200]>\n"
    )
    for lang in ("pycon", "python"):
        card = _check(_py(code, lang), tmp_path, wirekit)
        assert _violations(card) == [
            ("python_import", "wirekit.Limit"),
            ("python_attribute", "wirekit.gett"),
        ]
        assert [v["line"] for v in card.detail["violations"]] == [9, 13]


def test_a_fence_with_lines_that_are_not_python_is_still_read(
    tmp_path: Path, wirekit: Path
) -> None:
    code = (
        "!pip install wirekit\n"
        "import wirekit\n"
        "auth = wirekit.BasicAuth(<username>, <password>)\n"
        "with wirekit.Client(<options>) as client:\n"
        "    client.sned()\n"
    )
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == [("member", "client.sned")]
    broken = _check(_py("import wirekit\n" + ")\n" * 14), tmp_path, wirekit)
    assert _unjudged(broken) == ["the fence does not parse as Python"]


# ---------------------------------------------------------------------- point 3


def test_module_attributes_and_members_through_chains(tmp_path: Path, wirekit: Path) -> None:
    code = (
        "import wirekit\n"
        "auth = wirekit.BasicAuthentication('u', 'p')\n"
        "mock = wirekit.transports.MockTransport(None)\n"
        "client = wirekit.Client()\n"
        "client.timeout\n"  # inherited from BaseClient
        "client.close()\n"
        "client.shut()\n"
        "response = client.get('https://example.com')\n"  # the declared return type
        "response.json()\n"
        "response.jsn()\n"
        "response.request.url\n"  # a property's declared type
        "response.request.uri\n"
        "with wirekit.Client() as other:\n"
        "    with other.stream('GET', '/') as streamed:\n"  # Iterator[Response]
        "        streamed.iter_bytes()\n"
        "        streamed.iter_content()\n"
    )
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == [
        ("python_attribute", "wirekit.BasicAuthentication"),
        ("member", "client.shut"),
        ("member", "response.jsn"),
        ("member", "response.request.uri"),
        ("member", "streamed.iter_content"),
    ]
    reasons = _reasons(card)
    assert "did you mean `BasicAuth`" in reasons[0]
    assert reasons[2].startswith("Response has no member jsn; did you mean `json`")
    assert "did you mean `url`" in reasons[3]
    assert "did you mean `iter_bytes`" in reasons[4]


def test_what_follows_a_missing_member_is_judged_by_the_names_the_code_writes(
    tmp_path: Path, wirekit: Path
) -> None:
    code = (
        "import wirekit\n"
        "client = wirekit.Client()\n"
        "for item in client.history:\n"  # Client has no history
        "    item.data_snapshot()\n"  # and no code of wirekit names data_snapshot
        "    item.status_code\n"  # a name the code writes: the miss before it is the finding
        "    item.upper()\n"  # a built-in type's member
        "last = client.history[0].snapshot_of_data\n"
    )
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == [
        ("member", "client.history"),
        ("member", "item.data_snapshot"),
        ("member", "client.history"),
        ("member", "client.history[].snapshot_of_data"),
    ]
    assert (
        "follows a missing member, and no code of the product names data_snapshot"
        in (_reasons(card)[1])
    )


def test_a_package_whose_init_is_empty(tmp_path: Path, wirekit: Path) -> None:
    code = "from wirekit.contrib.retry import Retry\nimport wirekit.contrib.retri\n"
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == [("python_import", "wirekit.contrib.retri")]
    assert "did you mean `retry`" in _reasons(card)[0]


def test_overloads_that_return_different_types_type_nothing(tmp_path: Path, wirekit: Path) -> None:
    code = "import wirekit\nwirekit.Client().fetch('/', raw=True).anything\n"
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == []
    assert any("fetch().anything" in r for r in _unjudged(card)), _unjudged(card)


def test_a_package_named_without_its_import_is_the_package(tmp_path: Path, wirekit: Path) -> None:
    code = ">>> auth = wirekit.BasicAuthentication(username='u', password='p')\n"
    card = _check(_py(code, "pycon"), tmp_path, wirekit)
    assert _violations(card) == [("python_attribute", "wirekit.BasicAuthentication")]
    shadowed = _check(_py("wirekit = object()\nwirekit.BasicAuthentication\n"), tmp_path, wirekit)
    assert _violations(shadowed) == []


def test_enum_members_have_their_name_and_value(tmp_path: Path, wirekit: Path) -> None:
    code = (
        "import wirekit\n"
        "status = wirekit.get('/').status\n"
        "status.value, status.name, status.describe()\n"
        "status.valeu\n"
        "wirekit._models.Status.OK.value\n"
        "wirekit._models.Status.OK.nmae\n"
    )
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == [
        ("member", "status.valeu"),
        ("member", "wirekit._models.Status.OK.nmae"),
    ]
    assert "did you mean `value`" in _reasons(card)[0]


def test_names_several_packages_declare_are_judged_by_where_they_come_from(
    tmp_path: Path, wirekit: Path
) -> None:
    code = (
        "import wirekit\n"
        "wirekit.extras.connect('/', retries=1)\n"  # the extras' own connect
        "wirekit.connect('/', timeout=1)\n"
        "wirekit.extras.Client(proxy='p')\n"  # either Client's constructor
        "wirekit.Client(timeout=1)\n"
        "wirekit.Client(proxi='p')\n"
    )
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == [("keyword_argument", "wirekit.Client(proxi=)")]


def test_a_later_fence_uses_what_an_earlier_one_bound(tmp_path: Path, wirekit: Path) -> None:
    body = (
        "Make a client:\n\n```python\n>>> async with wirekit.AsyncClient() as client:\n"
        ">>>     r = await client.get('https://example.com')\n```\n\n"
        "Stream:\n\n```python\n"
        ">>> async with client.stream('GET', '/') as response:\n"
        ">>>     async for chunk in r.aiter_content():\n"
        ">>>         ...\n```\n"
    )
    card = _check("```python\nimport wirekit\n```\n\n" + body, tmp_path, wirekit)
    assert _violations(card) == [("member", "r.aiter_content")]
    assert "did you mean `aiter_bytes`" in _reasons(card)[0]


def test_uses_the_gate_cannot_type_are_unjudged_with_the_reason(
    tmp_path: Path, wirekit: Path
) -> None:
    code = (
        "import wirekit\n"
        "data = wirekit.get('/').json()\n"  # a dict: another library's type, listed
        "data.whatever\n"
        "chunks = wirekit.get('/').iter_bytes()\n"  # no declared return type
        "chunks.whatever\n"
        "err = wirekit._config.Plugin()\n"  # extends a class outside the product
        "err.anything\n"
        "helper = make_client()\n"  # not tied to the product: not listed
        "helper.nothing\n"
    )
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == []
    reasons = _unjudged(card)
    assert any("chunks.whatever" in r and "does not know the type" in r for r in reasons)
    assert any("data.whatever" in r and "returns dict, a type outside" in r for r in reasons)
    assert not any("helper" in r for r in reasons), reasons
    assert card.verdict == "PASS" and "not judged" in card.summary


def test_names_the_sample_defines_shadow_the_product(tmp_path: Path, wirekit: Path) -> None:
    code = (
        "from wirekit import Client\n"
        "class Client:\n    def own(self): ...\n"
        "Client().own()\n"
        "def use(client: 'x'):\n    client.anything()\n"
    )
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == []


def test_an_annotated_parameter_is_an_instance(tmp_path: Path, wirekit: Path) -> None:
    code = "import wirekit\n\ndef use(client: wirekit.Client) -> None:\n    client.sned()\n"
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == [("member", "client.sned")]


# ---------------------------------------------------------------------- point 4


def test_keyword_arguments_against_the_callee_parameters(tmp_path: Path, wirekit: Path) -> None:
    code = (
        "import wirekit\n"
        "limits = wirekit.Limits(max_keepalive=5, max_connections=10)\n"
        "client = wirekit.Client(limits=limits, timeout=3)\n"  # the inherited __init__
        "client = wirekit.Client(timeot=3)\n"
        "client.get('/', params={}, parms={})\n"
        "wirekit.get('/', timeout=1)\n"
        "wirekit.Timeout(connect=1, reed=2)\n"  # a dataclass: its fields
        "client.request('GET', '/', anything=1)\n"
        "wirekit._config.MoreOptions(verbose=True, color='red', colour='red')\n"  # TypedDict
    )
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == [
        ("keyword_argument", "wirekit.Limits(max_keepalive=)"),
        ("keyword_argument", "wirekit.Client(timeot=)"),
        ("keyword_argument", "client.get(parms=)"),
        ("keyword_argument", "wirekit.Timeout(reed=)"),
        ("keyword_argument", "wirekit._config.MoreOptions(colour=)"),
    ]
    reasons = _reasons(card)
    assert "did you mean `max_keepalive_connections`" in reasons[0]
    assert "did you mean `timeout`" in reasons[1]
    assert "did you mean `read`" in reasons[3]
    assert any("accepts **kwargs" in r for r in _unjudged(card))
    assert "did you mean `color`" in reasons[4]
    assert card.detail["checked_by_kind"]["keyword"] == 13


def test_keywords_of_a_class_with_an_outside_base_are_unjudged(
    tmp_path: Path, wirekit: Path
) -> None:
    code = "from wirekit._config import Plugin\nPlugin(message='x')\n"
    card = _check(_py(code), tmp_path, wirekit)
    assert _violations(card) == []
    assert any("extends pluggy.Base, outside the product" in r for r in _unjudged(card))


def test_open_attributes_and_another_partys_type_are_not_product_misses(tmp_path: Path) -> None:
    # starlette's shapes: `State` makes attributes at run time (`__getattr__`), and the test
    # client's `get` returns `httpx.Response`, not the product's own `Response` class.
    files = {
        "setup.py": "from setuptools import setup\nsetup(name='webkit', packages=['webkit'])\n",
        "webkit/__init__.py": "from webkit.app import State, Response, TestClient\n",
        "webkit/app.py": (
            "import httpx\n\n"
            "class State:\n"
            "    def __getattr__(self, key: str) -> object: ...\n\n"
            "class Response:\n    status_code: int = 200\n\n"
            "class TestClient(httpx.Client):\n"
            "    def get(self, url: str) -> httpx.Response: ...\n"
            "    def mine(self, url: str) -> Response: ...\n"
        ),
    }
    repo = make_repo(tmp_path / "repo", files)
    code = (
        "from webkit import State, TestClient\n"
        "State().http_client\n"
        "response = TestClient().get('/')\n"
        "response.template\n"
        "TestClient().mine('/').template\n"
    )
    card = _check(_py(code), tmp_path, repo)
    assert _violations(card) == [("member", "TestClient().mine().template")], card.detail
    assert any("__getattr__" in r for r in _unjudged(card)), _unjudged(card)
