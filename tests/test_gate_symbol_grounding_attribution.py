"""Gate 2's attribution rules (issue 10): an ungrounded token that the sentence or the
post's own sample says is not the product's ends `unjudged`, `not-a-reference` or
`defined-in-post` with the rule named; the same shapes presented as the product's API stay
`ungrounded`.

The sentences are written for these tests in the shapes real posts take (another vendor's
model after its possessive, SDK generators listed as examples of a kind, an example tool on
another party's server, a sample's own input value); none is copied from a corpus.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.config import GroundingRepo
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.clearing_rules import NAMES as CLEARING_NAMES
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

FILES: dict[str, str | bytes] = {
    "package.json": json.dumps({"name": "@acme/neurolink", "dependencies": {"zod": "^3"}}),
    "src/lib/neurolink.ts": (
        "export class NeuroLink {\n  async generate(options) {}\n}\n"
        "// Routes through OpenRouter: anthropic/claude-3-5-sonnet\n"
    ),
    "src/lib/factory.ts": "export class ProviderFactory {\n  static createProvider(name) {}\n}\n",
    "src/lib/types/generate.ts": (
        "export type StandardRecord = Record<string, unknown>;\n"
        "export type GenerateOptions = {\n  context?: StandardRecord;\n  rag?: RagConfig;\n};\n"
        "export type RagConfig = { topK?: number };\n"
    ),
    "src/lib/providers/deepseek.ts": "export const deepseekModel = (id) => id;\n",
    "src/routes/+page.svelte": "<h1>Demo</h1>\n",
    "src/lib/tools/registry.ts": 'export const archiveUser = { name: "archiveUser" };\n',
    "src/lib/constants/windows.ts": (
        "export const FALLBACK_WINDOW = 128_000;\nexport const OUTPUT_RESERVE = 64000;\n"
        "export const BIG_BUDGET = 1128_000;\n"
    ),
}
COMMIT_MESSAGE = (
    "feat: twelve providers\n\nNEW PROVIDERS (2)\n- Alpha, Beta\n\nNEW MODALITIES\n"
    "- Widgets: three adapters\n- startSpinner() shows a spinner while a command runs\n"
)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("attribution") / "neuro", FILES, COMMIT_MESSAGE)


@pytest.fixture
def ctx(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=True)


def _card(body: str, tmp_path: Path, ctx: GateContext, front: str | None = None) -> Scorecard:
    post = make_post(body, tmp_path) if front is None else make_post(body, tmp_path, front=front)
    return gate.GATE.evaluate(post, ctx)


def _outcome(card: Scorecard, token: str) -> tuple[str, dict[str, Any]]:
    found = [
        (outcome, entry)
        for outcome, entries in card.detail["outcomes"].items()
        for entry in entries
        if entry["token"] == token
    ]
    found += [("ungrounded", u) for u in card.detail["ungrounded"] if u["token"] == token]
    assert len(found) == 1, (token, found)
    return found[0]


# ---------------------------------------------------------------------- another party's


@pytest.mark.parametrize(
    "sentence",
    [
        # The product's own possessive, a member of a real class, a model id, a flag, a
        # path (the product's files are named after the vendors it wraps), the product's
        # lint namespace: claims about the product whatever the sentence says.
        "NeuroLink's free access is one model, `neurolite`.",
        "Zephyr's adapter calls `NeuroLink.generateWithZephyr()`.",
        "Zephyr's newest model is `zephyr-9.9-ultra`.",
        "Zephyr's CLI takes `--zephyr-mode` too.",
        # A package named after the product is presented as the product's, under a wrong
        # name (the `@neurolink/sdk` post): its member stays a claim.
        "The `@neurolink/sdk` SDK's `renderWidget()` returns the page.",
        "Zephyr's version, from `src/lib/providers/zephyr.ts`.",
        "The possessive of a class the repository declares: ProviderFactory's `mintProvider`.",
        "Use generators like `gpt-9.9-ultra` for the spec.",
        # A package named after the product, or in its scope, is the product's.
        "Install packages like `neurolink-avatar` for video.",
        "Install packages like `@acme/avatar-kit` for video.",
        # The product's own name under a misspelt scope.
        "Install `@acmee/neurolink` first.",
        # A generic noun is no party.
        "It proxies the SDK `runWidget` / `streamWidget` methods.",
        # A possessive in another clause does not reach the token.
        "Zephyr's docs are long. The client calls `renderGadget`.",
    ],
)
def test_attribution_never_reaches_what_the_post_presents_as_the_products(
    sentence: str, tmp_path: Path, ctx: GateContext
) -> None:
    token = sentence.split("`")[-2]
    card = _card(sentence + "\n", tmp_path, ctx)
    assert _outcome(card, token)[0] == "ungrounded"


# ---------------------------------------------------------------------- examples


@pytest.mark.parametrize(
    "sentence",
    [
        # An example clause that names no other party, or an example cue elsewhere.
        "It flags a conflict -- for example, when the team ships `openMergeRequest`.",
        # An indefinite article in a sentence about no tools: a claim.
        "A `generateTaxt` call returns the text.",
        # An indefinite article before a member of a product class: a claim.
        "Tools aside, a `NeuroLink.generateTaxt()` call returns the text.",
        # Two spellings are two names, not a demonstration of one.
        "Set `apiKeyZ` or `api_key_z` first.",
    ],
)
def test_example_rules_leave_claims_alone(sentence: str, tmp_path: Path, ctx: GateContext) -> None:
    token = sentence.split("`")[-2] if "`api" not in sentence else "api_key_z"
    card = _card(sentence + "\n", tmp_path, ctx)
    assert _outcome(card, token)[0] == "ungrounded"


# ---------------------------------------------------------------------- the sample's own

SAMPLE = """```typescript
const ranked = await reranker.rerank(query, pastChunks, { topN: 5 });
if (useCache) {
  console.log(ranked);
}
const result = await neurolink.generate({
  input: { text: query },
  context: {
    userId: "u-1",
    auditTier: "limited",
  },
  rag: { topK: 5, minScore: 0.7 },
});
```

"""


@pytest.mark.parametrize(
    ("token", "outcome", "rule"),
    [
        # An argument the sample passes in and never declares: the reader's own data.
        ("pastChunks", "not-a-reference", "sample-input"),
        # A condition is no argument; a key passed to the product's typed option is a claim.
        ("useCache", "ungrounded", "unanchored-claims"),
        ("minScore", "ungrounded", "unanchored-claims"),
        # A key under a key some product type declares free-form is still a claim: the
        # key name alone cannot tell that type from a closed one (`input: { officeFiles }`).
        ("auditTier", "ungrounded", "unanchored-claims"),
    ],
)
def test_the_samples_own_values_and_free_form_keys(
    token: str, outcome: str, rule: str | None, tmp_path: Path, ctx: GateContext
) -> None:
    body = SAMPLE + f"The sample passes `{token}` along with the request.\n"
    found, entry = _outcome(_card(body, tmp_path, ctx), token)
    assert (found, entry.get("rule")) == (outcome, rule), entry


def test_a_string_literal_the_sample_passes_in_stays_a_claim(
    tmp_path: Path, ctx: GateContext
) -> None:
    body = (
        '```typescript\nthis.emit("turnFinished", event);\n```\n\n'
        "Providers emit `turnFinished` when a turn ends.\n"
    )
    assert _outcome(_card(body, tmp_path, ctx), "turnFinished")[0] == "ungrounded"


def test_a_fence_quoting_the_products_source_passes_nothing_in(
    tmp_path: Path, ctx: GateContext
) -> None:
    body = (
        "```typescript\n// src/lib/factory.ts\nProviderFactory.createProvider(wantedName);\n```\n\n"
        "It reads `wantedName` first.\n"
    )
    assert _outcome(_card(body, tmp_path, ctx), "wantedName")[0] == "ungrounded"


def test_a_bare_name_in_a_json_sample_is_the_pages_placeholder(
    tmp_path: Path, ctx: GateContext
) -> None:
    """eslint's rule docs: `{ "blankLine": LINEBREAK_TYPE, "prev": STATEMENT_TYPE }` in a
    JSON fence, then "`LINEBREAK_TYPE` is one of the following": JSON has no names, so a
    bare one there is the page's placeholder (sample-input), in any case."""
    body = (
        '```json\n{\n  "rules": [\n    "error",\n    { "blankLine": LINEBREAK_TYPE, "next": '
        "stmtType },\n    ...\n  ]\n}\n```\n\n"
        "- `LINEBREAK_TYPE` is one of the following.\n- `stmtType` is a statement type.\n"
        "- `BLANK_TYPE` is a claim.\n"
    )
    card = _card(body, tmp_path, ctx)
    for token in ("LINEBREAK_TYPE", "stmtType"):
        found, entry = _outcome(card, token)
        assert (found, entry.get("rule")) == ("not-a-reference", "sample-input"), entry
    # Not in the sample: still a claim. A string value or key of JSON is no placeholder.
    assert _outcome(card, "BLANK_TYPE")[0] == "ungrounded"
    body = '```json\n{ "blankLine": "LINEBREAK_KIND" }\n```\n\nSet `LINEBREAK_KIND`.\n'
    assert _outcome(_card(body, tmp_path, ctx), "LINEBREAK_KIND")[0] == "ungrounded"


# ---------------------------------------------------------------------- grounded outline


@pytest.mark.parametrize(
    ("token", "outcome"),
    [
        ("NEW MODALITIES → Widgets", "grounded"),
        ("NEW MODALITIES -> Widgets", "grounded"),
        ("NEW MODALITIES → Sprockets", "ungrounded"),  # no such entry under the heading
        ("NEW PROVIDERS (2) → Widgets", "ungrounded"),  # an entry of another heading
    ],
)
def test_a_rendered_commit_message_outline_grounds_on_the_message(
    token: str, outcome: str, tmp_path: Path, ctx: GateContext
) -> None:
    card = _card(f"The message files them under `{token}`.\n", tmp_path, ctx)
    found, entry = _outcome(card, token)
    assert found == outcome, entry
    if outcome == "grounded":
        assert (entry["where"], entry["rule"]) == ("commit message", "commit-message-outline")


@pytest.mark.parametrize(
    ("token", "outcome"),
    [
        # A call is a code name: the message that names it is prose, no evidence for it.
        ("startSpinner()", "ungrounded"),
        # A phrase of the message is grounded by it, as before.
        ("shows a spinner while a command runs", "grounded"),
    ],
)
def test_a_commit_message_grounds_phrases_never_a_code_name(
    token: str, outcome: str, tmp_path: Path, ctx: GateContext
) -> None:
    card = _card(f"The release notes say `{token}`.\n", tmp_path, ctx)
    found, entry = _outcome(card, token)
    assert found == outcome, entry


# ---------------------------------------------------------------------- declared posts

BLOG = GroundingRepo(name="acme-blog", tags=("content-factory",))
FACTORY_FRONT = (
    "---\nlayout: post\ntitle: The factory\ndate: 2026-06-03\ntags: content-factory\n---\n"
)


@pytest.fixture
def declared(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache", repos=(BLOG,), symbol_unanchored_claims=True)


@pytest.mark.parametrize(
    ("body", "token", "outcome", "rule"),
    [
        # A flag stays a claim about the product's CLI even in a paragraph about a script
        # of the declared codebase (a rule making it the script's was measured and
        # rejected: it let three planted flags through for one false finding).
        (
            "The publisher script, `publish-post.mjs`, stages a branch; `--live` pushes it.",
            "--live",
            "ungrounded",
            "unanchored-claims",  # the test product's model reads no command line
        ),
        # A path through two or more folders the product's tree never uses.
        (
            "The typo was in `src/routes/(shop)/cart/v2/+page.svelte`.",
            None,
            "unjudged",
            "declared-tree",
        ),
        # One wrong folder in the product's tree is the product's path misspelt; so is a
        # file put in a new folder.
        (
            "The typo was in `src/lib/provider/deepseek.ts`.",
            None,
            "ungrounded",
            "anchor-presented-path",
        ),
        (
            "The typo was in `src/lib/providers/deepseek/client.ts`.",
            None,
            "ungrounded",
            "anchor-presented-path",
        ),
    ],
)
def test_declared_posts_paths_through_another_tree(
    body: str,
    token: str | None,
    outcome: str,
    rule: str | None,
    tmp_path: Path,
    declared: GateContext,
) -> None:
    token = token or body.split("`")[1]
    card = _card(body + "\n", tmp_path, declared, FACTORY_FRONT)
    found, entry = _outcome(card, token)
    assert (found, entry.get("rule")) == (outcome, rule), entry
    if outcome == "unjudged":
        assert entry["repo"] == "acme-blog"


# ---------------------------------------------------------------------- third-party servers

# A catalogue page of external MCP servers, in the shape real docs write one: a heading per
# server, its install line, a bulleted list of its tools (names invented for this test).
SERVER_CATALOGUE = """\
## External servers

### Kanban - Board Management

**Install**: `npx @boardco-mcp/server-kanban`

**Tools** (3):

- `move_card` - Move a card between columns
- `archive_lane` - Archive a whole lane

### Ledger - Accounts

**Install**: `npm -g @boardco-mcp/server-ledger`

| Tool | What it does |
| ---- | ------------ |
| `post_entry` | Post a journal entry |

### Cloud - Hosting

**Install**: `npm -g @boardco-mcp/server-cloud`

- Volumes: `list_volumes`, `attach_volume`
- Queues: `drain_queue`
"""


@pytest.mark.parametrize(
    "token",
    ["move_card", "archive_lane", "post_entry", "list_volumes", "attach_volume", "drain_queue"],
)
def test_tools_listed_under_another_partys_server_are_unjudged(
    token: str, tmp_path: Path, ctx: GateContext
) -> None:
    card = _card(SERVER_CATALOGUE, tmp_path, ctx)
    outcome, entry = _outcome(card, token)
    assert (outcome, entry.get("rule")) == ("unjudged", "third-party-server-tool"), entry
    assert "@boardco-mcp/server-" in entry["reason"]
    assert token not in {u["token"] for u in card.detail["ungrounded"]}


@pytest.mark.parametrize(
    "body",
    [
        # The product's own server: its heading names the product.
        "### NeuroLink utility server\n\nInstall: `npx @boardco-mcp/server-kanban` too.\n\n"
        "- `move_cardz` - invented under the product's heading\n",
        # A list under a heading whose section names no package: the product's tools.
        "### Built-in tools\n\nThe server ships these:\n\n- `move_cardz` - Move a card\n",
        # A package named only in a fence of the section, not in its prose.
        "### Kanban\n\n```bash\nnpx @boardco-mcp/server-kanban\n```\n\n- `move_cardz` - Move\n",
        # The install line comes after the list: it is not what the list is of.
        "### Kanban\n\n- `move_cardz` - Move a card\n\n"
        "**Install**: `npx @boardco-mcp/server-kanban`\n",
        # The product's own package in the install line.
        "### Kanban\n\n**Install**: `npx @acme/neurolink`\n\n- `move_cardz` - Move a card\n",
        # A labelled list of names under the product's own heading.
        "### NeuroLink storage tools\n\n**Install**: `npx @boardco-mcp/server-kanban`\n\n"
        "- Volumes: `move_cardz`, `list_volumes`\n",
        # Not the item's first code span: prose about the tool, not a listed tool.
        "### Kanban\n\n**Install**: `npx @boardco-mcp/server-kanban`\n\n"
        "- Call `generate()` then `move_cardz` on the product\n",
        # Not a tool name: a path stays a claim about the product's tree.
        "### Kanban\n\n**Install**: `npx @boardco-mcp/server-kanban`\n\n"
        "- `src/lib/kanban.ts` - its adapter\n",
    ],
)
def test_tool_lists_the_page_does_not_give_to_another_server_stay_claims(
    body: str, tmp_path: Path, ctx: GateContext
) -> None:
    card = _card(body, tmp_path, ctx)
    tokens = {u["token"] for u in card.detail["ungrounded"]}
    assert tokens & {"move_cardz", "src/lib/kanban.ts"}, card.detail
    rules = [e.get("rule") for es in card.detail["outcomes"].values() for e in es]
    assert "third-party-server-tool" not in rules


# ---------------------------------------------------------------------- number spellings


# ---------------------------------------------------------------------- negation cues


# ---------------------------------------------------------------------- vendor namespaces


@pytest.mark.parametrize(
    ("sentence", "token"),
    [
        # A vendor namespace the repository never names stays a claim: the dropped
        # vendor-namespace-model rule cleared it, and with it a namespace one letter off
        # the product's catalogue (`anthropics/`), a planted fabrication.
        ("- `zephyrlabs/zeph-neo-2.7B` - Large open model", "zephyrlabs/zeph-neo-2.7B"),
        ("- `anthropics/claude-3-5-sonnet` - the flagship", "anthropics/claude-3-5-sonnet"),
        # The product's catalogue style: a namespace the repository names.
        ("Anthropic's newest, `anthropic/claude-9-9-ultra`.", "anthropic/claude-9-9-ultra"),
    ],
)
def test_model_ids_in_a_vendor_namespace_stay_claims(
    sentence: str, token: str, tmp_path: Path, ctx: GateContext
) -> None:
    outcome, _entry = _outcome(_card(sentence + "\n", tmp_path, ctx), token)
    assert outcome == "ungrounded"


# ---------------------------------------------------------------------- turned off


@pytest.mark.parametrize(
    ("body", "token", "rule"),
    [
        (SAMPLE + "The sample passes `pastChunks` along.", "pastChunks", "sample-input"),
        (SERVER_CATALOGUE, "move_card", "third-party-server-tool"),
    ],
)
def test_a_clearing_rule_turned_off_leaves_the_token_to_the_next_step(
    body: str, token: str, rule: str, repo: Path, tmp_path: Path
) -> None:
    """Each attribution rule of helpers/clearing_rules.py's table can be turned off by name
    (``symbol_rules_off``), and then decides nothing: the next step of gate 2 does."""
    assert rule in CLEARING_NAMES
    on = repo_context(repo, tmp_path / "on", symbol_unanchored_claims=True)
    assert _outcome(_card(body + "\n", tmp_path, on), token)[1].get("rule") == rule
    off = repo_context(
        repo, tmp_path / "off", symbol_unanchored_claims=True, symbol_rules_off=(rule,)
    )
    assert _outcome(_card(body + "\n", tmp_path, off), token)[1].get("rule") != rule
