"""Gate 16 on outsider pages: call-graph claims that pages written outside a project
(tutorials, blog posts, architecture write-ups, Q&A answers) make about its internals,
labelled in bench/labels/gate16_outsider.jsonl (its frame and labelling rules at its top).

The page texts are third-party text and are not committed: each labelled page is read from
``$POSTGATES_OUTSIDER_PAGES/<sha1 of its url>.md`` (default
/work/shared/corpus/gate16-outsider/pages; ``--store URL`` writes one from stdin). For each
labelled (project, url, commit), a ``git clone --shared --no-checkout`` of the project's
mirror ``$POSTGATES_MIRRORS/<owner>+<name>/repo`` (default /work/.mirror), the page written
into the clone's flat docs folder (bench/wiring_mined.py's layout) and gate 16 run against the
repository at the commit, as bench/wiring_planted.py runs it. A row's line is found again by
its ``line_sha1`` (a page whose text changed is reported, not gated). A claim counts as
contradicted when gate 16 contradicts a claim on its line.

It prints each row's outcome (the gate's claims on the line, with their evidence) and, per
half (a project of bench/wiring_recall.py's TUNE_PROJECTS or bench/wiring_mined.py's
DRAWN_TUNE is tune, any other report): false claims contradicted / labelled, true claims
contradicted / labelled (each with a 95% Wilson interval), and the rows gate 16 leaves
unjudged, with its reasons. ``--neurolink`` runs bench/wiring_recall.py's NeuroLink
measurement beside it (the control: precision 9/9, recall 9/10 at session 16's start).
``--frame`` prints, for every stored page, the lines the frame's rule reads (a gate-13 shape
gate 16 lists, prose, at least two code-shaped names; the first three), against the
project's mirror HEAD.

    python bench/wiring_outsider.py [--labels FILE] [--pages DIR] [--mirrors DIR] [--neurolink]
    python bench/wiring_outsider.py --frame --project vitest-dev/vitest
    python bench/wiring_outsider.py --store URL < page.txt
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LABELS = HERE / "labels" / "gate16_outsider.jsonl"
PAGES = Path(
    os.environ.get("POSTGATES_OUTSIDER_PAGES", "/work/shared/corpus/gate16-outsider/pages")
)
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
from holdout_precision import wilson  # noqa: E402
from wiring_mined import DRAWN_TUNE, gate_pages  # noqa: E402
from wiring_recall import CODES, TUNE_PROJECTS  # noqa: E402

CLAIM_LINES_PER_PAGE = 3
# A code-shaped name as the frame's rule reads one: a code span, a name with a call's
# parentheses, a dotted name, a camelCase or CamelCase name with an inner capital, a
# snake_case name.
_CODE_SHAPED = re.compile(
    r"`[^`\n]+`"
    r"|[A-Za-z_$][\w$]*\(\)"
    r"|\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+"
    r"|\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*"
    r"|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*"
    r"|\b[a-z][a-z0-9]*_[a-z0-9_]+"
)


def page_file(pages: Path, url: str) -> Path:
    return pages / (hashlib.sha1(url.encode("utf-8")).hexdigest() + ".md")


def line_sha1(text: str) -> str:
    return hashlib.sha1(text.strip().encode("utf-8")).hexdigest()


def code_shaped_names(line: str) -> list[str]:
    return _CODE_SHAPED.findall(line)


def gate_page(
    project: str, commit: str, text: str, mirrors: Path
) -> tuple[str, list[dict[str, Any]]]:
    """Gate 16's claims on the page, gated at the commit; and the full commit (or why the
    page could not be gated, with no claims)."""
    mirror = mirrors / project.replace("/", "+") / "repo"
    if not mirror.is_dir():
        return f"no mirror at {mirror}", []
    full, claims, _texts = gate_pages(mirror, commit, {"outsider-page.md": text})
    return full, claims["outsider-page.md"]


def frame_lines(text: str, claims: list[dict[str, Any]]) -> list[int]:
    """The lines the frame's rule reads: a shape gate 16 lists on a prose line holding at
    least two code-shaped names; the first three of the page."""
    lines = text.splitlines()
    flagged = sorted(
        {
            c["line"]
            for c in claims
            if c["code"] in CODES and not c["evidence"].startswith("a line of fenced")
        }
    )
    chosen = [n for n in flagged if len(code_shaped_names(lines[n - 1])) >= 2]
    return chosen[:CLAIM_LINES_PER_PAGE]


def _half(project: str) -> str:
    return "tune" if project in TUNE_PROJECTS + DRAWN_TUNE else "report"


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t[:1] == "{"]


def measure(rows: list[dict[str, Any]], pages: Path, mirrors: Path) -> int:
    """Gate each labelled page once and print the rows' outcomes and the figures."""
    # half -> label -> [contradicted, labelled]
    tally: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    unjudged: dict[str, list[str]] = defaultdict(list)
    gated: dict[tuple[str, str, str], tuple[str, list[dict[str, Any]]]] = {}
    for row in rows:
        key = (str(row["project"]), str(row["url"]), str(row["commit"]))
        half = _half(key[0])
        source = page_file(pages, key[1])
        if not source.is_file():
            print(f"{key[1]}: no stored page at {source}; not gated")
            unjudged[half].append(f"{row['claim']}: page not stored")
            continue
        text = source.read_text(encoding="utf-8")
        lines = text.splitlines()
        number = int(row["line"])
        if number > len(lines) or line_sha1(lines[number - 1]) != row["line_sha1"]:
            print(f"{key[1]}:{number}: the stored page's line differs from the labelled one")
            unjudged[half].append(f"{row['claim']}: stored page changed")
            continue
        if key not in gated:
            gated[key] = gate_page(key[0], key[2], text, mirrors)
        commit, claims = gated[key]
        found = [c for c in claims if c["line"] == number and c["code"] in CODES]
        contradicted = any(c["verdict"] == "contradicted" for c in found)
        if row["label"] in ("true", "false"):
            cell = tally[half][row["label"]]
            cell[0] += contradicted
            cell[1] += 1
            if not any(c["verdict"] != "unjudged" for c in found):
                reasons = "; ".join(c["evidence"][:120] for c in found) or "no claim listed"
                unjudged[half].append(f"{row['claim']} [{row['label']}]: {reasons}")
        print(
            f"{key[0]} {key[1]}:{number} at {commit[:12]} ({half}): {row['claim']} "
            f"[{row['label']}] -> " + ("contradicted" if contradicted else "not contradicted")
        )
        for claim in found or [{"code": "-", "verdict": "-", "evidence": "gate 16 lists no claim"}]:
            print(f"    {claim['code']} {claim['verdict']}: {claim['evidence'][:150]}")
    for half in ("tune", "report"):
        for label, what in (
            ("false", "false claims contradicted"),
            ("true", "true claims contradicted"),
        ):
            hit, total = tally[half][label]
            bounds = wilson(hit, total)
            shown = "n/a" if bounds is None else f"{100 * bounds[0]:.1f}-{100 * bounds[1]:.1f}%"
            print(f"{half} half, outsider pages: {what}: {hit}/{total} (95% Wilson {shown})")
        print(f"{half} half, outsider pages: unjudged: {len(unjudged[half])}")
        for reason in unjudged[half]:
            print(f"    {reason}")
    return 0


def show_frame(pages: Path, mirrors: Path, projects: list[str], urls: dict[str, str]) -> int:
    """Print the frame's claim lines of every stored page whose url the labels name for the
    projects (pages are named by their url's sha1, so only labelled urls are known)."""
    for url, project in sorted(urls.items()):
        if projects and project not in projects:
            continue
        text = page_file(pages, url).read_text(encoding="utf-8")
        commit, claims = gate_page(project, "HEAD", text, mirrors)
        lines = text.splitlines()
        for number in frame_lines(text, claims):
            names = ", ".join(code_shaped_names(lines[number - 1]))
            print(f"{project} {url}:{number} at {commit[:12]}: {names}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--pages", type=Path, default=PAGES)
    parser.add_argument(
        "--mirrors", type=Path, default=Path(os.environ.get("POSTGATES_MIRRORS", "/work/.mirror"))
    )
    parser.add_argument("--neurolink", action="store_true", help="the NeuroLink control beside")
    parser.add_argument("--frame", action="store_true", help="print the frame's claim lines")
    parser.add_argument("--project", action="append", default=[])
    parser.add_argument("--store", metavar="URL", help="store stdin as the page of URL")
    args = parser.parse_args(argv)
    if args.store:
        target = page_file(args.pages, args.store)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(sys.stdin.read(), encoding="utf-8")
        print(target)
        return 0
    rows = _rows(args.labels)
    if args.frame:
        urls = {str(row["url"]): str(row["project"]) for row in rows}
        return show_frame(args.pages, args.mirrors, args.project, urls)
    status = measure(rows, args.pages, args.mirrors)
    if args.neurolink:
        import wiring_recall

        print("control: bench/wiring_recall.py on the NeuroLink posts")
        status = status or wiring_recall.main([])
    return status


if __name__ == "__main__":
    sys.exit(main())
