"""Gate 15 recall: inject invented API names into real posts' fences and count the flagged.

For each post dated up to ``--until``, every fence line that uses the product's API is a
candidate for one invention of each kind:

* ``export``: a name in ``import { ... } from "<package>"`` renamed (``Name`` -> ``NameKit``);
* ``member``: a method called on an instance made with ``new`` or on an imported class
  renamed (``x.generate(`` -> ``x.generateKit(``);
* ``command``: the subcommand of a ``<bin> ...`` / ``npx <package> ...`` line replaced;
* ``flag``: a long flag of such a line misspelt (one letter dropped).

An invention counts only if the invented name occurs nowhere in the repository at the ref
(the index's ``contains``, i.e. ``git grep -F``), so it is certainly not real. Each
mutated post is checked by gate 15 alone; the invention is flagged when a violation names
it on its line. The script prints injected/flagged per kind and overall (target >= 95%)
and lists the misses.

    python bench/code_sample_recall.py --posts ../shared/corpus/neurolink-blog/_posts \
        --repo /work/data/neurolink --ref release \
        [--json bench/results/code_sample_recall.json]

``--json OUT`` also writes the figures for the docs (bench/results_json.py).
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_postgates.config import Settings
from pytest_postgates.gates import GateContext, code_samples
from pytest_postgates.helpers.code_fences import fence_kind
from pytest_postgates.post import parse_post

DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})-")


@dataclass(frozen=True)
class Invention:
    post: str
    kind: str
    line: int  # 1-based line in the post
    old: str
    new: str
    text: str  # the mutated line
    base: str = ""  # for a member: the imported class it is used on


def _misspell(flag: str) -> str:
    body = flag[2:]
    cut = max(1, len(body) // 2)
    return "--" + body[:cut] + body[cut + 1 :]


def inventions(path: Path, package: str, bins: list[str]) -> list[Invention]:
    post = parse_post(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    offset = len(lines) - len(post.body.splitlines()) if hasattr(post, "body") else 0
    del offset  # fence line numbers are already file lines
    found: list[Invention] = []
    quoted = re.escape(package)
    import_line = re.compile(rf"import\s+(?:type\s+)?\{{([^}}]*)\}}\s*from\s*['\"]{quoted}['\"]")
    runner = re.compile(
        rf"^\s*(?:\$\s+)?(?:npx\s+(?:-y\s+)?{quoted}(?:@\S+)?|{'|'.join(map(re.escape, bins))})"
        r"\s+([a-z][\w-]*)"
    )
    for fence in post.fences:
        kind = fence_kind(fence)
        first = fence.start_line + 1
        content = fence.content.splitlines()
        news: dict[str, str] = {}
        classes: set[str] = set()
        for text in content:
            match = import_line.search(text)
            if match:
                names = [n.strip().split(" as ")[0] for n in match.group(1).split(",")]
                classes.update(n for n in names if n[:1].isupper())
            for made in re.finditer(r"([\w.]+)\s*=\s*new\s+(\w+)\(", text):
                if made.group(2) in classes:
                    news[made.group(1).removeprefix("this.")] = made.group(2)
        for number, text in enumerate(content):
            line = first + number
            if kind == "code":
                match = import_line.search(text)
                if match:
                    names = [n.strip().split(" as ")[0].strip() for n in match.group(1).split(",")]
                    names = [n.removeprefix("type ").strip() for n in names if n.strip()]
                    if names and re.fullmatch(r"\w+", names[0]):
                        new = names[0] + "Kit"
                        mutated = re.sub(rf"\b{names[0]}\b", new, text, count=1)
                        found.append(Invention(path.name, "export", line, names[0], new, mutated))
                call = re.search(r"\b(\w+)\.(\w+)\(", text)
                if call and (call.group(1) in news or call.group(1) in classes):
                    new = call.group(2) + "Kit"
                    mutated = text[: call.start(2)] + new + text[call.end(2) :]
                    old = f"{call.group(1)}.{call.group(2)}"
                    base = news.get(call.group(1), call.group(1))
                    found.append(Invention(path.name, "member", line, old, new, mutated, base))
            elif kind == "shell" or kind is None:
                match = runner.search(text)
                if match:
                    command = match.group(1)
                    new = command + "kit"
                    mutated = text[: match.start(1)] + new + text[match.end(1) :]
                    found.append(Invention(path.name, "command", line, command, new, mutated))
                    flag = re.search(r"\s(--[a-z][\w-]{3,})(?=[\s=]|$)", text)
                    if flag:
                        new_flag = _misspell(flag.group(1))
                        mutated = text[: flag.start(1)] + new_flag + text[flag.end(1) :]
                        found.append(
                            Invention(path.name, "flag", line, flag.group(1), new_flag, mutated)
                        )
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=Path, required=True)
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--ref", default="HEAD")
    parser.add_argument("--until", default="2026-06-30")
    parser.add_argument("--package", default="@juspay/neurolink")
    parser.add_argument("--bin", action="append", default=None, help="CLI names (neurolink)")
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    args = parser.parse_args()
    record = _results_run(args)
    bins = args.bin or [args.package.rsplit("/", 1)[-1]]
    posts = sorted(
        p for p in args.posts.glob("*.md") if DATE.match(p.name) and p.name[:10] <= args.until
    )
    settings = Settings(repo=args.repo, ref=args.ref, offline=True)
    injected: collections.Counter[str] = collections.Counter()
    flagged: collections.Counter[str] = collections.Counter()
    misses: list[tuple[Invention, str]] = []
    skipped_real = 0
    skipped_invented_base = 0
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        context = GateContext.create(settings, work / "cache")
        index = context.evidence.index_for(posts[0])
        for path in posts:
            original = path.read_text(encoding="utf-8").splitlines(keepends=True)
            before = code_samples.GATE.evaluate(parse_post(path), context)
            invented = {v["name"] for v in before.detail["violations"]}
            for invention in inventions(path, args.package, bins):
                bare = invention.new.lstrip("-")
                if index.contains(bare):
                    skipped_real += 1  # the "invention" exists somewhere: not certainly fake
                    continue
                if invention.base and invention.base in invented:
                    # A method "on a real class": this class is itself not exported.
                    skipped_invented_base += 1
                    continue
                lines = list(original)
                ending = "\n" if lines[invention.line - 1].endswith("\n") else ""
                lines[invention.line - 1] = invention.text + ending
                target = work / path.name
                target.write_text("".join(lines), encoding="utf-8")
                card = code_samples.GATE.evaluate(parse_post(target), context)
                injected[invention.kind] += 1
                hit = any(
                    v["line"] == invention.line and invention.new in v["name"]
                    for v in card.detail["violations"]
                )
                if hit:
                    flagged[invention.kind] += 1
                else:
                    why = next(
                        (
                            u["reason"]
                            for u in card.detail["unjudged"]
                            if u["line"] == invention.line
                        ),
                        "not flagged",
                    )
                    misses.append((invention, why))
    total, hits = sum(injected.values()), sum(flagged.values())
    print(
        f"posts: {len(posts)}; inventions injected: {total} ({skipped_real} candidates "
        "skipped because the invented name exists in the repository, "
        f"{skipped_invented_base} members of classes the post itself invents)"
    )
    for kind in ("export", "member", "command", "flag"):
        if injected[kind]:
            share = 100 * flagged[kind] / injected[kind]
            print(f"  {kind:<8} {flagged[kind]:>4}/{injected[kind]:<4} flagged = {share:5.1f}%")
    if total:
        print(f"recall: {hits}/{total} = {100 * hits / total:.1f}% (target >= 95%)")
    for invention, why in misses:
        print(
            f"  MISS {invention.post}:{invention.line} {invention.kind} {invention.old} -> "
            f"{invention.new}: {why[:120]}"
        )
    if record is not None and args.json:
        record.notes.append(
            f"{len(posts)} posts; {skipped_real} candidates skipped because the invented name "
            f"exists in the repository, {skipped_invented_base} members of classes the post "
            "itself invents"
        )
        rows = record.table(
            "Invented API names injected into the posts' fences, share flagged",
            [{"name": "kind", "kind": "label"},
             {"name": "injected", "kind": "figure", "unit": "inventions"},
             {"name": "flagged", "kind": "figure", "unit": "inventions"},
             {"name": "recall", "kind": "figure", "unit": "%"}],
        )  # fmt: skip
        for kind in ("export", "member", "command", "flag"):
            if injected[kind]:
                share = round(100 * flagged[kind] / injected[kind], 1)
                rows.append([kind, injected[kind], flagged[kind], share])
        rows.append(["total", total, hits, round(100 * hits / total, 1) if total else None])
        record.write(args.json)
    return 0


def _results_run(args: argparse.Namespace) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.json:
        return None
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.results_json import Run

    return Run(
        "code_sample_recall",
        {"repo": str(args.repo), "ref": args.ref, "posts": str(args.posts),
         "until": args.until, "package": args.package, "bins": args.bin},
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
