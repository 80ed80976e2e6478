"""Gate 15 on the product's configuration files a page shows (helpers/config_samples): the
keys of a file the product's code opens by name, of the package.json section named after
the product and of a pyproject ``[tool.<product>]`` table, against the names the product's
code writes (the API model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.helpers import config_samples
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

JS_FILES = {
    "package.json": json.dumps({"name": "mono", "main": "src/index.js"}),
    "src/index.js": "export { Repository } from './repository.js';\n",
    "src/repository.js": (
        "import path from 'path';\n"
        "import pkgConf from 'pkg-conf';\n"
        "export class Repository {\n"
        "  constructor(root) {\n"
        "    this.file = path.join(root, 'mono.json');\n"
        "    this.json = JSON.parse(read(this.file));\n"
        "    this.conf = pkgConf.sync('mono');\n"
        "    this.ts = JSON.parse(read(path.join(root, 'tsconfig.json')));\n"
        "    this.js = path.join(root, 'mono.config.js');\n"
        "    this.yml = path.join(root, '.monorc.yml');\n"
        "  }\n"
        "  get version() { return this.json.version; }\n"
        "  get publishConfig() { return this.json.publishConfig || {}; }\n"
        "  get snapshots() { return this.conf.snapshotDir; }\n"
        "}\n"
    ),
}

PY_FILES = {
    "pyproject.toml": '[project]\nname = "tracer"\nversion = "1.0"\n',
    "tracer/__init__.py": "from tracer._config import configure\n",
    "tracer/_config.py": (
        "import tomllib\n"
        "def _load(config_dir):\n"
        "    with open(config_dir / 'pyproject.toml', 'rb') as f:\n"
        "        return tomllib.load(f).get('tool', {}).get('tracer', {})\n"
        "def configure(project_name=None, console_colors='auto', send_to_backend=True):\n"
        "    return project_name, console_colors, send_to_backend\n"
    ),
}


@pytest.fixture(scope="module")
def js_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("mono"), JS_FILES)


@pytest.fixture(scope="module")
def py_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("tracer"), PY_FILES)


def _check(body: str, tmp_path: Path, repo: Path) -> Scorecard:
    card = gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "cache"))
    assert card.verdict != "ERROR", card.detail
    return card


def _line_of(card: Scorecard, tmp_path: Path, needle: str) -> int:
    """The line of the post file (front matter included) that writes ``needle``."""
    post = next(tmp_path.glob("**/*.md"))
    lines = post.read_text(encoding="utf-8").split("\n")
    return next(n for n, text in enumerate(lines, 1) if needle in text)


def _violations(card: Scorecard) -> list[tuple[str, str]]:
    return sorted((v["kind"], v["name"]) for v in card.detail["violations"])


def test_a_file_the_code_opens_judged_by_the_names_the_code_writes(
    tmp_path: Path, js_repo: Path
) -> None:
    body = (
        "Intro.\n\n### mono.json\n\n```js\n{\n"
        '  "version": "1.1.3",\n'
        '  "publishConfig": { "ignore": ["*.md"] },\n'
        '  "linkedFiles": { "prefix": "x" }\n'
        "}\n```\n"
    )
    card = _check(body, tmp_path, js_repo)
    assert _violations(card) == [("config_key", "linkedFiles")]
    found = card.detail["violations"][0]
    assert found["line"] == _line_of(card, tmp_path, '"linkedFiles"')
    assert "the product's code opens `mono.json`" in found["where_looked"]
    unjudged = {u.get("name"): u["reason"] for u in card.detail["unjudged"]}
    # Nested keys: the model does not tell whose names they are.
    assert "a key inside `publishConfig`" in unjudged["publishConfig.ignore"]
    assert "linkedFiles.prefix" in unjudged
    # The object is read as the file, not as a call's options shown alone.
    assert not any("shown alone" in reason for reason in unjudged.values())
    assert card.detail["checked_by_kind"] == {"config_key": 3}


def test_the_package_json_section_named_after_the_product(tmp_path: Path, js_repo: Path) -> None:
    body = (
        "Intro.\n\nIn your `package.json`:\n\n```json\n"
        '{\n  "name": "app",\n  "mono": {\n    "snapshotLocation": "snaps",\n'
        '    "publishConfig": {}\n  }\n}\n```\n'
    )
    card = _check(body, tmp_path, js_repo)
    assert _violations(card) == [("config_key", "snapshotLocation")]
    reason = card.detail["violations"][0]["reason"]
    assert "package.json's `mono` key takes no key snapshotLocation" in reason
    assert "did you mean `snapshotDir`" in reason


def test_a_pyproject_table_of_the_product(tmp_path: Path, py_repo: Path) -> None:
    body = (
        "Intro.\n\n```toml\n[tool.tracer]\n"
        'project_name = "My Project"\n'
        'tracer_console_colors = "never"\n'
        "send-to-backend = false\n"
        "\n[tool.other]\nanything = 1\n```\n"
    )
    card = _check(body, tmp_path, py_repo)
    assert _violations(card) == [("config_key", "tracer_console_colors")]
    reason = card.detail["violations"][0]["reason"]
    assert "did you mean `console_colors`" in reason
    # `send-to-backend`: the loader may map a kebab-case key to the parameter's name.
    assert card.detail["checked_by_kind"] == {"config_key": 3}


def test_a_file_the_code_does_not_open_is_not_read_as_its_configuration(
    tmp_path: Path, js_repo: Path
) -> None:
    body = (
        'Intro.\n\n### other.json\n\n```json\n{\n  "linkedFiles": {},\n  "version": "1"\n}\n```\n'
    )
    card = _check(body, tmp_path, js_repo)
    assert _violations(card) == []
    assert "config_key" not in card.detail["checked_by_kind"]


def test_a_file_of_another_tool_the_code_opens_is_not_the_products_configuration(
    tmp_path: Path, js_repo: Path
) -> None:
    """The product reads tsconfig.json, but its keys are TypeScript's: only a file named
    after the product (its package or executable) is the product's configuration."""
    body = 'Intro.\n\n### tsconfig.json\n\n```json\n{\n  "references": []\n}\n```\n'
    card = _check(body, tmp_path, js_repo)
    assert _violations(card) == []
    assert "config_key" not in card.detail["checked_by_kind"]


def test_object_keys_reads_json_and_javascript_objects() -> None:
    text = (
        "export default {\n"
        "  // a comment: key: no\n"
        "  files: ['a', {b: 1}],\n"
        "  nested: { 'inner-key': x ? y : z, fn() { return {no: 1}; } },\n"
        "  call: make({ notMine: 1 }),\n"
        '  "quoted": `t`,\n'
        "};\n"
    )
    start = text.index("{")
    keys = config_samples.object_keys(text, start, 1)
    assert [((*k.path, k.name), k.line) for k in keys] == [
        (("files",), 3),
        (("files", "b"), 3),
        (("nested",), 4),
        (("nested", "inner-key"), 4),
        (("call",), 5),
        (("quoted",), 6),
    ]


def test_shown_file_reads_a_title_a_heading_or_a_colon_line() -> None:
    lines = ["### lerna.json", "", "```js", "{}", "```"]
    assert config_samples.shown_file(lines, 3, "js") == "lerna.json"
    lines = ["See `ava.config.js`:", "```js", "```"]
    assert config_samples.shown_file(lines, 2, "js") == "ava.config.js"
    assert config_samples.shown_file(["Some prose.", "```js"], 2, "js") == ""
    assert config_samples.shown_file(["x"], 1, 'js title="src/app.config.ts"') == "app.config.ts"


def test_key_spellings_and_nearest_names() -> None:
    assert config_samples.known_key("send-to-backend", {"send_to_backend"})
    assert config_samples.known_key("testCommand", {"test_command"})
    assert not config_samples.known_key("autoSubFolderIndex", {"autoSubfolderIndex"})
    pool = ["LOGFIRE_CONSOLE_COLORS", "console_colors", "logfire_format"]
    assert config_samples.nearest("logfire_console_colors", pool)[0] == "console_colors"


def test_shown_file_reads_a_first_comment_the_fence_above_or_the_section_heading() -> None:
    shown = config_samples.shown_file
    assert shown(["x", "```js"], 2, "js", "// mono.config.js\nexport default {};") == (
        "mono.config.js"
    )
    assert shown(["x", "```yaml"], 2, "yaml", "# .monorc.yaml\na: 1") == ".monorc.yaml"
    assert shown(["x", "```js"], 2, "js", "// see a.js and b.js\nx") == ""
    # The section's heading, over prose naming no other file, for its first fence only.
    lines = ["## `mono.config.js`", "", "Write it so:", "", "```js", "{}", "```", "", "```js"]
    assert shown(lines, 5, "js", "{}") == "mono.config.js"
    assert shown([*lines, "{}", "```", "Then:", "", "```js"], 13, "js", "{}") == ""
    # A fence right after another: a second form of the file that fence shows.
    assert shown(lines, 9, "js", "{}") == "mono.config.js"
    other = ["## `mono.config.js`", "", "Or in `package.json`:", "", "Prose.", "", "```json"]
    assert shown(other, 7, "json", "{}") == ""
    assert shown(["## Options", "", "Prose.", "", "```js"], 5, "js", "{}") == ""


def test_a_config_file_named_by_its_section_is_judged_as_that_file(
    tmp_path: Path, js_repo: Path
) -> None:
    body = (
        "Intro.\n\n## `mono.config.js`\n\nThe default export is a plain object.\n\n"
        "```js\nexport default {\n  version: '1',\n  linkedFile: true\n};\n```\n"
    )
    card = _check(body, tmp_path, js_repo)
    assert _violations(card) == [("config_key", "linkedFile")]
    where = card.detail["violations"][0]["where_looked"]
    assert "the product's code opens `mono.config.js`" in where
    # The object is read as the file, not listed as one shown alone.
    assert not any("shown alone" in u["reason"] for u in card.detail["unjudged"])


def test_a_config_file_named_by_its_first_comment_is_judged_as_that_file(
    tmp_path: Path, js_repo: Path
) -> None:
    body = "Intro.\n\n```js\n// mono.config.js\nmodule.exports = { linkedFile: {} };\n```\n"
    card = _check(body, tmp_path, js_repo)
    assert _violations(card) == [("config_key", "linkedFile")]
    # The comment is the file's name, not a line of code commented out (js_comments).
    assert card.detail["unjudged"] == []


def test_a_flat_config_array_is_judged_object_by_object(tmp_path: Path, js_repo: Path) -> None:
    body = (
        "Intro.\n\n```js title=\"mono.config.js\"\nimport shared from './shared.js';\n\n"
        "export default defineConfig([\n  shared,\n  { version: '1', publishConfig: {} },\n"
        "  { linkedFile: true },\n]);\n```\n"
    )
    card = _check(body, tmp_path, js_repo)
    assert _violations(card) == [("config_key", "linkedFile")]
    assert card.detail["checked_by_kind"].get("config_key") == 3


_LINE = st.sampled_from(
    ["", "```", "```js", "~~~", "## `mono.config.js`", "### a.json and b.json", "Prose.",
     "In `package.json`:", "// mono.config.js", "{}", "export default {};", "# .monorc"]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(_LINE, max_size=12), content=_LINE, at=st.integers(1, 14))
def test_shown_file_names_only_a_file_the_page_names(
    lines: list[str], content: str, at: int
) -> None:
    """Whatever the lines around a fence, the file it is shown as is "" or a name the
    page writes (no line is read twice into a loop, no index is out of range)."""
    lines = [*lines, "```js"]
    start = min(at, len(lines))
    shown = config_samples.shown_file(lines, start, "js", content)
    assert shown == "" or any(shown in text for text in [*lines, content])


def test_a_yaml_config_file_is_judged_by_its_keys(tmp_path: Path, js_repo: Path) -> None:
    body = (
        "Intro.\n\nIn `.monorc.yml`:\n\n```yaml\n# a comment: no\nversion: 1\n"
        "linkedFile: x\npublishConfig:\n  ignore:\n    - a: 1\nsnapshots: |\n  fake: 1\n```\n"
    )
    card = _check(body, tmp_path, js_repo)
    assert _violations(card) == [("config_key", "linkedFile")]
    unjudged = {u.get("name") for u in card.detail["unjudged"]}
    assert unjudged == {"publishConfig.ignore", "publishConfig.ignore.a"}
    assert card.detail["checked_by_kind"] == {"config_key": 4}


def test_yaml_keys_reads_nesting_lists_and_block_scalars() -> None:
    text = "a: 1\nb:\n  c: x\n  d:\n    - e: 1\n      f: 2\n    - plain\ng: >\n  h: no\n'i': 3\n"
    keys = [((*k.path, k.name), k.line) for k in config_samples.yaml_keys(text, 1)]
    assert keys == [
        (("a",), 1), (("b",), 2), (("b", "c"), 3), (("b", "d"), 4), (("b", "d", "e"), 5),
        (("b", "d", "f"), 6), (("g",), 8), (("i",), 10),
    ]  # fmt: skip


def test_an_object_named_a_file_only_by_a_far_signal_is_read_as_code_too(
    tmp_path: Path, js_repo: Path
) -> None:
    """A `{...}` fence named a file by its section's heading (not its title or the line
    right above) is read by the JavaScript readers as well: their judgement of its keys
    (a misspelt key, against the names the code writes) is kept."""
    body = "Intro.\n\n## `mono.config.js`\n\nProse.\n\n```js\n{ publishConfg: {} }\n```\n"
    card = _check(body, tmp_path, js_repo)
    assert _violations(card) == [("option_key", "publishConfg")]


def test_a_bracketed_file_title_names_the_file_a_fence_shows() -> None:
    """A code group's tab (VitePress, Nuxt Content) titles its fence ``ts [file.ext]``;
    a tab named otherwise names no file."""
    shown = config_samples.shown_file
    assert shown(["x"], 1, "ts [nuxt.config.ts]") == "nuxt.config.ts"
    assert shown(["x"], 1, "js [src/mono.config.js]") == "mono.config.js"
    assert shown(["x"], 1, "ts [Before]") == ""
    assert shown(["x"], 1, "ts [Before]", "// mono.config.js\nexport default {};") == (
        "mono.config.js"
    )


def test_another_tools_file_that_nests_the_products_key_is_not_package_json(
    tmp_path: Path, js_repo: Path
) -> None:
    """``ts [host.config.ts]`` with a `mono` key inside is another tool's file (one that
    hands that key to the product), not the package.json section named after the product:
    its keys are not judged as package.json's."""
    body = (
        "Intro.\n\n```ts [host.config.ts]\nexport default defineHostConfig({\n"
        "  mono: {\n    snapshotLocation: 'snaps'\n  }\n})\n```\n"
    )
    card = _check(body, tmp_path, js_repo)
    assert _violations(card) == []
    assert not any("package.json" in u["reason"] for u in card.detail["unjudged"])
