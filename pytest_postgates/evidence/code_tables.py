"""API tables of the repository at a commit, for gate 15 (code samples use a real API).

Per source file, what a code sample can name from it, as tree-sitter reads it (the same
parsers as :mod:`pytest_postgates.evidence.repomap`; the table is
:class:`~pytest_postgates.evidence.file_table.FileTable`, read by
:mod:`~pytest_postgates.evidence.tables_js` and
:mod:`~pytest_postgates.evidence.tables_python`):

* JavaScript/TypeScript: the export table (``export const/function/class/type/interface/
  enum``, ``export { a as b }``, ``export { a as b } from``, ``export * from``,
  ``export * as ns from``, ``export default``, ``export =``, CommonJS ``module.exports``),
  the file's imports (to follow a re-exported or inherited name to its file), its classes
  and interfaces with their members (methods, properties, accessors, static members,
  constructor parameter properties) and what they extend, the keys of exported object
  literals, and, in files that import yargs or commander, the CLI's commands and options.
* Python: argparse/click/typer commands and options, top-level functions and classes, and
  star imports (a Python sample is judged against the API model).

The tables are cached on disk next to the index (keyed by commit, table version, the
extractor's source, grammar version and the list of source files); each file is parsed
the first time a sample reaches it and appended to the cache file (under a lock), so
xdist workers and later runs load what any of them parsed instead of parsing again. The
CLI walk follows imports by a scan of the text (:func:`scan_imports`) and parses only the
files that name a CLI framework.
Following chains across files (what a module exports after ``export *``, inherited
members) is done on demand by
:mod:`pytest_postgates.evidence.api_lookup`.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_postgates import signing
from pytest_postgates.evidence import (
    cli_js,
    cli_python,
    file_table,
    made_objects,
    shared_parses,
    source_repairs,
    tables_js,
    tables_python,
)
from pytest_postgates.evidence.cli_python import DATACLASS_PARSERS
from pytest_postgates.evidence.file_table import JS_CLI_MODULES, PY_CLI_MODULES, FileTable
from pytest_postgates.evidence.index import RepoIndex
from pytest_postgates.evidence.repomap import (
    grammar_version,
    load_parsers,
    source_language,
    source_paths,
)
from pytest_postgates.evidence.source_repairs import parse_repaired
from pytest_postgates.evidence.tables_js import JsTables
from pytest_postgates.evidence.tables_python import PythonTables
from pytest_postgates.fileio import locked

# The modules whose code decides what a table holds: a cached table built by other code
# is stale (part of the cache key, and of gate 15's result-cache key).
EXTRACTOR_MODULES = (
    file_table,
    shared_parses,  # a table may be the API model's build's reading (and model_js's, below)
    tables_js,
    made_objects,
    cli_js,
    tables_python,
    cli_python,
    source_repairs,
)

# 2: the cache file is JSON lines, appended to; 3: no Python imports; 4: a Python CLI as
# the API model reads it (cli_python), pass-through commands; 5: FileTable.exact_flags;
# 6: the options of HfArgumentParser's dataclasses
TABLES_VERSION = 6
# The repo map's 512 KiB cut would drop NeuroLink's main class (src/lib/neurolink.ts is
# 551 KiB); bundles are skipped by name instead.
MAX_SOURCE_CHARS = 4 * 1024 * 1024
_BUNDLE = re.compile(r"(?:^|/)(?:[^/]*-dist|dist|build|vendor|node_modules)/|\.min\.js$")
# A relative specifier in quotes, and what must stand before it for it to be imported
# (``from "./x"``, ``import "./x"``, ``import("./x")``, ``require("./x")``).
_RELATIVE_STRING = re.compile(r"""(["'`])(\.[^"'`\n]*)\1""")
_BARE_STRING = re.compile(r"""(["'`])([@\w][^"'`\s]*)\1""")
_IMPORT_BEFORE = re.compile(r"(?:\bfrom|\bimport|\brequire)\s*\(?\s*$")


class LazyFiles(Mapping[str, FileTable]):
    """The tables by path, each file parsed the first time it is asked for: the samples
    reach a fraction of a repository (172 of NeuroLink's 1,127 source files for the
    whole blog), so parsing everything up front would be most of the gate's cold cost."""

    def __init__(
        self,
        paths: Iterable[str],
        parsed: dict[str, FileTable],
        absent: set[str],
        read: Callable[[str], FileTable | None] | None,
        readable: Callable[[str], bool] | None = None,
    ) -> None:
        self._paths = frozenset(p for p in paths if p not in absent)
        self._parsed = parsed
        self._absent = set(absent)
        self._read = read
        # Whether a file not parsed yet has a text the tables read (not a bundle, not over
        # the size cut): a file that has none is not in the tables, known cold or warm.
        self._readable = readable
        self._known_readable: set[str] = set()  # asked once: reading the text is not free
        self._lock = threading.Lock()
        self.fresh: set[str] = set()  # parsed in this process, not yet in the cache file

    def __contains__(self, path: object) -> bool:
        if path in self._parsed:
            return True
        if not isinstance(path, str) or path not in self._paths or path in self._absent:
            return False
        if self._readable is None or path in self._known_readable:
            return True
        if not self._readable(path):
            with self._lock:
                self._absent.add(path)
                self.fresh.add(path)
            return False
        self._known_readable.add(path)
        return True

    def __getitem__(self, path: str) -> FileTable:
        table = self._parsed.get(path)
        if table is not None:
            return table
        if path not in self._paths or path in self._absent or self._read is None:
            raise KeyError(path)
        with self._lock:
            table = self._parsed.get(path)
            if table is None:
                table = self._read(path)
                if table is None:
                    self._absent.add(path)
                    self.fresh.add(path)
                    raise KeyError(path)
                self._parsed[path] = table
                self.fresh.add(path)
        return table

    def get(self, path: str, default: Any = None) -> Any:
        """Mapping's ``get``, a table parsed already answered without a ``KeyError``."""
        table = self._parsed.get(path)
        if table is not None:
            return table
        try:
            return self[path]
        except KeyError:
            return default

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(p for p in self._paths | set(self._parsed) if p not in self._absent))

    def __len__(self) -> int:
        return len(self._paths | set(self._parsed))

    def take_fresh(self) -> list[tuple[str, FileTable | None]]:
        """The files parsed since the last call (None: not readable), in path order."""
        with self._lock:
            rows = [(path, self._parsed.get(path)) for path in sorted(self.fresh)]
            self.fresh.clear()
        return rows


def scan_imports(text: str, pattern: re.Pattern[str] = _RELATIVE_STRING) -> list[str]:
    """The relative specifiers a JavaScript/TypeScript file imports, static or dynamic
    (``import ... from``, ``export ... from``, ``import "./x"``, ``import("./x")``,
    ``require("./x")``, anywhere but on comment lines), in source order.

    A scan of the text, not a parse: the CLI walk follows the imports of hundreds of
    files to find the few that define commands, and parsing each was most of gate 15's
    cold cost. It finds every import the parse finds, and also the dynamic ones inside
    functions (a CLI's lazily loaded command modules belong to it).
    """
    found: list[str] = []
    for match in pattern.finditer(text):
        start = match.start()
        if not _IMPORT_BEFORE.search(text, max(0, start - 40), start):
            continue
        line = text[text.rfind("\n", 0, start) + 1 : start].lstrip()
        if line.startswith(("//", "*", "/*")):
            continue  # a JSDoc example or a commented-out import
        found.append(match.group(2))
    return found


@dataclass
class CodeTables:
    commit: str
    available: bool
    reason: str = ""
    files: Mapping[str, FileTable] = field(default_factory=dict)
    cache_file: Path | None = None
    # The text of a source file the tables read (None: not read; see ``_source_text``).
    text: Callable[[str], str | None] | None = None
    _imports: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def imports_of(self, path: str) -> list[str]:
        """The relative specifiers ``path`` imports (:func:`scan_imports`; none for a
        Python file or a file the tables do not read)."""
        found = self._imports.get(path)
        if found is None:
            python = source_language(path) == "python"
            text = self.text(path) if self.text is not None and not python else None
            text = None if text is None or source_language(path, text) == "python" else text
            found = self._imports[path] = scan_imports(text) if text is not None else []
        return found

    def bare_imports_of(self, path: str) -> list[str]:
        """The bare specifiers (``@scope/lib``, ``yargs``) ``path`` imports, scanned as
        :meth:`imports_of` scans the relative ones: what a tsconfig alias may name."""
        text = self.text(path) if self.text is not None else None
        if text is None or source_language(path, text) in (None, "python"):
            return []
        return scan_imports(text, _BARE_STRING)

    def may_define_cli(self, path: str) -> bool:
        """False when ``path`` cannot import a CLI framework (the name is not in its
        text), so its table need not be parsed to know it defines no commands."""
        if self.text is None:
            return True
        text = self.text(path)
        python = text is not None and source_language(path, text) == "python"
        modules = [*PY_CLI_MODULES, *DATACLASS_PARSERS] if python else JS_CLI_MODULES
        return text is not None and any(module in text for module in modules)

    def save(self) -> None:
        """Append the files parsed in this process since the last save to the cache file
        (JSON lines, one file a line, under its lock), so xdist workers and later runs
        reuse them. Appending costs what was parsed; rewriting the whole file after every
        post that parsed something cost more than the parsing it saved."""
        files = self.files
        if self.cache_file is None or not isinstance(files, LazyFiles):
            return
        rows = files.take_fresh()
        if not rows:
            return
        text = self.text or (lambda path: None)
        # Each row names the source it was read from and is signed (signing.py): a row
        # planted in a restored cache folder is skipped, and the file parsed again.
        lines = [
            json.dumps(
                signing.signed(
                    ({"table": table.to_json()} if table is not None else {"absent": True})
                    | {"path": path, "source": source_digest(text(path))}
                ),
                sort_keys=True,
                ensure_ascii=False,
            )
            for path, table in rows
        ]
        # One write per save; the leading newline ends a line a killed writer left.
        with (
            locked(self.cache_file.with_suffix(".lock")),
            open(self.cache_file, "a", encoding="utf-8") as handle,
        ):
            handle.write("\n" + "\n".join(lines) + "\n")


# ---------------------------------------------------------------------- build and cache


def tables_for_source(path: str, text: str, parsers: dict[str, Any]) -> FileTable | None:
    """The table of one file (None for languages not read): the one the API model's build
    read of the same text with the same parser where it kept it (:mod:`.shared_parses`)."""
    language = source_language(path, text)
    if language is None or language not in parsers:
        return None
    kept = shared_parses.take_file_table(path, text, parsers[language])
    if kept is not None:
        return kept
    source = text.encode("utf-8")
    if language == "python":
        return PythonTables(source).build(parsers[language].parse(source).root_node)
    source, tree = parse_repaired(parsers[language], source)
    root = tree.root_node
    declarations = path.endswith((".d.ts", ".d.mts", ".d.cts"))
    builder = JsTables(source, getattr(tree, "language", None), declarations)
    table = builder.build(root)
    if table.cli_frameworks:
        builder.option_specs(root)
    return table


def extractor_source() -> bytes:
    """The source of this module and of the extractors, concatenated."""
    modules = [Path(__file__), *(Path(m.__file__ or "") for m in EXTRACTOR_MODULES)]
    modules.append(Path(__file__).with_name("model_js.py"))  # not imported: it imports this
    return b"\0".join(path.read_bytes() for path in modules)


_TABLES: dict[tuple[str, str], CodeTables] = {}
_BY_INDEX: dict[tuple[str, str, str, int], CodeTables] = {}
_LOCK = threading.Lock()


def code_tables(index: RepoIndex, cache_dir: Path) -> CodeTables:
    """The tables of ``index``'s repository at its commit: from memory, from the cache
    folder, or built (by exactly one process, under a lock) and cached."""
    by_index = (str(cache_dir), str(index.root), index.commit, len(index.text_paths))
    with _LOCK:
        known = _BY_INDEX.get(by_index)
    if known is not None:
        return known  # asked once per post: the key below costs a pass over every path
    parsers = load_parsers()
    if isinstance(parsers, str):
        return CodeTables(index.commit, available=False, reason=parsers)
    paths = source_paths(index)
    # The extractor's own source is part of the key: a table built by other rules is stale.
    extractor = extractor_source()
    digest = hashlib.sha1(
        b"\0".join(
            [
                grammar_version().encode(),
                extractor,
                *(p.encode("utf-8", "surrogateescape") for p in paths),
            ]
        )
    ).hexdigest()[:12]
    name = f"codetables-v{TABLES_VERSION}-{index.commit}-{digest}"
    key = (str(cache_dir), name)
    with _LOCK:
        cached = _TABLES.get(key)
        if cached is not None:
            _BY_INDEX[by_index] = cached
    if cached is not None:
        return cached
    target = cache_dir / f"{name}.jsonl"
    parsed, absent, sources = _read_cache(target) or ({}, set(), {})
    # A row stands only for the source it was read from (the index's text at the commit).
    stale = {p for p, d in sources.items() if d != source_digest(_source_text(index, p))}
    parsed = {p: table for p, table in parsed.items() if p not in stale}
    absent -= stale

    def read(path: str) -> FileTable | None:
        text = _source_text(index, path)
        return tables_for_source(path, text, parsers) if text is not None else None

    result = CodeTables(
        index.commit,
        True,
        files=LazyFiles(paths, parsed, absent, read, lambda p: _source_text(index, p) is not None),
        cache_file=target,
        text=lambda path: _source_text(index, path),
    )
    with _LOCK:
        result = _TABLES.setdefault(key, result)
        _BY_INDEX[by_index] = result
    return result


def build_tables(index: RepoIndex, paths: list[str], parsers: dict[str, Any]) -> CodeTables:
    """Every file's table at once (benchmarks and tests; the gate parses lazily)."""
    files: dict[str, FileTable] = {}
    for path in paths:
        text = _source_text(index, path)
        table = tables_for_source(path, text, parsers) if text is not None else None
        if table is not None:
            files[path] = table
    return CodeTables(
        index.commit, available=True, files=files, text=lambda path: _source_text(index, path)
    )


def _source_text(index: RepoIndex, path: str) -> str | None:
    """The text of a source file the tables read: not a bundle, not over the size cut."""
    if _BUNDLE.search(path):
        return None
    text = index.file_text(path)
    return text if text is not None and len(text) <= MAX_SOURCE_CHARS else None


def source_digest(text: str | None) -> str:
    return "" if text is None else hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def _read_cache(
    target: Path,
) -> tuple[dict[str, FileTable], set[str], dict[str, str]] | None:
    """The tables in a cache file and the source digest of each (the first row of a path
    wins; a row that does not read, such as one a killed writer cut short, or one not
    signed under ``POSTGATES_CACHE_KEY`` when it is set, is skipped)."""
    try:
        text = target.read_text(encoding="utf-8")
    except OSError:
        return None
    files: dict[str, FileTable] = {}
    absent: set[str] = set()
    sources: dict[str, str] = {}
    for line in text.splitlines():
        if not line:
            continue
        try:
            row = signing.verified(json.loads(line))
            if row is None:
                continue
            path, source = row["path"], row["source"]
            if not isinstance(path, str) or path in files or path in absent:
                continue
            if not isinstance(source, str):
                continue
            sources[path] = source
            if row.get("absent") is True:
                absent.add(path)
            else:
                files[path] = FileTable.from_json(row["table"])
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return files, absent, sources
