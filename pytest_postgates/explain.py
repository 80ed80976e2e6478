"""``postgates explain POST TOKEN``: why gate 2 decided what it did about a token.

Runs gate 2 on the post (through pytest, as the pre-commit hook does: the project's
postgates settings, repositories and caches, without its own pytest plugins, conftest.py
and warning filters), reads back its scorecard, and prints each token that holds
``TOKEN``: its line, outcome, the rule that decided and that rule's declaration (what it
decides, why, the test that shows it) where the rule is declared as data, and the reason
or the place of the code that grounded it. Exit 0 when the token was found, 2 when it
was not (or the post could not be gated).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates import hook_config
from pytest_postgates.config import SettingsError
from pytest_postgates.escaping import one_line
from pytest_postgates.helpers.anchor_rules import RULES as ANCHORS
from pytest_postgates.helpers.anchor_rules import Anchor
from pytest_postgates.helpers.dependency_rules import RULES as DEPENDENCY_RULES
from pytest_postgates.helpers.history_cues import RULES as CUE_RULES
from pytest_postgates.helpers.model_grounding import RULES
from pytest_postgates.helpers.rule import Rule

EXIT_FOUND = 0
EXIT_NOT_FOUND = 2
GATE_CARD = "-gate2-symbol_grounding.json"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="postgates explain", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("post", metavar="POST", help="the Markdown post or doc")
    parser.add_argument("token", metavar="TOKEN", help="the code token (or part of it)")
    return parser


def main(argv: Sequence[str]) -> int:
    argv = list(argv)
    extra: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1 :]
    args = build_parser().parse_args(argv)
    try:
        setup = hook_config.project_setup([args.post], Path.cwd())
    except SettingsError as exc:
        print(f"postgates explain: could not run gate 2: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_NOT_FOUND
    with tempfile.TemporaryDirectory(prefix="postgates-explain-") as folder:
        # The project's postgates settings without the rest of its pytest setup (as the
        # pre-commit hook runs): its plugins, conftest.py and warning filters are its tests'.
        empty_config = Path(folder) / "pytest.ini"
        empty_config.write_text("[pytest]\n", encoding="utf-8")
        with hook_config.without_pytest_addopts():
            code = pytest.main(
                [
                    args.post,
                    *setup.pytest_arguments(empty_config),
                    "--postgates",
                    "--postgates-only=2",
                    "--postgates-all",
                    f"--postgates-scorecards={folder}",
                    "-p",
                    "no:terminal",
                    "-W",
                    "ignore::pytest.PytestAssertRewriteWarning",
                    *extra,
                ]
            )
        cards = sorted(Path(folder).glob(f"*{GATE_CARD}"))
        if not cards:
            print(f"postgates explain: gate 2 did not run on {one_line(args.post)} "
                  f"(pytest exit {int(code)})", file=sys.stderr)  # fmt: skip
            return EXIT_NOT_FOUND
        card = json.loads(cards[0].read_text(encoding="utf-8"))
    if card.get("verdict") == "ERROR":
        # No token was judged: "no token holding" would send the user looking for a typo.
        error = (card.get("detail") or {}).get("error", "")
        print(f"postgates explain: gate 2 could not run on {one_line(args.post)}: "
              f"{one_line(str(error))}", file=sys.stderr)  # fmt: skip
        return EXIT_NOT_FOUND
    entries = list(matching(card, args.token))
    if not entries:
        print(f"postgates explain: no token holding {one_line(args.token)!r} in "
              f"{one_line(args.post)}", file=sys.stderr)  # fmt: skip
        return EXIT_NOT_FOUND
    for entry in entries:
        print(describe(entry))
    return EXIT_FOUND


def matching(card: dict[str, Any], token: str) -> Iterator[dict[str, Any]]:
    """Every outcome of the card whose token holds ``token``, with its outcome named."""
    detail = card.get("detail") or {}
    seen: set[tuple[int, str]] = set()
    listed = [(outcome, entry) for outcome, entries in (detail.get("outcomes") or {}).items()
              for entry in entries]  # fmt: skip
    listed += [("ungrounded", entry) for entry in detail.get("ungrounded") or []]
    for outcome, entry in listed:
        key = (int(entry.get("line", 0)), str(entry.get("token", "")))
        if token in key[1] and key not in seen:
            seen.add(key)
            yield {**entry, "outcome": outcome}


_DECLARED: dict[str, Rule | Anchor] = {
    rule.name: rule
    for rule in (
        *RULES,
        *ANCHORS,
        *CUE_RULES,
        *DEPENDENCY_RULES,
    )
}


def describe(entry: dict[str, Any]) -> str:
    """The lines ``explain`` prints for one token."""
    rule = str(entry.get("rule") or "")
    lines = [
        f"line {entry.get('line')}: `{one_line(str(entry.get('token')))}` is "
        f"{entry['outcome']}" + (f" (rule {rule})" if rule else " (every token is a claim)")
    ]
    if entry.get("where"):
        lines.append(f"  found in: {one_line(str(entry['where']))}")
    if entry.get("reason"):
        lines.append(f"  reason: {one_line(str(entry['reason']))}")
    declared = _DECLARED.get(rule)
    if declared is not None:
        lines.append(f"  the rule decides {declared.decides}: {declared.why}")
        lines.append(f"  shown by: {declared.tests}")
    elif rule:
        lines.append(
            "  the rule is one of the gate's text rules (docs/gates/02-symbol-grounding.md)"
        )
    return "\n".join(lines)
