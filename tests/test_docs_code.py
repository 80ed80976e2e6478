"""The names the docs folder's own code gives as strings (helpers/docs_code.py): a string
literal of a JavaScript/TypeScript file of the page's docs folder, read at the ref, never
an object's key, never the product's code, nor a folder that holds the product's code."""

from __future__ import annotations

from pathlib import Path

from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.helpers import docs_code
from tests.helpers import git, make_repo


def _docs_code(repo: Path, folder: str) -> docs_code.DocsCode:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    commit = git(repo, "rev-parse", "HEAD").strip()
    return docs_code.DocsCode(repo, commit, folder, docs_code.parser_of(parsers))


def test_the_docs_folder_is_a_top_folder_without_product_code() -> None:
    assert docs_code.docs_folder("docs/samples/area/line.md") == "docs"
    assert docs_code.docs_folder("doc/guide/page.md") == "doc"
    assert docs_code.docs_folder("README.md") == ""
    assert docs_code.docs_folder("packages/core/README.md") == ""
    assert docs_code.docs_folder("src/guide.md") == ""


def test_a_string_of_the_docs_code_is_given_with_its_file_and_line(tmp_path: Path) -> None:
    files = {
        "docs/scripts/analyser.ts": "// docs plugin\nexport const p = { id: 'docs-analyser' };\n",
        "docs/scripts/keys.js": "const o = { 'only-a-key': 1, other: \"given-name\" };\n",
        "docs/page.md": "'in-markdown'\n",
        "src/index.js": "export const id = 'product-name';\n",
    }
    repo = make_repo(tmp_path / "repo", files)
    docs = _docs_code(repo, "docs")
    assert docs.gives("docs-analyser") == "docs/scripts/analyser.ts:2"
    assert docs.gives("given-name") == "docs/scripts/keys.js:1"
    assert docs.gives("only-a-key") == ""  # an object's key: a name read, not given
    assert docs.gives("in-markdown") == ""  # the pages are not code
    assert docs.gives("product-name") == ""  # the product's code is not the docs'
    assert _docs_code(repo, "").gives("docs-analyser") == ""  # no docs folder


def test_a_string_of_another_sample_of_the_page_is_given_with_its_line() -> None:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    fences = [
        ("const p = {\n  id: 'quadrants',\n};\n", 10),
        ("chart({ plugins: { 'a-key': {}, quadrants: {} } });\n", 20),
    ]
    page = docs_code.PageCode(fences, docs_code.parser_of(parsers))
    assert page.gives("quadrants") == "the page's line 11"
    assert page.gives("a-key") == ""  # a key only
    assert page.gives("absent") == ""
