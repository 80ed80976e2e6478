"""Gate 15 on Python fences that are Python but for an elision or a value a reader fills in
(issue 26, natural drift): a bare ``...`` line among a call's arguments (the arguments the
page leaves out, before or after the keywords it shows) and a keyword argument whose value
does not parse (``headers=[(b"host": b"x")]``) are repaired in place, the rest of the call
judged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

FILES = {
    "pyproject.toml": "[project]\nname = 'trainkit'\nversion = '1'\n",
    "trainkit/__init__.py": (
        "from trainkit.config import TrainConfig\nfrom trainkit.pool import Pool, Stream\n"
        "__all__ = ['TrainConfig', 'Pool', 'Stream']\n"
    ),
    "trainkit/config.py": (
        "from dataclasses import dataclass\n\n"
        "@dataclass\nclass TrainConfig:\n"
        "    max_length: int = 1024\n    num_generations: int = 8\n    packing: bool = False\n"
    ),
    "trainkit/pool.py": (
        "from typing import Tuple\n\n"
        "class Stream:\n    async def aclose(self) -> None: ...\n\n"
        "class Pool:\n"
        "    async def request(self, method: bytes, url: bytes, headers=None"
        ") -> Tuple[int, Stream]: ...\n"
    ),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("trainkit"), FILES)


@pytest.mark.parametrize(
    "arguments",
    [
        "    ...\n    packing=True,\n    max_seq_length=4096,\n",  # elided before the keywords
        "    packing=True,\n    max_seq_length=4096,\n    ...\n",  # and after them
        "    packing=True,\n    …\n    max_seq_length=4096,\n",
    ],
)
def test_an_elided_argument_line_is_read_around(arguments: str, tmp_path: Path, repo: Path) -> None:
    code = f"from trainkit import TrainConfig\n\nargs = TrainConfig(\n{arguments})\n"
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [("keyword_argument", "TrainConfig(max_seq_length=)")]
    assert not any("does not parse" in r for r in unjudged_reasons(card))


def test_a_keyword_whose_value_does_not_parse_is_blanked(tmp_path: Path, repo: Path) -> None:
    code = (
        "import trainkit\n\n"
        "async def main():\n"
        "    pool = trainkit.Pool()\n"
        "    status, stream = await pool.request(\n"
        "        method=b'GET',\n"
        "        url=b'/',\n"
        "        headers=[(b'host': b'example.org')]\n"
        "    )\n"
        "    await stream.close()\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [("member", "stream.close")]
