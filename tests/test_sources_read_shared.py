"""Gate 15's list of the files a card's judgement read (``sources_read``) is the post's
own, whatever the run's other posts asked before it: an answer the run's samples share
(what the package's entry points export under a name) marks the files it read for each
post that asks, not the first only."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_postgates.evidence import resolution
from pytest_postgates.evidence.api_lookup import ApiLookup
from pytest_postgates.evidence.code_tables import code_tables
from pytest_postgates.evidence.index import open_index
from pytest_postgates.helpers import js_unbound
from tests.helpers import git, make_repo

LIB = {
    "package.json": json.dumps({"name": "lib", "main": "./src/index.ts"}),
    "src/index.ts": "export { makeThing } from './make';\n",
    "src/make.ts": "export function makeThing(size: number): object {\n  return {};\n}\n",
}


def _post(shared: ApiLookup) -> SimpleNamespace:
    """A post's reader as :func:`js_unbound._exported` asks it: its own view of the run's
    lookup, the package's one entry point."""
    lookup = shared.for_post()
    gate = SimpleNamespace(package="lib", lookup=lookup, entries=lambda: [("lib", "src/index.ts")])
    return SimpleNamespace(gate=gate)


def test_what_an_entry_exports_marks_its_files_for_every_post_that_asks(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", LIB)
    index = open_index(repo, git(repo, "rev-parse", "HEAD").strip(), tmp_path / "cache", ())
    files = resolution.IndexFiles(index)
    shared = ApiLookup(code_tables(index, tmp_path / "cache"), files, {})
    first, second = _post(shared), _post(shared)
    found = js_unbound._exported(first, "makeThing")  # type: ignore[arg-type]
    again = js_unbound._exported(second, "makeThing")  # type: ignore[arg-type]
    assert [b.path for _, _, b in found] == [b.path for _, _, b in again] == ["src/make.ts"]
    assert "src/make.ts" in first.gate.lookup.read
    assert sorted(second.gate.lookup.read) == sorted(first.gate.lookup.read)


def test_a_relative_specifier_is_resolved_once_per_run_for_every_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ApiLookup.relative: the answer for a file and a specifier is kept for the run's
    posts' views alike (the tables do not change within a run): the same answer, one
    look through the candidate files."""
    repo = make_repo(tmp_path / "repo", LIB)
    index = open_index(repo, git(repo, "rev-parse", "HEAD").strip(), tmp_path / "cache", ())
    shared = ApiLookup(code_tables(index, tmp_path / "cache"), resolution.IndexFiles(index), {})
    looked: list[str] = []
    source_at = ApiLookup._source_at
    monkeypatch.setattr(
        ApiLookup, "_source_at", lambda self, base: looked.append(base) or source_at(self, base)
    )
    first, second = shared.for_post(), shared.for_post()
    assert first.relative("src/index.ts", "./make") == "src/make.ts"
    assert second.relative("src/index.ts", "./make") == "src/make.ts"
    assert first.relative("src/index.ts", "./gone") is None
    assert second.relative("src/index.ts", "./gone") is None
    assert looked == ["src/make", "src/gone"]
