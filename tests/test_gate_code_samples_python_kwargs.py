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


# A field class whose ``**kwargs`` is read, passed on to its base, and there handed whole to
# a method that reads it (collerek/ormar's README, orm/fields.py before 0.1: `String(
# max_length=100)` where String reads `length`); a second one hands it to a method of its
# class that lets it go anywhere, and a third to a module function that reads it.
FIELDS = {
    "pyproject.toml": "[project]\nname = 'fieldkit'\nversion = '1'\n",
    "fieldkit/__init__.py": "from fieldkit.fields import Loose, Number, String\n",
    "fieldkit/fields.py": (
        "class BaseField:\n"
        "    def __init__(self, *args, **kwargs) -> None:\n"
        "        self.name = kwargs.pop('name', None)\n"
        "        self._populate_from_kwargs(kwargs)\n\n"
        "    def _populate_from_kwargs(self, kwargs: dict) -> None:\n"
        "        self.primary_key = kwargs.pop('primary_key', False)\n"
        "        self.nullable = kwargs.pop('nullable', True)\n\n"
        "class String(BaseField):\n"
        "    def __init__(self, *args, **kwargs) -> None:\n"
        "        if 'length' not in kwargs:\n"
        "            raise ValueError('length is required')\n"
        "        self.length = kwargs.pop('length')\n"
        "        super().__init__(*args, **kwargs)\n\n"
        "class Loose(BaseField):\n"
        "    def __init__(self, **kwargs) -> None:\n"
        "        self._keep(kwargs)\n\n"
        "    def _keep(self, options) -> None:\n"
        "        self.options = dict(options)\n\n"
        "def _bounds(options) -> None:\n"
        "    options.get('minimum')\n"
        "    options.get('maximum')\n\n"
        "class Number(BaseField):\n"
        "    def __init__(self, **kwargs) -> None:\n"
        "        _bounds(kwargs)\n"
        "        super().__init__(**kwargs)\n"
    ),
}


def test_keywords_handed_whole_to_a_method_or_function_that_reads_them_are_judged(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "fieldkit", FIELDS)
    code = (
        "import fieldkit\n"
        "title = fieldkit.String(max_length=100)\n"
        "name = fieldkit.String(length=100, nullable=False, primary_key=True, name='n')\n"
        "count = fieldkit.Number(minimum=0, maximum=9, nullable=False, maximun=1)\n"
        "other = fieldkit.Loose(anything=1)\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [
        ("keyword_argument", "fieldkit.Number(maximun=)"),
        ("keyword_argument", "fieldkit.String(max_length=)"),
    ]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "`maximum`" in reasons["fieldkit.Number(maximun=)"], reasons
    # Loose hands its keywords to a method that keeps them all: any keyword, unjudged.
    assert unjudged_reasons(card) == ["fieldkit.Loose(anything=): fieldkit.Loose accepts **kwargs"]


def test_keywords_handed_to_a_method_a_subclass_overrides_are_unjudged(tmp_path: Path) -> None:
    # Wide overrides the method BaseField hands its keywords to, and reads `width` there:
    # the keywords of BaseField's subclasses are then not all known.
    wide = {
        **FIELDS,
        "fieldkit/__init__.py": (
            "from fieldkit.fields import Loose, Number, String\nfrom fieldkit.more import Wide\n"
        ),
        "fieldkit/more.py": (
            "from fieldkit.fields import Number\n\n"
            "class Wide(Number):\n"
            "    def _populate_from_kwargs(self, kwargs: dict) -> None:\n"
            "        super()._populate_from_kwargs(kwargs)\n"
            "        self.width = kwargs.pop('width', 0)\n"
        ),
    }
    repo = make_repo(tmp_path / "fieldkit", wide)
    code = "import fieldkit\nfieldkit.Wide(width=3, minimum=0)\nfieldkit.String(max_length=1)\n"
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == []
    assert unjudged_reasons(card) == [
        f"fieldkit.{call}=): fieldkit.{call.split('(')[0]} accepts **kwargs"
        for call in ("Wide(width", "Wide(minimum", "String(max_length")
    ]
