"""Gate 15's object literals shown alone, and its fences with no language, by outcome, on
the gate 15 cards of the TUNE half's docs folders (issue 26).

Reads the cards bench/gate15_coverage.py kept (``--keep``) and, for each object literal
gate 15 read as shown alone (no call of the product took it: a bare ``{...}``, ``export
default {...}``, ``module.exports = {...}``, a configuration file's object), its outcome
as the card says it:

- ``config``: judged as the product's configuration file (config_samples: a ``config_key``
  checked or a finding in its lines);
- ``typed``: judged against a type or function (a key checked or a finding, no
  configuration file);
- an unjudged reason, by its shape (``too few keys (1)``, ``nothing closes``, ``no
  majority``, ``several``, ``typed: cannot follow``...);

and, for the unjudged ones, the signals around the fence that might name what takes it:
its info string's ``title=``, a file name in its first comment line, in the line right
above it, in the nearest heading above it, and the call its object sits in
(``defineConfig({``). Untagged fences are counted by the reason the card lists them with.
``--sample N --seed S`` prints N of the ``too few``/``nothing closes`` ones drawn with
that seed, for labelling by reading the product's source.

    python bench/gate15_alone.py --cards /tmp/x/cards [--project avajs/ava] [--sample 40]

Tune half only: the report half's docs are never read here.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import docs_precision as dp  # noqa: E402

from pytest_postgates.helpers.config_samples import FILE_NAME  # noqa: E402
from pytest_postgates.post import parse_post  # noqa: E402

_ALONE = "an object literal shown alone"
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*)$")
_CALL = re.compile(r"(?:export\s+default|module\.exports\s*=)\s*([\w$.]+)\s*\(\s*\{")
_COMMENT = re.compile(r"^\s*(?://|#|/\*+|<!--)\s*(.*?)\s*(?:\*/|-->)?\s*$")


def outcome(reason: str) -> str:
    """The shape of a literal-level unjudged reason."""
    if reason.startswith(_ALONE):
        tail = reason[len(_ALONE) + 2 :]
        few = re.match(r"its (\d+) key\(s\) are too few", tail)
        if few:
            return f"too few keys ({min(int(few.group(1)), 3)})"
        if tail.startswith("no function or type of the product whose keys"):
            return "nothing closes"
        if tail.startswith("no function or type of the product takes most"):
            return "no majority"
        return "several fit"
    if reason.startswith("an object literal typed"):
        return "typed: " + ("cannot follow" if "cannot follow" in reason else "no object type")
    return "other"


def signals(lines: list[str], start: int, info: str, content: str) -> list[str]:
    """What around a fence (its opening marker at 1-based ``start``) may name what its
    object is."""
    found: list[str] = []
    titled = re.search(r"""\b(?:title|filename|file)=["']?([^"'\s]+)""", info)
    if titled:
        found.append(f"title {titled.group(1)}")
    first = next((t for t in content.split("\n") if t.strip()), "")
    comment = _COMMENT.match(first)
    if comment and first.strip()[:2] in ("//", "/*", "# ", "<!"):
        names = [m.group(1) for m in FILE_NAME.finditer(comment.group(1))]
        if names:
            found.append(f"comment {names[0]}")
    above = start - 2
    while above >= 0 and not lines[above].strip():
        above -= 1
    if above >= 0 and not lines[above].lstrip().startswith("```"):
        names = [m.group(1) for m in FILE_NAME.finditer(lines[above])]
        if names:
            found.append(f"above {names[0]}")
    for at in range(start - 2, -1, -1):
        heading = _HEADING.match(lines[at])
        if heading:
            names = [m.group(1) for m in FILE_NAME.finditer(heading.group(1))]
            if names:
                found.append(f"heading {names[0]}")
            break
    call = _CALL.search(content)
    if call:
        found.append(f"call {call.group(1)}")
    if "@type" in content or "satisfies" in content:
        found.append("typed in text")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=Path, required=True, help="cards kept by gate15_coverage")
    parser.add_argument("--project", action="append", help="owner/name (repeatable)")
    parser.add_argument("--sample", type=int, default=0, help="unjudged literals to print")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, help="also write the counts as JSON")
    args = parser.parse_args(argv)
    mirrors = Path(os.environ.get(dp.MIRRORS_ENV, dp.DEFAULT_MIRRORS))
    pins, _labels = dp.load_labels(dp.GATE15_TUNE_LABELS)
    outcomes: Counter[str] = Counter()
    by_signal: Counter[tuple[str, str]] = Counter()
    untagged: Counter[str] = Counter()
    pool: list[str] = []
    for folder in sorted(p for p in args.cards.iterdir() if p.is_dir()):
        project = folder.name.replace("+", "/", 1)
        if args.project and project not in args.project:
            continue
        commit = pins[project]
        mirror = dp.mirror_of(project, mirrors)
        for overall in sorted(folder.glob("*-overall.json")):
            doc = str(json.loads(overall.read_text(encoding="utf-8"))["post"])
            stem = overall.name.removesuffix("-overall.json")
            card_path = folder / f"{stem}-gate15-code_samples.json"
            if not card_path.is_file():
                continue
            card = json.loads(card_path.read_text(encoding="utf-8"))
            detail: dict[str, Any] = card.get("detail") or {}
            shown = subprocess.run(["git", "-C", str(mirror), "show", f"{commit}:{doc}"],
                                   capture_output=True, check=False)  # fmt: skip
            if shown.returncode != 0:
                continue
            post = parse_post(Path(doc), shown.stdout)
            config_lines = {int(c["line"]) for c in detail.get("checked_names") or []
                            if c.get("kind") == "config_key"}  # fmt: skip
            config_lines |= {int(v["line"]) for v in detail.get("violations") or []
                             if v.get("kind") == "config_key"}  # fmt: skip
            for entry in detail.get("unjudged") or []:
                reason = str(entry.get("reason", ""))
                if "fence with no language" in reason or "no language tag" in reason:
                    untagged[re.sub(r"\(.*?\)|`[^`]*`", "…", reason)[:110]] += 1
                if entry.get("name") or not reason.startswith("an object literal"):
                    continue
                line = int(entry["line"])
                fence = next((f for f in post.fences if f.start_line < line <= f.end_line), None)
                if fence is None:
                    continue
                span = range(fence.start_line, fence.end_line + 1)
                shape = outcome(reason)
                if any(at in span for at in config_lines):
                    shape = f"{shape}, config judged too"
                outcomes[shape] += 1
                found = signals(post.lines, fence.start_line, fence.info, fence.content)
                for signal in found or ["none"]:
                    by_signal[(shape, signal.split(" ", 1)[0])] += 1
                if shape in ("too few keys (1)", "too few keys (2)", "nothing closes"):
                    pool.append(f"{project} {doc}:{line} [{shape}] {entry.get('text', '')[:60]!r}"
                                f" signals={found} lang={fence.lang!r}")  # fmt: skip
    print("object literals shown alone (literal-level unjudged entries), by outcome:")
    for shape, n in outcomes.most_common():
        print(f"  {n:5}  {shape}")
    print("signals around them:")
    for (shape, signal), n in sorted(by_signal.items()):
        print(f"  {n:5}  {shape}: {signal}")
    print("untagged fences listed, by reason:")
    for why, n in untagged.most_common():
        print(f"  {n:5}  {why}")
    if args.sample:
        print(f"sample of {args.sample} (seed {args.seed}) of too few / nothing closes:")
        for row in random.Random(args.seed).sample(pool, min(args.sample, len(pool))):
            print(f"  {row}")
    if args.json:
        payload = {"outcomes": dict(outcomes), "untagged": dict(untagged),
                   "signals": {f"{s}: {g}": n for (s, g), n in by_signal.items()}}  # fmt: skip
        args.json.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
