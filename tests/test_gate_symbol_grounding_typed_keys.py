"""Gate 2's type-directed key rule (issue 10): a key the post's own sample writes in an
object literal is `not-a-reference` (rule `free-form-record`) only when the product's
declared type of that object is a free-form record, followed from the call the object is
passed to through the repository's own TypeScript; a closed type, a call or type that
cannot be followed, or a key the post presents as the product's leaves it a claim.

The repository and the posts are written for these tests in the shapes the real corpus
takes (a NeuroLink-style `generate()` whose options type a `context` field as an alias of
`Record<string, unknown>` and `input` as a closed object); nothing is copied from it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.clearing_rules import NAMES as CLEARING_NAMES
from pytest_postgates.helpers.typed_keys import RULE
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

GENERATE_TYPES = """import type { StandardRecord } from "./aliases.js";

/**
 * Options of generate(). A comment before the body, as real type files have.
 */
export type GenerateOptions = {
  /** The prompt and its files. */
  input: {
    text: string;
    csvFiles?: Array<Buffer | string>;
    files?: Array<Buffer | string>;
  };
  provider?: string;
  context?: StandardRecord;
  metadata?: { [key: string]: unknown };
  labels?: Record<string, string>;
  rag?: RagConfig;
};

export type RagConfig = { topK?: number; files?: string[] };

export type DynamicOptions = {
  input: { text: string };
  dynamicContext?: Record<string, unknown>;
};

export type StreamOptions = Omit<GenerateOptions, "rag"> & { onChunk?: (c: string) => void };

export interface LegacyOptions {
  context?: { userId: string };
}

export type TrackEvent = { name: string; payload?: Record<string, any> };
"""

FILES: dict[str, str | bytes] = {
    "package.json": json.dumps(
        {
            "name": "@acme/neurolink",
            "type": "module",
            "exports": {".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"}},
        }
    ),
    "src/lib/index.ts": (
        'export { NeuroLink } from "./neurolink.js";\n'
        'export { track } from "./telemetry.js";\n'
        'export * from "./types/index.js";\n'
    ),
    "src/lib/types/index.ts": 'export * from "./generate.js";\nexport * from "./aliases.js";\n',
    "src/lib/types/aliases.ts": "export type StandardRecord = Record<string, unknown>;\n",
    "src/lib/types/generate.ts": GENERATE_TYPES,
    "src/lib/neurolink.ts": (
        "import type {\n  GenerateOptions,\n  DynamicOptions,\n  StreamOptions,\n"
        '  LegacyOptions,\n} from "./types/index.js";\n\n'
        "export class NeuroLink {\n"
        "  async generate(optionsOrPrompt: GenerateOptions | DynamicOptions | string) {\n"
        "    return optionsOrPrompt;\n  }\n"
        "  async stream(options: StreamOptions) {\n    return options;\n  }\n"
        "  async legacyGenerate(options: GenerateOptions | LegacyOptions) {\n"
        "    return options;\n  }\n"
        "  async run(options) {\n    return options;\n  }\n"
        "}\n"
    ),
    "src/lib/telemetry.ts": (
        'import type { TrackEvent } from "./types/generate.js";\n'
        "export function track(event: TrackEvent): void {\n  void event;\n}\n"
    ),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("typed-keys") / "neuro", FILES)


@pytest.fixture
def ctx(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=True)


def _outcome(body: str, token: str, tmp_path: Path, ctx: GateContext) -> tuple[str, dict]:
    card: Scorecard = gate.GATE.evaluate(make_post(body, tmp_path), ctx)
    found: list[tuple[str, dict[str, Any]]] = [
        (outcome, entry)
        for outcome, entries in card.detail["outcomes"].items()
        for entry in entries
        if entry["token"] == token
    ]
    found += [("ungrounded", u) for u in card.detail["ungrounded"] if u["token"] == token]
    assert len(found) == 1, (token, found)
    return found[0]


def _fence(code: str) -> str:
    return f"```typescript\n{code}\n```\n\n"


IMPORT = 'import { NeuroLink } from "@acme/neurolink";\nconst neurolink = new NeuroLink();\n'


# ---------------------------------------------------------------------- decided


@pytest.mark.parametrize(
    ("code", "container"),
    [
        # The real shape: `context?: StandardRecord`, an alias of Record<string, unknown>,
        # in the options of a method of the class the sample constructs.
        (
            IMPORT + "await neurolink.generate({\n  input: { text: q },\n"
            '  context: { tenantTier: "gold", userId: "u-1" },\n});',
            "GenerateOptions.context",
        ),
        # An index signature of unknown values.
        (
            IMPORT
            + "await neurolink.generate({ input: { text: q }, metadata: { tenantTier: 1 } });",
            "GenerateOptions.metadata",
        ),
        # Through Omit<...> & {...}: the field keeps its declared type.
        (
            IMPORT + "await neurolink.stream({ input: { text: q }, context: { tenantTier } });",
            "GenerateOptions.context",
        ),
        # A value annotated with the product's type, and one passed to the call later.
        (
            'import type { GenerateOptions } from "@acme/neurolink";\n'
            "const options: GenerateOptions = { input: { text: q }, context: { tenantTier } };",
            "GenerateOptions.context",
        ),
        (
            'import type { GenerateOptions } from "@acme/neurolink";\n'
            "const options = { input: { text: q }, context: { tenantTier } }"
            " satisfies GenerateOptions;",
            "GenerateOptions.context",
        ),
        (
            IMPORT + "const request = { input: { text: q }, context: { tenantTier: 2 } };\n"
            "await neurolink.generate(request);",
            "GenerateOptions.context",
        ),
        # A function of the product: `payload?: Record<string, any>`.
        (
            'import { track } from "@acme/neurolink";\n'
            'track({ name: "checkout", payload: { tenantTier: "gold" } });',
            "payload",
        ),
    ],
)
def test_a_key_of_an_object_the_product_types_free_form_is_the_readers_data(
    code: str, container: str, tmp_path: Path, ctx: GateContext
) -> None:
    body = _fence(code) + "Passing `tenantTier` with each request makes the audit searchable.\n"
    outcome, entry = _outcome(body, "tenantTier", tmp_path, ctx)
    assert (outcome, entry.get("rule")) == ("not-a-reference", "free-form-record"), entry
    assert container in entry["reason"]
    assert "src/lib/types/generate.ts:" in entry["reason"]


def test_a_clearing_rule_turned_off_leaves_the_token_to_the_next_step(
    repo: Path, tmp_path: Path
) -> None:
    """free-form-record (helpers/clearing_rules.py) turned off by name decides nothing."""
    code = IMPORT + "await neurolink.generate({ input: { text: q }, context: { tenantTier } });"
    body = _fence(code) + "Each call carries `tenantTier`.\n"
    off = repo_context(
        repo, tmp_path / "off", symbol_unanchored_claims=True, symbol_rules_off=(RULE,)
    )
    assert RULE in CLEARING_NAMES
    assert _outcome(body, "tenantTier", tmp_path, off)[1].get("rule") != RULE


def test_the_reason_names_the_type_the_field_and_the_file_line(
    tmp_path: Path, ctx: GateContext
) -> None:
    code = IMPORT + "await neurolink.generate({ input: { text: q }, context: { tenantTier } });"
    body = _fence(code) + "Each call carries `tenantTier`.\n"
    _outcome_name, entry = _outcome(body, "tenantTier", tmp_path, ctx)
    line = GENERATE_TYPES.splitlines().index("  context?: StandardRecord;") + 1
    written = make_post(body, tmp_path).text.splitlines().index(code.splitlines()[-1]) + 1
    assert entry["reason"] == (
        f"a key the post's own sample writes (line {written}) in `GenerateOptions.context` of the"
        " object passed to `NeuroLink.generate()`, which the product declares"
        " `StandardRecord` = `Record<string, unknown>`"
        f" (src/lib/types/generate.ts:{line}): a free-form record, so the key is the"
        " reader's own data"
    )


# ---------------------------------------------------------------------- not decided


@pytest.mark.parametrize(
    "code",
    [
        # A closed type: `input` declares text, csvFiles, files; an invented key is a claim.
        IMPORT + 'await neurolink.generate({ input: { text: q, tenantTier: ["a.pptx"] } });',
        # A top-level key of the closed options type.
        IMPORT + "await neurolink.generate({ input: { text: q }, tenantTier: 3 });",
        # The value type of the record is not free: `labels?: Record<string, string>`.
        IMPORT + 'await neurolink.generate({ input: { text: q }, labels: { tenantTier: "a" } });',
        # One member of the union declares the field closed.
        IMPORT + "await neurolink.legacyGenerate({ context: { tenantTier: 1 } });",
        # The receiver is not made in the sample: which class it is cannot be told.
        "await client.generate({ input: { text: q }, context: { tenantTier: 1 } });",
        # A method the class does not declare, and one whose parameter has no type.
        IMPORT + "await neurolink.summarize({ context: { tenantTier: 1 } });",
        IMPORT + "await neurolink.run({ context: { tenantTier: 1 } });",
        # A cast is not checked against the type.
        IMPORT + "await neurolink.generate({ context: { tenantTier: 1 } } as never);",
        # A class of the same name imported from another package is not the product's.
        'import { NeuroLink } from "other-sdk";\nconst neurolink = new NeuroLink();\n'
        "await neurolink.generate({ input: { text: q }, context: { tenantTier: 1 } });",
        'import NeuroLink from "other-sdk";\nconst neurolink = new NeuroLink();\n'
        "await neurolink.generate({ input: { text: q }, context: { tenantTier: 1 } });",
        # A function the sample declares itself, not the product's.
        "function track(e) {}\ntrack({ payload: { tenantTier: 1 } });",
        # The name is also used otherwise in the samples (read back from the result).
        IMPORT + "const r = await neurolink.generate({ input: { text: q },"
        " context: { tenantTier: 1 } });\nconsole.log(r.tenantTier);",
    ],
)
def test_a_key_the_types_do_not_make_free_form_stays_a_claim(
    code: str, tmp_path: Path, ctx: GateContext
) -> None:
    body = _fence(code) + "Passing `tenantTier` with each request makes the audit searchable.\n"
    outcome, entry = _outcome(body, "tenantTier", tmp_path, ctx)
    assert outcome == "ungrounded", entry


def test_a_key_the_post_presents_as_the_products_api_stays_a_claim(
    tmp_path: Path, ctx: GateContext
) -> None:
    code = IMPORT + "await neurolink.generate({ input: { text: q }, context: { tenantTier } });"
    body = _fence(code) + "NeuroLink's `tenantTier` option routes the call.\n"
    outcome, entry = _outcome(body, "tenantTier", tmp_path, ctx)
    assert outcome == "ungrounded", entry


def test_the_same_key_in_a_closed_object_elsewhere_keeps_it_a_claim(
    tmp_path: Path, ctx: GateContext
) -> None:
    code = (
        IMPORT + "await neurolink.generate({ input: { text: q }, context: { tenantTier } });\n"
        "await neurolink.generate({ input: { text: q, tenantTier } });"
    )
    body = _fence(code) + "Both calls carry `tenantTier`.\n"
    assert _outcome(body, "tenantTier", tmp_path, ctx)[0] == "ungrounded"


def test_without_a_typescript_repository_nothing_is_decided(tmp_path: Path) -> None:
    plain = make_repo(
        tmp_path / "plain",
        {"package.json": json.dumps({"name": "plain"}), "src/a.py": "def run(): pass\n"},
    )
    code = (
        "const neurolink = new NeuroLink();\nawait neurolink.generate({ context: { tenantTier } });"
    )
    body = _fence(code) + "It sends `tenantTier`.\n"
    context = repo_context(plain, tmp_path / "cache", symbol_unanchored_claims=True)
    assert _outcome(body, "tenantTier", tmp_path, context)[0] == "ungrounded"


def test_a_key_of_a_closed_product_type_is_never_the_posts_own_definition(
    tmp_path: Path, ctx: GateContext
) -> None:
    """A key whose value opens an object on its line reads as a definition to the post
    scan (`name: {`, the shape of a tool defined as a key); written in the options of a
    product call whose declared type is closed, it is an option of the product: a claim."""
    from pytest_postgates.evidence.grounding import post_definitions

    code = (
        IMPORT + "await neurolink.generate({\n  input: { text: q },\n"
        "  tenantTier: {\n    level: 1,\n  },\n});"
    )
    body = _fence(code) + "The `tenantTier` block sets the level.\n"
    assert (
        "tenantTier" in post_definitions(make_post(body, tmp_path), ("@acme/neurolink",)).declared
    )
    outcome, entry = _outcome(body, "tenantTier", tmp_path, ctx)
    assert outcome == "ungrounded", entry
    # The same shape under the free-form `context` stays the reader's own.
    code = (
        IMPORT + "await neurolink.generate({\n  input: { text: q },\n"
        "  context: {\n    tenantTier: {\n      level: 1,\n    },\n  },\n});"
    )
    body = _fence(code) + "The `tenantTier` block sets the level.\n"
    assert _outcome(body, "tenantTier", tmp_path, ctx)[0] != "ungrounded"


def test_when_the_types_cannot_be_read_the_card_says_why(tmp_path: Path) -> None:
    """No package.json: the rule cannot follow any call, decides nothing, and the card
    names the reason instead of staying silent."""
    bare = make_repo(tmp_path / "bare", {"src/lib/a.ts": "export const a = 1;\n"})
    code = IMPORT + "await neurolink.generate({ context: { tenantTier } });"
    body = _fence(code) + "It sends `tenantTier`.\n"
    context = repo_context(
        bare, tmp_path / "cache", package="@acme/neurolink", symbol_unanchored_claims=True
    )
    card = gate.GATE.evaluate(make_post(body, tmp_path), context)
    assert [u["token"] for u in card.detail["ungrounded"]] == ["tenantTier"]
    assert card.detail["typed_keys_unavailable"] == "no package.json at the ref"


def test_a_key_of_a_closed_product_type_is_a_claim(repo: Path, tmp_path: Path) -> None:
    # Anchored (symbol_unanchored_claims = false): the model follows the sample's key to a
    # closed product type, so a key that type lacks is a finding (anchor-typed-key); the
    # rule turned off, nothing else anchors it.
    anchored = repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=False)
    body = (
        _fence(
            IMPORT + "await neurolink.generate({\n  input: { text: q },\n"
            "  rag: { topK: 5, scoreCutoff: 0.7 },\n});"
        )
        + "Set `scoreCutoff: 0.7` to keep only close matches.\n"
    )
    outcome, entry = _outcome(body, "scoreCutoff: 0.7", tmp_path, anchored)
    assert (outcome, entry.get("rule")) == ("ungrounded", "anchor-typed-key")
    off = repo_context(
        repo,
        tmp_path / "cache-off",
        symbol_unanchored_claims=False,
        symbol_rules_off=("anchor-typed-key",),
    )
    outcome, entry = _outcome(body, "scoreCutoff: 0.7", tmp_path, off)
    assert (outcome, entry.get("rule")) == ("unjudged", "not-anchored")
