"""The generator of bench/fabrication_recall.py: its inventions never exist in the
repository they are planted against, every shape is produced, the same seed gives the same
inventions, and planting puts each one where its original token was."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import FRONT_MATTER, make_repo

BENCH = Path(__file__).resolve().parent.parent / "bench" / "fabrication_recall.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fabrication_recall", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


recall = _load()

FILES: dict[str, str | bytes] = {
    "src/lib/neurolink.ts": (
        "export class NeuroLink {\n  generateText() {}\n  streamText() {}\n}\n"
        "export class ProviderFactory { createProvider() {} }\n"
        "// models: claude-sonnet-4-5, gpt-4o, gemini-2.5-flash, anthropic/claude-sonnet-4-5\n"
    ),
    "src/lib/providers/anthropic.ts": "export class AnthropicProvider {}\n",
    "src/cli/options.ts": 'yargs.option("provider").option("max-tokens")\n',
    "eslint-rules/no-interface.cjs": "module.exports = {};\n",
    "docs/cli.md": "Use --provider and --max-tokens.\n",
}
GROUNDED = [
    ("NeuroLink", "symbol"),
    ("ProviderFactory", "symbol"),
    ("generateText", "symbol"),
    ("streamText", "symbol"),
    ("createProvider", "symbol"),
    ("AnthropicProvider", "symbol"),
    ("src/lib/providers/anthropic.ts", "path"),
    ("--provider", "flag"),
    ("--max-tokens", "flag"),
    ("neurolink/no-interface", "lint-rule"),
    ("claude-sonnet-4-5", "phrase"),
    ("gpt-4o", "phrase"),
    ("gemini-2.5-flash", "phrase"),
    ("anthropic/claude-sonnet-4-5", "path"),
]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("recall") / "neuro", FILES)


def _grounded() -> list:
    return [recall.Grounded(token, kind, 10 + i) for i, (token, kind) in enumerate(GROUNDED)]


def _git_grep(repo: Path, text: str) -> bool:
    result = subprocess.run(
        ["git", "-C", str(repo), "grep", "-q", "-F", "-e", text, "HEAD", "--"],
        capture_output=True,
        check=False,
    )
    return result.returncode == 0


@pytest.mark.parametrize("seed", range(12))
def test_inventions_never_exist_in_the_repository(repo: Path, seed: int) -> None:
    repository = recall.Repository(repo, "HEAD")
    inventions = recall.inventions_for(
        _grounded(), repository, random.Random(seed), 12, "neurolink"
    )
    assert inventions
    tracked = subprocess.run(
        ["git", "-C", str(repo), "ls-files"], capture_output=True, text=True, check=True
    ).stdout.split()
    for invention in inventions:
        assert invention.text != invention.original
        # Checked independently of the generator's own bookkeeping.
        for probe in invention.probes:
            assert not _git_grep(repo, probe), invention
        assert not _git_grep(repo, invention.text), invention
        if invention.shape == "path":
            assert invention.text not in tracked
            assert not any(p.startswith(invention.text.rstrip("/") + "/") for p in tracked)


def test_every_shape_is_produced_and_the_seed_decides(repo: Path) -> None:
    repository = recall.Repository(repo, "HEAD")
    shapes: set[str] = set()
    for seed in range(12):
        shapes |= {
            i.shape
            for i in recall.inventions_for(
                _grounded(), repository, random.Random(seed), 12, "neurolink"
            )
        }
    # The flag shape is planted on the product's command lines (command_flag_candidates),
    # not by the main stream.
    assert shapes == set(recall.SHAPES) - {recall.FLAG_SHAPE}
    first = recall.inventions_for(_grounded(), repository, random.Random(7), 9, "neurolink")
    again = recall.inventions_for(_grounded(), repository, random.Random(7), 9, "neurolink")
    assert first == again


def test_an_invention_that_exists_is_refused(repo: Path) -> None:
    repository = recall.Repository(repo, "HEAD")
    real = recall.Invention("letter", "generateText", 1, "streamText", ("streamText",))
    assert not repository.absent(real)
    path = recall.Invention("path", "x", 1, "src/lib/providers", ("src/lib/providers",))
    assert not repository.absent(path)


def test_shapes_of_single_inventions() -> None:
    rng = random.Random(1)
    changed = recall.letter_changed("generateText", rng)
    assert changed and changed != "generateText" and len(changed) == len("generateText")
    assert changed[0] == "g"
    assert recall.joined("generateText", "createProviderOptions") == "generateProviderOptions"
    assert recall.wrong_segment("src/lib/providers/anthropic.ts", random.Random(0)) in {
        "src/lib/providers/anthropic/client.ts",
        "src/lib/providers/anthropic/index.ts",
        "srcs/lib/providers/anthropic.ts",
        "src/libs/providers/anthropic.ts",
        "src/lib/provider/anthropic.ts",
    }
    assert recall.flag_probes("--max-warnings") == ("--max-warnings", "max-warnings", "maxWarnings")
    assert recall.invented_rule("neurolink", rng).startswith("neurolink/no-")
    model = recall.invented_model("claude-sonnet-4-5", random.Random(3))
    assert model and model != "claude-sonnet-4-5" and model.startswith("claude-sonnet-")


def test_planting_replaces_the_original_span_on_its_line() -> None:
    text = FRONT_MATTER + "Intro line.\nWe call `generateText` and `generateText` again.\n"
    line = text.split("\n").index("We call `generateText` and `generateText` again.") + 1
    invention = recall.Invention("letter", "generateText", line, "generateTaxt", ())
    planted = recall.plant(text, [invention], 6)
    assert planted is not None
    assert "We call `generateTaxt` and `generateText` again." in planted
    missing = recall.Invention("letter", "nowhere", line, "x", ())
    assert recall.plant(text, [missing], 6) is None


def test_variant_shapes_put_an_unknown_suffix_on_a_real_id_or_a_real_one_on_an_invented_id(
    repo: Path,
) -> None:
    repository = recall.Repository(repo, "HEAD")
    real_ids = {token for token, _kind in GROUNDED if recall.MODEL_ID.match(token)}
    seen: set[str] = set()
    for seed in range(12):
        for invention in recall.inventions_for(
            _grounded(), repository, random.Random(seed), 12, "neurolink"
        ):
            if not invention.shape.startswith("variant-"):
                continue
            seen.add(invention.shape)
            base, _, variant = invention.text.rpartition(":")
            if invention.shape == "variant-suffix":
                assert base in real_ids and variant in recall.INVENTED_VARIANTS
            else:
                assert base not in real_ids and variant in recall.REAL_VARIANTS
                assert not _git_grep(repo, base), invention
    assert seen == {"variant-suffix", "variant-base"}


def test_sample_key_plants_only_in_objects_of_a_closed_product_type(tmp_path: Path) -> None:
    """``sample-key``: a real key of a closed options type, renamed in the prose and in the
    sample; a key of a free-form record (`context`) is never planted (an invented key there
    is the reader's data, not a fabrication)."""
    from tests.helpers import make_post, repo_context
    from tests.test_gate_symbol_grounding_typed_keys import FILES as TYPED_FILES

    repo = make_repo(tmp_path / "typed", TYPED_FILES)
    context = repo_context(repo, tmp_path / "cache")
    body = (
        "```typescript\n"
        'import { NeuroLink } from "@acme/neurolink";\n'
        "const neurolink = new NeuroLink();\n"
        "await neurolink.generate({\n"
        '  input: { text: "hi" },\n'
        '  provider: "vertex",\n'
        '  context: { userId: "u-1" },\n'
        "});\n"
        "```\n\n"
        "Set `provider` per call; `userId` goes in the context.\n"
    )
    post = make_post(body, tmp_path)
    line = (
        post.text.splitlines().index("Set `provider` per call; `userId` goes in the context.") + 1
    )
    grounded = [
        recall.Grounded("provider", "symbol", line),
        recall.Grounded("userId", "symbol", line),
    ]
    made = recall.sample_key_candidates(post.path, grounded, context, random.Random(3))
    assert [i.original for i in made] == ["provider"]
    invention = made[0]
    assert invention.shape == recall.KEY_SHAPE and invention.text != "provider"
    assert recall.Repository(repo, "HEAD").absent(invention)
    text = recall.plant(post.text, made, post.body_start_line)
    assert text is not None
    text = recall.plant_keys(text, made)
    assert text is not None
    assert f'  {invention.text}: "vertex",' in text and f"`{invention.text}`" in text
    assert "provider" not in text.split("```")[1]


# A post's lines for the context shapes: real names opening list items under the product's
# own heading, and a namespaced model id (written for this test).
CONTEXT_LINES = [
    "## The built-in tools",
    "",
    "- `generateText` - one completion",
    "| `createProvider` | makes a provider |",
    "- Streaming: `streamText`, `generateText`",
    "We route to `anthropic/claude-sonnet-4-5` through the router.",
    "Prose that names `ProviderFactory` is no list item.",
]
CONTEXT_GROUNDED = [
    ("generateText", 3),
    ("createProvider", 4),
    ("streamText", 5),
    ("anthropic/claude-sonnet-4-5", 6),
    ("ProviderFactory", 7),
]


def _context(seed: int) -> list:
    grounded = [
        recall.Grounded(token, "path" if "/" in token else "symbol", line)
        for token, line in CONTEXT_GROUNDED
    ]
    return recall.context_candidates(grounded, CONTEXT_LINES, random.Random(seed))


@pytest.mark.parametrize("seed", range(8))
def test_context_inventions_never_exist_and_replace_listed_names_or_namespaced_ids(
    repo: Path, seed: int
) -> None:
    repository = recall.Repository(repo, "HEAD")
    chosen = recall.choose(_context(seed), repository, 6)
    assert {i.shape for i in chosen} == set(recall.CONTEXT_SHAPES)
    for invention in chosen:
        assert not _git_grep(repo, invention.text), invention  # checked independently
        if invention.shape == "listed-tool":
            # Only names that open an item or row, or stand in an item's list of spans.
            assert invention.original in {"generateText", "createProvider", "streamText"}
            # In the original's case style.
            assert invention.text[0].islower() and "_" not in invention.text
        else:
            org = invention.original.split("/", 1)[0]
            assert invention.text.startswith(org + "/") and invention.text != invention.original


def test_invented_tool_names_keep_the_real_names_case_style() -> None:
    assert recall.invented_tool("get_file_contents", random.Random(1)).count("_") == 1
    assert recall.invented_tool("get_file_contents", random.Random(1)).count("_") == 1
    assert recall.invented_tool("ProviderFactory", random.Random(1))[0].isupper()


def test_a_flag_is_planted_on_the_products_command_line_and_in_prose(tmp_path: Path) -> None:
    from tests.helpers import make_post, repo_context

    cli = (
        'const { Command } = require("commander");\n'
        'new Command().command("gen").option("--fast").option("--depth <n>");\n'
    )
    manifest = '{"name": "@acme/gen", "bin": {"gen": "./bin/cli.js"}}'
    repo = make_repo(tmp_path / "cli", {"package.json": manifest, "bin/cli.js": cli})
    context = repo_context(repo, tmp_path / "cache")
    body = (
        "```bash\nnpx @acme/gen gen \\\n  --fast\nls --fast\n```\n\n"
        "Pass `--fast` for speed, `--depth` for depth.\n"
    )
    post = make_post(body, tmp_path)
    line = post.text.splitlines().index("Pass `--fast` for speed, `--depth` for depth.") + 1
    grounded = [recall.Grounded("--fast", "flag", line), recall.Grounded("--depth", "flag", line)]
    # `--depth` is on no command line of the page: a reader has no command to give it to.
    made = recall.command_flag_candidates(post.path, grounded, context, random.Random(3))
    assert [i.original for i in made] == ["--fast"]
    invention = made[0]
    assert invention.shape == recall.FLAG_SHAPE and invention.text.startswith("--")
    text = recall.plant(post.text, made, post.body_start_line)
    assert text is not None
    text = recall.plant_flags(text, made)
    assert text is not None
    assert f"  {invention.text}\nls --fast" in text  # the product's line only
    assert f"`{invention.text}` for speed" in text
    planted = tmp_path / "planted.md"
    planted.write_text(text, encoding="utf-8")
    card = recall.run_gate(planted, context)
    assert recall.outcome_of(card, invention.text)[0] == "ungrounded", card["detail"]


def test_a_committed_table_plants_what_the_draw_planted(tmp_path: Path) -> None:
    """The default measurement plants a committed table into the posts: the same texts as
    the draw wrote, whatever gate 2 passes now; a post edited since is reported, not
    silently dropped."""
    from tests.helpers import make_post, repo_context

    cli = 'require("commander").command("gen").option("--fast");\n'
    manifest = '{"name": "@acme/gen", "bin": {"gen": "./bin/cli.js"}}'
    repo = make_repo(tmp_path / "cli", {"package.json": manifest, "bin/cli.js": cli})
    context = repo_context(repo, tmp_path / "cache")
    post = make_post("```bash\nnpx @acme/gen gen --fast\n```\n\nPass `--fast` here.\n", tmp_path)
    line = post.text.splitlines().index("Pass `--fast` here.") + 1
    made = recall.command_flag_candidates(
        post.path, [recall.Grounded("--fast", "flag", line)], context, random.Random(3)
    )
    drawn = recall.plant_flags(recall.plant(post.text, made, post.body_start_line), made)
    posts = tmp_path / "posts"
    posts.mkdir()
    (posts / post.path.name).write_text(post.text, encoding="utf-8")
    table = tmp_path / "table.tsv"
    name = f"{post.path.stem}-flags.md"
    rows = [recall.table_row(name, i) for i in made]
    table.write_text("# drawn for a test\n" + "\n".join(rows) + "\n", encoding="utf-8")
    read = recall.read_table(table)[name]
    assert [(i.text, i.original, i.line, i.keys) for i in read] == [
        (i.text, i.original, i.line, i.keys) for i in made
    ]
    planted, unplanted = recall.judge_table(table, posts, context)
    assert unplanted == [] and [p[0] for p in planted] == [name]
    # The planted flag reaches gate 2 as a token of the planted post. (Whether gate 2 calls
    # it a finding here was anchor-flag's to say, deleted for earning nothing held out: this
    # fixture's `npx @acme/gen gen` line does not carry the flag to model-command.)
    card = planted[0][2]
    tokens = [e["token"] for group in card["detail"]["outcomes"].values() for e in group]
    tokens += [e["token"] for e in card["detail"]["ungrounded"]]
    assert made[0].text in tokens
    assert drawn is not None and made[0].text in drawn
    # An edited post: the original is gone from its line.
    (posts / post.path.name).write_text(post.text.replace("Pass `--fast`", "Pass it"), "utf-8")
    planted, unplanted = recall.judge_table(table, posts, context)
    assert planted == [] and "no longer where the table says" in unplanted[0]
