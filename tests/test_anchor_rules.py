"""Gate 2's anchors (helpers/anchor_rules.py): what makes a token the model did not decide
a claim about the product. With ``symbol_unanchored_claims = false`` an unanchored token is
listed as unjudged (rule ``not-anchored``); an anchored one that does not ground is a
finding whose ``rule`` names its anchor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.anchor_rules import PRESENTED_WAYS, RULES
from tests.helpers import git, make_post, make_repo, repo_context, token_outcome

# Every way of presenting a token as the product's off: the anchor under test alone decides.
PRESENTED_OFF = tuple(f"anchor-presented-{way}" for way in PRESENTED_WAYS)

CLI_PY = """import argparse

def main() -> None:
    parser = argparse.ArgumentParser(prog="tidy")
    parser.add_argument("--cache-dir")
    parser.parse_args()
"""
PY_FILES = {
    "pyproject.toml": '[project]\nname = "tidy"\nversion = "1.0"\n'
    '[project.scripts]\ntidy = "tidy.cli:main"\n',
    "tidy/__init__.py": "from .core import Cleaner\n",
    "tidy/core.py": "class Cleaner:\n    def run(self) -> None: ...\n",
    "tidy/cli.py": CLI_PY,
    "tidy/plugins/base.py": "class Plugin: ...\n",
    "tidy/models.py": 'DEFAULT_MODEL = "vendor/tidy-large-v2"\n',
    "tidy/tools.py": 'TOOLS = {"clean_file": 1, "scan_tree": 2, "clean": 3, "scan": 4}\n',
}


@pytest.fixture(scope="module")
def py_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("tidy"), PY_FILES)


def _anchored(repo: Path, tmp_path: Path, **settings: Any) -> GateContext:
    return repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=False, **settings)


def _outcome(body: str, token: str, tmp_path: Path, ctx: GateContext) -> dict[str, Any]:
    return token_outcome(gate.GATE.evaluate(make_post(body, tmp_path), ctx), token)


def _decided(entry: dict[str, Any]) -> tuple[str, str]:
    return entry["outcome"], entry.get("rule", "")


def test_every_anchor_names_a_test_that_exists() -> None:
    names = [rule.name for rule in RULES]
    assert len(names) == len(set(names))
    for rule in RULES:
        path, _, test_name = rule.tests.partition("::")
        assert rule.why and rule.decides
        assert f"def {test_name}(" in Path(path).read_text(encoding="utf-8"), rule.tests


def test_a_product_without_code_has_no_member_or_flag_to_claim(tmp_path: Path) -> None:
    # A blog's own repository: a site configuration, posts, the site's served script.
    site = make_repo(
        tmp_path / "site",
        {
            "_config.yml": "title: Notes\n",
            "_layouts/post.html": "{{ content }}\n",
            "assets/page.js": "function Doc() {}\n",
        },
    )
    ctx = _anchored(site, tmp_path / "cache")
    body = "Read `Doc.ents` and pass `-inf` as the mask.\n"
    for token in ("Doc.ents", "-inf"):
        assert _decided(_outcome(body, token, tmp_path, ctx)) == ("unjudged", "not-anchored")
    # With code, the same shapes are claims (the member of a declared class).
    coded = _anchored(make_repo(tmp_path / "coded", PY_FILES), tmp_path / "coded-cache")
    entry = _outcome("Call `Cleaner.sweep`.\n", "Cleaner.sweep", tmp_path, coded)
    assert entry["outcome"] == "ungrounded"


def test_a_version_is_no_claim_by_its_shape(py_repo: Path, tmp_path: Path) -> None:
    """anchor-shape made a version a claim where the product has releases; deleted at
    session 18 (no held-out defect nor invention anchored, a held-out false finding): a
    version nothing else ties to the product is listed, a real one still grounds."""
    body = "The loss fell to `3.68027206479e-08` after `2.4.1`.\n"
    tagged = make_repo(tmp_path / "tagged", PY_FILES)
    git(tagged, "tag", "v1.0.0")
    ctx = _anchored(tagged, tmp_path / "tagged-cache")
    for token in ("3.68027206479e-08", "2.4.1"):
        assert _decided(_outcome(body, token, tmp_path, ctx)) == ("unjudged", "not-anchored")
    assert _outcome("Since `1.0.0`.\n", "1.0.0", tmp_path, ctx)["outcome"] == "grounded"


@pytest.mark.parametrize(
    "token",
    [
        "tidy/plugins/extra.py",  # a file in one of the product's folders
        "tidy/core.js",  # one of its files with another extension
        "/etc/tidy/extra.py",  # the reader's machine
        "tidy/reports/*.csv",  # a glob
        "tidi/plugins/extra.py",  # the first segment alone off
        "docs.tidy.dev/v1/guide",  # the product's own host
    ],
)
def test_a_path_is_no_claim_by_resembling_the_products_files(
    token: str, py_repo: Path, tmp_path: Path
) -> None:
    """anchor-path made a near miss of the product's files a claim; deleted at session 18
    (held out it anchored no defect and no invention, and 5 false findings): with the
    presented ways off, nothing ties such a path to the product."""
    ctx = _anchored(py_repo, tmp_path, symbol_rules_off=PRESENTED_OFF)
    entry = _outcome(f"The tidy docs mention `{token}`.\n", token, tmp_path, ctx)
    assert _decided(entry) == ("unjudged", "not-anchored")


@pytest.mark.parametrize(
    ("body", "token", "way"),
    [
        ("The tidy docs mention `tidy/plugin/extra.py`.\n", "tidy/plugin/extra.py", "path"),
        # A model id or a sentence naming the product is no longer a way (deleted at session
        # 18: neither anchored a held-out defect or invention).
        ("Pick the model `tidy-large-v9` here.\n", "tidy-large-v9", "none"),
        ("Call `Cleaner.sweep()` then.\n", "Cleaner.sweep()", None),  # the model decides
        # A constant whose members the model cannot list: its name roots the claim.
        ("Call `Presets.sweep()` then.\n", "Presets.sweep()", "member"),
        ("Tidy exposes `sweep_everything` for that.\n", "sweep_everything", "none"),
        ("Tidy's `sweep_everything` does that.\n", "sweep_everything", "none"),
        # What the product's code does not back is no claim: a capitalised word only a
        # comment writes, an id of a family its code never writes (an ABI tag), a path
        # under a source root the product does not have.
        ("Call `Sweeper.sweep()` then.\n", "Sweeper.sweep()", "none"),
        ("Pick the wheel for `cpython-310` here.\n", "cpython-310", "none"),
        ("The tidy docs mention `src/plugin/extra.py`.\n", "src/plugin/extra.py", "none"),
    ],
)
def test_each_way_of_presenting_is_an_anchor_of_its_own(
    body: str, token: str, way: str | None, tmp_path: Path
) -> None:
    presets = "from .registry import build\n\n# The Sweeper runs nightly.\nPresets = build()\n"
    repo = make_repo(tmp_path / "repo", {**PY_FILES, "tidy/presets.py": presets})
    entry = _outcome(body, token, tmp_path, _anchored(repo, tmp_path))
    if way is None:
        assert not entry.get("rule", "").startswith("anchor-presented"), entry
        return
    if way == "none":
        assert _decided(entry) == ("unjudged", "not-anchored")
        return
    assert _decided(entry) == ("ungrounded", f"anchor-presented-{way}")
    # That way off, no other anchor ties the token to the product.
    off = _anchored(repo, tmp_path / "off", symbol_rules_off=(f"anchor-presented-{way}",))
    assert _decided(_outcome(body, token, tmp_path, off)) == ("unjudged", "not-anchored")


def test_a_name_spelled_for_the_product_is_a_claim(py_repo: Path, tmp_path: Path) -> None:
    ctx = _anchored(py_repo, tmp_path)
    entry = _outcome("Catch `TidyTimeoutError` here.\n", "TidyTimeoutError", tmp_path, ctx)
    assert _decided(entry) == ("ungrounded", "anchor-named")
    entry = _outcome("Catch `TimeoutErrorX` here.\n", "TimeoutErrorX", tmp_path, ctx)
    assert _decided(entry) == ("unjudged", "not-anchored")


def test_a_name_only_a_sample_writes_is_not_anchored(py_repo: Path, tmp_path: Path) -> None:
    # The deleted anchor-sample rule made it a claim: held out, every such finding was
    # false (another party's name, the reader's value) and it caught no held-out defect.
    ctx = _anchored(py_repo, tmp_path)
    body = (
        "Set `strictness_level` below.\n\n```python\nimport tidy\n"
        "tidy.configure(strictness_level=3)\n```\n"
    )
    entry = _outcome(body, "strictness_level", tmp_path, ctx)
    assert _decided(entry) == ("unjudged", "not-anchored")


def test_a_name_listed_with_product_names_is_a_claim(py_repo: Path, tmp_path: Path) -> None:
    ctx = _anchored(py_repo, tmp_path)
    body = "- `tidy.Cleaner` cleans\n- `tidy.core.Cleaner` too\n- `Scrubber` scrubs\n"
    entry = _outcome(body, "Scrubber", tmp_path, ctx)
    assert _decided(entry) == ("ungrounded", "anchor-listed")
    # Names the product's code writes (tools it registers by string) are the product's too;
    # plain words are not.
    tools = "- `clean_file` cleans\n- `scan_tree` scans\n- `zap_cache` zaps\n"
    assert _decided(_outcome(tools, "zap_cache", tmp_path, ctx)) == ("ungrounded", "anchor-listed")
    terms = "`tidy.Cleaner`\n: cleans\n\n`tidy.core.Cleaner`\n: too\n\n`ScrubDsn`\n: scrubs\n"
    assert _decided(_outcome(terms, "ScrubDsn", tmp_path, ctx)) == ("ungrounded", "anchor-listed")
    words = "- `clean` cleans\n- `scan` scans\n- `zap_cache` zaps\n"
    assert _decided(_outcome(words, "zap_cache", tmp_path, ctx)) == ("unjudged", "not-anchored")


OPTION_TABLE = """export const options = {
  cacheStrategy: { type: "choice", description: "What the cache keys on." },
  ignorePath: { type: "path", description: "The ignore file." },
  maxCacheAge: { type: "int", description: "Seconds a cache entry lives." },
};
"""


@pytest.mark.parametrize(
    ("token", "decided"),
    [
        ("--cache-strotegy", ("ungrounded", "anchor-option-near")),
        ("--ignori-path=.gitignore", ("ungrounded", "anchor-option-near")),
        ("--no-cache-strotegy", ("ungrounded", "anchor-option-near")),
        # Declared by name: the option table's key grounds it.
        ("--cache-strategy", ("grounded", "flag-option-name")),
        # Near no option of the product: another program's flag, or too short to tell.
        ("--save-exact", ("unjudged", "not-anchored")),
        ("--cachy", ("unjudged", "not-anchored")),
        # A word added to or replaced in an option: as likely another option of its family.
        ("--cache-strategy-mode", ("unjudged", "not-anchored")),
        ("--max-cache-size", ("unjudged", "not-anchored")),
    ],
)
def test_a_flag_near_an_option_the_product_declares_is_a_claim(
    token: str, decided: tuple[str, str], tmp_path: Path
) -> None:
    """A product whose command line takes the options of its own option table (prettier's
    `cacheStrategy: {type: ...}` for `--cache-strategy`), which the model does not read as
    a parser: a flag whose name is a near miss of one of those options is a claim."""
    files = {
        "package.json": '{"name": "prim", "version": "1.0.0", "main": "src/index.js"}\n',
        "src/index.js": "export { options } from './options.js';\n",
        "src/options.js": OPTION_TABLE,
    }
    repo = make_repo(tmp_path / "repo", files)
    ctx = _anchored(repo, tmp_path)
    body = f"Run prim with `{token}` to change it.\n"
    assert _decided(_outcome(body, token, tmp_path, ctx)) == decided
    if decided[1] == "anchor-option-near":
        off = _anchored(repo, tmp_path / "off", symbol_rules_off=("anchor-option-near",))
        assert _decided(_outcome(body, token, tmp_path, off)) == ("unjudged", "not-anchored")


def test_a_flag_a_parser_read_whole_lacks_is_not_claimed_by_an_option_near_it(
    tmp_path: Path,
) -> None:
    """The option-near anchor stands in for a parser the model does not read. Where the
    product's parser is read whole and lacks the flag, a flag near one of the option table's
    keys is another program's (pytest's `--showlocals` in a test script) or no flag at
    all: listed with the parser's reason, never claimed by the table."""
    cli = (
        "import argparse\n\ndef main() -> None:\n"
        '    parser = argparse.ArgumentParser(prog="prim")\n'
        '    parser.add_argument("--output")\n    parser.parse_args()\n'
    )
    files = {
        "pyproject.toml": '[project]\nname = "prim"\nversion = "1.0"\n'
        '[project.scripts]\nprim = "prim.cli:main"\n',
        "prim/__init__.py": "",
        "prim/cli.py": cli,
        "prim/options.py": "OPTIONS = {'cacheStrategy': 1, 'ignorePath': 2}\n"
        "def configure(cacheStrategy: str = '', ignorePath: str = '') -> None: ...\n",
    }
    repo = make_repo(tmp_path / "repo", files)
    ctx = _anchored(repo, tmp_path)
    entry = _outcome("Tests run with `--cache-strotegy` on.\n", "--cache-strotegy", tmp_path, ctx)
    assert _decided(entry) == ("unjudged", "model-cli-closed")


@pytest.mark.parametrize(
    "body",
    [
        "Its tools: `clean_file`, `scan_tree` and `zap_cache`.\n",
        "Pass `zap_cache`, `clean_file` or `scan_tree` here.\n",
        "Run `clean_file` after `scan_tree` with `zap_cache` set.\n",
    ],
)
def test_a_name_enumerated_with_product_names_is_not_anchored_by_that_alone(
    body: str, py_repo: Path, tmp_path: Path
) -> None:
    """A sentence listing the product's names once anchored each item (anchor-enumerated);
    the rule was deleted, having earned nothing held out: such a name is listed as not
    anchored, never counted either way."""
    ctx = _anchored(py_repo, tmp_path)
    assert _decided(_outcome(body, "zap_cache", tmp_path, ctx)) == ("unjudged", "not-anchored")


PRETTY_CLI = """import argparse

def main() -> None:
    parser = argparse.ArgumentParser(prog="pretty")
    parser.add_argument("-c", "--colorize", action="store_true")
    parser.add_argument("-f", "--crlf", action="store_true")
    parser.add_argument("-t", "--translate-time")
    parser.parse_args()
"""


def test_a_flag_listed_with_the_products_flags_is_a_claim(tmp_path: Path) -> None:
    """A list of flags two of which the product's parser takes presents each of its flags
    as the product's: one it does not take is a finding, not `not-anchored`."""
    files = {
        "pyproject.toml": '[project]\nname = "pretty"\nversion = "1.0"\n'
        '[project.scripts]\npretty = "pretty.cli:main"\n',
        "pretty/__init__.py": "",
        "pretty/cli.py": PRETTY_CLI,
    }
    ctx = _anchored(make_repo(tmp_path / "repo", files), tmp_path)
    listed = (
        "+ `--colorize` (`-c`): adds colour.\n+ `--crlf` (`-f`): ends lines with CRLF.\n"
        "+ `--date-format` (`-d`): the format of dates.\n"
    )
    assert _decided(_outcome(listed, "--date-format", tmp_path, ctx)) == (
        "ungrounded",
        "anchor-listed",
    )
    others = listed.replace("--colorize", "--color").replace("--crlf", "--eol")
    # Not listed with them: its parser, read whole, does not take it, yet nothing on the
    # page claims it for the product (listed, never grounded by the text).
    assert _decided(_outcome(others, "--date-format", tmp_path, ctx)) == (
        "unjudged",
        "model-cli-closed",
    )


@pytest.mark.parametrize(
    ("body", "token", "decided"),
    [
        # Another project's repository, a package page, a language's documentation.
        (
            "- [`tidy-extras`](https://github.com/someone/tidy-extras): more cleaners.\n",
            "tidy-extras",
            ("unjudged", "linked-elsewhere"),
        ),
        (
            "Validate with [`Cleaner.verify()`](https://pypi.org/project/cleanverify/).\n",
            "Cleaner.verify()",
            ("unjudged", "linked-elsewhere"),
        ),
        (
            "Read a file with [`Path.read_bytes()`](https://docs.python.org/3/library/).\n",
            "Path.read_bytes()",
            ("unjudged", "linked-elsewhere"),
        ),
        # The product's own addresses and the site's own pages stay claims.
        (
            "Call [`Cleaner.verify()`](https://github.com/acme/tidy/blob/main/tidy/core.py).\n",
            "Cleaner.verify()",
            ("ungrounded", "model-rooted-miss"),
        ),
        (
            "Call [`Cleaner.verify()`](https://docs.tidy.dev/api/#cleaner).\n",
            "Cleaner.verify()",
            ("ungrounded", "model-rooted-miss"),
        ),
        (
            "Call [`Cleaner.verify()`](api.md#cleaner).\n",
            "Cleaner.verify()",
            ("ungrounded", "model-rooted-miss"),
        ),
        # Link text outside backticks too.
        (
            "See [Cleaner.verify()](https://github.com/someone/verify) for a check.\n",
            "Cleaner.verify()",
            ("unjudged", "linked-elsewhere"),
        ),
        # A linked package's name spelled as its import name, elsewhere on the page.
        (
            "- PyPI: [`tidy-extras`](https://pypi.org/project/tidy-extras/)\n"
            "- Extension name: `tidy_extras`\n",
            "tidy_extras",
            ("unjudged", "linked-elsewhere"),
        ),
        # The product's own package linked so places nothing elsewhere.
        (
            "- PyPI: [`tidy-core`](https://pypi.org/project/tidy/)\n- Module: `tidy_core`\n",
            "tidy_core",
            ("ungrounded", "anchor-named"),
        ),
    ],
)
def test_a_name_the_page_links_to_another_partys_address_is_not_judged(
    body: str, token: str, decided: tuple[str, str], py_repo: Path, tmp_path: Path
) -> None:
    ctx = _anchored(py_repo, tmp_path)
    assert _decided(_outcome(body, token, tmp_path, ctx)) == decided


def test_a_name_that_grounds_stays_grounded_wherever_it_links(
    py_repo: Path, tmp_path: Path
) -> None:
    ctx = _anchored(py_repo, tmp_path)
    body = "Use [`Cleaner`](https://github.com/someone/fork) to clean.\n"
    assert _decided(_outcome(body, "Cleaner", tmp_path, ctx))[0] == "grounded"
    # Turned off, the link decides nothing: the product's code does.
    off = _anchored(py_repo, tmp_path / "off", symbol_rules_off=("linked-elsewhere",))
    body = "- [`Cleaner.verify()`](https://github.com/someone/verify): a check.\n"
    assert _decided(_outcome(body, "Cleaner.verify()", tmp_path, off)) == (
        "ungrounded",
        "model-rooted-miss",
    )


@pytest.mark.parametrize(
    ("body", "token", "decided"),
    [
        # An API reference's "Defined in" link: the label abbreviates the file it links to.
        (
            "Defined in: [core.py:2](https://github.com/acme/tidy/blob/abc123/tidy/core.py#L2)\n",
            "core.py:2",
            ("grounded", "link-target"),
        ),
        (
            "Defined in: [plugins/base.py](https://github.com/acme/tidy/blob/v1/tidy/plugins/base.py)\n",
            "plugins/base.py",
            ("grounded", "link-target"),
        ),
        # A permalink names the file at that commit (fastify's Hooks.md links
        # test/hooks-async.js at 94ea67ef; the file was renamed since).
        (
            "See [tidy/old.py](https://github.com/acme/tidy/blob/94ea67ef2d8dce8a955d510cd9081aabd036fa85/tidy/old.py#L2).\n",
            "tidy/old.py",
            ("unjudged", "link-target"),
        ),
        # The site's own link to the file: gate 6 checks the target.
        ("See [plugins/base.py](../tidy/plugins/base.py).\n", "plugins/base.py",
         ("not-a-reference", "link-label")),
    ],
)  # fmt: skip
def test_a_path_that_labels_a_link_to_that_file_is_judged_by_the_link(
    body: str, token: str, decided: tuple[str, str], py_repo: Path, tmp_path: Path
) -> None:
    ctx = _anchored(py_repo, tmp_path)
    assert _decided(_outcome(body, token, tmp_path, ctx)) == decided


def test_a_link_to_a_file_the_product_does_not_have_decides_nothing(
    py_repo: Path, tmp_path: Path
) -> None:
    ctx = repo_context(py_repo, tmp_path / "cache", symbol_unanchored_claims=True)
    body = "Defined in: [gone.py:2](https://github.com/acme/tidy/blob/abc/tidy/gone.py#L2)\n"
    assert _decided(_outcome(body, "gone.py:2", tmp_path, ctx))[0] == "ungrounded"


def test_a_bare_file_name_or_an_example_folder_anchors_no_path(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            **PY_FILES,
            "tidy/index.js": "module.exports = {};\n",
            "tidy/web/index.js": "module.exports = {};\n",  # a common name: many files
            "docs_src/users/add.py": "def add() -> None: ...\n",
        },
    )
    ctx = _anchored(repo, tmp_path, symbol_rules_off=PRESENTED_OFF)
    for token in ("index.ts", "users/delete.py"):
        entry = _outcome(f"The tidy docs mention `{token}`.\n", token, tmp_path, ctx)
        assert _decided(entry) == ("unjudged", "not-anchored"), token


def test_a_member_of_a_name_imported_from_a_workspace_package_is_a_claim(
    tmp_path: Path,
) -> None:
    # A monorepo's workspace package is the product's own: a name the page's sample imports
    # from it, and its members, are presented as the product's (jest's `jest-changed-files`
    # README kept `hg.isHGRepository` after the package stopped exporting `hg`).
    files = {
        "package.json": '{"name": "tidy-root", "private": true, "workspaces": ["packages/*"]}\n',
        "packages/tidy-changes/package.json": (
            '{"name": "tidy-changes", "main": "src/index.js"}\n'
        ),
        "packages/tidy-changes/src/index.js": (
            "const findRepos = roots => roots;\nmodule.exports = { findRepos };\n"
        ),
    }
    repo = make_repo(tmp_path / "mono", files)
    body = (
        "## API\n\n### `hg.isHgRoot(cwd: string): Promise<?string>`\n\nThe root.\n\n"
        "```js\nimport {git, hg} from 'tidy-changes';\n\nhg.isHgRoot(process.cwd());\n```\n"
    )
    token = "hg.isHgRoot(cwd: string): Promise<?string>"
    entry = _outcome(body, token, tmp_path, _anchored(repo, tmp_path))
    assert _decided(entry) == ("ungrounded", "anchor-presented-import")
    # Imported from a package the repository does not publish, it is another party's.
    other = body.replace("'tidy-changes'", "'other-changes'")
    entry = _outcome(other, token, tmp_path, _anchored(repo, tmp_path / "other"))
    assert entry["outcome"] != "ungrounded"
