"""Gate 15 on fences that are fragments (issue 26): how each fence of a docs folder parses
as the gate reads it, and what the gate's card says of it.

Over the whole docs folders of the TUNE-half projects gate 15 is tuned on
(bench/docs_precision.py ``TUNE_PROJECTS`` and ``GATE15_TUNE_EXTRA``, at the commits pinned
in bench/labels/gate15_docs_tune.jsonl; never the report half), every fence gate 15 reads or
could read (JavaScript/TypeScript/JSX/TSX, Python, ``diff``, ``html``/``vue``/``svelte``,
and untagged ones) is sorted by its shape (first that applies: a diff, markup with scripts,
a REPL session, ``...``/``…`` placeholders, bare object keys, a chain starting with ``.``,
a whole program), and per language and shape the bench counts:

- how the fence parses as the gate reads it (after pytest_postgates.helpers.fence_fragments
  recovers it, where the code measured has that module): ``clean``, ``errors`` (a part in
  error, or for Python a line the lenient parse blanked), ``none`` (half of it or more in
  error, or Python that does not parse even leniently) or ``unread`` (a language the gate
  does not read);
- the share of its identifiers that lie in error regions (tree-sitter's ERROR nodes; a
  Python line the lenient parse blanked);
- gate 15's entries on its lines (each card of a gate-15-only run of the folder, as
  bench/docs_precision.py runs it): names checked, violations, unjudged uses.

Run it once per commit (``--json`` the figures, ``--results`` the docs' results file), then
``--compare BEFORE.json AFTER.json`` prints the two side by side:

    PYTHONPATH=/work/main python bench/fence_fragments.py --json /tmp/before.json --cache DIR
    PYTHONPATH=. python bench/fence_fragments.py --json /tmp/after.json --cache DIR
    python bench/fence_fragments.py --compare /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import docs_precision as dp  # noqa: E402

LANGUAGES = {
    **dict.fromkeys(("js", "javascript", "mjs", "cjs"), "js"),
    **dict.fromkeys(("ts", "typescript", "mts", "cts"), "ts"),
    "jsx": "jsx",
    "tsx": "tsx",
    **dict.fromkeys(("python", "py", "python3", "pycon"), "python"),
    "diff": "diff",
    **dict.fromkeys(("html", "vue", "svelte"), "markup"),
    "": "untagged",
}
_PLACEHOLDER = re.compile(r"(?<![\w$.])(?:\.\.\.|\u2026)(?![\w$\[({'\"`.])")
_KEY_LINE = re.compile(r"""^\s*(?:[A-Za-z_$][\w$]*|'[^'\n]*'|"[^"\n]*")\s*\??:(?!:)""")
_COMMENT = re.compile(r"^\s*(?://|#|/\*|\*|$)")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_JS_IDENTIFIERS = ("identifier", "property_identifier", "type_identifier",
                   "shorthand_property_identifier", "statement_identifier")  # fmt: skip
SHAPES = ("diff", "script", "repl", "placeholder", "object body", "chain", "whole")


def language_of(fence: Any) -> str | None:
    """The fence's language group, or None (one the gate never reads)."""
    if not fence.markup:
        return None  # indented blocks: read only when all of them parse as Python
    lang = fence.lang
    if lang.startswith("diff-"):
        return "diff"
    return LANGUAGES.get(lang)


def shape_of(group: str, content: str) -> str:
    """The fence's shape: the first of :data:`SHAPES` that applies."""
    first = next((line for line in content.split("\n") if not _COMMENT.match(line)), "")
    if group == "diff":
        return "diff"
    if group == "markup":
        return "script" if "<script" in content else "whole"
    if re.search(r"^(?:>>>|>) ", content, re.MULTILINE):
        return "repl"
    if _PLACEHOLDER.search(content):
        return "placeholder"
    if _KEY_LINE.match(first):
        return "object body"
    if first.lstrip().startswith("."):
        return "chain"
    return "whole"


def _js_status(parser: Any, content: str) -> tuple[str, int, int]:
    """(status, identifiers, of them in error) of a JavaScript/TypeScript text."""
    stripped = content.strip()
    wrapped = stripped.startswith("{") and stripped.endswith("}")
    source = (f"({content}\n)" if wrapped else content).encode("utf-8", "replace")
    tree = parser.parse(source)
    total = in_error = error_bytes = 0
    stack: list[tuple[Any, bool]] = [(tree.root_node, False)]
    while stack:
        node, inside = stack.pop()
        if node.type == "ERROR" and not inside:  # an outermost error region
            error_bytes += int(node.end_byte) - int(node.start_byte)
        erring = inside or node.type == "ERROR"
        if node.type in _JS_IDENTIFIERS:
            total += 1
            in_error += erring
        stack.extend((child, erring) for child in node.children)
    if not tree.root_node.has_error:
        return "clean", total, 0
    status = "none" if error_bytes * 2 >= max(1, len(source.strip())) else "errors"
    return status, total, in_error


def _python_status(content: str) -> tuple[str, int, int]:
    """(status, identifiers, of them on lines the lenient parse blanked) of Python."""
    from pytest_postgates.helpers.python_samples import parse_leniently, sample_code

    code, _where = sample_code(content)
    lines = code.split("\n")
    total = sum(len(_IDENTIFIER.findall(line)) for line in lines)
    try:
        ast.parse(code)
        return "clean", total, 0
    except (SyntaxError, ValueError):
        pass
    tree = parse_leniently(code)
    if tree is None:
        return "none", total, total
    # The lines the lenient parse blanked: those holding a `pass` or `if True:` it wrote.
    blanked = {
        node.lineno - 1
        for node in ast.walk(tree)
        if isinstance(node, (ast.Pass, ast.If)) and 0 < node.lineno <= len(lines)
        and lines[node.lineno - 1].strip() not in ("pass",)
        and not lines[node.lineno - 1].lstrip().startswith(("if ", "pass"))
    }  # fmt: skip
    in_error = sum(len(_IDENTIFIER.findall(lines[row])) for row in blanked)
    return "errors", total, in_error


def read_as_gate(fence: Any, parsers: Any) -> tuple[str, str, int, int]:
    """(language read, status, identifiers, in error) of the fence as the code measured
    reads it: recovered by fence_fragments where that module exists."""
    try:
        from pytest_postgates.helpers import fence_fragments
    except ImportError:
        fence_fragments = None  # type: ignore[assignment]
    group = language_of(fence)
    content = fence.content
    if fence_fragments is not None and group in ("diff", "markup"):
        read, _removed = fence_fragments.recover_fence(fence)
        if read is not fence:
            content = read.content
            group = LANGUAGES.get(read.lang, "untagged")
            if group == "untagged":
                group = "python" if _parses_python(content) else "ts"
    if group in ("diff", "markup"):
        return group, "unread", len(_IDENTIFIER.findall(content)), 0
    if group == "untagged":
        group = "python" if _parses_python(content) else "ts"
    if group == "python":
        return group, *_python_status(content)
    parser = parsers["tsx" if group in ("tsx", "jsx") else "typescript"]
    if fence_fragments is not None:
        content = fence_fragments.recover_js(content, parser).content
    return group, *_js_status(parser, content)


def _parses_python(content: str) -> bool:
    try:
        ast.parse(content)
    except (SyntaxError, ValueError):
        return False
    return True


def card_entries(cards: Path, site: Path) -> dict[str, dict[str, list[int]]]:
    """Per doc (its path from the site's top): the lines of gate 15's checked names,
    violations and unjudged uses."""
    found: dict[str, dict[str, list[int]]] = {}
    for overall in sorted(cards.glob("*-overall.json")):
        post = Path(str(json.loads(overall.read_text(encoding="utf-8"))["post"]))
        doc = str(post.relative_to(site)) if post.is_absolute() else str(post)
        stem = overall.name.removesuffix("-overall.json")
        card_path = cards / f"{stem}-gate15-{dp.GATE_NAMES[15]}.json"
        if not card_path.is_file():
            continue
        detail = json.loads(card_path.read_text(encoding="utf-8")).get("detail") or {}
        found[doc] = {
            kind: [int(item.get("line") or 0) for item in detail.get(key, [])]
            for kind, key in (("checked", "checked_names"), ("violations", "violations"),
                              ("unjudged", "unjudged"))
        }  # fmt: skip
    return found


def measure_project(project: dp.Project, commit: str, scratch: Path) -> list[dict[str, Any]]:
    """One row per fence of the project's docs folder the gate reads or could read."""
    from pytest_postgates.evidence.repomap import load_parsers
    from pytest_postgates.post import parse_post

    parsers = load_parsers()
    if isinstance(parsers, str):
        sys.exit(f"fence_fragments: {parsers}")
    mirror = dp.mirror_of(project.name, Path(os.environ.get(dp.MIRRORS_ENV, dp.DEFAULT_MIRRORS)))
    site = dp.prepare_site(mirror, commit, project.docs, scratch)
    dp.gate_site(project, commit, site, scratch / "cards", 15)
    entries = card_entries(scratch / "cards", site)
    rows: list[dict[str, Any]] = []
    for path in sorted((site / project.docs).rglob("*")):
        if path.suffix not in (".md", ".mdx") or not path.is_file():
            continue
        doc = str(path.relative_to(site))
        on_doc = entries.get(doc, {})
        for fence in parse_post(path).fences:
            group = language_of(fence)
            if group is None or not fence.content.strip():
                continue
            read, status, total, in_error = read_as_gate(fence, parsers)
            lines = range(fence.start_line + 1, fence.end_line + (0 if fence.closed else 1))
            counts = {kind: sum(line in lines for line in found) for kind, found in on_doc.items()}
            rows.append({
                "project": project.name, "doc": doc, "line": fence.start_line,
                "language": group, "read_as": read, "shape": shape_of(group, fence.content),
                "status": status, "identifiers": total, "in_error": in_error,
                "checked": counts.get("checked", 0), "violations": counts.get("violations", 0),
                "unjudged": counts.get("unjudged", 0),
            })  # fmt: skip
    return rows


def summarise(rows: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per ``language/shape`` and ``all``: fences, by status, identifiers (in error),
    gate 15's entries."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        for key in (f"{row['language']}/{row['shape']}", f"*/{row['shape']}", "all"):
            counts = table[key]
            counts["fences"] += 1
            counts[row["status"]] += 1
            for field in ("identifiers", "in_error", "checked", "violations", "unjudged"):
                counts[field] += int(row[field])
    return {key: dict(value) for key, value in sorted(table.items())}


def _share(counts: dict[str, Any]) -> str:
    total = counts.get("identifiers", 0)
    return f"{100 * counts.get('in_error', 0) / total:.0f}%" if total else "-"


def _cell(counts: dict[str, Any] | None) -> str:
    if not counts:
        return "-"
    parsed = "/".join(str(counts.get(k, 0)) for k in ("clean", "errors", "none", "unread"))
    entries = "/".join(str(counts.get(k, 0)) for k in ("checked", "violations", "unjudged"))
    return f"{counts['fences']:>4} {parsed:>15} {_share(counts):>4} {entries:>12}"


HEADER = f"{'n':>4} {'ok/err/none/unread':>15} {'err%':>4} {'chk/viol/unj':>12}"


def report_lines(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    """The table, one row per ``language/shape``; with ``before``, side by side."""
    keys = sorted(set(after) | set(before or {}), key=lambda k: (k != "all", k.startswith("*"), k))
    width = max([len("language/shape"), *(len(k) for k in keys)])
    lines = []
    if before is not None:
        lines.append(f"{'':<{width}}  {'before':<38} | after")
    lines.append(f"{'language/shape':<{width}}  " + (f"{HEADER} | " if before is not None else "")
                 + HEADER)  # fmt: skip
    for key in keys:
        left = f"{_cell((before or {}).get(key)):<38} | " if before is not None else ""
        lines.append(f"{key:<{width}}  {left}{_cell(after.get(key))}")
    return lines


def record_results(out: Path, args: argparse.Namespace, summary: dict[str, Any]) -> None:
    sys.path.insert(0, str(HERE.parent))
    from bench.results_json import Run

    run = Run("fence_fragments", {"projects": args.project or "tune half"})
    run.notes.append("statuses as the code measured reads each fence (fence_fragments where "
                     "it exists); entries: gate 15's checked names, violations, unjudged uses "
                     "on the fence's lines")  # fmt: skip
    rows = run.table(
        "Gate 15 fences of the tune half's docs folders, by language and shape",
        [{"name": "language/shape", "kind": "label"},
         *({"name": name, "kind": "figure"} for name in (
             "fences", "clean", "with errors", "not parsed", "not read",
             "identifiers in error %", "checked", "violations", "unjudged"))],
    )  # fmt: skip
    for key, counts in summary.items():
        total = counts.get("identifiers", 0)
        share = round(100 * counts.get("in_error", 0) / total, 1) if total else None
        rows.append([key, counts["fences"], counts.get("clean", 0), counts.get("errors", 0),
                     counts.get("none", 0), counts.get("unread", 0), share,
                     counts.get("checked", 0), counts.get("violations", 0),
                     counts.get("unjudged", 0)])  # fmt: skip
    run.write(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", action="append", help="owner/name (repeatable; default all)")
    parser.add_argument("--json", type=Path, help="write every fence's row and the table here")
    parser.add_argument("--results", type=Path, help="write the figures for the docs here")
    parser.add_argument("--cache", type=Path, help="XDG cache folder shared by the runs")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (json.loads(p.read_text(encoding="utf-8"))["summary"] for p in args.compare)
        print("\n".join(report_lines(before, after)))
        return 0
    dp.SHARED_CACHE[:] = [args.cache.resolve()] if args.cache else []
    projects = (*dp.TUNE_PROJECTS, *dp.GATE15_TUNE_EXTRA)
    chosen = [p for p in projects if not args.project or p.name in args.project]
    if args.project and len(chosen) != len(set(args.project)):
        sys.exit(f"fence_fragments: tune projects: {', '.join(p.name for p in projects)}")
    pins, _labels = dp.load_labels(dp.GATE15_TUNE_LABELS)
    rows: list[dict[str, Any]] = []
    for project in chosen:
        commit = pins.get(project.name)
        if commit is None:
            sys.exit(f"fence_fragments: no pin for {project.name} in {dp.GATE15_TUNE_LABELS}")
        with tempfile.TemporaryDirectory(prefix="postgates-fragments-") as scratch:
            found = measure_project(project, commit, Path(scratch))
        print(f"{project.name}: {len(found)} fences", flush=True)
        rows += found
    summary = summarise(rows)
    print("\n".join(report_lines(None, summary)))
    if args.json:
        payload = {"summary": summary, "rows": rows}
        args.json.write_text(json.dumps(payload, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if args.results:
        record_results(args.results, args, summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
