"""Gate 15 on a name a Python sample uses without binding it, typed as the product's own
code declares it (PythonTypes.code_named): ``client: Client`` in most of the annotated
parameters and attributes of that name, so a bare ``client.open_stream()`` is judged on
Client. Too few declarations, another class too often, a member the code writes: never
a finding."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

CLIENT = (
    "class Client:\n"
    "    def open_streams(self) -> None: ...\n"
    "    def close(self) -> None: ...\n\n"
    "def send(client: Client) -> None: ...\n"
    "def fetch(client: 'Client | None' = None) -> None: ...\n"
)


def _card(tmp_path: Path, extra: str, code: str) -> object:
    files = {
        "pyproject.toml": "[project]\nname = 'netkit'\nversion = '1'\n",
        "netkit/__init__.py": "from netkit.client import Client\n",
        "netkit/client.py": CLIENT + extra,
    }
    repo = make_repo(tmp_path / "repo", files)
    return sample_card(code, "python", tmp_path, repo)


THIRD = "class Pool:\n    client: Client\n"


def test_a_name_the_code_declares_as_one_class_is_typed_so(tmp_path: Path) -> None:
    card = _card(tmp_path, THIRD, "client.open_stream()\nclient.close()\n")
    assert sample_violations(card) == [("member", "client.open_stream")]
    (violation,) = card.detail["violations"]  # type: ignore[attr-defined]
    assert "open_streams" in violation["reason"]


def test_two_declarations_are_too_few(tmp_path: Path) -> None:
    card = _card(tmp_path, "", "client.open_stream()\n")
    assert sample_violations(card) == []
    assert any("never bound" in r for r in unjudged_reasons(card))


def test_a_name_declared_as_another_class_too_stays_untyped(tmp_path: Path) -> None:
    extra = THIRD + "class Other: ...\n\ndef a(client: Other) -> None: ...\n"
    card = _card(tmp_path, extra, "client.open_stream()\n")
    assert sample_violations(card) == []


def test_a_member_the_code_writes_is_unjudged(tmp_path: Path) -> None:
    extra = THIRD + "open_stream = None\n"
    card = _card(tmp_path, extra, "client.open_stream()\n")
    assert sample_violations(card) == []
    assert any("how the product's code declares the name" in r for r in unjudged_reasons(card))
