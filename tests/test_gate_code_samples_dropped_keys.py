"""Gate 15 on a key a hand-written declaration file leaves out but the JavaScript names
(Chart.js's ``grid: { borderColor }``, which v4's ``GridLineOptions`` no longer declares
while the code still names ``borderColor`` for other objects). Such a key is unjudged
(declarations may lag the code) unless the declarations themselves dropped it: the same
type of an earlier release declared the key, so its absence now is the declaration's
change, not a lag, and the key is a finding naming that release."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import git, make_repo, sample_card, sample_violations, unjudged_reasons

TYPES_V1 = (
    "export interface GridOptions { color?: string; borderColor?: string; tickColor?: string }\n"
    "export interface ScaleOptions { grid?: GridOptions }\n"
    "export interface ChartOptions { scales?: { [key: string]: ScaleOptions } }\n"
    "export interface ChartConfiguration { type: string; options?: ChartOptions }\n"
    "export declare class Chart {\n"
    "  constructor(item: string, config: ChartConfiguration);\n"
    "  update(): void;\n"
    "}\n"
)
TYPES_V2 = (
    "export interface GridOptions { color?: string; tickColor?: string }\n"
    "export interface BorderOptions { color?: string }\n"
    "export interface ScaleOptions { grid?: GridOptions; border?: BorderOptions }\n"
    "export interface ChartOptions { scales?: { [key: string]: ScaleOptions } }\n"
    "export interface ChartConfiguration { type: string; options?: ChartOptions }\n"
    "export declare class Chart {\n"
    "  constructor(item: string, config: ChartConfiguration);\n"
    "  update(): void;\n"
    "}\n"
)
CODE = (
    "export class Chart {\n"
    "  constructor(item, config) { this.config = config }\n"
    "  update() { return this.config.options.borderColor || this.config.options.lineWidth }\n"
    "}\n"
)
MANIFEST = json.dumps(
    {
        "name": "charty",
        "version": "2.0.0",
        "type": "module",
        "exports": {".": {"types": "./types/index.d.ts", "import": "./src/index.js"}},
    }
)
SAMPLE = (
    'import { Chart } from "charty";\n'
    'new Chart("c", {\n'
    '  type: "line",\n'
    "  options: { scales: { x: { grid: { color: 'red', borderColor: 'red', lineWidth: 2 } } } }\n"
    "});\n"
)


@pytest.fixture(scope="module")
def charty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_repo(
        tmp_path_factory.mktemp("charty"),
        {"package.json": MANIFEST, "src/index.js": CODE, "types/index.d.ts": TYPES_V1},
    )
    git(root, "tag", "v1.4.0")
    (root / "types" / "index.d.ts").write_text(TYPES_V2, encoding="utf-8")
    git(root, "commit", "-qam", "v2: the border options move to border")
    git(root, "tag", "v2.0.0")
    return root


def test_a_key_the_declared_type_dropped_since_a_release_is_a_finding(
    tmp_path: Path, charty: Path
) -> None:
    card = sample_card(SAMPLE, "js", tmp_path, charty)
    assert sample_violations(card) == [("option_key", "borderColor")]
    (finding,) = card.detail["violations"]
    assert "v1.4.0" in json.dumps(finding), finding
    # A key the code names that no release's declaration of the type held stays unjudged.
    reasons = unjudged_reasons(card)
    assert any("option lineWidth" in r and "lag" in r for r in reasons), reasons


def test_without_an_earlier_release_the_key_stays_unjudged(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "repo",
        {"package.json": MANIFEST, "src/index.js": CODE, "types/index.d.ts": TYPES_V2},
    )
    git(root, "tag", "v2.0.0")
    card = sample_card(SAMPLE, "js", tmp_path, root)
    assert sample_violations(card) == []
    reasons = unjudged_reasons(card)
    assert any("option borderColor" in r and "lag" in r for r in reasons), reasons
