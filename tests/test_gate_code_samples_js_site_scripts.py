"""Gate 15 on an option key a docs page's sample names after what the docs site's own
script registers (Chart.js's samples run in a chart editor that loads
docs/scripts/analyzer.js, whose plugin has ``id: 'samples-filler-analyser'``; the samples
set ``options.plugins['samples-filler-analyser']``): a key the product does not take but a
script of the page's docs folder (no file of the product's package) writes as a string is
the site's own name, listed unjudged with the script; any other missing key stays a
finding, and a page outside the repository has no such scripts."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_postgates.gates import code_samples
from tests.helpers import make_post, make_repo, repo_context
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

CHART = {
    "package.json": json.dumps({"name": "charts", "main": "./src/index.ts"}),
    "src/index.ts": (
        "export interface Plugins { legend: { display: boolean } }\n"
        "export interface Options { responsive: boolean; plugins: Plugins }\n"
        "export class Chart {\n"
        "  constructor(item: string, config: { type: string; options?: Options }) {}\n"
        "}\n"
    ),
    "docs/scripts/analyzer.js": (
        "export const plugin = {\n  id: 'samples-analyser',\n  afterDraw() {},\n};\n"
    ),
}
CODE = (
    "import { Chart } from 'charts';\n"
    "new Chart('c', {\n"
    "  type: 'line',\n"
    "  options: {\n"
    "    plugins: {\n"
    "      legend: { display: false },\n"
    "      'samples-analyser': { target: 'x' },\n"
    "      tooltipz: { enabled: true },\n"
    "    },\n"
    "  },\n"
    "});\n"
)


def _card(tmp_path: Path, inside: bool) -> object:
    repo = make_repo(tmp_path / "repo", CHART)
    folder = repo / "docs" / "samples" if inside else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    post = make_post(f"Intro.\n\n```js\n{CODE}\n```\n", folder)
    return code_samples.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))


def test_a_key_the_docs_sites_script_writes_is_the_sites_own(tmp_path: Path) -> None:
    card = _card(tmp_path, inside=True)
    assert _violations(card) == [("option_key", "tooltipz")]
    assert any("docs/scripts/analyzer.js" in reason for reason in _unjudged(card))


def test_a_page_outside_the_repository_has_no_site_scripts(tmp_path: Path) -> None:
    card = _card(tmp_path, inside=False)
    assert _violations(card) == [("option_key", "samples-analyser"), ("option_key", "tooltipz")]
