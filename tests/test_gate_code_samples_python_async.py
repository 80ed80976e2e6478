"""Gate 15 on a call declared to return a fixed-length tuple (``-> Tuple[bytes, int,
ByteStream]``, an async library's sample written at the top level as its docs do): unpacked
by position, each name holds its element's type; a starred target or another length is not
split."""

from __future__ import annotations

from pathlib import Path

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

WIRE = {
    "pyproject.toml": '[project]\nname = "wirecore"\n',
    "wirecore/__init__.py": "from wirecore._pool import AsyncPool, ByteStream\n",
    "wirecore/_pool.py": (
        "from typing import List, Tuple\n\n"
        "class ByteStream:\n"
        "    async def aclose(self) -> None: ...\n\n"
        "class AsyncPool:\n"
        "    async def __aenter__(self) -> 'AsyncPool': ...\n\n"
        "    async def __aexit__(self, *args) -> None: ...\n\n"
        "    async def request(self, method: bytes, url: bytes\n"
        "                      ) -> Tuple[bytes, int, List[bytes], ByteStream]: ...\n\n"
        "    async def chunks(self) -> Tuple[bytes, ...]: ...\n"
    ),
}


def _card(code: str, tmp_path: Path) -> Scorecard:
    repo = make_repo(tmp_path / "repo", dict(WIRE))
    body = f"Intro.\n\n```python\n{code}\n```\n"
    return gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "cache"))


def _violations(card: Scorecard) -> list[tuple[str, str]]:
    return [(v["kind"], v["name"]) for v in card.detail["violations"]]


def test_a_top_level_async_with_and_a_declared_tuple_are_read(tmp_path: Path) -> None:
    code = (
        "import wirecore\n\n"
        "async with wirecore.AsyncPool() as pool:\n"
        "    version, status, headers, stream = await pool.request(b'GET', b'/')\n"
        "    try:\n"
        "        body = b''.join([chunk async for chunk in stream])\n"
        "    finally:\n"
        "        await stream.close()\n"
        "    await pool.requestt(b'GET', b'/')\n"
    )
    card = _card(code, tmp_path)
    assert _violations(card) == [("member", "stream.close"), ("member", "pool.requestt")], (
        card.detail
    )


def test_a_tuple_of_another_length_or_a_starred_target_is_not_split(tmp_path: Path) -> None:
    code = (
        "import wirecore\n\n"
        "async def main():\n"
        "    pool = wirecore.AsyncPool()\n"
        "    first, *rest = await pool.request(b'GET', b'/')\n"
        "    rest.anything\n"
        "    a, b = await pool.request(b'GET', b'/')\n"
        "    b.anything\n"
    )
    card = _card(code, tmp_path)
    assert _violations(card) == [], card.detail
