"""Gate 2's outcomes: every token ends in exactly one of grounded, defined-in-post,
external, not-a-reference, unjudged, ungrounded, each with where or the rule that decided.

The example posts are written for these tests in the shapes real posts take (a prose
sentence naming a member of a class, a flag beside real ones, a route in another
parameter notation, a tool the post's own sample defines); none is copied from a corpus.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.config import GroundingRepo
from pytest_postgates.evidence.grounding import (
    dependencies_of,
    is_route_template,
    post_definitions,
    route_pattern,
)
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

NEURO_TS = """export class NeuroLink {
  async generate(options) { return { content: "", usage: {} }; }
  async stream(options) {}
}
export const MAX_RETRIES = 3;
export const DEFAULT_TIMEOUT_MS = 15_000;
"""
FACTORY_TS = """export class ProviderFactory {
  static createProvider(name) {}
}
const result = await neurolink.generate(opts);
console.log(result?.content);
"""
CLI_TS = """yargs.option("max-tokens", { type: "number" })
  .option("provider", { alias: "p" })
  .option("dryRun", { type: "boolean" });
// usage: neurolink generate --provider openai --temperature 0.2
"""
ROUTES_TS = """router.get("/api/tools/:name", getTool);
router.post("/api/tools/:name/execute", runTool);
"""
CLIENT_TS = "fetch(`${this.baseUrl}/api/memory/sessions/${sessionId}`);\n"
CHANGELOG = """# Changelog

## 2.0.0

- Removed the `legacyMode` option; use `strictMode` instead.
- Added `strictMode`.
"""
PACKAGE = {
    "name": "@acme/neurolink",
    "dependencies": {"zod": "^3.0.0", "@qdrant/js-client-rest": "^1.0.0"},
    "devDependencies": {"tsup": "^8.0.0"},
}
FILES: dict[str, str | bytes] = {
    "src/lib/neurolink.ts": NEURO_TS,
    "src/lib/factory.ts": FACTORY_TS,
    "src/cli/options.ts": CLI_TS,
    "src/lib/server/routes.ts": ROUTES_TS,
    "src/lib/client/http.ts": CLIENT_TS,
    "src/lib/strict.ts": "export const strictMode = true;\n",
    # A short option written as a quoted argument, among many files holding `-a` inside
    # longer words (`-api`), as a real CLI helper spawns `open -a Ollama`.
    "src/cli/ollama.ts": 'spawn("open", ["-a", "Ollama"]);\n',
    **{f"src/cli/api{n}.ts": f"// see the x-api-{n} header\n" for n in range(40)},
    "CHANGELOG.md": CHANGELOG,
    "package.json": json.dumps(PACKAGE),
    "requirements.txt": "httpx>=0.27\n# comment\n",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("outcomes") / "neuro", FILES)


@pytest.fixture
def ctx(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=True)


def _card(body: str, tmp_path: Path, ctx: GateContext) -> Scorecard:
    return gate.GATE.evaluate(make_post(body, tmp_path), ctx)


def _outcome(card: Scorecard, token: str) -> tuple[str, dict[str, Any]]:
    """The one outcome a token ended in, and its entry."""
    found = [
        (outcome, entry)
        for outcome, entries in card.detail["outcomes"].items()
        for entry in entries
        if entry["token"] == token
    ]
    found += [("ungrounded", u) for u in card.detail["ungrounded"] if u["token"] == token]
    assert len(found) == 1, (token, found)
    return found[0]


def _outcomes(card: Scorecard) -> dict[str, str]:
    result = {e["token"]: o for o, entries in card.detail["outcomes"].items() for e in entries}
    result.update({u["token"]: "ungrounded" for u in card.detail["ungrounded"]})
    return result


# ---------------------------------------------------------------------- grounded


@pytest.mark.parametrize(
    "token",
    [
        "NeuroLink.generate()",
        "NeuroLink.generate",
        "NeuroLink#stream",
        "ProviderFactory::createProvider",
        "ProviderFactory.createProvider('openai')",
        "result?.content",
        "neurolink.generate({ provider })",
        "await neurolink.generate()",
    ],
)
def test_member_and_call_syntax_grounds_part_by_part(
    token: str, tmp_path: Path, ctx: GateContext
) -> None:
    card = _card(f"The post calls `{token}` on the client.\n", tmp_path, ctx)
    outcome, entry = _outcome(card, token)
    assert outcome == "grounded", entry
    assert entry["repo"] == "repo"


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        # Judged by the API model: the member is not declared on the class.
        ("NeuroLink.generateWithAvatar()", "`generateWithAvatar` is not declared in NeuroLink"),
        ("NeuroLink.generateWithAvatar", "`generateWithAvatar` is not declared in NeuroLink"),
        ("ProviderFactory.createProviders", "did you mean `createProvider`"),
        ("ProviderFactory.stream", "`stream` is not declared in ProviderFactory"),
        ("NeuroLink.generate({ avatarStyle })", "argument 'avatarStyle'"),
    ],
)
def test_an_invented_member_of_a_real_class_is_ungrounded(
    token: str, reason: str, tmp_path: Path, ctx: GateContext
) -> None:
    card = _card(f"Then `{token}` returns the video.\n", tmp_path, ctx)
    outcome, entry = _outcome(card, token)
    assert outcome == "ungrounded"
    assert reason in entry["reason"]
    assert "matched word" not in entry["reason"]


def test_route_templates_match_across_parameter_notations(tmp_path: Path, ctx: GateContext) -> None:
    body = (
        "Routes: `/api/tools/{name}`, `/api/tools/<name>/execute`, "
        "`/api/memory/sessions/:sessionId` and `/api/widgets/{id}`.\n"
    )
    card = _card(body, tmp_path, ctx)
    for token in ("/api/tools/{name}", "/api/tools/<name>/execute"):
        outcome, entry = _outcome(card, token)
        assert (outcome, entry["where"]) == ("grounded", "src/lib/server/routes.ts")
    outcome, entry = _outcome(card, "/api/memory/sessions/:sessionId")
    assert (outcome, entry["where"]) == ("grounded", "src/lib/client/http.ts")
    # A template that matches no route is a claim that failed, not a non-reference.
    outcome, entry = _outcome(card, "/api/widgets/{id}")
    assert outcome == "ungrounded"
    assert "matches no route" in entry["reason"]


@pytest.mark.parametrize(
    ("token", "outcome"),
    [
        ("--max-tokens", "grounded"),  # declared by name to the option parser
        ("--provider", "grounded"),  # written as is
        ("--dry-run", "grounded"),  # declared as dryRun
        ("--max-warnings", "ungrounded"),  # `warnings` is no ground for it
        ("--temperature-max", "ungrounded"),
        ("--provider-name", "ungrounded"),  # not `--provider` followed by more
    ],
)
def test_flags_ground_as_written_or_as_declared_option_names(
    token: str, outcome: str, tmp_path: Path, ctx: GateContext
) -> None:
    card = _card(f"Run it with `{token}` to change that.\n", tmp_path, ctx)
    assert _outcome(card, token)[0] == outcome


def test_a_name_only_the_changelog_records_as_removed_is_ungrounded(
    tmp_path: Path, ctx: GateContext
) -> None:
    card = _card("Set `legacyMode` or `strictMode`.\n", tmp_path, ctx)
    assert _outcome(card, "legacyMode")[0] == "ungrounded"
    assert _outcome(card, "strictMode")[0] == "grounded"


def test_constant_values_are_checked_beside_the_name_and_option_values_are_the_readers(
    tmp_path: Path, ctx: GateContext
) -> None:
    body = (
        "It sets `MAX_RETRIES = 3`, `DEFAULT_TIMEOUT_MS = 15000`, `MAX_RETRIES = 7`, "
        '`provider: "my-own-choice"` and `avatarStyle: true`.\n'
    )
    card = _card(body, tmp_path, ctx)
    assert _outcomes(card) == {
        "MAX_RETRIES = 3": "grounded",
        "DEFAULT_TIMEOUT_MS = 15000": "grounded",  # digit separators ignored
        "MAX_RETRIES = 7": "ungrounded",
        'provider: "my-own-choice"': "grounded",
        "avatarStyle: true": "ungrounded",
    }


def test_a_phrase_grounds_only_when_every_word_does(tmp_path: Path, ctx: GateContext) -> None:
    card = _card("Both `generate stream` and `generate inventedThing` appear.\n", tmp_path, ctx)
    assert _outcome(card, "generate stream")[0] == "grounded"
    outcome, entry = _outcome(card, "generate inventedThing")
    assert outcome == "ungrounded" and "'inventedThing'" in entry["reason"]


# ---------------------------------------------------------------------- defined-in-post

SAMPLE = """```ts
import { NeuroLink, generateWithAvatar } from "@acme/neurolink";

function scoreDraft(text: string) { return 1; }
const retryBudget = 3;
class DraftQueue {
  drainAll() {}
}
const tools = {
  lookupOrder: tool({ description: "order status" }),
};
app.get("/health/draft", handler);
await neurolink.generate({ toolName: "refundPayment", model: "gpt-9-turbo" });
```

```python
def rank_chunks(chunks):
    return chunks
```

```yaml
chunkOverlapTokens: 40
```

"""


@pytest.mark.parametrize(
    "token",
    [
        "scoreDraft()",
        "retryBudget",
        "DraftQueue",
        "DraftQueue.drainAll()",
        "rank_chunks",
        "chunkOverlapTokens",
        "lookupOrder",
        "refundPayment",
        "/health/draft",
    ],
)
def test_names_the_posts_own_fences_declare_are_defined_in_post(
    token: str, tmp_path: Path, ctx: GateContext
) -> None:
    card = _card(SAMPLE + f"Here `{token}` does the work.\n", tmp_path, ctx)
    outcome, entry = _outcome(card, token)
    assert outcome == "defined-in-post", entry
    assert entry["where"].startswith("fence at line ")


def test_an_indented_code_block_declares_as_a_fence_does(tmp_path: Path, ctx: GateContext) -> None:
    # DRF's docs write every sample as an indented block.
    body = (
        "Intro.\n\n    class StringListField(serializers.ListField):\n"
        "        child = serializers.CharField()\n\n"
        "Reuse `StringListField` anywhere.\n"
    )
    outcome, entry = _outcome(_card(body, tmp_path, ctx), "StringListField")
    assert outcome == "defined-in-post", entry
    assert entry["where"].startswith("fence at line ")


@pytest.mark.parametrize(
    "sentence",
    [
        "Call `generateWithAvatar()` to render it.",  # imported from the product package
        "The SDK adds `NeuroLink.drainAll()` for queues.",  # a member of the product class
        "Pass `gpt-9-turbo` as the model.",  # a sample's model value names the product's
        "NeuroLink's `scoreDraft()` scores a draft.",  # attributed to the product
    ],
)
def test_a_fence_never_defines_what_the_post_presents_as_the_products_api(
    sentence: str, tmp_path: Path, ctx: GateContext
) -> None:
    card = _card(SAMPLE + sentence + "\n", tmp_path, ctx)
    token = sentence.split("`")[1]
    assert _outcome(card, token)[0] == "ungrounded"


def test_a_fenced_sketch_of_a_real_class_declares_nothing(tmp_path: Path, ctx: GateContext) -> None:
    body = (
        "```ts\nclass NeuroLink {\n  generateWithAvatar() {}\n}\n```\n\n"
        "Use `NeuroLink.generateWithAvatar()` or `generateWithAvatar()`.\n"
    )
    card = _card(body, tmp_path, ctx)
    assert _outcome(card, "NeuroLink.generateWithAvatar()")[0] == "ungrounded"
    assert _outcome(card, "generateWithAvatar()")[0] == "ungrounded"


def test_a_fence_quoting_the_products_source_declares_nothing(
    tmp_path: Path, ctx: GateContext
) -> None:
    body = (
        "```ts\n// From neurolink.ts, the retry decision\nconst wantsRetryBudget = true;\n```\n\n"
        "```ts\n// From my-app.ts\nconst myRetryBudget = 2;\n```\n\n"
        "It reads `wantsRetryBudget` and `myRetryBudget`.\n"
    )
    card = _card(body, tmp_path, ctx)
    assert _outcome(card, "wantsRetryBudget")[0] == "ungrounded"
    assert _outcome(card, "myRetryBudget")[0] == "defined-in-post"


def test_post_definitions_skip_product_imports(tmp_path: Path) -> None:
    post = make_post(SAMPLE, tmp_path)
    definitions = post_definitions(post, ["@acme/neurolink", "neurolink"])
    assert "generateWithAvatar" in definitions.product_imports
    assert "generateWithAvatar" not in definitions.declared
    assert "NeuroLink" not in definitions.declared
    assert "gpt-9-turbo" not in definitions.declared  # `model` is not a naming key


PYTHON_SAMPLE = """
```python
from mylib import Model


class Cat(Model):
    pet_type: Literal["cat"]
    lives: int = 9

    def purr(self, loudness: int = 1) -> None:
        self.volume = loudness


def greater_than(d1, d2, include_equal=True):
    for row, other in pairs(d1, d2):
        pass
```

```pycon
>>> def shout(words, *, times=2):
...     return words * times
```

Then `Model.validate(strict=True)` runs.
"""


def test_post_definitions_read_python_parameters_fields_and_targets(tmp_path: Path) -> None:
    definitions = post_definitions(make_post(PYTHON_SAMPLE, tmp_path), ["mylib"])
    for name in ("pet_type", "lives", "loudness", "include_equal", "d1", "row", "other"):
        assert name in definitions.declared, name
    assert "times" in definitions.declared  # a REPL session's definitions too
    # A call's keyword is the callee's parameter, not the sample's own name.
    assert "strict" not in definitions.declared
    assert "self" not in definitions.declared


# ---------------------------------------------------------------------- external


def test_declared_dependencies_are_external(tmp_path: Path, ctx: GateContext) -> None:
    card = _card(
        "It validates with `zod`, stores in `@qdrant/js-client-rest`, builds with `tsup` "
        "and fetches with `httpx`.\n",
        tmp_path,
        ctx,
    )
    for token, source in (
        ("zod", "package.json"),
        ("@qdrant/js-client-rest", "package.json"),
        ("tsup", "package.json"),
        ("httpx", "requirements.txt"),
    ):
        outcome, entry = _outcome(card, token)
        assert outcome == "external" and entry["where"] == f"dependency {token} ({source})"
    assert card.detail["claims"] == 0 and card.verdict == "PASS"


def test_dependencies_read_manifests_and_lock_files(tmp_path: Path) -> None:
    lock = {"packages": {"": {}, "node_modules/left-pad": {}, "node_modules/@a/b": {}}}
    pnpm = "packages:\n\n  /right-pad@1.0.0:\n    resolution: {}\n  '@c/d@2.0.0':\n    x: 1\n"
    files: dict[str, str | bytes] = {
        "package-lock.json": json.dumps(lock),
        "web/pnpm-lock.yaml": pnpm,
        "Cargo.toml": '[package]\nname = "x"\n[dependencies]\nserde = "1"\n',
        "pyproject.toml": '[project]\nname = "y"\ndependencies = ["requests>=2", "rich"]\n',
    }
    from pytest_postgates.evidence.index import open_index
    from tests.helpers import git

    root = make_repo(tmp_path / "deps", files)
    index = open_index(root, git(root, "rev-parse", "HEAD").strip(), tmp_path / "c")
    deps = dependencies_of(index)
    for name in ("left-pad", "@a/b", "right-pad", "@c/d", "serde", "requests", "rich"):
        assert deps.source(name), name
    assert {"serde", "requests", "rich"} <= deps.direct
    assert "left-pad" not in deps.direct


def test_a_model_id_is_not_a_packages_subpath(tmp_path: Path, ctx: GateContext) -> None:
    card = _card("Route to `zod/gpt-9.9-ultra` now.\n", tmp_path, ctx)
    assert _outcome(card, "zod/gpt-9.9-ultra")[0] == "ungrounded"


@pytest.mark.parametrize(
    "token",
    [
        "NeuroLink.generateWithAvatar(options, **extra)",
        "NeuroLink.renderAvatar(): Promise<?string>",
    ],
)
def test_a_signature_with_a_star_or_a_question_mark_is_no_glob(
    token: str, tmp_path: Path, ctx: GateContext
) -> None:
    card = _card(f"Call `{token}` to render.\n", tmp_path, ctx)
    outcome, entry = _outcome(card, token)
    assert outcome == "ungrounded", entry


@pytest.mark.parametrize(
    "sentence",
    [
        # A cue must never ground the product's API.
        "For example, `NeuroLink.generateWithAvatar()` renders video.",
        "NeuroLink's `renderAvatar()`, for example, renders video.",
        "Imagine `src/lib/providers/avatar/client.ts` holding it.",
        "For example, set the model to `gpt-9.9-ultra`.",
        "It reads `JSON.parseStrictly()` first.",
        "Pass a flag (e.g., `--cold-retry`) to the command.",
        # A cue about something else in the sentence does not reach the token.
        "For example, the team reviewed every draft by hand before they shipped `renderAvatar`.",
        "There is no special `code` strategy in `ChunkingStratagy`.",
        "It wraps the store, creating a function named `search_knowlezge_base`.",
    ],
)
def test_cues_never_ground_the_products_api(
    sentence: str, tmp_path: Path, ctx: GateContext
) -> None:
    token = sentence.split("`")[-2]
    card = _card(sentence + "\n", tmp_path, ctx)
    assert _outcome(card, token)[0] == "ungrounded"


# ---------------------------------------------------------------------- accounting


def test_every_token_ends_in_exactly_one_outcome_and_only_claims_count(
    tmp_path: Path, ctx: GateContext
) -> None:
    body = SAMPLE + (
        "We call `NeuroLink.generate()` and `scoreDraft()`, validate with `zod`, see "
        "[`guide/setup.md`](guide/setup.md) and mention `inventedHelper`.\n"
    )
    card = _card(body, tmp_path, ctx)
    outcomes = _outcomes(card)
    assert outcomes == {
        "NeuroLink.generate()": "grounded",
        "scoreDraft()": "defined-in-post",
        "zod": "external",
        "guide/setup.md": "not-a-reference",
        "inventedHelper": "ungrounded",
    }
    assert card.detail["total"] == 5
    assert card.detail["claims"] == 2
    assert (card.detail["grounded"], card.detail["grounded_pct"]) == (1, 50.0)
    assert card.verdict == "FAIL"
    assert set(card.detail["outcomes"]) == {
        "grounded",
        "defined-in-post",
        "external",
        "not-a-reference",
    }
    assert [f.code for f in card.findings] == ["UNGROUNDED"]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # Examples of the product's real things: an invented one among them is a claim.
        (
            "A factory method lets a new provider (e.g., `ProviderFactory`, `ProviderMint`)"
            " be added at runtime.",
            {"ProviderFactory": "grounded", "ProviderMint": "ungrounded"},
        ),
        (
            "Register your own (`ProviderMint`, `ProviderFactory`, for example) at startup.",
            {"ProviderFactory": "grounded", "ProviderMint": "ungrounded"},
        ),
    ],
)
def test_an_example_list_that_holds_a_real_name_is_a_list_of_claims(
    sentence: str, expected: dict[str, str], tmp_path: Path, ctx: GateContext
) -> None:
    card = _card(sentence + "\n", tmp_path, ctx)
    assert _outcomes(card) == expected


def test_a_short_flag_grounds_where_the_code_writes_it_as_a_quoted_argument(
    tmp_path: Path, ctx: GateContext
) -> None:
    card = _card("The helper runs `open` with `-a` and never with `-z`.\n", tmp_path, ctx)
    outcome, entry = _outcome(card, "-a")
    assert (outcome, entry["where"]) == ("grounded", "src/cli/ollama.ts")
    assert _outcome(card, "-z")[0] == "ungrounded"


REGISTRY_SAMPLE = """```typescript
await registry.registerServer("erp-connector", { command: "node", args: ["erp.js"] });
await registry.registerServer("wms-connector", { command: "node", args: ["wms.js"] });
```

"""


@pytest.mark.parametrize(
    ("token", "outcome"),
    [
        ('["erp-connector", "wms-connector"]', "defined-in-post"),
        ("erp-connector", "defined-in-post"),
        # One name the sample never registered: a claim, judged as usual.
        ('["erp-connector", "crm-connector"]', "ungrounded"),
    ],
)
def test_names_the_sample_registers_are_its_own_alone_or_listed(
    token: str, outcome: str, tmp_path: Path, ctx: GateContext
) -> None:
    body = REGISTRY_SAMPLE + f"Service discovery returns `{token}` for this registry.\n"
    found, entry = _outcome(_card(body, tmp_path, ctx), token)
    assert found == outcome, entry
    if outcome == "defined-in-post":
        assert entry["where"] == "fence at line 6"


# ---------------------------------------------------------------------- unjudged

# The blog's own tooling, declared by a blog team as a codebase by name, tag and prefix;
# no path: the posts of these tests are in no git repository, so it is not available.
BLOG = GroundingRepo(
    name="neurolink-blog", tags=("content-factory",), prefixes=("scripts/factory/",)
)
FACTORY_FRONT = (
    "---\nlayout: post\ntitle: The factory\ndate: 2026-06-03\ntags:\n"
    "  - content-factory\n  - quality-gates\n---\n"
)
UNAVAILABLE = "names code in neurolink-blog, which is not available to this run"


@pytest.fixture
def declared(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache", repos=(BLOG,), symbol_unanchored_claims=True)


def test_a_declared_codebase_that_is_not_available_makes_its_posts_tokens_unjudged(
    tmp_path: Path, declared: GateContext
) -> None:
    body = (
        "The publisher (`publisher.mjs`) writes `held_reason` into its report and runs the\n"
        "`symbol-grounding` gate from `scripts/factory/lib/gates/` (commit `39e51a7`), then\n"
        "the draft is generated with `NeuroLink.generate()`.\n"
    )
    post = make_post(body, tmp_path, front=FACTORY_FRONT)
    card = gate.GATE.evaluate(post, declared)
    for token in ("publisher.mjs", "held_reason", "symbol-grounding", "39e51a7"):
        outcome, entry = _outcome(card, token)
        assert (outcome, entry["repo"], entry["rule"]) == (
            "unjudged",
            "neurolink-blog",
            "declared-post",
        ), token
        assert entry["reason"] == UNAVAILABLE
    outcome, entry = _outcome(card, "scripts/factory/lib/gates/")
    assert (outcome, entry["rule"]) == ("unjudged", "declared-prefix")
    assert _outcome(card, "NeuroLink.generate()")[0] == "grounded"
    # Unjudged tokens are no claims: the grounded share is over the one claim left.
    assert (card.detail["claims"], card.detail["grounded_pct"]) == (1, 100.0)
    assert card.detail["unavailable_repos"] == ["neurolink-blog"]
    assert card.verdict == "PASS"
    assert "5 unjudged (they name code in neurolink-blog" in card.summary


@pytest.mark.parametrize(
    "token",
    [
        "NeuroLink.generateWithAvatar()",  # an invented member of a product class
        "claude-sonnet-9-9",  # a model id: a claim about the product's catalogue
        "--max-warmth",  # a flag: a claim about the product's CLI
        "src/lib/providers/invented.ts",  # a path into the product's tree
        "src/invented.ts",  # a path at a source root the product has
    ],
)
def test_product_claims_in_a_declared_post_stay_claims(
    token: str, tmp_path: Path, declared: GateContext
) -> None:
    body = f"The factory's drafter checks `held_reason`, and the post says `{token}` exists.\n"
    card = gate.GATE.evaluate(make_post(body, tmp_path, front=FACTORY_FRONT), declared)
    assert _outcome(card, "held_reason")[0] == "unjudged"
    assert _outcome(card, token)[0] == "ungrounded"
    assert card.verdict == "FAIL"


def test_a_name_after_the_products_name_stays_a_claim_in_a_declared_post(
    tmp_path: Path, declared: GateContext
) -> None:
    body = "The gate passes the draft to NeuroLink, and NeuroLink exposes `renderGadget`.\n"
    card = gate.GATE.evaluate(make_post(body, tmp_path, front=FACTORY_FRONT), declared)
    assert _outcome(card, "renderGadget")[0] == "ungrounded"


def test_a_declared_prefix_decides_in_any_post_and_only_under_the_prefix(
    tmp_path: Path, declared: GateContext
) -> None:
    body = (
        "Run `scripts/factory/planner.mjs` before `scripts/build-feed.mjs`; the planner\n"
        "writes `held_reason`.\n"
    )
    card = gate.GATE.evaluate(make_post(body, tmp_path), declared)
    assert _outcome(card, "scripts/factory/planner.mjs")[1]["rule"] == "declared-prefix"
    # Not under the prefix, and the post is not declared: claims, judged as usual.
    assert _outcome(card, "scripts/build-feed.mjs")[0] == "ungrounded"
    assert _outcome(card, "held_reason")[0] == "ungrounded"


def test_without_a_declaration_nothing_is_unjudged(tmp_path: Path, ctx: GateContext) -> None:
    body = "The publisher (`publisher.mjs`) writes `held_reason` into its report.\n"
    card = gate.GATE.evaluate(make_post(body, tmp_path, front=FACTORY_FRONT), ctx)
    assert _outcomes(card) == {"publisher.mjs": "ungrounded", "held_reason": "ungrounded"}
    assert "unjudged" not in card.detail["outcomes"]
    assert "unavailable_repos" not in card.detail


# ---------------------------------------------------------------------- parsers


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["api", "tools", "v1", "items", "execute"]), min_size=1, max_size=4),
    st.sampled_from(["{x}", ":x", "<x>", "${x}", "[x]"]),
    st.sampled_from(["{id}", ":id", "<id>", "${id}"]),
)
def test_a_route_template_matches_itself_in_every_parameter_notation(
    segments: list[str], written: str, coded: str
) -> None:
    template = "/" + "/".join(segments) + "/" + written
    code = "/" + "/".join(segments) + "/" + coded
    assert is_route_template(template)
    pattern = route_pattern(template)
    assert pattern is not None and pattern.search(code.encode())


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text(min_size=2, max_size=60))
def test_judging_any_token_never_raises(text: str, tmp_path: Path, ctx: GateContext) -> None:
    token = gate.Token(text.strip() or "xx", 1)
    post = make_post(f"A `{token.text}` token.\n", tmp_path)
    repos = gate._repos_for(post, ctx)
    definitions = post_definitions(post, repos.product_names)
    verdict = gate.judge(token, post, repos, definitions, None)
    assert verdict.outcome in gate.OUTCOMES


def test_the_rules_fingerprint_covers_the_helpers_and_is_the_loaded_codes(tmp_path: Path) -> None:
    from pytest_postgates.gates import code_samples, releases
    from pytest_postgates.helpers import grounding_digest as digests

    loaded = gate._rules_fingerprint()
    assert digests.rules_digest(gate.__file__, releases.__file__) == loaded
    assert (
        digests.sample_rules_digest(code_samples.__file__, releases.__file__) == code_samples._RULES
    )
    # A copy of the package's code keys the same; any module of evidence/ or helpers/ edited
    # (outcome_rules, gate 2's; js_this, a reader gate 15's hand-kept list once left out)
    # changes both keys, while the key of the code already running stays the one read at
    # import.
    copy = tmp_path / "pytest_postgates"
    for source in digests.code_files():
        target = copy / source.relative_to(digests.PACKAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(source.read_bytes())
    gate_files = (gate.__file__, releases.__file__)
    samples_files = (code_samples.__file__, releases.__file__)
    assert digests.rules_digest(*gate_files, package=copy) == loaded
    for edited in ("helpers/outcome_rules.py", "helpers/js_this.py", "evidence/read_keys.py"):
        before = (digests.rules_digest(*gate_files, package=copy),
                  digests.sample_rules_digest(*samples_files, package=copy))  # fmt: skip
        (copy / edited).write_bytes((copy / edited).read_bytes() + b"\n# edited\n")
        assert digests.rules_digest(*gate_files, package=copy) != before[0], edited
        assert digests.sample_rules_digest(*samples_files, package=copy) != before[1], edited
    assert gate._rules_fingerprint() == loaded


def test_a_name_grounds_as_a_whole_word_never_inside_another(tmp_path: Path) -> None:
    # polars's Rust core reads `POLARS_FMT_MAX_ROWS` (code the model does not read): the
    # README's `POLARS_FMT_MAX_ROW` is no word of it, though the text holds it as a part.
    repo = make_repo(
        tmp_path / "tabular",
        {
            "pyproject.toml": '[project]\nname = "tabular"\n',
            "tabular/__init__.py": "def read_csv(path):\n    return path\n",
            "src/fmt.rs": 'fn rows() { std::env::var("TABULAR_FMT_MAX_ROWS"); }\n',
        },
    )
    ctx = repo_context(repo, tmp_path / "cache")
    body = "Set `TABULAR_FMT_MAX_ROW` or `TABULAR_FMT_MAX_ROWS` to 20.\n"
    card = _card(body, tmp_path, ctx)
    assert _outcome(card, "TABULAR_FMT_MAX_ROWS")[0] == "grounded"
    outcome, entry = _outcome(card, "TABULAR_FMT_MAX_ROW")
    assert outcome == "ungrounded", entry  # named for the product, and no word of its code
