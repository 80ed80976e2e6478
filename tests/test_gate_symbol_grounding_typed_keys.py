"""Gate 2's type-directed reading of keys (issue 10): a key the post's own sample writes in
an object literal of a closed product type, followed from the call the object is passed to
through the repository's own TypeScript, is a claim about the product (anchor-typed-key),
never the post's own definition; when the types cannot be read the card says why.

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


# ---------------------------------------------------------------------- not decided


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


def test_when_the_types_cannot_be_read_the_card_says_why(tmp_path: Path) -> None:
    """No package.json: whether a key the sample defines is a closed product type's cannot
    be read, so the key stays the post's own definition, and the card names the reason
    instead of staying silent."""
    bare = make_repo(tmp_path / "bare", {"src/lib/a.ts": "export const a = 1;\n"})
    code = IMPORT + "await neurolink.generate({\n  tenantTier: {\n    level: 1,\n  },\n});"
    body = _fence(code) + "The `tenantTier` block sets the level.\n"
    context = repo_context(
        bare, tmp_path / "cache", package="@acme/neurolink", symbol_unanchored_claims=True
    )
    card = gate.GATE.evaluate(make_post(body, tmp_path), context)
    assert [e["token"] for e in card.detail["outcomes"]["defined-in-post"]] == ["tenantTier"]
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
