"""Gate 15 on Python fences, judged against the API model (issue 26): imports, module
attributes, members through chains (inherited ones included) and keyword arguments, for a
package however it is packaged."""

from __future__ import annotations

from dataclasses import dataclass
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


def test_a_package_named_without_its_import_is_the_package(tmp_path: Path, wirekit: Path) -> None:
    code = ">>> auth = wirekit.BasicAuthentication(username='u', password='p')\n"
    card = _check(_py(code, "pycon"), tmp_path, wirekit)
    assert _violations(card) == [("python_attribute", "wirekit.BasicAuthentication")]
    shadowed = _check(_py("wirekit = object()\nwirekit.BasicAuthentication\n"), tmp_path, wirekit)
    assert _violations(shadowed) == []


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


# ---------------------------------------------------------------------- point 4


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


# ---------------------------------------------------------------------- points 2-4: one fence


@dataclass(frozen=True)
class Sample:
    """One Python fence gated against wirekit, and what the card must say of it."""

    id: str
    code: str
    # (kind, name) of each violation, in order
    violations: tuple[tuple[str, str], ...]
    # (which violation, a part of its reason)
    reasons: tuple[tuple[int, str], ...] = ()
    # (which violation, how its reason opens)
    reason_openings: tuple[tuple[int, str], ...] = ()
    # each: the parts one reason of the unjudged list holds together
    unjudged: tuple[tuple[str, ...], ...] = ()
    # a part no unjudged reason holds
    never_unjudged: tuple[str, ...] = ()
    # the post's line of each violation
    lines: tuple[int, ...] | None = None
    verdict: str | None = None
    summary_has: str = ""
    keywords_checked: int | None = None


SAMPLES = (
    # point 2: imports
    Sample(
        "imports resolve to modules and public names",
        "import wirekit.transports.mock\n"
        "import wirekit.transport\n"
        "from wirekit.transports import MockTransport, MockTransprt\n"
        "from wirekit.transports.mok import MockTransport\n"
        "from wirekit._models import Request\n"
        "import os.path\n"
        "from wirekit import (\n    Client,\n    Clientt,\n)\n",
        (
            ("python_import", "wirekit.transport"),
            ("python_import", "wirekit.transports.MockTransprt"),
            ("python_import", "from wirekit.transports.mok import MockTransport"),
            ("python_import", "wirekit.Clientt"),
        ),
        reasons=(
            (0, "did you mean `transports`"),
            (1, "did you mean `MockTransport`"),
            (2, "did you mean `mock`"),
        ),
        lines=(10, 11, 12, 17),
    ),
    # point 3: attributes and members
    Sample(
        "module attributes and members through chains",
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
        "        streamed.iter_content()\n",
        (
            ("python_attribute", "wirekit.BasicAuthentication"),
            ("member", "client.shut"),
            ("member", "response.jsn"),
            ("member", "response.request.uri"),
            ("member", "streamed.iter_content"),
        ),
        reasons=(
            (0, "did you mean `BasicAuth`"),
            (3, "did you mean `url`"),
            (4, "did you mean `iter_bytes`"),
        ),
        reason_openings=((2, "Response has no member jsn; did you mean `json`"),),
    ),
    Sample(
        "what follows a missing member is judged by the names the code writes",
        "import wirekit\n"
        "client = wirekit.Client()\n"
        "for item in client.history:\n"  # Client has no history
        "    item.data_snapshot()\n"  # and no code of wirekit names data_snapshot
        "    item.status_code\n"  # a name the code writes: the miss before it is the finding
        "    item.upper()\n"  # a built-in type's member
        "last = client.history[0].snapshot_of_data\n",
        (
            ("member", "client.history"),
            ("member", "item.data_snapshot"),
            ("member", "client.history"),
            ("member", "client.history[].snapshot_of_data"),
        ),
        reasons=((1, "follows a missing member, and no code of the product names data_snapshot"),),
    ),
    Sample(
        "a package whose init is empty",
        "from wirekit.contrib.retry import Retry\nimport wirekit.contrib.retri\n",
        (("python_import", "wirekit.contrib.retri"),),
        reasons=((0, "did you mean `retry`"),),
    ),
    Sample(
        "overloads that return different types type nothing",
        "import wirekit\nwirekit.Client().fetch('/', raw=True).anything\n",
        (),
        unjudged=(("fetch().anything",),),
    ),
    Sample(
        "enum members have their name and value",
        "import wirekit\n"
        "status = wirekit.get('/').status\n"
        "status.value, status.name, status.describe()\n"
        "status.valeu\n"
        "wirekit._models.Status.OK.value\n"
        "wirekit._models.Status.OK.nmae\n",
        (("member", "status.valeu"), ("member", "wirekit._models.Status.OK.nmae")),
        reasons=((0, "did you mean `value`"),),
    ),
    Sample(
        "names several packages declare are judged by where they come from",
        "import wirekit\n"
        "wirekit.extras.connect('/', retries=1)\n"  # the extras' own connect
        "wirekit.connect('/', timeout=1)\n"
        "wirekit.extras.Client(proxy='p')\n"  # either Client's constructor
        "wirekit.Client(timeout=1)\n"
        "wirekit.Client(proxi='p')\n",
        (("keyword_argument", "wirekit.Client(proxi=)"),),
    ),
    Sample(
        "uses the gate cannot type are unjudged with the reason",
        "import wirekit\n"
        "data = wirekit.get('/').json()\n"  # a dict: another library's type, listed
        "data.whatever\n"
        "chunks = wirekit.get('/').iter_bytes()\n"  # no declared return type
        "chunks.whatever\n"
        "err = wirekit._config.Plugin()\n"  # extends a class outside the product
        "err.anything\n"
        # Not tied to the product, and not typed: listed by the accounting step (issue 26).
        "helper = make_client()\n"
        "helper.nothing\n",
        (),
        unjudged=(
            ("chunks.whatever", "does not know the type"),
            ("data.whatever", "returns dict, a type outside"),
            ("helper.nothing", "`helper` holds `make_client()`, whose type is not shown"),
        ),
        verdict="PASS",
        summary_has="not judged",
    ),
    Sample(
        "names the sample defines shadow the product",
        "from wirekit import Client\n"
        "class Client:\n    def own(self): ...\n"
        "Client().own()\n"
        "def use(client: 'x'):\n    client.anything()\n",
        (),
    ),
    Sample(
        "an annotated parameter is an instance",
        "import wirekit\n\ndef use(client: wirekit.Client) -> None:\n    client.sned()\n",
        (("member", "client.sned"),),
    ),
    # point 4: keyword arguments
    Sample(
        "keyword arguments against the callee parameters",
        "import wirekit\n"
        "limits = wirekit.Limits(max_keepalive=5, max_connections=10)\n"
        "client = wirekit.Client(limits=limits, timeout=3)\n"  # the inherited __init__
        "client = wirekit.Client(timeot=3)\n"
        "client.get('/', params={}, parms={})\n"
        "wirekit.get('/', timeout=1)\n"
        "wirekit.Timeout(connect=1, reed=2)\n"  # a dataclass: its fields
        "client.request('GET', '/', anything=1)\n"
        "wirekit._config.MoreOptions(verbose=True, color='red', colour='red')\n",  # TypedDict
        (
            ("keyword_argument", "wirekit.Limits(max_keepalive=)"),
            ("keyword_argument", "wirekit.Client(timeot=)"),
            ("keyword_argument", "client.get(parms=)"),
            ("keyword_argument", "wirekit.Timeout(reed=)"),
            ("keyword_argument", "wirekit._config.MoreOptions(colour=)"),
        ),
        reasons=(
            (0, "did you mean `max_keepalive_connections`"),
            (1, "did you mean `timeout`"),
            (3, "did you mean `read`"),
            (4, "did you mean `color`"),
        ),
        unjudged=(("accepts **kwargs",),),
        keywords_checked=13,
    ),
    Sample(
        "keywords of a class with an outside base are unjudged",
        "from wirekit._config import Plugin\nPlugin(message='x')\n",
        (),
        unjudged=(("extends pluggy.Base, outside the product",),),
    ),
)


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.id for s in SAMPLES])
def test_a_fence_is_judged_against_the_product(
    sample: Sample, tmp_path: Path, wirekit: Path
) -> None:
    card = _check(_py(sample.code), tmp_path, wirekit)
    assert _violations(card) == list(sample.violations), card.detail
    reasons, unjudged = _reasons(card), _unjudged(card)
    for index, part in sample.reasons:
        assert part in reasons[index], reasons
    for index, opening in sample.reason_openings:
        assert reasons[index].startswith(opening), reasons
    for parts in sample.unjudged:
        assert any(all(p in r for p in parts) for r in unjudged), unjudged
    for part in sample.never_unjudged:
        assert not any(part in r for r in unjudged), unjudged
    if sample.lines is not None:
        assert [v["line"] for v in card.detail["violations"]] == list(sample.lines)
    if sample.verdict is not None:
        assert card.verdict == sample.verdict
    assert sample.summary_has in card.summary
    if sample.keywords_checked is not None:
        assert card.detail["checked_by_kind"]["keyword"] == sample.keywords_checked


def test_the_card_lists_what_it_checked_by_line_and_name(tmp_path: Path, wirekit: Path) -> None:
    """What the gate checked, found or not, by line and name (bench/miss_anatomy.py reads a
    checked name that is no violation as found present)."""
    code = "from wirekit import Client, Clint\nclient = Client(tmeout=1)\n"
    code += "client.get('u', params={})\n"
    card = _check(_py(code), tmp_path, wirekit)
    first = min(item["line"] for item in card.detail["checked_names"])
    assert [(i["line"] - first, i["name"], i["kind"]) for i in card.detail["checked_names"]] == [
        (0, "wirekit", "python"), (0, "Client", "python"), (0, "Clint", "python"),
        (1, "tmeout", "keyword"), (2, "get", "member"), (2, "params", "keyword"),
    ]  # fmt: skip
    assert len(card.detail["checked_names"]) == card.detail["checked"]
    assert {v["line"] - first for v in card.detail["violations"]} == {0, 1}
