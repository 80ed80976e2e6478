"""Gate 15 on the option keys of a config API declared the way chart libraries declare
it: a class generic over a registry of kinds (``class Chart<TType extends ChartType =
ChartType>``), whose options are ``DeepPartial`` (utility-types' conditional form, testing
``Function`` and ``Array<infer U>`` before ``object``) of an intersection with an indexed
access into the registry (``Registry[TType]['chartOptions']``, ``unknown`` for one kind),
and a key that takes any key whose value is a mapped type indexed by the registry's scale
kinds (``{ [key in ScaleType]: ... }[S]``). A key is judged only where every member of
the union the type expands to is known and closed. The package's entry is a build output
a rollup ``input`` map names by its path (``'dist/chart': 'src/index.ts'``)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations

TYPES = (
    "type DeepPartial<T> = T extends Function\n"
    "  ? T\n"
    "  : T extends Array<infer U>\n"
    "    ? _DeepPartialArray<U>\n"
    "    : T extends object\n"
    "      ? _DeepPartialObject<T>\n"
    "      : T | undefined;\n"
    "type _DeepPartialArray<T> = Array<DeepPartial<T>>;\n"
    "type _DeepPartialObject<T> = { [P in keyof T]?: DeepPartial<T[P]> };\n"
    "export interface GridOptions { color: string; lineWidth: number }\n"
    "export interface BorderOptions { color: string; width: number }\n"
    "export interface LinearOptions { grid: GridOptions; border: BorderOptions; min: number }\n"
    "export interface RadialOptions { grid: GridOptions; angleLines: object }\n"
    "export interface ScaleRegistry {\n"
    "  linear: { options: LinearOptions };\n"
    "  radial: { options: RadialOptions };\n"
    "}\n"
    "export type ScaleType = keyof ScaleRegistry;\n"
    "export interface LineOptions { spanGaps: boolean }\n"
    "export interface TypeRegistry {\n"
    "  line: { chartOptions: LineOptions; scales: 'linear' };\n"
    "  bubble: { chartOptions: unknown; scales: 'linear' };\n"
    "  radar: { chartOptions: LineOptions; scales: 'radial' };\n"
    "}\n"
    "export type ChartType = keyof TypeRegistry;\n"
    "export interface CoreOptions {\n"
    "  hover: { mode: string; intersect: boolean };\n"
    "  responsive: boolean;\n"
    "}\n"
    "export type ScaleOptionsByType<S extends ScaleType = ScaleType> =\n"
    "  { [key in ScaleType]: { type: key } & ScaleRegistry[key]['options'] }[S];\n"
    "export type ScaleChartOptions<T extends ChartType = ChartType> = {\n"
    "  scales: { [key: string]: ScaleOptionsByType<TypeRegistry[T]['scales']> };\n"
    "};\n"
    "export type ChartOptions<T extends ChartType = ChartType> = DeepPartial<\n"
    "  CoreOptions & ScaleChartOptions<T> & TypeRegistry[T]['chartOptions']\n"
    ">;\n"
    "export interface ChartConfiguration<T extends ChartType = ChartType> {\n"
    "  type: T;\n"
    "  data: object;\n"
    "  options?: ChartOptions<T>;\n"
    "}\n"
    "export class Chart<T extends ChartType = ChartType> {\n"
    "  constructor(item: string, config: ChartConfiguration<T>) {}\n"
    "}\n"
)

CHARTS = {
    "package.json": json.dumps(
        {"name": "charty", "type": "module", "exports": {".": {"import": "./dist/chart.js"}}}
    ),
    "rollup.config.js": (
        "export default [{\n"
        "  input: { 'dist/chart': 'src/index.ts', 'dist/helpers': 'src/helpers/index.ts' },\n"
        "  output: { dir: './', entryFileNames: '[name].js', format: 'esm' },\n"
        "}];\n"
    ),
    "src/index.ts": "export * from './types';\n",
    "src/helpers/index.ts": "export function color(value: string): string { return value; }\n",
    "src/types.ts": TYPES,
}


def _card(tmp_path: Path, code: str) -> object:
    repo = make_repo(tmp_path / "repo", CHARTS)
    return sample_card(code, "js", tmp_path, repo)


CALL = (
    "import { Chart } from 'charty';\n"
    "new Chart('canvas', {\n"
    "  type: 'line',\n"
    "  data: {},\n"
    "  options: {\n"
    "    responsive: true,\n"
    "    spanGaps: true,\n"
    "    hover: { mode: 'index', intersec: false },\n"
    "    scales: {\n"
    "      x: { min: 0, grid: { color: 'red', borderColor: 'blue' }, border: { width: 2 } },\n"
    "    },\n"
    "  },\n"
    "});\n"
)


def test_nested_keys_through_deep_partial_of_a_registry_are_judged(tmp_path: Path) -> None:
    card = _card(tmp_path, CALL)
    assert _violations(card) == [("option_key", "borderColor"), ("option_key", "intersec")]
    reasons = " ".join(v["reason"] for v in card.detail["violations"])  # type: ignore[attr-defined]
    assert "options.hover.intersec" in reasons and "did you mean `intersect`" in reasons
    assert "GridOptions declares no borderColor" in reasons


def test_a_key_of_one_scale_kind_only_is_taken(tmp_path: Path) -> None:
    # `angleLines` is a radial scale's: the scale under `x` may be any kind, so it is taken.
    code = CALL.replace("min: 0,", "angleLines: {},").replace("borderColor", "lineWidth")
    card = _card(tmp_path, code.replace("intersec:", "intersect:"))
    assert _violations(card) == []
    unjudged = card.detail["unjudged"]  # type: ignore[attr-defined]
    assert "options.scales.x.angleLines" not in {u.get("name") for u in unjudged}
    assert "options.spanGaps" not in {u.get("name") for u in unjudged}


def test_the_entry_a_rollup_input_map_names_by_path_is_read(tmp_path: Path) -> None:
    code = (
        "import { Chart } from 'charty';\n"
        "new Chart('canvas', { type: 'line', data: {}, bogus: 1 });\n"
    )
    card = _card(tmp_path, code)
    assert _violations(card) == [("option_key", "bogus")]


EXPORTED = (
    "const data = { labels: [], datasets: [] };\n"
    "const config = {\n"
    "  type: 'line',\n"
    "  data: data,\n"
    "  options: { hover: { mode: 'index', intersec: false } },\n"
    "};\n"
    "module.exports = {\n"
    "  actions: [],\n"
    "  config: config,\n"
    "};\n"
)


def test_a_config_a_fence_only_exports_is_judged_as_shown_alone(tmp_path: Path) -> None:
    # A docs editor's sample: the page's harness hands `config` to `new Chart()`; the
    # fence never names the product. Its keys are those of the one callable of the
    # product that takes most of them (the class's constructor).
    card = _card(tmp_path, EXPORTED)
    assert _violations(card) == [("option_key", "intersec")]
    reasons = " ".join(v["reason"] for v in card.detail["violations"])  # type: ignore[attr-defined]
    assert "new Chart() takes no option options.hover.intersec" in reasons


def test_a_bound_object_the_fence_uses_otherwise_is_not_judged_alone(tmp_path: Path) -> None:
    code = EXPORTED.replace("module.exports", "render(config);\nmodule.exports")
    assert _violations(_card(tmp_path, code)) == []


def test_options_excluding_arrays_of_a_deep_partial_are_judged(tmp_path: Path) -> None:
    # `Exclude<DeepPartial<A & B>, DeepPartial<unknown[]>>`: the object members of A & B.
    files = dict(CHARTS)
    files["src/types.ts"] = TYPES.replace(
        "export type ChartOptions<T extends ChartType = ChartType> = DeepPartial<\n"
        "  CoreOptions & ScaleChartOptions<T> & TypeRegistry[T]['chartOptions']\n"
        ">;\n",
        "export type ChartOptions<T extends ChartType = ChartType> = Exclude<\n"
        "  DeepPartial<CoreOptions & ScaleChartOptions<T> & TypeRegistry[T]['chartOptions']>,\n"
        "  DeepPartial<unknown[]>\n"
        ">;\n",
    )
    assert "Exclude<" in files["src/types.ts"]
    repo = make_repo(tmp_path / "repo", files)
    card = sample_card(CALL, "js", tmp_path, repo)
    assert _violations(card) == [("option_key", "borderColor"), ("option_key", "intersec")]


# A config package whose code imports its own types by its own subpath (nitropack's
# `import type { NitroConfig } from "nitropack/types"`).
STACK = {
    "package.json": json.dumps(
        {
            "name": "stack",
            "exports": {
                ".": {"import": "./dist/index.mjs"},
                "./types": {"types": "./types.d.ts", "import": "./dist/types/index.mjs"},
            },
        }
    ),
    "src/types/index.ts": (
        "export interface StackConfig {\n"
        "  preset?: string;\n"
        "  prerender?: {\n"
        "    crawlLinks?: boolean;\n"
        "    concurrency?: number;\n"
        "    retry?: number;\n"
        "    retryDelay?: number;\n"
        "  };\n"
        "}\n"
    ),
    "src/index.ts": (
        'import type { StackConfig } from "stack/types";\n'
        "export function createStack(config: StackConfig = {}): void {}\n"
    ),
}


def _stack_card(tmp_path: Path, code: str, language: str = "ts") -> object:
    return sample_card(code, language, tmp_path, make_repo(tmp_path / "repo", STACK))


def test_a_type_the_package_imports_by_its_own_subpath_is_read(tmp_path: Path) -> None:
    code = "import { createStack } from 'stack';\ncreateStack({ preset: 'node', presets: [] });\n"
    assert _violations(_stack_card(tmp_path, code)) == [("option_key", "presets")]


def test_an_object_shown_alone_is_matched_one_key_down(tmp_path: Path) -> None:
    # The `prerender` defaults shown alone: the object the options hold under that key.
    code = "{\n  crawlLinks: false,\n  concurrency: 1,\n  retries: 3,\n  retryDelay: 500\n}\n"
    card = _stack_card(tmp_path, code)
    assert _violations(card) == [("option_key", "retries")]
    reasons = " ".join(v["reason"] for v in card.detail["violations"])  # type: ignore[attr-defined]
    assert "createStack()'s prerender takes no option retries" in reasons


def test_a_static_member_the_javascript_code_assigns_elsewhere_is_not_judged(
    tmp_path: Path,
) -> None:
    # The ESM entry exports the class; the UMD entry (another build) assigns
    # `Chart.plugins` at run time: a member the class body does not show.
    files = {
        "package.json": json.dumps({"name": "jschart", "module": "dist/chart.esm.js"}),
        "rollup.config.js": (
            "const inputESM = { 'dist/chart.esm': 'src/index.esm.js' };\n"
            "module.exports = [{ input: inputESM, output: { dir: './' } }];\n"
        ),
        "src/core.js": "export default class Chart {\n  static register() {}\n}\n",
        "src/index.esm.js": "import Chart from './core.js';\nexport { Chart };\n",
        "src/index.js": (
            "import Chart from './core.js';\nChart.plugins = {};\nexport default Chart;\n"
        ),
    }
    repo = make_repo(tmp_path / "repo", files)
    code = (
        "import { Chart } from 'jschart';\n"
        "Chart.register();\n"
        "Chart.plugins.getAll();\n"
        "Chart.unregisterAll();\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [("member", "Chart.unregisterAll")]


def test_an_object_shown_alone_is_named_by_the_callable_taking_it_whole(tmp_path: Path) -> None:
    files = {
        "package.json": json.dumps({"name": "kit", "exports": {".": "./src/index.ts"}}),
        "src/index.ts": (
            "export interface Options { alpha: number; beta: number; gamma: number }\n"
            "export function attach(holder: { options: Options; name: string }): void {}\n"
            "export function build(options: Options): void {}\n"
        ),
    }
    repo = make_repo(tmp_path / "repo", files)
    code = "{\n  alpha: 1,\n  beta: 2,\n  gamma: 3,\n  delta: 4\n}\n"
    card = sample_card(code, "ts", tmp_path, repo)
    assert _violations(card) == [("option_key", "delta")]
    reasons = " ".join(v["reason"] for v in card.detail["violations"])  # type: ignore[attr-defined]
    assert reasons.startswith("build() takes no option delta")


# A plugin registry keyed by the plugins' ids: `options.plugins.<id>` are the options of a
# plugin the sample may define itself (`const plugin = { id: 'quadrants', ... }`).
PLUGGED = {
    **CHARTS,
    "src/types.ts": TYPES.replace(
        "  responsive: boolean;\n",
        "  responsive: boolean;\n  plugins: PluginOptionsByType;\n",
    )
    .replace(
        "  options?: ChartOptions<T>;\n", "  options?: ChartOptions<T>;\n  plugins?: object[];\n"
    )
    .replace(
        "export interface CoreOptions {",
        "export interface PluginOptionsByType { legend: { display: boolean } }\n"
        "export interface CoreOptions {",
    ),
}
OWN_PLUGIN = (
    "import { Chart } from 'charty';\n"
    "const quadrants = {\n"
    "  id: 'quadrants',\n"
    "  beforeDraw(chart, args, options) {},\n"
    "};\n"
    "new Chart('canvas', {\n"
    "  type: 'line',\n"
    "  data: {},\n"
    "  options: {\n"
    "    plugins: {\n"
    "      legend: { display: false },\n"
    "      quadrants: { topLeft: 'red' },\n"
    "      legnd: { display: true },\n"
    "    },\n"
    "  },\n"
    "  plugins: [quadrants],\n"
    "});\n"
)


def test_a_key_the_sample_itself_names_in_a_string_is_unjudged(tmp_path: Path) -> None:
    # `quadrants` is the id of the sample's own plugin (a string it writes): the sample's
    # name, listed unjudged with the reason; `legnd`, named nowhere else, is still judged.
    repo = make_repo(tmp_path / "repo", PLUGGED)
    card = sample_card(OWN_PLUGIN, "js", tmp_path, repo)
    assert _violations(card) == [("option_key", "legnd")]
    unjudged = card.detail["unjudged"]  # type: ignore[attr-defined]
    reasons = [str(u.get("reason", "")) for u in unjudged if "quadrants" in str(u.get("name"))]
    assert reasons and "the sample itself writes 'quadrants'" in reasons[0]
