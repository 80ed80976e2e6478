"""Gate 15's code and type tables take what the API model's build read of a file
(evidence/shared_parses.py): only for the very text and parser it was read with, once, and
only as the tables' own reading would read it; never a table of another text."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_postgates.evidence import model_js, shared_parses
from pytest_postgates.evidence.code_tables import tables_for_source
from pytest_postgates.evidence.file_table import FileTable
from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.evidence.type_tables import TypeTable, read_type_table

CLIENT = (
    "export class Client {\n  send(body: string): void {}\n}\nexport interface Opts { a: number }\n"
)
EDITED = (
    "export class Client {\n  post(body: string): void {}\n}\nexport interface Opts { b: number }\n"
)
# A statement the grammar misreads: the build repairs or blanks it, the type model does not.
BROKEN = "export class Client {\n  send(: void {}\n}\nexport interface Opts { a: number }\n"


@pytest.fixture
def parsers() -> dict[str, object]:
    loaded = load_parsers()
    if isinstance(loaded, str):
        pytest.skip(loaded)
    return loaded


@pytest.fixture(autouse=True)
def _forget() -> Iterator[None]:
    yield
    shared_parses.keep_all([])


def test_a_kept_table_is_handed_once_for_its_text_and_parser_only(
    parsers: dict[str, object],
) -> None:
    table, types = FileTable(language="js"), TypeTable()
    ts = parsers["typescript"]
    shared_parses.keep_all([("src/a.ts", CLIENT, ts, table, types)])
    # Another text of the file (edited since), or another parser: never the kept table.
    assert shared_parses.take_file_table("src/a.ts", EDITED, ts) is None
    assert shared_parses.take_file_table("src/a.ts", CLIENT, parsers["tsx"]) is None
    assert shared_parses.take_type_table("src/b.ts", CLIENT, ts) is None
    assert shared_parses.take_file_table("src/a.ts", CLIENT, ts) is table
    assert shared_parses.take_file_table("src/a.ts", CLIENT, ts) is None  # handed once
    assert shared_parses.take_type_table("src/a.ts", CLIENT, ts) is types
    assert shared_parses.take_type_table("src/a.ts", CLIENT, ts) is None
    # Another build's readings replace the last build's.
    shared_parses.keep_all([("src/a.ts", CLIENT, ts, table, types)])
    shared_parses.keep_all([("src/c.ts", CLIENT, ts, table, None)])
    assert shared_parses.take_file_table("src/a.ts", CLIENT, ts) is None


def test_the_tables_read_from_the_build_are_the_tables_own_reading(
    parsers: dict[str, object],
) -> None:
    sources = {"src/a.ts": CLIENT, "src/broken.ts": BROKEN}
    model_js.read_js(sources, parsers, shared=True)
    fresh = {p: tables_for_source(p, t, {}) for p, t in sources.items()}  # no parser: none
    assert fresh == {"src/a.ts": None, "src/broken.ts": None}
    for path, text in sources.items():
        shared = tables_for_source(path, text, parsers)
        shared_parses.keep_all([])
        own = tables_for_source(path, text, parsers)
        assert shared is not None and own is not None
        assert shared.to_json() == own.to_json(), path
    model_js.read_js(sources, parsers, shared=True)
    ts = parsers["typescript"]
    assert shared_parses.take_type_table("src/a.ts", CLIENT, ts) == read_type_table(CLIENT, ts)
    assert shared_parses.take_file_table("src/broken.ts", BROKEN, ts) is not None
    # A tree the build repaired is not the type model's reading: its types are not kept.
    assert shared_parses.take_type_table("src/broken.ts", BROKEN, ts) is None


def test_an_edited_file_is_parsed_again_not_taken_from_the_build(
    parsers: dict[str, object],
) -> None:
    model_js.read_js({"src/a.ts": CLIENT}, parsers, shared=True)
    edited = tables_for_source("src/a.ts", EDITED, parsers)
    assert edited is not None
    assert "post" in edited.classes["Client"]["members"]
    assert "send" not in edited.classes["Client"]["members"]


def test_a_model_read_without_sharing_keeps_nothing(parsers: dict[str, object]) -> None:
    model_js.read_js({"src/a.ts": CLIENT}, parsers)
    assert shared_parses.take_file_table("src/a.ts", CLIENT, parsers["typescript"]) is None
