"""The native-rule registry of the lint layer (``tools/lint/rules/__init__.py``): every rule
module is registered under its own id, in id order, with the one function the convention
names, and the rules rumdl still detects are native rules."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

from pytest_postgates.tools.lint import RULES, rules
from pytest_postgates.tools.lint.document import Document

RULES_DIR = Path(rules.__file__).parent


def test_every_rule_module_is_registered_under_its_id_in_order() -> None:
    modules = sorted(path.stem for path in RULES_DIR.glob("md[0-9][0-9][0-9].py"))
    assert sorted(rule.lower() for rule in rules.NATIVE) == modules
    assert list(rules.NATIVE) == sorted(rules.NATIVE)
    assert tuple(rules.NATIVE) == rules.NATIVE_RULES
    for name in modules:
        module = importlib.import_module(f"{rules.__name__}.{name}")
        rule = name.upper()
        assert rules.NATIVE[rule] is module.check, rule
        assert rule in RULES, f"{rule} is not a markdownlint 0.36.1 rule"
        assert (module.__doc__ or "").startswith(f"{rule} ("), rule
        assert list(inspect.signature(module.check).parameters) == ["document", "options"]


def test_rumdl_detected_rules_are_native_and_the_rest_always_native() -> None:
    assert set(rules.NATIVE) >= rules.DETECTED_BY_RUMDL
    assert set(rules.NATIVE) - rules.DETECTED_BY_RUMDL == rules.ALWAYS_NATIVE


def test_a_rule_yields_line_indices_into_the_document_lines() -> None:
    """The convention's return shape, on one rule of each kind (lines, tokens)."""
    document = Document(["# Title", "", "* a", "- b", "", "**Note**", "", "x  "])
    md004 = list(rules.NATIVE["MD004"](document, {"style": "consistent"}))
    md009 = list(rules.NATIVE["MD009"](document, {"br_spaces": 2, "strict": True}))
    assert md004 and md009
    for index, message in md004 + md009:
        assert 0 <= index < len(document.lines)
        assert isinstance(message, str) and not re.match(r"MD\d{3}", message)
