"""Gate 15's accounting of a page (issue 26, never silent): after every reader ran, each
use of the fences the gate read that the card names nowhere is listed unjudged with why,
JavaScript/TypeScript and shell fences by ``sample_accounting.py``, Python ones by
``sample_accounting_python.py`` (which builds on the first: this module joins the two)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pytest_postgates.helpers import sample_accounting_python as python
from pytest_postgates.helpers.sample_accounting import (
    CardNames,
    JsAccount,
    PageAccount,
    account_js,
    account_shell,
    held,
)
from pytest_postgates.helpers.sample_checks import SampleReport

if TYPE_CHECKING:
    from pytest_postgates.helpers.js_samples import JsSample
    from pytest_postgates.post import Fence


def account_page(
    report: SampleReport,
    reader: JsSample,
    fences: Sequence[tuple[Fence, str | None]],
    python_tops: frozenset[str] = frozenset(),
) -> int:
    """Account for every use of the fences the gate read (``code``: JavaScript or
    TypeScript, ``shell``, ``python`` where the product has ``python_tops``: its top Python
    packages), after every reader ran: each use the card names nowhere is
    listed unjudged with why (:func:`account_js`, :func:`account_shell`). The number
    listed."""
    card = CardNames.of(report)
    page, python_page = PageAccount(), python.PythonPage()
    gate = reader.gate
    listed = 0
    for fence, kind in fences:
        first = fence.start_line + 1
        if kind == "shell":
            listed += account_shell(report, card, fence.content, first)
        elif kind == "code":
            parser = gate.parsers["tsx" if fence.lang in ("tsx", "jsx") else "typescript"]
            source = fence.content.encode("utf-8")
            account = JsAccount(
                source, first, page, reader.bound,
                lambda name: held(reader.values.get(name)),
                lambda spec: gate.site_of(spec) is not None,
            )  # fmt: skip
            listed += account_js(report, card, fence.content, first, parser, account)
        elif kind == "python" and python_tops:
            listed += python.account_python(
                report, card, fence.content, first, python_page, python_tops
            )
    return listed
