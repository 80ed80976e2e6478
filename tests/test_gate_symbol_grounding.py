"""Gate 2, symbol_grounding: tokens from prose code spans, classified and verified."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.post import parse_post
from pytest_postgates.scorecard import Scorecard
from tests.helpers import FRONT_MATTER, make_post, make_repo, repo_context

INDEX_CJS = """/**
 * Custom rules.
 * neurolink/no-interface → Rule 7: No `interface` (except declare merging).
 * neurolink/no-local-types-folder → Types live in src/lib/types.
 */
module.exports = {
  rules: {
    "no-interface": require("./no-interface.cjs"),
    "no-local-types-folder": require("./no-local-types-folder.cjs"),
  },
};
"""
RULE_CJS = """module.exports = {
  meta: {
    type: "problem",
    docs: { description: "Forbid interface declarations" },
    messages: {
      noInterface: "Use a type alias instead of an interface.",
      declareMerging: 'Interfaces are only allowed for declaration merging.',
    },
  },
  create(context) { return {}; },
};
"""
FILES = {
    "src/lib/neurolink.ts": "export class NeuroLink {\n  modelChain = [];\n}\n"
    "const ultra = 'ultra';\n"
    "export function createProvider() {}\nemit('tool:start');\n",
    "src/lib/types/index.ts": "export type ModelMessage = { role: string };\n",
    "eslint-rules/index.cjs": INDEX_CJS,
    "eslint-rules/no-interface.cjs": RULE_CJS,
    "eslint-rules/no-local-types-folder.cjs": (
        "module.exports = { meta: { messages: "
        "{ localTypes: 'A local types folder is not allowed.' } } };\n"
    ),
    "CHANGELOG.md": "# Changelog\n\n## 9.12.0\n\n- gpt-5.4 support\n",
    "package.json": '{"name": "@juspay/neurolink", "version": "9.12.0"}\n',
    "src/lib/steps.ts": "".join(f"export function step{n:02d}() {{}}\n" for n in range(1, 20)),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("neuro"), FILES)


@pytest.fixture
def ctx(repo: Path, tmp_path: Path) -> GateContext:
    # Every token a claim (the default, as the seeds do): these tests are about how claims
    # are checked; symbol_unanchored_claims = false, where a token nothing ties to the
    # product is unjudged, is tested below and in tests/test_api_model_grounding.py.
    return repo_context(
        repo,
        tmp_path / "cache",
        lint_rule_prefix="neurolink",
        lint_rules_dir="eslint-rules",
        symbol_unanchored_claims=True,
    )


def _card(body: str, tmp_path: Path, ctx: GateContext) -> Scorecard:
    return gate.GATE.evaluate(make_post(body, tmp_path), ctx)


def test_real_eslint_rule_grounds_and_invented_one_fails(tmp_path: Path, ctx: GateContext) -> None:
    card = _card(
        "We use `neurolink/no-interface` and `neurolink/no-magic-numbers`.\n", tmp_path, ctx
    )
    assert card.detail["ungrounded"] == [
        {
            "token": "neurolink/no-magic-numbers",
            "kind": "lint-rule",
            "line": 6,
            "reason": "no rule file eslint-rules/no-magic-numbers.(c|m)js/ts "
            "and no registered rule 'no-magic-numbers'",
            "rule": "anchor-lint-rule",  # a rule of the namespace the project configures
        }
    ]
    assert card.detail["grounded"] == 1
    assert card.detail["lint_rules"] == ["no-interface", "no-local-types-folder"]
    assert card.verdict == "FAIL"
    assert (
        "remove it, replace it with a real one, or move the example into a fenced code block"
        in card.findings[0].fix
    )


def test_message_ids_are_citable_symbols(tmp_path: Path, ctx: GateContext) -> None:
    assert _card("It reports `noInterface` and `localTypes`.\n", tmp_path, ctx).verdict == "PASS"


def test_kebab_literal_must_match_as_written(tmp_path: Path, ctx: GateContext) -> None:
    card = _card("Models: `gpt-5.4` and `gpt-9.9-ultra`.\n", tmp_path, ctx)
    assert [u["token"] for u in card.detail["ungrounded"]] == ["gpt-9.9-ultra"]
    assert card.detail["ungrounded"][0]["kind"] == "phrase"


def test_each_kind_is_classified_and_verified(tmp_path: Path, ctx: GateContext, repo: Path) -> None:
    from tests.helpers import git

    full = git(repo, "rev-parse", "HEAD").strip()
    # An all-digit abbreviation reads as a number, not a SHA: take one with a letter.
    sha = next(full[:k] for k in range(7, 41) if not full[:k].isdigit())
    body = (
        f"Commit `{sha}` added `src/lib/neurolink.ts` and `neurolink.ts` with `NeuroLink`,\n"
        "`createProvider`, `ModelMessage`, `modelChain`, the\n"
        "`tool:start` event, version `9.12.0`, folder `src/lib/types/`, glob `src/lib/*.ts`,\n"
        "and a heading of a file, `src/lib/neurolink.ts#generate`.\n"
    )
    card = _card(body, tmp_path, ctx)
    assert card.detail["ungrounded"] == []
    assert card.detail["total"] == 12
    anchored = repo_context(
        repo,
        tmp_path / "anchored-cache",
        lint_rule_prefix="neurolink",
        lint_rules_dir="eslint-rules",
        symbol_unanchored_claims=False,
    )
    bad = _card(
        "Commit `abcdef1234`, file `src/nope.ts`, `nope.ts`, `v10.1.0`, `MadeUpThing`.\n",
        tmp_path,
        anchored,
    )
    kinds = {u["token"]: u["kind"] for u in bad.detail["ungrounded"]}
    # With symbol_unanchored_claims = false: a path into the product's tree is a claim
    # about it; a commit, a version, a bare file name and a name that nothing ties to the
    # product are listed as unjudged (not the product's: no anchor by shape or sentence
    # earned anything held out).
    assert kinds == {"src/nope.ts": "path"}
    unjudged = {e["token"]: (e["kind"], e["rule"]) for e in bad.detail["outcomes"]["unjudged"]}
    assert unjudged == {
        "abcdef1234": ("sha", "not-anchored"),
        "v10.1.0": ("version", "not-anchored"),
        "nope.ts": ("filename", "not-anchored"),
        "MadeUpThing": ("symbol", "not-anchored"),
    }
    assert bad.detail["grounded_pct"] == 0.0


def test_tokens_come_only_from_prose_code_spans(tmp_path: Path) -> None:
    body = (
        "Prose `RealOne` and a double span `` `Quoted` `` here.\n\n"
        "```ts\nconst `Fenced` = InventedInFence;\n```\n\n"
        "**Related posts:**\n\n- [`RelatedToken`](/posts/x/)\n"
    )
    front = FRONT_MATTER.replace("layout: post", "layout: post\nsummary: '`FrontMatterToken`'")
    post = make_post(body, tmp_path, front=front)
    assert [t.text for t in gate.extract_tokens(post)] == ["RealOne", "`Quoted`"]


@pytest.mark.parametrize(
    "token", ["const", "Promise", "npm", "application/json", "42", "3.14", "x", "console"]
)
def test_allowlist_mime_numbers_and_one_character_tokens_are_skipped(
    token: str, tmp_path: Path
) -> None:
    assert gate.extract_tokens(make_post(f"See `{token}`.\n", tmp_path)) == []


def test_threshold_and_percentage(
    tmp_path: Path, ctx: GateContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 19 distinct real names and one invented token (a prefix of a real name is no name:
    # see tests/test_api_model_grounding.py).
    real = [f"step{n:02d}" for n in range(1, 20)]
    body = " ".join(f"`{token}`" for token in real) + " `Invented_Zz`\n"
    card = _card(body, tmp_path, ctx)
    assert (card.detail["grounded_pct"], card.verdict) == (95.0, "PASS")
    strict = repo_context(
        ctx.settings.repo,
        tmp_path / "c2",
        symbol_grounding_threshold=96.0,
        symbol_unanchored_claims=True,
    )
    assert gate.GATE.evaluate(make_post(body, tmp_path), strict).verdict == "FAIL"


def test_token_starting_with_a_dash_is_data_not_an_option(tmp_path: Path, ctx: GateContext) -> None:
    card = _card("Flags `--output=/etc/passwd` and `-rf`.\n", tmp_path, ctx)
    assert {u["token"] for u in card.detail["ungrounded"]} == {"--output=/etc/passwd", "-rf"}


def test_no_tokens_passes_with_a_note(tmp_path: Path, ctx: GateContext) -> None:
    card = _card("Nothing inline here.\n", tmp_path, ctx)
    assert card.verdict == "PASS" and card.detail["note"] == "no backticked identifiers in prose"


def test_not_a_repository_or_unknown_ref_is_an_error(tmp_path: Path, repo: Path) -> None:
    post = make_post("Uses `NeuroLink`.\n", tmp_path)
    card = gate.GATE.evaluate(post, repo_context(tmp_path / "nowhere", tmp_path / "c"))
    assert (
        card.verdict == "ERROR" and "not inside a git repository" in card.detail["error"]
    ) or "does not exist" in card.detail["error"]
    card = gate.GATE.evaluate(post, repo_context(repo, tmp_path / "c", ref="no-such-branch"))
    assert card.verdict == "ERROR" and "no-such-branch" in card.detail["error"]


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=300))
def test_token_extraction_never_raises_and_respects_limits(tmp_path: Path, body: str) -> None:
    post = parse_post(tmp_path / "p.md", (FRONT_MATTER + body).encode("utf-8", "surrogatepass"))
    if post.fatal_problems:
        return
    for token in gate.extract_tokens(post):
        assert 2 <= len(token.text) <= gate.MAX_TOKEN
        assert token.text == token.text.strip()
        gate.classify(token.text, "neurolink")


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.lists(st.sampled_from(["alpha_one", "BetaTwo", "gamma.three", "plain"]), max_size=3),
        min_size=1,
        max_size=8,
    )
)
def test_each_token_names_every_line_it_is_written_on(
    tmp_path: Path, paragraphs: list[list[str]]
) -> None:
    body = "\n\n".join(" ".join(f"`{n}`" if n != "plain" else n for n in p) or "text"
                         for p in paragraphs) + "\n"  # fmt: skip
    post = make_post(body, tmp_path)
    written: dict[str, list[int]] = {}
    for span in post.prose_code_spans:
        if span.line not in written.setdefault(span.text, []):
            written[span.text].append(span.line)
    tokens = gate.extract_tokens(post)
    assert {t.text: [t.line, *t.also] for t in tokens} == written


@pytest.mark.parametrize(
    "token", [".json", "MD022", "EACCES", "O_EXCL", "SIGTERM", "zlib.inflate", "fs.readFile()"]
)
def test_names_that_are_never_repository_symbols_are_skipped(token: str, tmp_path: Path) -> None:
    assert gate.extract_tokens(make_post(f"See `{token}`.\n", tmp_path)) == []


def test_quoted_literals_and_commands(tmp_path: Path, ctx: GateContext) -> None:
    post = make_post("The `'modelChain'` key and `sh -c` and `if / else`.\n", tmp_path)
    assert [t.text for t in gate.extract_tokens(post)] == ["modelChain", "sh -c", "if / else"]
    assert [gate.classify(t, None) for t in ("sh -c", "if / else")] == ["phrase", "phrase"]
    assert gate.classify("1bd001e7e50f421d891986aad5158bc8", None) != "sha"  # 32 hex: not a SHA


def test_filenames_ground_by_basename_glob_or_by_text(tmp_path: Path, ctx: GateContext) -> None:
    card = _card(
        "Rules in `no-*.cjs`; code reads `ultra`-style `tool:start` and `index.ts`.\n",
        tmp_path,
        ctx,
    )
    assert card.detail["ungrounded"] == []
    card = _card("A `missing-file.cjs` here.\n", tmp_path, ctx)
    assert [u["token"] for u in card.detail["ungrounded"]] == ["missing-file.cjs"]
