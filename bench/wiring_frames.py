"""The candidate frames of bench/labels/gate16_mined.jsonl's session-14 rules, in seeded order.

Two frames, each printed as JSON lines (one candidate a line) in the order
``random.Random(seed).shuffle`` gives the list sorted by (project, commit, path, line):

- ``fixes``: every line a commit removed from a Markdown file (.md/.mdx; a path naming
  CHANGELOG, HISTORY, release or changes left out) that holds a call verb (:data:`FIX_VERB`)
  and at least two code spans, at least one of whose names the hunk's added text drops; with
  ``--subject`` (the default) only commits whose subject says fix, typo, wrong, ... (see
  :data:`FIX_SUBJECT`). Each row names the commit, its parent (the commit the removed line is
  read at), the path and the line at the parent;
- ``pinned``: the prose lines (fenced code left out) of ``docs/**/*.md`` at a commit holding
  :data:`PINNED_VERB` and at least two code spans or autorefs, less the lines ``--exclude``'s
  label file (bench/labels/gate16_holdout.jsonl) already labels for the project.

Repositories are the bare mirrors ``$POSTGATES_MIRRORS/<owner>+<name>/repo`` (default
/work/.mirror); git is only read.

    python bench/wiring_frames.py fixes PROJECT... [--any-subject] [--seed 20261206]
    python bench/wiring_frames.py pinned PROJECT=COMMIT... [--exclude FILE] [--seed 20261206]
        [--under docs]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_SEED = 20261206
FIX_SUBJECT = re.compile(
    r"fix|typo|wrong|incorrect|outdated|rename|correct|stale|inaccura|mistake|clarif"
    r"|misleading|obsolete|update",
    re.IGNORECASE,
)
FIX_VERB = re.compile(
    r"\b(?:calls?|called|calling|invok\w+|delegat\w+|forward\w*|returns?|returning"
    r"|dispatch\w*|trigger\w*|runs|wraps?|wrapping)\b",
    re.IGNORECASE,
)
PINNED_VERB = re.compile(
    r"\b(?:calls?|called|calling|invok\w+|delegat\w+|forward\w*|returns?|returning"
    r"|dispatch\w*|trigger\w*|runs|executes|wraps|hands?\b|passes)\b",
    re.IGNORECASE,
)
_SPAN = re.compile(r"`([^`\n]+)`")
# A code span, or an autoref's opening (``[`x`][pkg.x]``): what the pinned frame counts.
_SPAN_OR_AUTOREF = re.compile(r"`([^`\n]+)`|\[`?[\w.]+`?\]\[")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_NOT_DOCS = re.compile(r"CHANGELOG|HISTORY|release|changes", re.IGNORECASE)
_HUNK = re.compile(r"@@ -(\d+)")
_FENCE = ("```", "~~~")


@dataclass(frozen=True)
class Candidate:
    """One line of a frame: where it is and what it says."""

    project: str
    commit: str
    parent: str
    path: str
    line: int
    text: str
    subject: str = ""


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(repo), *args],
        capture_output=True,
        text=True,
        errors="replace",
        check=True,
    ).stdout


def _names(text: str) -> set[str]:
    """The identifiers of a text's code spans (one-letter ones left out)."""
    return {n for span in _SPAN.findall(text) for n in _IDENT.findall(span) if len(n) > 1}


def _hunk_candidates(
    project: str,
    where: tuple[str, str, str],
    removed: list[tuple[int, str]],
    added: list[str],
    subject: str,
) -> Iterator[Candidate]:
    """The removed lines of one hunk that the fixes frame keeps."""
    commit, parent, path = where
    if _NOT_DOCS.search(path):
        return
    added_text = "\n".join(added)
    kept = _names(added_text) | set(_IDENT.findall(added_text))
    for line, text in removed:
        if len(_SPAN.findall(text)) < 2 or not FIX_VERB.search(text):
            continue
        if _names(text) - kept:
            yield Candidate(project, commit, parent, path, line, text.strip()[:300], subject)


def _commit_candidates(
    project: str, head: str, body: str, any_subject: bool
) -> Iterator[Candidate]:
    """The fixes frame's lines of one commit's ``git log -p -U0`` text."""
    ids = head.split()
    if len(ids) < 2:
        return  # a root commit: no parent to read the removed line at
    commit, parent = ids[0][:10], ids[1][:12]
    subject, _, diff = body.partition("\n")
    if not (any_subject or FIX_SUBJECT.search(subject)):
        return
    path = ""
    in_hunk = False
    line = 0
    removed: list[tuple[int, str]] = []
    added: list[str] = []
    for row in diff.split("\n"):
        if row.startswith("diff --git") or row.startswith("@@"):
            yield from _hunk_candidates(
                project, (commit, parent, path), removed, added, subject[:100]
            )
            removed, added = [], []
            if row.startswith("diff --git"):
                path, in_hunk = "", False
            else:
                found = _HUNK.match(row)
                line, in_hunk = (int(found.group(1)) if found else 0), True
        elif not in_hunk:
            # the file's header: "--- a/<path>" names the file at the parent
            if row.startswith("--- a/"):
                path = row[len("--- a/") :]
        elif row.startswith("-"):
            removed.append((line, row[1:]))
            line += 1
        elif row.startswith("+"):
            added.append(row[1:])
    yield from _hunk_candidates(project, (commit, parent, path), removed, added, subject[:100])


def fixes(project: str, repo: Path, any_subject: bool = False) -> list[Candidate]:
    """The fixes frame of one project (see the module doc), in git log's order."""
    log = _git(
        repo, "log", "--no-merges", "-p", "-U0", "--format=@@@COMMIT %H %P%n%s", "--",
        "*.md", "*.mdx",
    )  # fmt: skip
    found: list[Candidate] = []
    for chunk in log.split("@@@COMMIT ")[1:]:
        head, _, body = chunk.partition("\n")
        found += _commit_candidates(project, head, body, any_subject)
    return found


def pinned(
    project: str,
    repo: Path,
    commit: str,
    labelled: set[tuple[str, int]],
    under: str = "docs",
) -> list[Candidate]:
    """The pinned frame of one project at ``commit`` (see the module doc); ``labelled``: the
    (flat post name, line) pairs already labelled, left out; ``under``: the folder of the
    docs pages read (mypy keeps its internals guide in ``mypyc/doc``)."""
    found: list[Candidate] = []
    listed = _git(repo, "ls-tree", "-r", "--name-only", commit, "--", under).split("\n")
    for path in sorted(p for p in listed if p.endswith(".md")):
        post = _flat(path)
        fenced = False
        for number, text in enumerate(_git(repo, "show", f"{commit}:{path}").splitlines(), 1):
            if text.lstrip().startswith(_FENCE):
                fenced = not fenced
                continue
            if fenced or (post, number) in labelled:
                continue
            if len(_SPAN_OR_AUTOREF.findall(text)) >= 2 and PINNED_VERB.search(text):
                found.append(Candidate(project, commit, commit, path, number, text.strip()[:300]))
    return found


def _flat(path: str) -> str:
    """A docs page's name as bench/wiring_holdout.py writes it flat (``a__b.md``)."""
    return "__".join(Path(path).parts[1:])


def seeded(candidates: list[Candidate], seed: int, pinned_frame: bool = False) -> list[Candidate]:
    """The frame's reading order: sorted by (project, commit, path, line) (the pinned frame:
    by project, flat page name and line, as its labels name pages), then shuffled."""
    if pinned_frame:
        ordered = sorted(candidates, key=lambda c: (c.project, _flat(c.path), c.line))
    else:
        ordered = sorted(candidates, key=lambda c: (c.project, c.commit, c.path, c.line))
    random.Random(seed).shuffle(ordered)
    return ordered


def _labelled(path: Path, project: str) -> set[tuple[str, int]]:
    if not path.is_file():
        return set()
    rows = [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t[:1] == "{"]
    return {(r["post"], r["line"]) for r in rows if r.get("project") == project and "post" in r}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("frame", choices=("fixes", "pinned"))
    parser.add_argument("projects", nargs="+", help="owner/name (pinned: owner/name=COMMIT)")
    parser.add_argument("--any-subject", action="store_true", help="fixes: every commit")
    parser.add_argument("--under", default="docs", help="pinned: the folder of the pages read")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--exclude", type=Path, default=HERE / "labels" / "gate16_holdout.jsonl")
    parser.add_argument(
        "--mirrors", type=Path, default=Path(os.environ.get("POSTGATES_MIRRORS", "/work/.mirror"))
    )
    args = parser.parse_args(argv)
    found: list[Candidate] = []
    for given in args.projects:
        project, _, commit = given.partition("=")
        repo = args.mirrors / project.replace("/", "+") / "repo"
        if args.frame == "fixes":
            found += fixes(project, repo, args.any_subject)
        else:
            found += pinned(project, repo, commit, _labelled(args.exclude, project), args.under)
    for candidate in seeded(found, args.seed, args.frame == "pinned"):
        print(json.dumps(asdict(candidate)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
