"""Gate 15 on keyword arguments passed to a Python callable that takes ``**kwargs``
(issue 26: "honouring **kwargs that are forwarded to a known signature, and saying so when
they are not"): the keywords are those the body reads by name and those each callee it
passes them all to accepts, through ``super().__init__``, ``self`` methods and the
module's own functions and classes; any other use of the ``**kwargs`` leaves them
unjudged, as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

FILES = {
    "pyproject.toml": "[project]\nname = 'netkit'\nversion = '1'\n",
    "netkit/__init__.py": (
        "from netkit._client import Client, connect, get, log, wrap\n"
        "__all__ = ['Client', 'connect', 'get', 'log', 'wrap']\n"
    ),
    "netkit/_client.py": (
        "import requests\n\n"
        "class Base:\n"
        "    def __init__(self, *, timeout: float = 5.0) -> None:\n"
        "        self.timeout = timeout\n\n"
        "class Client(Base):\n"
        "    def __init__(self, *, base_url: str = '', **kwargs) -> None:\n"
        "        super().__init__(**kwargs)\n"
        "        self.base_url = base_url\n\n"
        "    def send(self, url: str, **kwargs) -> None:\n"
        "        return self._send(url, **kwargs)\n\n"
        "    def _send(self, url: str, *, retries: int = 0) -> None: ...\n\n"
        "def request(method: str, url: str, *, params=None, headers=None) -> None: ...\n\n"
        "def get(url: str, **kwargs) -> None:\n"
        "    return request('GET', url, **kwargs)\n\n"
        "def connect(**options) -> None:\n"
        "    host = options.get('host', 'localhost')\n"
        "    port = options['port']\n"
        "    if 'tls' in options:\n"
        "        pass\n\n"
        "def log(**extra) -> None:\n"
        "    record = {}\n"
        "    record.update(extra)\n\n"
        "def wrap(**kw) -> None:\n"
        "    return requests.get(**kw)\n"
    ),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("netkit"), FILES)


def test_keywords_a_body_passes_on_or_reads_are_judged(tmp_path: Path, repo: Path) -> None:
    code = (
        "import netkit\n"
        "client = netkit.Client(base_url='x', timeout=1, timout=2)\n"
        "client.send('/', retries=1, retires=2)\n"
        "netkit.get('/', params={}, parms={})\n"
        "netkit.connect(host='h', port=1, tls=True, hots='h')\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [
        ("keyword_argument", "client.send(retires=)"),
        ("keyword_argument", "netkit.Client(timout=)"),
        ("keyword_argument", "netkit.connect(hots=)"),
        ("keyword_argument", "netkit.get(parms=)"),
    ]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "`timeout`" in reasons["netkit.Client(timout=)"], reasons
    assert not unjudged_reasons(card)


def test_keywords_a_body_uses_any_other_way_are_unjudged(tmp_path: Path, repo: Path) -> None:
    # `record.update(extra)`: any key; `requests.get(**kw)`: another library's callee.
    code = "import netkit\nnetkit.log(anything=1)\nnetkit.wrap(timeout=1)\n"
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == []
    reasons = unjudged_reasons(card)
    assert len(reasons) == 2 and all("accepts **kwargs" in r for r in reasons), reasons
