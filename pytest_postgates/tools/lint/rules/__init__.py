"""The native rules: markdownlint 0.36.1's algorithms, evaluated here for the rumdl backend.

Why these rules are native: rumdl's algorithm differs from markdownlint 0.36.1's in ways
no rumdl option changes (found by ``bench/markdownlint_parity.py`` and the parity tests):

- MD004 consistent: markdownlint takes the first bullet's marker, rumdl the most common;
  rumdl also reads a change of marker as the same list, CommonMark as a new one;
- MD024 siblings_only: rumdl tells "siblings" by the parent heading's text, markdownlint
  by position (a repeated "Parameters" under a second "Call Signature" is fine);
- MD029 one_or_ordered: markdownlint expects every list to start at 1 (or 0) and decides
  "1/1/1" or "1/2/3" from the first two items; rumdl accepts any start number and decides
  otherwise;
- MD036: markdownlint reports a paragraph that is one emphasis of plain text (an
  ALL_CAPS_NAME included) unless the text holds an escape, entity, math, a ``:directive``,
  an autolink or a "[" (markdownlint parses those as tokens); rumdl skips text with
  underscores and reports text with such tokens;
- MD046 consistent: markdownlint takes the first code block's style, rumdl the most
  common one; MD048 (fence characters) likewise;
- the rest (MD005 flags right-aligned ordered numbers, MD013 reads tables and code
  otherwise, MD036 is not run by rumdl, MD009/MD010 read HTML comments, and so on:
  ``bench/markdownlint_parity.py --suite`` has each).

They run as markdownlint's algorithm over the markdown-it tokens of the text markdownlint
would parse (front matter removed, line numbers kept); inline ``<!-- markdownlint-... -->``
comments apply as in markdownlint (the caller applies them).

Writing a rule (the convention, as markdownlint's ``lib/rules.mjs`` lists ``lib/mdNNN.mjs``)
------------------------------------------------------------------------------------------
- One module per rule, ``rules/mdNNN.py`` (lower case), whose docstring names the rule.
- It exposes ``check(document, options) -> Iterable[tuple[int, str]]``:

  ``document``
      :class:`pytest_postgates.tools.lint.document.Document` of one file: ``lines`` (as
      markdownlint's rules read them: front matter removed, HTML comment content cleared),
      ``raw_lines`` (before clearing), ``front_matter`` (its lines) and ``tokens`` (the
      markdown-it block tokens of the text, parsed on first use, shared by every rule).
  ``options``
      the rule's options in force: markdownlint's defaults
      (:data:`pytest_postgates.tools.lint.catalog.DEFAULT_OPTIONS`) merged with the
      configuration, key by key.
  each finding
      ``(line index, message)``: the 0-based index into ``document.lines`` and the whole
      message markdownlint prints, detail and context included (``'Emphasis used instead
      of a heading [Context: "Note"]'``). The caller adds the front matter offset, the
      alias, and drops findings on lines where inline comments switch the rule off.

  A rule never raises on any text and stays linear in the text's length (posts are
  untrusted: ``tests/test_lint_linear_time.py``).
- Registering it is one line in :data:`NATIVE` below (plus its import in the sorted block
  above), in rule-id order. A registered rule is *always native*: rumdl no longer runs it
  and it is evaluated in every file where it is on, unless :mod:`..candidates` has a cheap
  text test for it (add one when the rule is costly and a text test can rule files out).
  Only the rules in :data:`DETECTED_BY_RUMDL` keep rumdl running them, as a detector that
  selects the files to evaluate (its own findings for them are dropped).
- Shared helpers live in :mod:`pytest_postgates.tools.lint.document`; a helper only one
  rule needs stays in that rule's module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.rules import (
    md001,
    md003,
    md004,
    md005,
    md007,
    md009,
    md010,
    md011,
    md013,
    md014,
    md018,
    md019,
    md020,
    md021,
    md022,
    md023,
    md024,
    md025,
    md027,
    md029,
    md030,
    md031,
    md032,
    md033,
    md034,
    md035,
    md036,
    md037,
    md038,
    md039,
    md040,
    md041,
    md043,
    md044,
    md045,
    md046,
    md047,
    md048,
    md049,
    md050,
    md051,
    md052,
    md053,
    md054,
    md055,
    md056,
)

Rule = Callable[[Document, Mapping[str, Any]], Iterable[tuple[int, str]]]

# The registry, in rule-id order (the order rules run in): one line per rule.
NATIVE: dict[str, Rule] = {
    "MD001": md001.check,
    "MD003": md003.check,
    "MD004": md004.check,
    "MD005": md005.check,
    "MD007": md007.check,
    "MD009": md009.check,
    "MD010": md010.check,
    "MD011": md011.check,
    "MD013": md013.check,
    "MD014": md014.check,
    "MD018": md018.check,
    "MD019": md019.check,
    "MD020": md020.check,
    "MD021": md021.check,
    "MD022": md022.check,
    "MD023": md023.check,
    "MD024": md024.check,
    "MD025": md025.check,
    "MD027": md027.check,
    "MD029": md029.check,
    "MD030": md030.check,
    "MD031": md031.check,
    "MD032": md032.check,
    "MD033": md033.check,
    "MD034": md034.check,
    "MD035": md035.check,
    "MD036": md036.check,
    "MD037": md037.check,
    "MD038": md038.check,
    "MD039": md039.check,
    "MD040": md040.check,
    "MD041": md041.check,
    "MD043": md043.check,
    "MD044": md044.check,
    "MD045": md045.check,
    "MD046": md046.check,
    "MD047": md047.check,
    "MD048": md048.check,
    "MD049": md049.check,
    "MD050": md050.check,
    "MD051": md051.check,
    "MD052": md052.check,
    "MD053": md053.check,
    "MD054": md054.check,
    "MD055": md055.check,
    "MD056": md056.check,
}
NATIVE_RULES = tuple(NATIVE)

# Native rules that rumdl still runs, as the detector that selects the files where
# markdownlint's algorithm is evaluated (rumdl reports something in every file where
# markdownlint does, for these rules and settings). Every other native rule is computed
# for every file where its cheap text test passes, rumdl not running it at all.
DETECTED_BY_RUMDL = frozenset({"MD004", "MD024", "MD046", "MD048"})
ALWAYS_NATIVE = frozenset(NATIVE) - DETECTED_BY_RUMDL
