"""The lint layer behind gate 12: markdownlint's rules, its configuration, two engines.

The blog's CI runs markdownlint-cli 0.43.0 (markdownlint 0.36.1) over the posts with the
repository's ``.markdownlint.json``. A post that passes locally must pass there, so this
package reproduces what that run would report, with one of two engines:

``markdownlint-cli``
    The real thing through Node: exact parity by construction. Found as a configured
    command, ``markdownlint`` on PATH or in the ``node_modules/.bin`` folder of the posts'
    repository root (never in a folder above the repository, nor anywhere for a post in
    no repository), or, when asked for by name only, ``npx --no-install markdownlint``.
    The terminal header names the program that runs.
``rumdl``
    A Rust markdownlint-compatible linter shipped as a Python wheel (a dependency, so it is
    always there) and many times faster (``bench/markdownlint_parity.py`` measures both the
    speed and the agreement). It has more rules than markdownlint and other defaults, so it
    never reads the markdownlint configuration itself. Reconciliation, rule by rule where
    the parity runs found a difference:

    - configuration: resolved here with markdownlint's own semantics (``default``, rule
      ids, aliases and tags in any case, ``extends``, an object replacing the defaults)
      and handed to rumdl as an explicit TOML file enabling exactly the rules markdownlint
      0.36.1 runs, each with markdownlint's option values spelt out (several of rumdl's
      defaults differ: MD010 code blocks, MD024 siblings, MD044 code blocks, MD051 case,
      MD053 ``//``, MD001 front matter title, MD007 indentation style);
    - findings of rules markdownlint does not have are dropped, and so are rumdl findings
      markdownlint never makes: cross-file link fragments (MD051), ``[][]`` as an empty
      link (MD042), table rules on rows under a delimiter row that makes no GFM table
      (MD055/MD056); MD013 runs in rumdl's widest mode and each reported line is kept only
      if markdownlint's own test (UTF-16 length, whitespace beyond the limit, link-only
      lines, definitions) says so;
    - rules whose algorithm differs beyond any option (MD004, MD024 with siblings_only,
      MD029, MD036, MD046, MD048; see :mod:`.rules`) are evaluated here with
      markdownlint's algorithm on markdown-it tokens, in the files where rumdl (or a text
      test) says the rule may fire; a gap of rumdl's is filled the same way (MD033 for
      component tags such as ``<Tabs>``);
    - a file with bare CR line ends is linted from an LF copy (rumdl does not split there).

The ``auto`` backend (the default) uses markdownlint-cli when one is installed, because
the CI verdict is the one that counts and Node is only there when someone put it there, and
rumdl otherwise. Either way the linter runs once per test run over every collected post:
one process per distinct configuration (posts of one folder share theirs), never one per
post. Results are plain JSON data so that xdist workers can share them through a file.

Configuration is found the way markdownlint-cli2 finds it: from the post's folder upward to
the repository root, the first folder with ``.markdownlint-cli2.jsonc``/``.yaml`` (its
``config`` key) or ``.markdownlint.jsonc``/``.json``/``.yaml``/``.yml`` wins; no file means
markdownlint's defaults (every rule on). Front matter is skipped by both engines and line
numbers stay the lines of the file.

Layout (issue 14: one file per native rule, as markdownlint has them):

- :mod:`.catalog`: markdownlint 0.36.1's rules, descriptions and option defaults as data;
  :class:`Violation`, :class:`LintError`, :class:`ConfigError`.
- :mod:`.config`: configuration discovery and loading, :func:`effective_rules`.
- :mod:`.inline`: inline ``markdownlint-...`` comments, :func:`enabled_per_line`.
- :mod:`.document`: :class:`~.document.Document`, what every native rule reads, and the
  helpers rules share.
- :mod:`.rules`: one module per native rule and the ordered registry (its docstring is
  the recipe for adding one).
- :mod:`.candidates`: the cheap text tests that pick the files a native rule is evaluated in.
- :mod:`.reconcile`: rumdl findings filtered to markdownlint's, native findings merged in.
- :mod:`.rumdl`, :mod:`.markdownlint_cli`: the two backends; :mod:`.process`: running a
  linter program.
- :mod:`.batch`: the run's batch (:func:`lint_batch`, :func:`batch_for`);
  :mod:`.isolation`: one post that breaks the linter gets the error alone.
"""

from __future__ import annotations

from pytest_postgates.tools.lint.batch import (
    BACKEND_SETTINGS,
    backend_header,
    batch_for,
    choose_backend,
    describe_backend,
    file_digest,
    lint_batch,
    lint_ignoring_inline_config,
)
from pytest_postgates.tools.lint.catalog import (
    ALIAS,
    DEFAULT_OPTIONS,
    DESCRIPTIONS,
    RULES,
    ConfigError,
    LintError,
    Violation,
)
from pytest_postgates.tools.lint.config import (
    adopted_config,
    config_for_folder,
    effective_rules,
    find_config,
    load_config,
    repo_root_of,
    strip_jsonc,
)
from pytest_postgates.tools.lint.document import (
    clear_html_comment_text,
    code_spans,
    markdownlint_lines,
)
from pytest_postgates.tools.lint.inline import (
    enabled_per_line,
    file_config,
    inline_comment_lines,
    without_inline_config,
)
from pytest_postgates.tools.lint.markdownlint_cli import (
    MARKDOWNLINT_CLI_PIN,
    find_markdownlint_cli,
    run_markdownlint_cli,
)
from pytest_postgates.tools.lint.process import Backend, linter_timeout
from pytest_postgates.tools.lint.reconcile import gfm_table_lines, native_violations
from pytest_postgates.tools.lint.rules import ALWAYS_NATIVE, NATIVE_RULES
from pytest_postgates.tools.lint.rumdl import find_rumdl, rumdl_config_text, run_rumdl

__all__ = [
    "ALIAS",
    "ALWAYS_NATIVE",
    "BACKEND_SETTINGS",
    "DEFAULT_OPTIONS",
    "DESCRIPTIONS",
    "MARKDOWNLINT_CLI_PIN",
    "NATIVE_RULES",
    "RULES",
    "Backend",
    "ConfigError",
    "LintError",
    "Violation",
    "adopted_config",
    "backend_header",
    "batch_for",
    "choose_backend",
    "clear_html_comment_text",
    "code_spans",
    "config_for_folder",
    "describe_backend",
    "effective_rules",
    "enabled_per_line",
    "file_config",
    "file_digest",
    "find_config",
    "find_markdownlint_cli",
    "find_rumdl",
    "gfm_table_lines",
    "inline_comment_lines",
    "lint_batch",
    "lint_ignoring_inline_config",
    "linter_timeout",
    "load_config",
    "markdownlint_lines",
    "native_violations",
    "repo_root_of",
    "rumdl_config_text",
    "run_markdownlint_cli",
    "run_rumdl",
    "strip_jsonc",
    "without_inline_config",
]
