"""Parse, prose view, gate 1 and mermaid costs on a real corpus, this code side by side
with the plugin at a baseline commit (issue 15), in CPU seconds.

Each side runs in its own Python process (the baseline is ``git archive``d into
bench/.work and put first on ``PYTHONPATH``), over the same posts, and prints the CPU time
of each step (median of ``--repeat`` runs; the machine is shared, so CPU time, not wall
time, and only figures of the same run are compared):

- ``parse``: :func:`parse_post` of every post (front matter, markdown-it, fences);
- ``code spans``: ``Post.code_spans`` of every post;
- ``prose lines``: the prose view's lines as gates 1 and 11 (URLs blanked) and gate 7
  (HTML left out) read them;
- ``placeholders``: gate 1's placeholder scan (the prose lines already built);
- ``code span sentences``: ``ProseView.code_span_sentence`` for every code span, as gate 2
  asks (sides without it print ``-``);
- ``parse cache: store`` / ``load`` (not added to the total): what caching the parsed
  tokens would cost, encoded to tuples and ``marshal`` and back to markdown-it Tokens,
  against ``parse``;
- ``mermaid``: every closed mermaid block of the corpus parsed by one fresh mermaid.js
  worker with an empty cache, the worker's start included (CPU of the worker process);
  ``mermaid start``: the worker's start alone (one diagram).

Both sides must give the same answers: a digest of every step's output is compared and
the bench exits 1 when one differs.

    python bench/parse_speed.py                       # the NeuroLink posts, baseline 0eeec85
    python bench/parse_speed.py --baseline main --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent
WORK = HERE / ".work"
DEFAULT_POSTS = PROJECT.parent.parent / "shared" / "corpus" / "neurolink-blog" / "_posts"
STEPS = (
    "parse",
    "code spans",
    "prose lines",
    "placeholders",
    "code span sentences",
    "mermaid",
    "mermaid start",
    "parse cache: store",
    "parse cache: load",
)
# Measured, not part of any run: what a parse cache would add to a cold run and cost on a
# hit instead of the parse.
EXPERIMENTS = ("parse cache: store", "parse cache: load")

# Runs inside each side's process: prints one JSON object of {step: [cpu, digest]}.
MEASURE = r"""
import hashlib, json, resource, sys, time
from pathlib import Path
from pytest_postgates.post import parse_post
from pytest_postgates.gates import blog_quality
from pytest_postgates.tools.mermaid import MermaidParser

def digest(value):
    return hashlib.sha256(repr(value).encode()).hexdigest()[:12]

def child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime

paths = sorted(Path(sys.argv[1]).glob("*.md"))
data = [(path, path.read_bytes()) for path in paths]
out = {}
start = time.process_time()
posts = [parse_post(path, raw) for path, raw in data]
out["parse"] = [time.process_time() - start, digest([p.tokens for p in posts])]
start = time.process_time()
spans = [p.code_spans for p in posts]
out["code spans"] = [time.process_time() - start, digest(spans)]
start = time.process_time()
lines = [(p.prose.lines(html="source", urls=True), p.prose.lines(html="rendered", urls=False))
         for p in posts]
out["prose lines"] = [time.process_time() - start, digest(lines)]
start = time.process_time()
hits = [blog_quality.find_placeholders(p) for p in posts]
out["placeholders"] = [time.process_time() - start, digest(hits)]
if hasattr(posts[0].prose, "code_span_sentence"):
    asked = [(p, s.line, s.text.strip()) for p in posts for s in p.code_spans if s.text.strip()]
    start = time.process_time()
    found = [p.prose.code_span_sentence(line, text) for p, line, text in asked]
    out["code span sentences"] = [time.process_time() - start, digest(found)]
# A parse cache, measured rather than built: the tokens as marshal-able tuples and back
# to markdown-it Tokens (the cheapest exact round trip found; pickle is slower).
from markdown_it.token import Token
def encode(tokens):
    return [(t.type, t.tag, t.nesting, t.attrs or None, tuple(t.map) if t.map else None,
             t.level, None if t.children is None else encode(t.children), t.content, t.markup,
             t.info, t.meta or None, t.block, t.hidden) for t in tokens]
def decode(rows):
    out = []
    for (kind, tag, nesting, attrs, where, level, children, content, markup, info, meta,
         block, hidden) in rows:
        token = object.__new__(Token)
        token.type, token.tag, token.nesting, token.level = kind, tag, nesting, level
        token.attrs = dict(attrs) if attrs else {}
        token.map = list(where) if where else None
        token.children = None if children is None else decode(children)
        token.content, token.markup, token.info = content, markup, info
        token.meta = dict(meta) if meta else {}
        token.block, token.hidden = block, hidden
        out.append(token)
    return out
import marshal
start = time.process_time()
blobs = [marshal.dumps(encode(p.tokens)) for p in posts]
# (marshal's bytes depend on which strings are shared objects: the answer is the load's)
out["parse cache: store"] = [time.process_time() - start, digest(len(blobs))]
start = time.process_time()
decoded = [decode(marshal.loads(blob)) for blob in blobs]
out["parse cache: load"] = [time.process_time() - start, digest(decoded)]
assert decoded == [p.tokens for p in posts]
codes = [code for p in posts for _, code, closed in blog_quality.mermaid_blocks(p) if closed]
for step, todo in (("mermaid start", codes[:1]), ("mermaid", codes)):
    before = child_cpu()
    parser = MermaidParser(None, max_workers=1)
    results = parser.parse_many(todo)
    parser.close()
    out[step] = [child_cpu() - before, digest(sorted((k, repr(v)) for k, v in results.items()))]
out["diagrams"] = len(codes)
print(json.dumps(out))
"""


def export(commit: str) -> Path:
    """``pytest_postgates`` at ``commit``, exported once under bench/.work."""
    full = subprocess.run(
        ["git", "-C", str(PROJECT), "rev-parse", "--verify", f"{commit}^{{commit}}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    target = WORK / f"source-{full[:12]}"
    if not (target / "pytest_postgates").is_dir():
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "-C", str(PROJECT), "archive", full, "pytest_postgates"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def measure(source: Path | None, posts: Path) -> dict[str, object]:
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "measure.py"
        script.write_text(MEASURE)
        result = subprocess.run(
            [sys.executable, str(script), str(posts)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=scratch,
        )
    answer: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=Path, default=DEFAULT_POSTS)
    parser.add_argument("--baseline", default="0eeec85")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if not args.posts.is_dir():
        print(f"needs the blog posts ({args.posts})")
        return 2
    sides = {"baseline": export(args.baseline), "current": None}
    runs: dict[str, list[dict[str, object]]] = {side: [] for side in sides}
    for repetition in range(args.repeat):
        order = list(sides) if repetition % 2 == 0 else list(reversed(sides))
        for side in order:
            runs[side].append(measure(sides[side], args.posts))
        print(f"repetition {repetition + 1}/{args.repeat} done", file=sys.stderr, flush=True)
    posts = len(list(args.posts.glob("*.md")))
    print(f"corpus: {posts} posts in {args.posts}, {runs['current'][0]['diagrams']} diagrams")
    print(f"baseline: pytest_postgates at {args.baseline}; current: this checkout")
    print(f"repetitions: {args.repeat}; medians of CPU seconds; cpus {os.cpu_count()}, ", end="")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    print()
    print(f"{'step':22} {'baseline':>9} {'current':>9} {'ratio':>7}  same answers")
    differ = []
    totals = {"baseline": 0.0, "current": 0.0}
    for step in STEPS:
        cells = {}
        digests = {}
        for side in sides:
            values = [run[step] for run in runs[side] if step in run]
            if values:
                cells[side] = statistics.median(float(v[0]) for v in values)  # type: ignore[index]
                digests[side] = {str(v[1]) for v in values}  # type: ignore[index]
        if step != "mermaid start" and step not in EXPERIMENTS and len(cells) == 2:
            for side, value in cells.items():
                totals[side] += value
        same = "-"
        if len(digests) == 2:
            same = "yes" if digests["baseline"] == digests["current"] else "NO"
            if same == "NO":
                differ.append(step)
        base = f"{cells['baseline']:9.2f}" if "baseline" in cells else f"{'-':>9}"
        current = f"{cells['current']:9.2f}" if "current" in cells else f"{'-':>9}"
        ratio = (
            f"{cells['baseline'] / cells['current']:6.2f}x"
            if len(cells) == 2 and cells["current"] > 0
            else f"{'-':>7}"
        )
        print(f"{step:22} {base} {current} {ratio}  {same}")
    print(
        f"{'total (both sides)':22} {totals['baseline']:9.2f} {totals['current']:9.2f} "
        f"{totals['baseline'] / max(totals['current'], 1e-9):6.2f}x  (mermaid start not added)"
    )
    print(f"steps whose answers differ: {len(differ)}" + (f" {differ}" if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
