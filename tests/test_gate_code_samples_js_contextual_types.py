"""Gate 15 on the parameters of a function a sample writes and hands to the product (an
option's value, a method of an options object): TypeScript types them contextually from
the option's declared type, so members used on them are judged against that type. A key
declared as a method signature (``external?(context: TooltipContext): void``) types its
parameters as a property of a function type does, and a parameter of an object type written
in place (``external(args: { chart: Chart; tooltip: TooltipModel })``) has that type's
fields as its members; overloads of it (which signature applies is not told) leave the
parameter untyped, its members listed unjudged."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

TYPES = (
    "export class TooltipModel { caretX = 0; caretY = 0; opacity = 1; }\n"
    "export interface TooltipContext { chart: Chart; tooltip: TooltipModel }\n"
    "export interface TooltipOptions {\n"
    "  enabled?: boolean;\n"
    "  external?(context: TooltipContext): void;\n"
    "}\n"
    "export interface Options { tooltips?: TooltipOptions }\n"
    "export class Chart {\n"
    "  constructor(item: string, config: { type: string; options?: Options }) {}\n"
    "  update(): void {}\n"
    "}\n"
)


def _repo(tmp_path: Path, types: str) -> Path:
    files = {
        "package.json": json.dumps({"name": "charty", "exports": {".": "./src/index.ts"}}),
        "src/chart.ts": types,
        "src/index.ts": "export * from './chart';\n",
    }
    return make_repo(tmp_path / "repo", files)


SAMPLE = (
    "import { Chart } from 'charty';\n"
    "new Chart('x', {type: 'pie', options: {tooltips: {\n"
    "  external: (context) => { context.chart.updat(); context.tooltip.caretZ; },\n"
    "}}});\n"
    "new Chart('y', {type: 'pie', options: {tooltips: {\n"
    "  external(context) { context.chart.updat(); },\n"
    "}}});\n"
)


def test_a_method_signature_types_the_parameters_of_the_function_handed_there(
    tmp_path: Path,
) -> None:
    card = sample_card(SAMPLE, "ts", tmp_path, _repo(tmp_path, TYPES))
    assert _violations(card) == [
        ("member", "context.chart.updat"),
        ("member", "context.chart.updat"),
        ("member", "context.tooltip.caretZ"),
    ], _unjudged(card)
    reasons = [v["reason"] for v in card.detail["violations"]]
    assert any("Chart declares no member updat" in r for r in reasons), reasons
    assert any("TooltipModel declares no member caretZ" in r for r in reasons), reasons


def test_an_overloaded_method_signature_leaves_the_parameter_untyped(tmp_path: Path) -> None:
    overloaded = TYPES.replace(
        "  external?(context: TooltipContext): void;\n",
        "  external?(context: TooltipContext): void;\n"
        "  external?(chart: Chart, n: number): void;\n",
    )
    card = sample_card(SAMPLE, "ts", tmp_path, _repo(tmp_path, overloaded))
    assert _violations(card) == []
    assert any(
        "context.chart.updat" in r and "parameter of the callback" in r for r in _unjudged(card)
    ), _unjudged(card)


def test_an_object_type_written_in_place_types_the_parameter(tmp_path: Path) -> None:
    in_place = TYPES.replace(
        "  external?(context: TooltipContext): void;\n",
        "  external?(this: TooltipModel, context: { chart: Chart; tooltip: TooltipModel }):"
        " void;\n",
    )
    card = sample_card(SAMPLE, "ts", tmp_path, _repo(tmp_path, in_place))
    assert _violations(card) == [
        ("member", "context.chart.updat"),
        ("member", "context.chart.updat"),
        ("member", "context.tooltip.caretZ"),
    ], _unjudged(card)
    code = (
        "import { Chart } from 'charty';\n"
        "new Chart('x', {type: 'pie', options: {tooltips: {\n"
        "  external(context) { context.charts; },\n"
        "}}});\n"
    )
    card = sample_card(code, "ts", tmp_path / "again", _repo(tmp_path / "again", in_place))
    assert _violations(card) == [("member", "context.charts")], _unjudged(card)
    reason = card.detail["violations"][0]["reason"]
    assert "external()" in reason and "`chart`" in reason, reason
