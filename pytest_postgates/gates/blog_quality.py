"""Gate 1, blog_quality (hard): the post is a publishable Jekyll post.

The seeds' gate 1 wraps the blog's own tools (``audit_posts.py``, ``verify_all.py``,
``validate-mermaid.sh``). Their checks are carried over here, so a blog without such tools
still gets them, and the tools themselves can still be run (``audit_commands``):

1. Front matter (NO_FRONT_MATTER, FRONT_MATTER_KEY, FRONT_MATTER_DATE, FRONT_MATTER_LIST).
   A file without front matter is a finding where front matter is required
   (``require_front_matter``: by default under a ``_posts`` folder); elsewhere, a docs
   page, it is a post with empty front matter and nothing here to check. The keys a Jekyll
   post needs (``required_front_matter``; a key set to null or "" is missing). ``date``
   parses: a YAML date or timestamp, or a string ``YYYY-MM-DD[ HH:MM[:SS[.f]]][ zone]``
   (zone ``Z``, ``UTC``, ``+0530``, ``+05:30``), which is what Jekyll writes and reads. A
   ``YYYY-MM-DD-slug.md`` file name's date is a real date (Jekyll stops the build on a date
   it cannot parse). That the calendar date *as written* (its own time zone) agrees with
   the file name's is house style (``enforce_date_matches_file_name``): Jekyll builds a post
   whose dates differ, dated and linked by its front matter, so unset a difference is
   listed as advice, never a failure. ``categories``/``tags``: Jekyll takes a YAML list, or
   a string it splits on spaces. A list holds only non-empty strings: YAML turns ``2026``,
   ``yes`` or ``1.10`` into numbers and booleans, which Jekyll keeps in ``tags``, so tag
   pages see ``1.1`` for ``1.10``. A string is accepted, except with a comma (``tags: ai, rag``).
2. Body-line floor (BODY_TOO_SHORT): lines after the front matter, blank lines and code
   included, trailing blank lines not, enforced where ``body_line_floor`` is set. It is
   house style (helpers/house_style.py): unset, a blog post under the seeds' calibrated
   :data:`DEFAULT_BODY_LINE_FLOOR` (200, where the NeuroLink blog's posts pile up,
   ``bench/measure_body_line_floor.py``) is listed as advice, never a failure.
3. Placeholder text (PLACEHOLDER) in prose, front matter values, headings, tables and HTML
   comments; never in fenced or indented code, inline code spans or URLs, so a post *about*
   markers can quote them in backticks. Markers are matched case-sensitively in capitals
   (``TODO``, ``TBD``, ``FIXME``, ``XXX``, or ``Todo:``-style with a colon): drafters and
   editors write markers in capitals, while the lower-case words are ordinary text ("a
   todo app", "sk-xxx" for a redacted key); "TODOs" (talk about markers) is not a marker.
   ``lorem ipsum``, ``[insert ...]``, ``[placeholder ...]``, ``<placeholder>`` and ``<insert
   ...>`` are matched in any case. A line that says only "coming soon" is a placeholder.
   One a quotation on its line encloses (``"will it help [insert application]?"``) is the
   post quoting a template: listed as ``quoted_placeholders``, not failed.
   Calibrated on the real corpus: zero hits in 130 published posts.
4. Every ``mermaid`` block parses with real mermaid.js (MERMAID_PARSE, with the diagram's
   own line when mermaid names one). Liquid ``{% raw %}`` tags are removed first: Jekyll
   processes them before the page reaches mermaid.
5. ``audit_commands`` (AUDIT): the blog's own audit scripts, each run once per test run for
   the whole corpus (argument lists via :func:`shlex.split`, never a shell; the working
   folder is the git work tree holding the posts; :data:`AUDIT_TIMEOUT`). Lenient, as in the
   seeds: lines ``! <file>: <msg>`` and ``ERROR: <path>:<line>`` count only for the post they
   name (by path, else file name), other lines and the exit status never fail this post,
   "orphan" is tolerated. A command that cannot start or times out is an ERROR.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_postgates.config import option
from pytest_postgates.gates.base import CannotJudge, CheckResult, Decision, Gate, GateContext
from pytest_postgates.helpers import house_style
from pytest_postgates.helpers.front_matter_rules import check_front_matter
from pytest_postgates.post import Post, PostRefused, read_post_bytes
from pytest_postgates.prose import blank_code_and_urls
from pytest_postgates.scan import Delimited, Found, Scanner, closed_by
from pytest_postgates.scorecard import Finding
from pytest_postgates.tools import mermaid as mermaid_module
from pytest_postgates.tools import page_kind, site
from pytest_postgates.tools.audit import blog_root, run_audit_command
from pytest_postgates.tools.mermaid import (
    CACHE_SCHEMA,
    MermaidEngineError,
    MermaidParser,
    MermaidResult,
    diagram_key,
    mermaidx_version,
    shared_parser,
)

MERMAID_BATCH = "blog_quality.mermaid"
AUDIT_BATCH = "blog_quality.audit"
# Calibrated on the NeuroLink blog (130 published posts): 128 (98.5%) have at least 200 body
# lines and they cluster just above it (200, 200, 201, 202, 203, ...), the mark of a floor
# that was enforced; see bench/measure_body_line_floor.py.
DEFAULT_BODY_LINE_FLOOR = 200
AUDIT_TIMEOUT = 600.0  # seconds per audit command (the seeds' tools scan the whole blog)
DETAIL_LIMIT = 200  # placeholder hits listed in a scorecard (all of them are findings)
# House style (helpers/house_style.py): a front matter date that is not the file name's.
DATE_NAME_KEYS = ("enforce_date_matches_file_name",)


# ------------------------------------------------------------------------ body lines
def body_line_count(post: Post) -> int:
    """Lines after the front matter, blank lines and code included, trailing blank lines
    not (an editor's line count of the body, as the seeds' floor counts)."""
    count = len(post.lines) - (post.body_start_line - 1)
    while count > 0 and not post.lines[post.body_start_line - 2 + count].strip():
        count -= 1
    return max(count, 0)


# ------------------------------------------------------------------------ placeholders
PLACEHOLDER_PATTERNS: tuple[tuple[str, re.Pattern[str] | Scanner], ...] = (
    ("marker", re.compile(r"(?<![\w-])(?:TODO|TBD|FIXME|XXX)(?![\w-])|\b(?:Todo|Tbd|Fixme)(?=:)")),
    ("lorem ipsum", re.compile(r"\blorem\s+ipsum\b", re.I)),
    # \[\s*(?:insert|placeholder)\b[^\]\n]*\] and <\s*(?:placeholder|insert)\b[^>\n]*>
    # (re.I), each unclosed opening read once, not once per opening (pytest_postgates.scan)
    (
        "bracketed",
        Delimited(
            r"\[\s*(?:insert|placeholder)\b[^\]\n]*\]",
            re.compile(r"\[\s*(?:insert|placeholder)\b", re.I),
            closed_by("\\]\n", "]"),
        ),
    ),
    (
        "angle",
        Delimited(
            r"<\s*(?:placeholder|insert)\b[^>\n]*>",
            re.compile(r"<\s*(?:placeholder|insert)\b", re.I),
            closed_by(">\n", ">"),
        ),
    ),
    (
        "coming soon",
        re.compile(r"^[\s#>*_(\[-]*coming\s+soon[\s.!…)\]*_]*$", re.I),
    ),
)


def _scanned_lines(post: Post) -> Iterator[tuple[int, str, str]]:
    """(file line, text, text with code spans and URLs blanked) of every line a reader or
    a page's metadata shows: front matter values and the body outside fenced and indented
    code (the prose view's lines)."""
    for number in range(2, post.body_start_line - 1):
        text = post.lines[number - 1]
        if ":" in text and re.match(r"^\s*[\w'\"-]+\s*:", text):
            text = " " * (text.index(":") + 1) + text[text.index(":") + 1 :]
        yield number, text, blank_code_and_urls(text)
    for number, blanked in post.prose.lines(html="source", urls=True):
        yield number, post.lines[number - 1], blanked


# Per pattern, a regex that finds something in the scanned lines joined with newlines
# whenever the pattern matches one of them (a literal every match holds, with the
# pattern's own flags): one fast search of the whole post rules a pattern out, instead of
# one search per line (the markers' look-arounds alone cost 0.17 s on the real corpus).
_PLACEHOLDER_PREFILTERS: dict[str, re.Pattern[str]] = {
    "marker": re.compile(r"TODO|TBD|FIXME|XXX|Todo|Tbd|Fixme"),
    "lorem ipsum": re.compile(r"lorem", re.I),
    "bracketed": re.compile(r"\[\s*(?:insert|placeholder)\b", re.I),
    "angle": re.compile(r"<\s*(?:placeholder|insert)\b", re.I),
    "coming soon": re.compile(r"soon", re.I),
}


def find_placeholders(post: Post) -> list[dict[str, Any]]:
    hits: list[dict[str, Any]] = []
    lines = list(_scanned_lines(post))
    joined = "\n".join(text for _, _, text in lines)
    patterns = [
        (kind, pattern)
        for kind, pattern in PLACEHOLDER_PATTERNS
        if _PLACEHOLDER_PREFILTERS[kind].search(joined) is not None
    ]
    if not patterns:
        return hits
    for number, raw, text in lines:
        for _kind, pattern in patterns:
            for match in pattern.finditer(text):
                hits.append(placeholder_hit(number, raw, text, match))
    return hits


def placeholder_hit(
    number: int, raw: str, text: str, match: re.Match[str] | Found
) -> dict[str, Any]:
    """One placeholder match; ``quoted`` when a quotation on its line encloses it."""
    hit: dict[str, Any] = {
        "line": number,
        "match": match.group(0).strip(),
        "text": raw.strip()[:160],
    }
    if in_quotation(text, match.start(), match.end()):
        hit["quoted"] = True
    return hit


_CLOSING_QUOTE = {'"': '"', "\u201c": "\u201d"}


def in_quotation(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` lies between an opening quotation mark and its closing
    one on the same line: the post quotes a template or a question with the blank in it
    ("will it help [insert downstream application]?"), a mention of a placeholder as
    backticks are, not a blank the author forgot to fill."""
    for opening, closing in _CLOSING_QUOTE.items():
        if opening == closing:
            if text.count(opening, 0, start) % 2 == 1 and closing in text[end:]:
                return True
        elif (
            text.rfind(opening, 0, start) > text.rfind(closing, 0, start) and closing in text[end:]
        ):
            return True
    return False


# ------------------------------------------------------------------------ mermaid
_LIQUID_RAW = re.compile(r"\{%-?\s*(?:end)?raw\s*-?%\}")


def mermaid_blocks(post: Post) -> list[tuple[int, str, bool]]:
    """(fence line, diagram text as mermaid receives it, closed) per mermaid block."""
    return [
        (fence.start_line, _LIQUID_RAW.sub("", fence.content), fence.closed)
        for fence in post.fences
        if fence.lang == "mermaid"
    ]


def _mermaid_results(post: Post, context: GateContext) -> dict[str, MermaidResult]:
    """Results for this post's diagrams. In a test run the diagrams of every post whose gate
    1 item is selected are parsed in one batch (parallel workers, one engine start per
    worker); results are cached by content, so a later run parses only changed diagrams."""
    codes = [code for _, code, closed in mermaid_blocks(post) if closed]
    if not codes:
        return {}
    parser = shared_parser(context.evidence.cache_dir)
    # The part of the batch that covers this post (the whole batch in one process).
    batch = context.batches.part(MERMAID_BATCH, post.path, lambda p: _parse_corpus(p, parser))
    results: dict[str, MermaidResult] = {}
    if batch is not None:
        if "error" in batch:
            raise MermaidEngineError(batch["error"])
        known, unchecked = batch["results"], set(batch.get("unchecked", ()))
        results = {
            c: MermaidResult.from_dict(known[diagram_key(c)])
            for c in codes
            if diagram_key(c) in known
        }
        # Left unchecked by the batch (the post's budget ran out there): not parsed again.
        codes = [c for c in codes if c not in results and diagram_key(c) not in unchecked]
    if codes:
        results.update(parser.parse_many(codes, post_budget=mermaid_module.POST_BUDGET))
    return results


_MERMAID_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*mermaid\b.*$")


def _mermaid_sources(data: bytes) -> list[str]:
    """The top-level mermaid fences of a post, read from its text without a Markdown parse.

    Only a prefetch for the run's batch: a diagram this misses (one inside a list, say) is
    parsed on its own when its post is checked, with the exact fences of the parsed post.
    Parsing every post here, in one process, would serialise the run and parse twice."""
    if b"mermaid" not in data:  # every fence this reads names it
        return []
    try:
        lines = data.decode("utf-8").replace("\r\n", "\n").split("\n")
    except UnicodeDecodeError:
        return []
    sources, index = [], 0
    while index < len(lines):
        match = _MERMAID_OPEN.match(lines[index])
        index += 1
        if not match:
            continue
        fence = match.group(1)
        body: list[str] = []
        while index < len(lines):
            line = lines[index].strip()
            if line and set(line) == {fence[0]} and len(line) >= len(fence):
                sources.append(_LIQUID_RAW.sub("", "\n".join(body) + "\n"))
                break
            body.append(lines[index])
            index += 1
        index += 1
    return sources


def _parse_corpus(posts: tuple[Path, ...], parser: MermaidParser) -> dict[str, Any]:
    post_of: dict[str, Path] = {}
    for path in posts:
        try:
            for code in _mermaid_sources(read_post_bytes(path)):
                post_of.setdefault(code, path)
        except PostRefused:  # a post that cannot be read gets its own ERROR item
            continue
    try:
        results = parser.parse_many(post_of, mermaid_module.POST_BUDGET, post_of)
    except MermaidEngineError as exc:
        return {"error": str(exc)}
    return {
        "results": {diagram_key(code): result.to_dict() for code, result in results.items()},
        "unchecked": sorted(diagram_key(code) for code in post_of if code not in results),
    }


def check_mermaid(
    post: Post, context: GateContext
) -> tuple[list[Finding], dict[str, Any], list[str]]:
    """(findings, detail, engine errors)."""
    blocks = mermaid_blocks(post)
    findings: list[Finding] = []
    errors: list[str] = []
    rows: list[dict[str, Any]] = []
    if not blocks:
        return findings, {"blocks": 0, "failing": 0, "results": rows}, errors
    try:
        results = _mermaid_results(post, context)
    except MermaidEngineError as exc:
        errors.append(f"mermaid could not be started: {exc}")
        results = {}
    for line, code, closed in blocks:
        if not closed:
            findings.append(
                Finding(
                    line,
                    "MERMAID_PARSE",
                    "mermaid block is never closed: everything after it renders as code",
                    fix="close the block with ``` on its own line",
                )
            )
            rows.append({"line": line, "ok": False, "kind": "unclosed"})
            continue
        result = results.get(code)
        if result is None:
            rows.append({"line": line, "ok": False, "kind": "unchecked"})
            continue
        row: dict[str, Any] = {"line": line, "ok": result.ok, "kind": result.kind}
        if result.ok:
            row["type"] = result.diagram_type
        elif result.kind == "engine":
            errors.append(f"mermaid engine failed on the block at line {line}: {result.message}")
            row["message"] = result.message
        else:
            where = line + result.line if result.line is not None else line
            row.update({"message": result.message, "error_line": where})
            findings.append(
                Finding(
                    where,
                    "MERMAID_PARSE",
                    f"mermaid block at line {line} does not parse: {result.message}",
                    fix="fix the diagram so that mermaid parses it (try it in mermaid.live)",
                )
            )
        rows.append(row)
    detail = {
        "blocks": len(blocks),
        "failing": sum(1 for row in rows if not row["ok"]),
        "results": rows,
    }
    unchecked = [row["line"] for row in rows if row["kind"] == "unchecked"]
    if unchecked and not errors:
        # Never passed unseen: the gate cannot judge the post until they are parsed.
        detail["unchecked"] = len(unchecked)
        errors.append(
            f"mermaid's budget of {mermaid_module.POST_BUDGET:g} s for this post's diagrams "
            f"ran out: {len(unchecked)} block(s) unchecked (lines "
            f"{', '.join(map(str, unchecked))}); their results are not cached, the next run "
            "parses them"
        )
    return findings, detail, errors


# ------------------------------------------------------------------------ audit commands
_TOLERATED = re.compile(r"\borphan|\bno incoming links?\b", re.I)


def _audit_batch(context: GateContext, post: Post) -> dict[str, Any]:
    commands = tuple(context.settings.for_gate(BlogQualitySettings).audit_commands)
    root = blog_root(post.path)
    digest = hashlib.sha1("\0".join((str(root), *commands)).encode()).hexdigest()[:12]

    def compute() -> dict[str, Any]:
        return {"commands": [run_audit_command(c, root, AUDIT_TIMEOUT) for c in commands]}

    posts = context.batches.posts_for(AUDIT_BATCH)
    if posts and post.path in posts:
        batch: dict[str, Any] = context.batches.get(f"{AUDIT_BATCH}.{digest}", compute)
        return batch
    return compute()


def _names_post(entry: dict[str, Any], post: Post) -> bool:
    if entry["resolved"] is not None:
        return bool(entry["resolved"] == str(post.path.resolve()))
    return bool(entry["name"] == post.path.name)


def check_audit(
    post: Post, context: GateContext
) -> tuple[list[Finding], dict[str, Any], list[str]]:
    if not context.settings.for_gate(BlogQualitySettings).audit_commands:
        return [], {"commands": []}, []
    batch = _audit_batch(context, post)
    findings: list[Finding] = []
    errors: list[str] = []
    rows = []
    for entry in batch["commands"]:
        if entry["error"]:
            errors.append(entry["error"])
        mine = [line for line in entry["lines"] if _names_post(line, post)]
        tolerated = [line for line in mine if _TOLERATED.search(line["message"])]
        counted = [line for line in mine if line not in tolerated]
        for line in counted:
            message = line["message"] or "reported an error"
            findings.append(
                Finding(
                    line["line"],
                    "AUDIT",
                    f"{entry['command']}: {message}",
                    fix="fix what the blog's audit tool reports for this post",
                )
            )
        rows.append(
            {
                "command": entry["command"],
                "returncode": entry["returncode"],
                "error": entry["error"],
                "this_post": [{"line": x["line"], "message": x["message"]} for x in counted],
                "tolerated": [{"line": x["line"], "message": x["message"]} for x in tolerated],
                "other_posts": len(entry["lines"]) - len(mine),
            }
        )
    return findings, {"commands": rows}, errors


# ------------------------------------------------------------------------ the gate
def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings.for_gate(BlogQualitySettings)
    set_floor = settings.body_line_floor
    floor_is_default = set_floor is None
    floor = DEFAULT_BODY_LINE_FLOOR if set_floor is None else set_floor
    house: dict[str, Any] = {}

    required = settings.front_matter_required(post.path)
    findings, front_detail, mismatch = check_front_matter(
        post, required_keys(settings, post.path, context), required
    )
    if mismatch is not None and not settings.enforce_date_matches_file_name:
        findings = [finding for finding in findings if finding is not mismatch]
        if settings.enforce_date_matches_file_name is None:  # not adopted: advice
            house[DATE_NAME_KEYS[0]] = house_style.listed(
                [mismatch],
                "Jekyll dates and links a post by its front matter date when it differs "
                "from the file name's, and builds it: the agreement is house style this "
                f"project has not adopted; set `{DATE_NAME_KEYS[0]} = true` to enforce it",
            )
    body_lines = body_line_count(post)
    # The calibrated floor is a blog-post length: a docs page (no front matter, none required,
    # or a docs-site generator's page, short by design) gets a floor only when one is set.
    generator = page_kind.generator_of_page(post.path, context.memo)
    docs_page = (post.front_matter_format is None and not required) or (
        generator in page_kind.DOCS_GENERATORS
    )
    if floor_is_default and docs_page:
        floor = 0
    short: list[Finding] = []
    if body_lines < floor:
        fix = f"expand the post by at least {floor - body_lines} line(s) of real content"
        message = f"the body has {body_lines} lines, under the floor of {floor}"
        short.append(Finding(post.body_start_line, "BODY_TOO_SHORT", message, fix=fix))
    if floor_is_default and floor:  # a blog post's floor the project has not adopted
        floor_text = f"a floor of {floor} body lines"
        house["body_line_floor"] = house_style.advice(short, ["body_line_floor"], floor_text)
        floor, short = 0, []
    findings.extend(short)
    found = find_placeholders(post)
    placeholders = [hit for hit in found if not hit.get("quoted")]
    # A quoted one is listed on the card, not failed: quoting is how prose mentions a blank.
    quoted = [hit for hit in found if hit.get("quoted")]
    findings.extend(
        Finding(
            hit["line"],
            "PLACEHOLDER",
            f"placeholder text {hit['match']!r}: {hit['text']}",
            fix="replace the placeholder with the real content (quote a marker in backticks "
            "when the post is about it)",
        )
        for hit in placeholders
    )
    mermaid_findings, mermaid_detail, errors = check_mermaid(post, context)
    findings.extend(mermaid_findings)
    audit_findings, audit_detail, audit_errors = check_audit(post, context)
    findings.extend(audit_findings)
    errors.extend(audit_errors)

    by_code = Counter(finding.code for finding in findings)
    detail: dict[str, Any] = {
        "front_matter": front_detail,
        "body_lines": body_lines,
        "body_line_floor": floor,
        "body_line_floor_default": floor_is_default,
        "placeholders": placeholders[:DETAIL_LIMIT],
        "placeholder_count": len(placeholders),
        "quoted_placeholders": quoted[:DETAIL_LIMIT],
        "mermaid": mermaid_detail,
        "audit": audit_detail,
        "by_code": dict(sorted(by_code.items())),
    }
    if house:
        detail[house_style.DETAIL_KEY] = house
    if errors:
        detail["errors"] = errors
        raise CannotJudge("ERROR", "; ".join(errors), detail, findings)
    return CheckResult(findings, detail)


def decide(result: CheckResult, settings: BlogQualitySettings) -> Decision:
    findings, detail = result.findings, result.detail
    if findings:
        by_code = Counter(finding.code for finding in findings)
        summary = ", ".join(f"{count} {code}" for code, count in sorted(by_code.items()))
        return Decision("FAIL", summary + house_style.summary_note(detail), len(findings))
    summary = (
        f"front matter ok; {detail['body_lines']} body lines (floor {detail['body_line_floor']}); "
        f"no placeholders; {detail['mermaid']['blocks']} mermaid block(s) parse"
    )
    return Decision("PASS", summary + house_style.summary_note(detail), 0)


def cache_inputs(post_path: Path, context: GateContext) -> str | None:
    """Besides the post's bytes and the settings (already in the result-cache key), the
    verdict depends on the file name (the date check) and on mermaid.js (the mermaidx
    version). Audit tools read the whole blog, so with ``audit_commands`` nothing is
    cached."""
    settings = context.settings.for_gate(BlogQualitySettings)
    if settings.audit_commands:
        return None
    required = settings.front_matter_required(post_path)
    keys = ",".join(required_keys(settings, post_path, context))
    return (
        f"name={post_path.name};front-matter-required={required};keys={keys};"
        f"mermaidx={mermaidx_version()};mermaid-cache={CACHE_SCHEMA}"
    )


def required_keys(
    settings: BlogQualitySettings, path: Path, context: GateContext
) -> tuple[str, ...]:
    """``required_front_matter`` where it is set, else the keys of the site generator that
    builds ``path`` (site.generator_front_matter), found once per folder per run."""
    if settings.required_front_matter is not None:
        return tuple(settings.required_front_matter)
    return site.generator_front_matter(page_kind.generator_of_page(path, context.memo), path)


@dataclass(frozen=True)
class BlogQualitySettings:
    """Gate 1's settings."""

    body_line_floor: int | None = option(
        None,
        "int",
        "minimum body lines, enforced where set (house style)",
        bounds=(0, True, None),
        shown_default=f"not enforced; a blog post under {DEFAULT_BODY_LINE_FLOOR} (calibrated) "
        "is listed as advice",
    )
    # None: the keys the site generator needs (see required_keys).
    required_front_matter: tuple[str, ...] | None = option(
        None,
        "strs",
        "front matter keys a post needs",
        shown_default="by site generator: Jekyll `layout`, `title`, `date` (not `date` for a "
        "file named `YYYY-MM-DD-slug`); Hugo `title`; "
        "MkDocs, VitePress, Docusaurus none",
    )
    enforce_date_matches_file_name: bool | None = option(
        None,
        "bool",
        "a front matter date that differs from a `YYYY-MM-DD-slug` file name's fails "
        "(FRONT_MATTER_DATE; house style)",
        shown_default="not enforced; a date that differs is listed as advice",
    )
    # None: required under a ``_posts`` folder only (see front_matter_required).
    require_front_matter: bool | None = option(
        None,
        "bool",
        "a file without front matter is a finding (else an empty front matter)",
        shown_default="true under `_posts`, false elsewhere",
    )
    audit_commands: tuple[str, ...] = option(
        (), "strs", "the blog's audit scripts, run once per run, lenient"
    )

    def front_matter_required(self, path: Path) -> bool:
        """Whether a file without front matter is a finding: the setting where it is
        given, else only for Jekyll posts (a ``_posts`` folder on the path)."""
        if self.require_front_matter is not None:
            return self.require_front_matter
        return "_posts" in path.parts


GATE = Gate(
    id=1,
    name="blog_quality",
    advisory=False,
    kind="hard",
    description="Front matter, body length, placeholders and mermaid diagrams are valid.",
    check=check,
    decide=decide,
    cache_inputs=cache_inputs,
    batches=(MERMAID_BATCH, AUDIT_BATCH),
    settings=BlogQualitySettings,
)
