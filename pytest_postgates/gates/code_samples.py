"""Gate 15, code_samples (advisory by default): the API a code sample uses exists at the ref.

Gate 14 checks that a sample imports the real package and an exported subpath. One level
down nothing checked: ``import { NeuroLinkSession } from "@juspay/neurolink"`` (the
package is right, the class is not), ``neurolink.generateStream()`` on a real class, or
``npx @juspay/neurolink generate --temperatur 0.2``. This gate reads the fences a reader
would copy and checks, against the repository's API tables at the ref
(:mod:`pytest_postgates.evidence.code_tables`, built once per commit):

* JavaScript/TypeScript: every name imported or re-exported from the product package is
  exported by the module its ``exports`` resolve the specifier to (followed back from the
  build target to its source, then through re-exports; else the API model's entry of the
  package name); a default import needs a default export; members used on an imported class or
  object, on an instance made with ``new``, returned by a product function or method whose
  declared return type is a product class, held by a field so declared, or annotated, are
  declared (through chains, inherited ones included:
  :mod:`pytest_postgates.helpers.js_types`); the keys of an object literal passed to such a
  callable, nested ones included, are fields of the parameter's declared type; a documented
  signature names the parameters of the function its name resolves to (the samples' import of
  it, else the function the package's entry points export under it; a same-named function
  elsewhere leaves it unjudged: :mod:`pytest_postgates.helpers.js_signatures`); an ``exports``
  target whose source does not exist is ``missing_target``. In a monorepo every public
  workspace package is the product's (:mod:`pytest_postgates.evidence.workspaces`), each
  specifier resolved through its own package's ``exports`` and files, a build output mapped
  back through the package's bundler config (:mod:`pytest_postgates.evidence.build_entries`)
  or its layout, and an ``export *`` of another workspace package followed into its source; a
  private root stands for its namesake workspace package (``@vitejs/vite-monorepo``: ``vite``).
* Shell: the subcommand and every long flag of the product's ``bin`` (``npx <pkg>``,
  ``<bin>``, ``pnpm dlx``, ``yarn dlx``, ``bunx``) are defined by its CLI source, a flag by
  the subcommand it follows where the parser ties options to commands (click, typer). A
  program of the reader's that the tool runs (``typer main.py run --name``) is not the
  tool's command, and what follows it is that program's interface: unjudged.
* Help listings (what ``--help`` prints: :mod:`pytest_postgates.helpers.help_listings`):
  each long flag and command the product's program lists, against its parser in the API
  model; another program's, or a parser's that makes them at run time, unjudged.
* Python (REPL ``>>>`` fences and indented code blocks included:
  :mod:`pytest_postgates.helpers.code_fences`), against the API model
  (:mod:`pytest_postgates.helpers.python_samples`): imports of the product's packages (the
  Python packages of the repository's code, however it is packaged) and each imported name,
  module attributes, members through chains (inherited ones included) on values the sample
  makes, and keyword arguments against the callee's parameters; the hook methods a sample's
  subclass defines where its base (a class, or a type alias of a union of classes) calls
  methods by a name made at run time; members on a name the page never binds where its
  other members there are together only one product class's.
* Configuration files (:mod:`pytest_postgates.helpers.config_samples`): the keys of the
  product's ``package.json`` section, of a file its code opens by name (``lerna.json``)
  and of a pyproject ``[tool.<product>]`` table, against the names the product's code writes.

A fence with no language is read as the product's language it parses as, else listed
(:mod:`pytest_postgates.helpers.untagged_fences`). A fragment (``...``, bare keys, a ``diff``'s
new code, a ``vue`` fence's scripts) is recovered first (``helpers.fence_fragments``).

What it cannot judge (a value whose type the sample or the declarations do not show, an
``export *`` of another package, a type it cannot expand, a CLI framework it does not read
or one that adds commands at run time, a callee taking ``**kwargs``) is listed as
``unjudged`` with the reason, never counted as grounded; a card that checked nothing says
so. A repository with no package and no code (a Jekyll blog) gives its samples nothing to
be checked against: the gate is a SKIP that says so.
"""

from __future__ import annotations

import ast
import hashlib
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from pytest_postgates import held_blocks
from pytest_postgates.config import Settings, option
from pytest_postgates.evidence import (
    GitError,
    model_packages,
    resolution,
    workspaces,
)
from pytest_postgates.evidence.api_lookup import SOURCE_EXTENSIONS, ApiLookup, CliTable, Unknown
from pytest_postgates.evidence.api_model import api_model
from pytest_postgates.evidence.cli_model import (
    bins_in,
    manifest_bins,
    page_cli,
    product_bins,
    product_cli_table,
    python_project,
)
from pytest_postgates.evidence.code_tables import TABLES_VERSION, code_tables
from pytest_postgates.evidence.dependency_models import environment_fingerprint
from pytest_postgates.evidence.index import RepoIndex
from pytest_postgates.evidence.model_facts import is_product_code
from pytest_postgates.evidence.model_sources import site_scripts
from pytest_postgates.evidence.past_releases import past_releases
from pytest_postgates.evidence.repomap import LANGUAGES, load_parsers
from pytest_postgates.evidence.type_model import TypeModel
from pytest_postgates.gates import releases
from pytest_postgates.gates.base import (
    CannotJudge,
    CheckResult,
    Decision,
    Gate,
    GateContext,
    commit_inputs,
)
from pytest_postgates.helpers import (
    config_samples,
    fence_fragments,
    js_docs_names,
    page_accounting,
    sample_accounting,
    untagged_fences,
    versioned_pages,
)
from pytest_postgates.helpers.code_fences import PYTHON_LANGS, fence_kind, shows_output
from pytest_postgates.helpers.command_lines import (
    CommandLine,
    page_command_lines,
    product_invocation,
    shell_commands,
)
from pytest_postgates.helpers.fence_parsers import FenceParsers
from pytest_postgates.helpers.fence_stamps import folder_stamp
from pytest_postgates.helpers.grounding_digest import sample_rules_digest
from pytest_postgates.helpers.help_listings import LISTING_LANGS, read_listings, report_listing
from pytest_postgates.helpers.js_samples import JsSample
from pytest_postgates.helpers.js_types import JsTypes
from pytest_postgates.helpers.python_autodoc import judge_autodoc, rst_blocks
from pytest_postgates.helpers.python_docs_names import defined_names, tree_stamp
from pytest_postgates.helpers.python_samples import PythonSample
from pytest_postgates.helpers.python_types import PythonTypes
from pytest_postgates.helpers.sample_checks import SampleChecker, SampleReport
from pytest_postgates.helpers.script_runs import script_run
from pytest_postgates.helpers.typed_keys import product_api
from pytest_postgates.post import PARSED_AHEAD, Fence, ParsedAhead, Post
from pytest_postgates.scorecard import Finding

GATE_VERSION = 1
# The checked names a card lists (what it found present is read from them): a bound on the
# card of a page of thousands of samples.
MAX_CHECKED_NAMES = 2000
CODES = {
    "named_export": "UNKNOWN_EXPORT",
    "default_export": "NO_DEFAULT_EXPORT",
    "member": "UNKNOWN_MEMBER",
    "missing_target": "MISSING_TARGET",
    "cli_command": "UNKNOWN_COMMAND",
    "cli_flag": "UNKNOWN_FLAG",
    "python_import": "UNKNOWN_PYTHON_NAME",
    "python_attribute": "UNKNOWN_PYTHON_NAME",
    "python_name": "UNKNOWN_PYTHON_NAME",
    "keyword_argument": "UNKNOWN_KEYWORD",
    "option_key": "UNKNOWN_OPTION_KEY",
    "config_key": "UNKNOWN_CONFIG_KEY",
    "parameter": "UNKNOWN_PARAMETER",
}


def _python_project(files: resolution.IndexFiles) -> tuple[str, dict[str, str]] | None:
    text = files.read_text("pyproject.toml")
    return python_project(text) if text else None


def _empty_detail(settings: Settings) -> dict[str, Any]:
    return {
        "checked": 0,
        "checked_by_kind": {},
        "unjudged": [],
        "violations": [],
        "sources_read": [],
        "resolved": {},
        "package": settings.package,
        "ref": settings.ref,
    }


def check(post: Post, context: GateContext) -> CheckResult:
    """A versioned docs page (evidence/doc_versions.py) is judged against the product at the
    newest tag of the release it documents; with none (or none readable), at no ref."""
    return releases.judged_at_release(post, context, _check, _unjudged)


def _unjudged(result: CheckResult, why: str) -> CheckResult:
    return CheckResult([], versioned_pages.unjudged_all(result.detail, why))


def _check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings
    # Indented code blocks too (a REPL session, a sample in a MkDocs tab) and fences an HTML
    # block holds (a VuePress code group): in file order.
    # Fragments recovered (fence_fragments): a diff's new code, a markup fence's scripts.
    fragments = fence_fragments.Fragments(held_blocks.code_blocks(post))
    every = fragments.fences
    # What a program's --help prints, shown in a fence or an indented block (help_listings).
    listings = {
        fence.start_line: found
        for fence in every
        if not fence.markup or fence.lang in LISTING_LANGS
        for found in (read_listings(fence.content, fence.start_line + 1),)
        if found
    }
    # A fence with no language is read as the language it parses as, of the product's
    # (untagged_fences), decided once the product is known; one read in none is listed.
    untagged = [f for f in every if f.markup and not f.lang and f.start_line not in listings]
    fences = [(fence, fence_kind(fence)) for fence in every if fence not in untagged]
    # Fences the gate reads in no language (a `vue` or `coffee` sample, an untagged one that
    # reads as neither JavaScript nor a command): their uses of the product are listed.
    unread = [
        f
        for f, kind in fences
        if kind is None and f.markup and f.start_line not in listings and _IMPORTS.search(f.content)
    ]
    # Fences that may show the product's configuration (config_samples), in any language.
    lines = post.lines
    shaped = {f.start_line for f in every if f.markup and config_samples.fence_shaped(lines, f)}
    fences = [(f, kind) for f, kind in fences if kind is not None or f.start_line in listings
              or f.start_line in shaped]  # fmt: skip
    autodoc = rst_blocks(post)  # Sphinx autodoc directives a MyST page runs (python_autodoc)
    if not fences and not unread and not autodoc and not any(f.content.strip() for f in untagged):
        return CheckResult([], _empty_detail(settings))
    try:
        index = context.evidence.index_for(post.path)
        evidence = context.evidence.for_post(post.path)
    except GitError as exc:
        raise CannotJudge("ERROR", str(exc)) from None
    loaded = load_parsers()
    if isinstance(loaded, str):
        raise CannotJudge("ERROR", loaded)
    # One parse per fence text for the whole run (fence_parsers): recovery, readers, the
    # accounting and the listing of what does not parse ask the same parsers.
    parsers: FenceParsers = context.memo.get("code_samples.parsers") or FenceParsers(loaded)
    context.memo["code_samples.parsers"] = parsers
    files = resolution.IndexFiles(index)
    try:
        manifest = resolution.read_manifest(files) or {}
    except ValueError:
        raise CannotJudge("ERROR", f"package.json at {settings.ref} is not valid JSON") from None
    python = _python_project(files)
    sites = workspaces.product_packages_of(index)
    primary = sites.get(settings.package) if settings.package else None
    if primary is None and not settings.package and manifest.get("private") is True:
        # A private root (a monorepo's): its workspace package of the same name stands
        # for it, and gives the name, manifest and bins the checks read.
        primary = workspaces.primary_package(str(manifest.get("name") or ""), sites)
    if primary is not None:
        manifest = dict(primary.manifest)
        if primary.folder and isinstance(manifest.get("bin"), (str, dict)):
            manifest["bin"] = bins_in(primary.folder, manifest_bins(manifest, primary.name))
    given = (
        (primary.name if primary else None)
        or settings.package
        or manifest.get("name")
        or evidence.package_name
        or (python[0] if python else None)  # poetry's or PDM's legacy table names it
    )
    named = isinstance(given, str) and bool(given)
    package = given if isinstance(given, str) else ""
    python_fences = bool(autodoc) or any(kind == "python" for _, kind in fences)
    accounted = 0
    types = _python_types(index, context) if python_fences or not named or untagged else None
    if not named:
        # No package name anywhere (setup.py, poetry): the Python packages of the code are
        # the product; the JavaScript and shell checks need a name and are not run.
        if types is None or not types.tops:
            if not fences:  # only fences it does not read: nothing to list them against
                return CheckResult([], _empty_detail(settings))
            if not _has_code(index):
                # A blog or docs repository with no code (a Jekyll blog, say): the samples
                # have no product to be checked against, which is not a failure to run.
                raise CannotJudge("SKIP", NO_PRODUCT_CODE.format(ref=settings.ref))
            raise CannotJudge("ERROR", f"no package name: set 'package' (at {settings.ref})")
        package = ", ".join(sorted(types.tops))
    tables = code_tables(index, context.evidence.cache_dir)
    source_map = settings.for_gate(CodeSamplesSettings).source_map
    shared_key = ("code_samples.lookup", str(index.root), index.commit, source_map)
    shared = context.memo.get(shared_key)
    if package not in sites:
        # The product's own package too: its code imports its own subpaths by name
        # (`import type { NitroConfig } from "nitropack/types"` inside nitropack).
        sites = {**sites, package: workspaces.PackageSite(package, "", manifest)}
    if shared is None or shared.tables is not tables:
        shared = context.memo[shared_key] = ApiLookup(tables, files, manifest, source_map)
        shared.sites = sites
    lookup = shared.for_post()
    run = SampleChecker(
        package,
        manifest,
        lookup,
        parsers,
        settings.ref,
        lambda spec: _model_entry(index, spec),
        sites,
    )
    run.home = _home_package(post.path, index.root, sites)
    in_repo = _relative(post.path, index.root) is not None
    page_folder = posixpath.dirname(_relative(post.path, index.root) or "")
    report = run.report
    sample = JsSample(run, report, lambda: _js_types(index, context, shared, package))

    def docs_reader() -> JsSample:  # a reader of another page of the folder (js_docs_names)
        checker = SampleChecker(package, manifest, shared.for_post(), parsers, settings.ref,
                                lambda spec: _model_entry(index, spec), sites)  # fmt: skip
        checker.home = run.home
        return JsSample(checker, checker.report, lambda: _js_types(index, context, shared, package))

    def docs_names() -> js_docs_names.DocsNames:
        key = ("code_samples.docs_names", str(post.path.parent), index.commit, package)
        if key not in context.memo:
            at_ref = lambda: js_docs_names.pages_at_ref(  # noqa: E731
                index.root, index.commit, index.paths if in_repo else [], page_folder
            )  # the folder's pages at the ref, when the page is the repository's
            context.memo[key] = js_docs_names.DocsNames(
                post.path, index.root, at_ref, docs_reader, parsers, _disk_pages(context)
            )
        names: js_docs_names.DocsNames = context.memo[key]
        return names

    sample.docs_names = lambda name: docs_names().value(name, post.path)
    sample.docs_declared = lambda name: docs_names().declared(name)
    python_sample = PythonSample(types, report, settings.ref) if types is not None else None
    cli: CliTable | Unknown | None = None
    bins = product_bins(manifest, package, python[1] if python else {}, index)
    python_top = python[0].replace("-", "_").lower() if python else None
    python_cli = bool(bins) and not manifest  # no package.json: the scripts are Python

    if untagged:
        languages = _languages(index, context) if named else frozenset({"python"})
        tops = types.tops if types is not None else frozenset()
        found, unread_untagged = untagged_fences.read_untagged(
            untagged, languages, bins, parsers, tops, run.packages
        )
        kinds = {f.start_line: kind for f, kind in found}
        fences += [(f, kinds.get(f.start_line)) for f in untagged
                   if f.start_line in kinds or f.start_line in shaped]  # fmt: skip
        fences.sort(key=lambda pair: pair[0].start_line)
        for fence, line, text, why in unread_untagged:
            if fence.start_line not in shaped:  # else read as the configuration it shows
                report.skip(line, text, why)
    page_lines: list[list[CommandLine]] = []
    sections = config_samples.section_names(package, [*bins, python_top or ""])

    def config_of(fence: Fence) -> tuple[config_samples.ConfigSample | None, bool]:
        """The product's configuration the fence shows (config_samples), or None; and
        whether its title or the line right above names it (else its code is read too)."""
        if fence.start_line not in shaped:
            return None, False
        files = api_model(index, context.evidence.cache_dir).facts.file_names
        read = partial(config_samples.read_config, fence.content, fence.start_line + 1, fence.lang)
        near = config_samples.shown_file(post.lines, fence.start_line, fence.info, nearby=True)
        shown = config_samples.shown_file(post.lines, fence.start_line, fence.info, fence.content)
        found = read(near, sections, files)
        return (found, True) if found or shown == near else (read(shown, sections, files), False)

    def check_config(found: config_samples.ConfigSample, fence: Fence) -> None:
        facts = api_model(index, context.evidence.cache_dir).facts
        done = {(c["line"], c["name"]) for c in report.checked_names}
        where = f"{package} at {settings.ref}"
        judged = config_samples.judge(
            report, found, post.lines, facts.identifiers, facts.surface, where, done
        )
        # Its object is read as the file: not as one shown alone (js_option_keys.bare).
        within = range(fence.start_line, fence.end_line + 1)
        alone = [u["line"] in within and config_samples.shown_alone(u["reason"]) for u in
                 report.unjudged]  # fmt: skip
        kept = [u for u, drop in zip(report.unjudged, alone, strict=True)
                if not drop and (u["line"], u.get("name")) not in judged]  # fmt: skip
        report.unjudged[:] = kept

    def check_fence(fence: Fence, kind: str | None) -> None:
        nonlocal cli
        first = fence.start_line + 1
        listed = listings.get(fence.start_line)
        if listed:
            # Judged against the command line of the workspace package holding the page.
            model = page_cli(api_model(index, context.evidence.cache_dir), index, post.path)
            if not page_lines:  # the page's command lines, read for the first listing only
                page_lines.append(page_command_lines(post, model, package))
            for listing in listed:
                report_listing(report, listing, page_lines[0], model, package)
            if kind != "shell":
                return  # a listing, not code: its entries are all it says
        if kind == "code" and not fence.lang and _python_untagged(fence.content, python_sample):
            # An untagged fence read as JavaScript for its `import` that is Python's.
            assert python_sample is not None
            python_sample.fence(fence.content, first)
        elif kind == "code" and named:
            typescript = fence.lang in ("ts", "typescript", "tsx", "mts", "cts")
            sample.fence(fence.content, first, fence.lang in ("tsx", "jsx"), typescript)
        elif kind == "python" and python_sample is not None:
            python_sample.fence(fence.content, first)
        elif kind == "indented" and python_sample is not None:
            python_sample.indented(fence.content, first)
        elif kind == "indented" and named and package in fence.content:
            report.skip(first, fence.content.split("\n", 1)[0], INDENTED_NOT_READ)
        elif kind == "shell":
            physical = fence.content.splitlines()
            for offset, text, words in shell_commands(fence.content, shows_output(fence)):
                ours = bins and (named or python_cli)
                found = product_invocation(words, package, bins, python_top) if ours else None
                script = script_run(words, page_folder, lambda path: path in tables.files)
                if found is None and script is not None:
                    run.check_cli_line(first + offset, text, script.args, lookup.cli(script.path),
                                       script.shown, physical[offset:])  # fmt: skip
                if found is None:
                    continue
                if cli is None:
                    cli_key = (*shared_key, "cli")
                    if cli_key not in context.memo:
                        context.memo[cli_key] = product_cli_table(shared, bins, python_cli)
                    cli = context.memo[cli_key]
                    if isinstance(cli, CliTable):
                        lookup.read.extend(p for p in cli.read if p not in lookup.read)
                run.check_cli_line(first + offset, text, found[1], cli, found[0], physical[offset:])

    fences = fragments.recover_code(fences, parsers)  # elided JavaScript recovered in place
    for fence, kind in fences:
        config, near = config_of(fence)
        if config is None or not near or not fence.content.lstrip().startswith("{"):
            check_fence(fence, kind)  # an object shown alone as a file is no call's options
        if config is not None:
            check_config(config, fence)
    for fence in unread:
        _unread_fence(report, fence, run.packages, types.tops if types is not None else ())
    # What the fences read parse and the card names nowhere (sample_accounting).
    tops = types.tops if types is not None else frozenset()
    python_js = lambda content: _python_untagged(content, python_sample)  # noqa: E731
    read = sample_accounting.fences_read(fences, named, tops, python_js)
    accounted = page_accounting.account_page(report, sample, read, tops)
    reads = fence_fragments.names_of([*run.packages, *tops, *sample.values])
    fence_fragments.unparsed(report, read, parsers, reads)
    fragments.finish(report, reads)
    tables.save()
    if python_sample is not None:
        for first, block in autodoc:
            judge_autodoc(python_sample, first, block)
        python_sample.untyped_members()
        own = defined_names(post.path, index.root, context.memo)
        python_sample.free.judge(python_sample.types, report, own)
        report.resolved.update(python_sample.resolved)
        lookup.read.extend(p for p in python_sample.resolved.values() if p not in lookup.read)
    detail = {
        "checked": report.checked,
        "checked_by_kind": report.checked_by_kind,
        "unjudged": report.unjudged,
        "violations": report.violations,
        # What was checked, by line and name: the card's record of what it found present.
        "checked_names": report.checked_names[:MAX_CHECKED_NAMES],
        "accounted": accounted,  # of the unjudged, those listed by sample_accounting
        "sources_read": list(lookup.read),
        "resolved": report.resolved,
        "package": package,
        "ref": settings.ref,
    }
    if isinstance(cli, CliTable):
        detail["cli"] = {
            "entry": cli.entry,
            "frameworks": cli.frameworks,
            "read": cli.read,
        }
    findings = []
    for number, item in enumerate(report.violations):
        close = report.suggestions.get(number) or []
        fix = f"use what the code at {settings.ref} defines"
        if close:
            fix += f"; close real names: {', '.join(close)}"
        findings.append(Finding(item["line"], CODES[item["kind"]], item["reason"], fix))
    return CheckResult(findings, detail)


def _languages(index: RepoIndex, context: GateContext) -> frozenset[str]:
    """The languages the product's code is written in (``python``, ``js``), by the files
    its API model declares names in."""
    key = ("code_samples.languages", str(index.root), index.commit)
    if key not in context.memo:
        paths = {d.path for d in api_model(index, context.evidence.cache_dir).facts.decls}
        python = any(p.endswith((".py", ".pyi")) for p in paths)
        js = any(p.endswith(SOURCE_EXTENSIONS) for p in paths)
        context.memo[key] = frozenset({"python"} if python else ()) | ({"js"} if js else set())
    known: frozenset[str] = context.memo[key]
    return known


def _python_untagged(content: str, python: PythonSample | None) -> bool:
    """Whether an untagged fence is Python that uses the product: all of it parses as
    Python and it names one of the product's top packages."""
    if python is None or not python.types.tops:
        return False
    if not python.types.tops & set(re.findall(r"[A-Za-z_]\w*", content)):
        return False
    try:
        ast.parse(content)
    except (SyntaxError, ValueError):
        return False
    return True


def _unread_fence(
    report: SampleReport, fence: Fence, packages: Iterable[str], tops: Iterable[str]
) -> None:
    """List a fence the gate reads in no language when it imports the product (a JavaScript
    specifier of one of its packages, or an import of one of its top Python packages)."""
    names = "|".join(re.escape(p) for p in sorted({*packages, *tops}, key=len, reverse=True) if p)
    if not names:
        return
    spec = (
        rf"""(?:\bfrom\s+|\brequire\s*\(\s*|\bimport\s*\(?\s*)['"`](?:{names})(?:/[^'"`]*)?['"`]"""
    )
    # A Python import, or a Rust `use` of a crate of the same name (polars' README).
    python = rf"^\s*(?:from|import|use)\s+(?:{names})\b" if tops else ""
    found = re.search(spec, fence.content) or (
        re.search(python, fence.content, re.MULTILINE) if python else None
    )
    if found is None:
        return
    line = fence.start_line + 1 + fence.content.count("\n", 0, found.start())
    written = fence.content[found.start() :].split("\n", 1)[0]
    tag = f"a `{fence.lang}` fence" if fence.lang else "a fence without a language tag"
    why = (
        "its language is not one the gate reads"
        if fence.lang
        else ("it reads as neither JavaScript, Python nor a shell command")
    )
    report.skip(line, written, f"{tag} imports the product, and its code is not read: {why}")


# An import in any language the gate knows of: a quoted specifier, or a Python import line.
_IMPORTS = re.compile(
    r"""\b(?:from|require\s*\(|import\s*\(?)\s*['"`]|^\s*(?:from|import|use)\s+[A-Za-z_]""", re.M
)
INDENTED_NOT_READ = "an indented code block has no language: its code is not read"
NO_PRODUCT_CODE = (
    "nothing to check the samples against: the repository has no package (no package.json "
    "name, no Python package) and no JavaScript, TypeScript or Python code (other than a "
    "static site's served scripts) at {ref}; set "
    "'package' and 'repo' to the product's repository to check them"
)
_CODE_SUFFIXES = (".py", ".pyi", *SOURCE_EXTENSIONS)


def _relative(page: Path, root: Path) -> str | None:
    """The page's path from the repository's top (None: outside it)."""
    try:
        return page.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


def _home_package(page: Path, root: Path, sites: dict[str, workspaces.PackageSite]) -> str | None:
    """The workspace package (not the repository's top one) whose folder holds the page."""
    where = _relative(page, root)
    if where is None:
        return None
    held = [s for s in sites.values() if s.folder and where.startswith(s.folder.rstrip("/") + "/")]
    return max(held, key=lambda s: len(s.folder)).name if held else None


def _has_code(index: RepoIndex) -> bool:
    """Whether the repository tracks any JavaScript, TypeScript or Python source other than
    the scripts its static site serves as files (a Jekyll blog's `assets/js/`)."""
    served = site_scripts(index)
    return any(path.endswith(_CODE_SUFFIXES) and not served(path) for path in index.text_paths)


def _python_types(index: RepoIndex, context: GateContext) -> PythonTypes | None:
    """The model's Python side for the repository (None when its code has no Python: the
    model, shared with gate 2 through the cache, is then not built for this gate)."""
    key = ("code_samples.python", str(index.root), index.commit)
    if key in context.memo:  # one model per commit: asked once per process, not per post
        known: PythonTypes | None = context.memo[key]
        return known
    known = None
    if any(p.endswith((".py", ".pyi")) and is_product_code(p) for p in index.text_paths):
        model = api_model(index, context.evidence.cache_dir)
        known = PythonTypes.of(model)
        # Shared with gate 2 (made once per commit by whichever gate asks first): the same
        # answer to whether the standard library is the product's, as gate 2 gives it.
        known.dependencies = context.evidence.dependency_models_for(
            index, lambda: any(d.path.endswith((".py", ".pyi")) for d in model.facts.decls)
        )
    context.memo[key] = known
    return known


def _disk_pages(context: GateContext) -> js_docs_names.DiskPages:
    """The run's pages read from disk: parsed once for the folder's stamp and readings."""
    pages: js_docs_names.DiskPages = context.memo.setdefault("code_samples.disk_pages", {})
    return pages


def _model_entry(index: RepoIndex, package: str) -> str | None:
    """The source file the API model takes a package name's entry to be (the entry mapped
    back from a build output absent from the repository: ``dist/index.js`` ->
    ``src/index.ts``), or None."""
    memo = index.memo("code_samples.entries")
    if "entries" not in memo:
        sources = {p: "" for p in index.text_paths if is_product_code(p)}
        memo["entries"] = model_packages.entry_points(index, sources)
    # The code entry first; the ``types`` declarations after it.
    paths: tuple[str, ...] = memo["entries"].get(package) or ()
    return paths[0] if paths else None


def _js_types(
    index: RepoIndex, context: GateContext, lookup: ApiLookup, package: str
) -> JsTypes | None:
    """The model's JavaScript/TypeScript side (classes, return types) and the declared
    types (fields, parameters' option keys), asked only when a sample's value needs a
    type: built once per commit, both shared with gate 2 (the model through the cache,
    the declared types, parsed file by file, through the index's memo)."""
    key = ("code_samples.js", str(index.root), index.commit)
    shared = product_api(index, context.evidence.cache_dir, package)
    # Gate 2's declared types follow no import of a sibling workspace package (a driver
    # package's `import { MikroORM } from "@mikro-orm/core"`): a monorepo's are gate 15's own.
    if shared is not None and any(s.folder for s in lookup.sites.values()):
        shared = None
    if key not in context.memo and shared is not None:
        model = api_model(index, context.evidence.cache_dir)
        context.memo[key] = JsTypes(model, shared.model)
    if key not in context.memo:
        parsers = load_parsers()

        def parser_for(path: str) -> Any:
            language = LANGUAGES.get("." + path.rsplit(".", 1)[-1].lower())
            if isinstance(parsers, str) or language not in ("typescript", "tsx"):
                return None
            return parsers.get(language)

        def code_parser_for(path: str) -> Any:
            language = LANGUAGES.get("." + path.rsplit(".", 1)[-1].lower())
            if isinstance(parsers, str) or language != "javascript":
                return None
            return parsers.get(language)

        model = api_model(index, context.evidence.cache_dir)
        types = TypeModel(lookup, parser_for, code_parser_for)
        context.memo[key] = JsTypes(model, types)
    known: JsTypes | None = context.memo[key]
    if known is not None and known.dropped_key is None:
        past = past_releases(index.root, index.commit, context.evidence.cache_dir)
        known.dropped_key = past.declared_key
    return known


def decide(result: CheckResult, settings: CodeSamplesSettings) -> Decision:
    detail, findings = result.detail, result.findings
    unjudged = len(detail["unjudged"])
    # A versioned page's card says which release it was judged against (or why none).
    note = f"; {versioned_pages.summary_note(detail['release'])}" if "release" in detail else ""
    # Of them, the uses sample_accounting listed: on values no sample types, or in comments.
    untyped = detail.get("accounted") or 0
    why = f" ({untyped} on values the samples do not type, or in comments)" if untyped else ""
    if not detail["checked"] and not findings:
        # Never a bare PASS: a card that judged nothing says so, and why.
        if not unjudged:
            return Decision("PASS", "nothing checked: no product API used in code fences" + note)
        return Decision(
            "PASS", f"nothing checked: {unjudged} use(s) of the product not judged{why}{note}"
        )
    summary = (
        f"{len(findings)} invented API name(s) of {detail['checked']} checked"
        if findings
        else f"{detail['checked']} API name(s) checked"
    )
    if unjudged:
        summary += f", {unjudged} not judged{why}"
    return Decision("FAIL" if findings else "PASS", summary + note, len(findings))


# What decides this gate's results (helpers/grounding_digest.py): a cached result of other rules
# is not reused.
_RULES = sample_rules_digest(__file__, releases.__file__)


def cache_inputs(post_path: Path, context: GateContext) -> str | None:
    inputs = commit_inputs(post_path, context)
    if inputs is None:
        return None
    source_map = context.settings.for_gate(CodeSamplesSettings).source_map
    layout = ",".join(f"{b}={s}" for b, s in source_map)
    # The installed dependencies are evidence (a base class of theirs): another key.
    root = Path(inputs.rsplit("@", 1)[0])
    deps = environment_fingerprint(root)  # and the docs' own Python names (python_docs_names)
    inputs += releases.release_inputs(post_path, context)  # a versioned page: its tag
    ahead = context.memo.setdefault(PARSED_AHEAD, ParsedAhead())  # pages the runner takes
    listings = context.memo.setdefault("code_samples.listings", {})  # the run's, by folder
    stamp = folder_stamp(post_path, context.evidence.cache_dir, _disk_pages(context), ahead,
                         listings)  # fmt: skip
    stamp += tree_stamp(post_path, root, context.memo)
    inputs += f"|docs-{hashlib.sha256(stamp.encode()).hexdigest()[:16]}"
    return f"{inputs}|tables-{TABLES_VERSION}|gate-{GATE_VERSION}-{_RULES}|{layout}|{deps}"


__all__ = ["GATE", "PYTHON_LANGS", "check", "decide"]


@dataclass(frozen=True)
class CodeSamplesSettings:
    """Gate 15's settings."""

    # Build-output prefix -> source prefix ({"dist/" = "src/lib/"}), in order.
    source_map: tuple[tuple[str, str], ...] = option(
        (),
        "prefixes",
        'build-output prefix -> source prefix (`{"dist/" = "src/lib/"}`; ini/env: '
        "`dist/=src/lib/`) when inference fails",
        shown_default="inferred",
    )


GATE = Gate(
    id=15,
    name="code_samples",
    advisory=True,
    kind="advisory",
    description="The API a code sample uses exists: exports, members, CLI commands and flags.",
    check=check,
    decide=decide,
    cache_inputs=cache_inputs,
    settings=CodeSamplesSettings,
)
