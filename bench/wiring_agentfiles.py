"""Gate 16 held out on agent files: the call-graph claims of the instruction and architecture
files repositories commit for coding agents (AGENTS.md, CLAUDE.md, GEMINI.md,
.github/copilot-instructions.md, .cursorrules, and docs/architecture*.md pages they name),
labelled in bench/labels/gate16_agentfiles.jsonl (its frame, seeds, split and labelling rules
at its top).

Each file is gated as a page of its repository at the row's ``parent`` (the pin for the
census and sample rows, a fix's parent for the mined ones): a ``git clone --shared
--no-checkout`` of the mirror ``$POSTGATES_MIRRORS/<owner>+<name>/repo`` (default
/work/.mirror), the file written flat into it, gate 16 run as bench/wiring_planted.py runs it.
A claim counts as contradicted when gate 16 contradicts a claim on its line.

    python bench/wiring_agentfiles.py [--half tune] [--half report] [--neurolink]
    python bench/wiring_agentfiles.py frame [--half tune] [--tier 2]   # the census and
        sample lines, seeded, with gate 16's claims on each (for labelling; prints file text)
    python bench/wiring_agentfiles.py mined [--half tune] [--tier 2]   # the mined frame, seeded

The default prints, per half, each labelled row's outcome and the false claims contradicted
/ labelled, the true claims contradicted / labelled (95% Wilson intervals), and the claims
gate 16 leaves unjudged on the labelled lines by reason; ``--neurolink`` runs
bench/wiring_recall.py's NeuroLink control beside them (precision and recall on the posts).
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LABELS = HERE / "labels" / "gate16_agentfiles.jsonl"
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
from holdout_precision import wilson  # noqa: E402
from wiring_frames import PINNED_VERB, _commit_candidates, _git  # noqa: E402
from wiring_mined import gate_pages  # noqa: E402
from wiring_recall import CODES  # noqa: E402

SEED = 20261204
# The split the labels file records (drawn with seed 20261207 before any file was read).
TUNE = (
    "colinhacks/zod",
    "Nick-Hillebrand/SpaceAdventures",
    "Inojoza28/financechat",
    "microsoft/pyright",
    "vitest-dev/vitest",
    "pyodide/pyodide",
    "excalidraw/excalidraw",
    "facebook/lexical",
    "RESMP-DEV/metal-marlin",
    "Invigorated1/habit-wellness-app",
    # tier 5 (nested agent notes)
    "3wz/opencode-mem",
    "A1pha3/openclaw",
    "Kolonie-AI/kolonie-platform",
)
REPORT = (
    "InnovateonSolutions/ebuddy",
    "InnovationMachineRu/designmd_editor",
    "RFLOVE-Glitch/servicenow-security-incident-automation-lab",
    # tier 4: existing report-half projects (the labels file's PROJECT TIER 4)
    "google-gemini/gemini-cli",
    "conda/conda",
    "pydantic/pydantic-ai",
    "strawberry-graphql/strawberry",
    "vitejs/vite",
    "eslint/eslint",
    "jestjs/jest",
    # tier 5, report
    "Casual-AI-Coding/shard-den",
    "PROJECT-OBA/krynix",
    "AbdullahBakir97/DevTrust",
)
HALVES = {"tune": TUNE, "report": REPORT}
PINS = {
    "colinhacks/zod": "e516c3baf",
    "Nick-Hillebrand/SpaceAdventures": "32bfbe5",
    "Inojoza28/financechat": "6dcce89",
    "microsoft/pyright": "93a6550b2",
    "vitest-dev/vitest": "c3ba16b35",
    "pyodide/pyodide": "fa8456589",
    "excalidraw/excalidraw": "4872083c04",
    "facebook/lexical": "5d5102235",
    "InnovateonSolutions/ebuddy": "4641e43",
    "InnovationMachineRu/designmd_editor": "bdb348e",
    "RESMP-DEV/metal-marlin": "a901e52",
    "Invigorated1/habit-wellness-app": "89ab4cc",
    "RFLOVE-Glitch/servicenow-security-incident-automation-lab": "1efd874",
    "google-gemini/gemini-cli": "5411f113c",
    "conda/conda": "0f64223fb",
    "pydantic/pydantic-ai": "4fda38988",
    "strawberry-graphql/strawberry": "53008d932",
    "vitejs/vite": "a98c8d95d",
    "eslint/eslint": "c27bc926e",
    "jestjs/jest": "52db46e50",
    "3wz/opencode-mem": "c16488b",
    "A1pha3/openclaw": "e8f7a5c4a",
    "Kolonie-AI/kolonie-platform": "f62ccdc5",
    "Casual-AI-Coding/shard-den": "83be266",
    "PROJECT-OBA/krynix": "2c76862",
    "AbdullahBakir97/DevTrust": "986ce3e",
}
AGENT_FILE = re.compile(
    r"(?:^|/)(?:(?:AGENTS|CLAUDE|GEMINI)\.md|\.github/copilot-instructions\.md|\.cursorrules)$"
)
ARCHITECTURE = re.compile(r"(?:^|/)docs/(?:.*/)?(architecture[^/]*\.md)$")
# a test input or vendored copy, not the project's instructions
LEFT_OUT = re.compile(
    r"(?:^|/)(?:node_modules|vendor|third_party|fixtures|__fixtures__|test|tests|__tests__)/"
)
ARCHITECTURE_ANY = re.compile(r"(?:^|/)architecture\.md$", re.IGNORECASE)
OTHER_AGENTS = re.compile(
    r"^(?:.*/)?(?:\.cursor/rules/.*\.mdc|\.github/instructions/.*\.md|\.claude/.*\.md)$"
)
NOT_PAGES = re.compile(
    r"(?:^|/)(?:README|CHANGELOG|CONTRIBUTING|LICENSE|CODE_OF_CONDUCT)[^/]*$", re.I
)
# a folder named for the code's design (a user docs site named as a folder is no agent text)
DESIGN_FOLDER = re.compile(r"(?:architecture|design|internals|adrs?|decisions)$", re.IGNORECASE)
# a path an agent file names: a Markdown file or a folder (a trailing slash)
PATH_NAMED = re.compile(r"[\w.@-]+(?:/[\w.@-]+)*(?:\.mdx?\b|/)")
_SPAN = re.compile(r"`[^`\n]+`")
_FENCE = ("```", "~~~")


def _mirror(mirrors: Path, project: str) -> Path:
    return mirrors / project.replace("/", "+") / "repo"


def agent_files(repo: Path, commit: str, tier: int = 1) -> list[str]:
    """The frame's files at ``commit``. Tier 1: the agent files, and the docs/architecture*.md
    pages one of them mentions by file name. Tier 2 (its files alone): the ARCHITECTURE.md
    pages, the Markdown files and folders the agent files name by path, and the other agents'
    instruction files (the labels file's FILE TIER 2)."""
    listed = [p for p in _git(repo, "ls-tree", "-r", "--name-only", commit).split("\n") if p]
    kept = [p for p in listed if not LEFT_OUT.search(p)]
    agents = [p for p in kept if AGENT_FILE.search(p)]
    texts = {p: _git(repo, "show", f"{commit}:{p}") for p in agents}
    said = "\n".join(texts.values())
    pages = [p for p in kept if (found := ARCHITECTURE.search(p)) and found.group(1) in said]
    first = set(agents) | set(pages)
    if tier == 1:
        return sorted(first)
    markdown = [p for p in kept if p.endswith((".md", ".mdx")) and not NOT_PAGES.search(p)]
    second = {p for p in kept if OTHER_AGENTS.search(p) or ARCHITECTURE_ANY.search(p)}
    for agent, text in texts.items():
        folder = posixpath.dirname(agent)
        for named in PATH_NAMED.findall(text):
            named = named.lstrip("./") if named.startswith("./") else named
            for base in {
                posixpath.normpath(named),
                posixpath.normpath(posixpath.join(folder, named)),
            }:
                if named.endswith("/"):
                    if not DESIGN_FOLDER.search(base):
                        continue
                    second |= {p for p in markdown if p.startswith(base + "/")}
                elif base in markdown:
                    second.add(base)
    return sorted(second - first)


def gate_files(
    project: str, commit: str, paths: list[str], mirrors: Path
) -> tuple[str, dict[str, list[dict[str, Any]]], dict[str, list[str]]]:
    """Gate 16's claims on each file at ``commit`` and each file's lines; the full commit."""
    full, claims, texts = gate_pages(_mirror(mirrors, project), commit, dict.fromkeys(paths))
    return full, claims, {path: text.splitlines() for path, text in texts.items()}


def _listed(claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        c for c in claims if c["code"] in CODES and not c["evidence"].startswith("a line of fenced")
    ]


def _prose_lines(lines: list[str]) -> list[int]:
    """The 1-based numbers of the lines outside fenced code."""
    fenced, kept = False, []
    for number, text in enumerate(lines, 1):
        if text.lstrip().startswith(_FENCE):
            fenced = not fenced
        elif not fenced:
            kept.append(number)
    return kept


def strata(
    claims: dict[str, list[dict[str, Any]]], texts: dict[str, list[str]]
) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The census lines (gate 16 read a claim's ends) and the not-read lines (listed without
    ends, or a call verb and two code spans with nothing listed), each sorted."""
    census: set[tuple[str, int]] = set()
    other: set[tuple[str, int]] = set()
    for path, found in claims.items():
        listed = _listed(found)
        census |= {(path, c["line"]) for c in listed if "subject" in c}
        other |= {(path, c["line"]) for c in listed}
        lines = texts[path]
        for number in _prose_lines(lines):
            text = lines[number - 1]
            if len(_SPAN.findall(text)) >= 2 and PINNED_VERB.search(text):
                other.add((path, number))
    return sorted(census), sorted(other - census)


def seeded(items: list[Any]) -> list[Any]:
    ordered = list(items)
    random.Random(SEED).shuffle(ordered)
    return ordered


def show_frame(halves: list[str], mirrors: Path, tier: int, only: list[str]) -> None:
    for half in halves:
        found: dict[str, list[tuple[str, str, int]]] = {"census": [], "sample": []}
        context: dict[tuple[str, str, int], tuple[str, list[dict[str, Any]], str]] = {}
        for project in HALVES[half]:
            if only and project not in only:
                continue
            repo = _mirror(mirrors, project)
            paths = agent_files(repo, PINS[project], tier)
            if not paths:
                continue
            full, claims, texts = gate_files(project, PINS[project], paths, mirrors)
            census, other = strata(claims, texts)
            for stratum, lines in (("census", census), ("sample", other)):
                for path, line in lines:
                    key = (project, path, line)
                    found[stratum].append(key)
                    on_line = [c for c in claims[path] if c["line"] == line]
                    context[key] = (full[:12], on_line, texts[path][line - 1])
        for stratum, keys in found.items():
            print(f"## {half} {stratum}: {len(keys)} lines")
            for index, key in enumerate(seeded(sorted(keys)), 1):
                commit, on_line, text = context[key]
                print(json.dumps({"n": index, "project": key[0], "commit": commit,
                                  "path": key[1], "line": key[2], "text": text.strip()[:400],
                                  "gate": [(c["code"], c["verdict"], c.get("subject", ""),
                                            c["evidence"][:160]) for c in on_line]}))  # fmt: skip


def show_mined(halves: list[str], mirrors: Path, tier: int) -> None:
    """The mined frame: wiring_frames.fixes's rule over the agent files' histories (tier 2:
    the tier-2 files', those at the pin and the pattern-named ones)."""
    tier_one = [
        ":(glob)**/AGENTS.md", ":(glob)**/CLAUDE.md", ":(glob)**/GEMINI.md",
        ":(glob)**/.github/copilot-instructions.md", ":(glob)**/.cursorrules",
        ":(glob)**/docs/**/architecture*.md",
    ]  # fmt: skip
    tier_two = [
        ":(glob,icase)**/ARCHITECTURE.md", ":(glob)**/.cursor/rules/**",
        ":(glob)**/.github/instructions/**", ":(glob)**/.claude/**",
    ]  # fmt: skip
    for half in halves:
        found = []
        for project in HALVES[half]:
            repo = _mirror(mirrors, project)
            pathspecs = tier_one
            if tier == 2:
                pathspecs = tier_two + agent_files(repo, PINS[project], 2)
            log = _git(repo, "log", "--no-merges", "-p", "-U0",
                       "--format=@@@COMMIT %H %P%n%s", "--", *pathspecs)  # fmt: skip
            files_at: dict[str, list[str]] = {}
            for chunk in log.split("@@@COMMIT ")[1:]:
                head, _, body = chunk.partition("\n")
                for candidate in _commit_candidates(project, head, body, True):
                    parent = candidate.parent
                    if parent not in files_at:
                        files_at[parent] = agent_files(repo, parent, tier)
                    if candidate.path in files_at[parent]:
                        found.append(candidate)
        ordered = sorted(found, key=lambda c: (c.project, c.commit, c.path, c.line))
        print(f"## {half} mined: {len(ordered)} candidates")
        for index, candidate in enumerate(seeded(ordered), 1):
            print(json.dumps({"n": index, **candidate.__dict__}))


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t[:1] == "{"]


def _reason(evidence: str) -> str:
    """An unjudged claim's reason, cut to its kind (code spans written `X`, places left out)."""
    return re.split(r"[:;(]", _SPAN.sub("`X`", evidence), maxsplit=1)[0].strip()[:90]


def measure(rows: list[dict[str, Any]], halves: list[str], mirrors: Path) -> None:
    def gate(project: str, parent: str, paths: list[str]) -> tuple[str, Claims]:
        full, claims, _texts = gate_files(project, parent, paths, mirrors)
        return full, claims

    judge_rows(rows, halves, (TUNE, REPORT), gate, "agent files")


# A commit's full sha and, per file gated there, its gate-16 claims.
Claims = dict[str, list[dict[str, Any]]]


def judge_rows(
    rows: list[dict[str, Any]],
    halves: list[str],
    split: tuple[tuple[str, ...], tuple[str, ...]],
    gate: Callable[[str, str, list[str]], tuple[str, Claims]],
    frame: str,
) -> dict[str, dict[str, list[int]]]:
    """Each labelled row's outcome (gate 16 run at the row's commit by ``gate``), then per
    half (``split``: its tune and report projects): false and true claims contradicted,
    lines with no claim contradicted, and the reasons claims were left unjudged. Shared
    by the frames whose rows carry project, parent, path, line, claim, label and frame.
    Returns the tally: half -> label -> [contradicted, labelled]."""
    tune, report = split
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["project"], row["parent"])].append(row)
    tally: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    unjudged: dict[str, Counter[str]] = defaultdict(Counter)
    for (project, parent), group in sorted(groups.items()):
        half = "tune" if project in tune else "report" if project in report else ""
        if half not in halves:
            continue
        paths = sorted({str(r["path"]) for r in group})
        full, claims = gate(project, parent, paths)
        seen_lines: set[tuple[str, int]] = set()
        for row in group:
            on_line = [c for c in _listed(claims[row["path"]]) if c["line"] == row["line"]]
            contradicted = any(c["verdict"] == "contradicted" for c in on_line)
            if row["label"] in ("true", "false", "not a claim"):
                cell = tally[half][row["label"]]
                cell[0] += contradicted
                cell[1] += 1
            print(
                f"{project} {row['path']}:{row['line']} at {full[:12]} ({half}, {row['frame']}):"
                f" {row['claim']} [{row['label']}] -> "
                + ("contradicted" if contradicted else "not contradicted")
            )
            for claim in on_line or [{"code": "-", "verdict": "-", "evidence": "no claim"}]:
                print(f"    {claim['code']} {claim['verdict']}: {claim['evidence'][:150]}")
            if (row["path"], row["line"]) not in seen_lines:
                seen_lines.add((row["path"], row["line"]))
                unjudged[half].update(
                    _reason(c["evidence"]) for c in on_line if c["verdict"] == "unjudged"
                )
                if not on_line:
                    unjudged[half]["no claim listed: gate 13's shapes find none on the line"] += 1
    for half in halves:
        for label, what in (
            ("false", "false claims contradicted"),
            ("true", "true claims contradicted"),
            ("not a claim", "lines read holding no claim, contradicted"),
        ):
            hit, total = tally[half][label]
            bounds = wilson(hit, total)
            shown = "n/a" if bounds is None else f"{100 * bounds[0]:.1f}-{100 * bounds[1]:.1f}%"
            print(f"{half} half, {frame}: {what}: {hit}/{total} (95% Wilson {shown})")
        for reason, count in unjudged[half].most_common():
            print(f"{half} half, unjudged on labelled lines: {count} x {reason}")
    return {half: dict(tally[half]) for half in halves}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="?", default="measure", choices=("measure", "frame", "mined"))
    parser.add_argument("--half", action="append", choices=sorted(HALVES), default=[])
    parser.add_argument(
        "--tier", type=int, choices=(1, 2), default=1, help="frame, mined: file tier"
    )
    parser.add_argument("--project", action="append", default=[], help="frame: these only")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--neurolink", action="store_true", help="the NeuroLink control too")
    parser.add_argument(
        "--mirrors", type=Path, default=Path(os.environ.get("POSTGATES_MIRRORS", "/work/.mirror"))
    )
    args = parser.parse_args(argv)
    halves = args.half or ["tune"]
    if args.what == "frame":
        show_frame(halves, args.mirrors, args.tier, args.project)
    elif args.what == "mined":
        show_mined(halves, args.mirrors, args.tier)
    else:
        measure(_rows(args.labels), halves, args.mirrors)
        if args.neurolink:
            import wiring_recall

            print("NeuroLink control (bench/wiring_recall.py):")
            wiring_recall.main([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
