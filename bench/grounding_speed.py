"""Symbol grounding speed: the repository index against per-token ``git grep``.

Builds a large grounding repository available on any machine (a git repository of this
Python's standard library sources), generates a corpus of posts whose inline code tokens
are real (identifiers, dotted names, paths, file names taken from the repository) and
invented (mutations of real ones), then measures, in one run:

- cold: a fresh process with an empty cache runs gate 2 over every post (index build
  included);
- warm: a fresh process with the index already cached runs the same;
- baseline: the seeds' approach, one ``git grep -l -F`` / ``git ls-files`` per token, on
  a random sample of the tokens (``--sample``), timed and extrapolated to all tokens
  (``--sample 0`` runs every token; that takes many minutes on a large repository).

It also checks that both approaches ground the same tokens on the sample.

With ``--baseline COMMIT`` it measures instead gate 2's cold cost side by side with the
plugin's source at COMMIT (extracted with ``git archive`` under bench/.work and put first
on ``PYTHONPATH``; same Python, same dependencies): CPU seconds (user + system, git's
child processes included) of the index build and of the gate's checks over every post,
each side run ``--repeat`` times in alternation with an empty cache folder, medians
printed. Both sides must produce the same scorecard for every post (verdict and detail);
the bench says so and exits 1 otherwise.

    python bench/grounding_speed.py                 # ~6,000 tokens, sample of 300
    python bench/grounding_speed.py --repo PATH --posts FOLDER   # your own repo and posts
    python bench/grounding_speed.py --repo /work/data/neurolink --ref release \
        --posts ../shared/corpus/neurolink-blog/_posts --baseline 0eeec85   # issue 15
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORK = HERE / ".work"

GATE_RUN = r"""
import json, sys, time
from pathlib import Path
from pytest_postgates.config import Settings
from pytest_postgates.gates import GateContext, symbol_grounding
from pytest_postgates.post import parse_post
repo, posts, cache = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
prefix, folder = (sys.argv[4] or None), (sys.argv[5] or None)
start = time.perf_counter()
settings = Settings(repo=repo, lint_rule_prefix=prefix, lint_rules_dir=folder)
context = GateContext.create(settings, cache)
verdicts = {}
for path in sorted(posts.glob("*.md")):
    card = symbol_grounding.GATE.evaluate(parse_post(path), context)
    # Every ungrounded token, from the findings (the scorecard lists only the first 50).
    ungrounded = {
        f.message[1 : f.message.rindex("` (")] for f in card.findings if f.code == "UNGROUNDED"
    }
    verdicts[path.name] = [card.detail["total"], sorted(ungrounded)]
elapsed = time.perf_counter() - start
print(json.dumps({"seconds": elapsed, "verdicts": verdicts}))
"""


# One cold gate-2 pass, its cost split: the index build (the first post's evidence) and
# the checks of every post. Runs against whichever pytest_postgates is first on the path.
GATE_PARTS = r"""
import hashlib, json, resource, sys, time
from pathlib import Path
from pytest_postgates.config import Settings
from pytest_postgates.gates import GateContext, symbol_grounding
from pytest_postgates.post import parse_post
repo, posts, cache, ref = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]
paths = sorted(posts.glob("*.md"))
parsed = [parse_post(path) for path in paths]  # parsing is not gate 2's cost
context = GateContext.create(Settings(repo=repo, ref=ref, offline=True), cache)

def cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

start_cpu, start_wall = cpu(), time.perf_counter()
context.evidence.index_for(paths[0])
index_cpu, index_wall = cpu() - start_cpu, time.perf_counter() - start_wall
digest = hashlib.sha256()
start_cpu, start_wall = cpu(), time.perf_counter()
for post in parsed:
    card = symbol_grounding.GATE.evaluate(post, context)
    digest.update(json.dumps([card.verdict, card.detail], sort_keys=True).encode())
check_cpu, check_wall = cpu() - start_cpu, time.perf_counter() - start_wall
print(json.dumps({"index_cpu": index_cpu, "index_wall": index_wall, "check_cpu": check_cpu,
                  "check_wall": check_wall, "cards": digest.hexdigest(), "posts": len(paths)}))
"""


def git(repo: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)


def build_stdlib_repo(target: Path) -> Path:
    """A git repository of this Python's standard library (reused when present)."""
    if (target / ".git").is_dir() and git(target, "rev-parse", "HEAD").returncode == 0:
        return target
    shutil.rmtree(target, ignore_errors=True)
    source = Path(sysconfig.get_paths()["stdlib"])
    ignore = shutil.ignore_patterns("site-packages", "__pycache__", "*.pyc", "dist-packages")
    shutil.copytree(source, target, ignore=ignore, symlinks=True)
    git(target, "init", "-q")
    git(target, "add", "-A")
    done = git(
        target,
        "-c",
        "user.name=bench",
        "-c",
        "user.email=bench@example.com",
        "commit",
        "-qm",
        "stdlib",
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr.decode())
    return target


def sample_real_tokens(repo: Path, rng: random.Random, count: int) -> list[str]:
    paths = git(repo, "ls-files").stdout.decode().splitlines()
    py_files = [p for p in paths if p.endswith(".py")]
    identifiers: set[str] = set()
    dotted: set[str] = set()
    for path in rng.sample(py_files, min(200, len(py_files))):
        text = (repo / path).read_text(encoding="utf-8", errors="replace")
        identifiers.update(re.findall(r"^\s*(?:def|class)\s+([A-Za-z_]\w{3,})", text, re.M))
        dotted.update(re.findall(r"\b([a-z_]\w+\.[a-z_]\w{2,})\b", text))
    pools = [
        sorted(identifiers),
        sorted(dotted),
        rng.sample(paths, min(500, len(paths))),
        sorted({p.rsplit("/", 1)[-1] for p in py_files}),
    ]
    weights = [0.5, 0.2, 0.15, 0.15]
    return [rng.choice(rng.choices(pools, weights)[0]) for _ in range(count)]


def invent(token: str, rng: random.Random) -> str:
    if "/" in token:
        head, _, tail = token.rpartition("/")
        return f"{head}/{rng.choice(['nope', 'fake', 'ghost'])}_{tail}"
    if token.endswith(".py"):
        return token[:-3] + rng.choice(["_impl", "_fast", "2"]) + ".py"
    if "." in token:
        left, _, right = token.partition(".")
        return f"{left}.{right}{rng.choice(['Async', 'Ex', 'Fast'])}Zq"
    return token + rng.choice(["Manager", "Factory", "Fast", "V2"]) + "Zq"


def generate_posts(repo: Path, folder: Path, posts: int, per_post: int, seed: int) -> int:
    rng = random.Random(seed)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    real = sample_real_tokens(repo, rng, posts * per_post)
    total = 0
    for number in range(posts):
        tokens = []
        for i in range(per_post):
            token = real[number * per_post + i]
            tokens.append(invent(token, rng) if rng.random() < 0.3 else token)
        tokens = list(dict.fromkeys(tokens))
        total += len(tokens)
        body = "\n\n".join(
            f"Paragraph {i} explains `{token}` in prose, as a drafter would."
            for i, token in enumerate(tokens)
        )
        front = f"---\nlayout: post\ntitle: Bench post {number}\ndate: 2026-01-01\n---\n\n"
        (folder / f"2026-01-01-bench-{number:04d}.md").write_text(
            front + body + "\n", encoding="utf-8"
        )
    return total


def run_gate(repo: Path, posts: Path, cache: Path, lint: tuple[str, str]) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", GATE_RUN, str(repo), str(posts), str(cache), *lint],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(result.stderr)
    return json.loads(result.stdout)


def baseline_grounded(repo: Path, token: str, kind: str, lint: tuple[str, str]) -> bool:
    """The seeds' per-token verification: one git process per question."""
    if kind == "lint-rule":
        rule = token.split("/", 1)[1]
        return any(
            git(repo, "ls-files", "--error-unmatch", "--", f"{lint[1]}/{rule}{ext}").returncode == 0
            for ext in (".cjs", ".js", ".mjs", ".ts", ".cts", ".mts")
        )
    if kind == "version":
        changelog = repo / "CHANGELOG.md"
        text = changelog.read_text(encoding="utf-8", errors="replace") if changelog.exists() else ""
        bare = token.removeprefix("v")
        if re.search(rf"(?<![\w.])v?{re.escape(bare)}(?![\d\w])", text):
            return True
    if kind == "sha":
        return git(repo, "cat-file", "-e", f"{token}^{{object}}").returncode == 0
    if kind in ("path", "filename"):
        specs = [token] if kind == "path" else [token, f"*/{token}"]
        listed = git(repo, "ls-files", "--", *specs).stdout.strip()
        if listed:
            return True
        return kind == "path" and git(repo, "grep", "-I", "-q", "-F", "-e", token).returncode == 0
    if git(repo, "grep", "-I", "-l", "-q", "-F", "-e", token).returncode == 0:
        return True
    if kind == "phrase" and not (
        "-" in token and re.match(r"^[A-Za-z0-9][A-Za-z0-9._:-]*$", token)
    ):
        for word in sorted(
            re.findall(r"[a-z][a-zA-Z0-9_]{3,}|[A-Z][a-zA-Z0-9_]{3,}", token), key=len, reverse=True
        ):
            if git(repo, "grep", "-I", "-q", "-F", "-e", word).returncode == 0:
                return True
    return False


def baseline_source(commit: str) -> Path:
    """The plugin's package at ``commit``, extracted once under bench/.work."""
    full = subprocess.run(
        ["git", "-C", str(HERE.parent), "rev-parse", "--verify", f"{commit}^{{commit}}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    target = WORK / f"source-{full[:12]}"
    if not (target / "pytest_postgates" / "__init__.py").is_file():
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "-C", str(HERE.parent), "archive", full, "pytest_postgates"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def run_parts(source: Path | None, repo: Path, posts: Path, ref: str) -> dict:
    """One cold gate-2 pass in a fresh process (``source`` first on the path, if given)."""
    import os
    import tempfile

    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), env.get("PYTHONPATH")]))
    WORK.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=WORK, prefix="cache-") as cache:
        result = subprocess.run(
            [sys.executable, "-c", GATE_PARTS, str(repo), str(posts), cache, ref],
            capture_output=True,
            text=True,
            check=False,
            env=env,
            cwd=WORK,  # `python -c` puts the working folder first on the path
        )
    if result.returncode != 0:
        raise SystemExit(result.stderr)
    return json.loads(result.stdout)


def compare_with_baseline(args: argparse.Namespace, repo: Path, posts: Path) -> int:
    """Gate 2's cold cost, this code side by side with ``--baseline``."""
    import statistics

    source = baseline_source(args.baseline)
    runs: dict[str, list[dict]] = {"baseline": [], "current": []}
    for _ in range(args.repeat):
        runs["baseline"].append(run_parts(source, repo, posts, args.ref))
        runs["current"].append(run_parts(None, repo, posts, args.ref))

    def median(side: str, key: str) -> float:
        return statistics.median(run[key] for run in runs[side])

    print(f"gate 2 cold, {runs['current'][0]['posts']} posts, {repo} at {args.ref}")
    print(f"median of {args.repeat} runs each, CPU = user + system, git children included")
    print(f"{'measure':28s} {'baseline ' + args.baseline:>18s} {'this code':>12s} {'ratio':>8s}")
    rows = [
        ("index build, CPU", "index_cpu"),
        ("checks of every post, CPU", "check_cpu"),
        ("index build, wall", "index_wall"),
        ("checks of every post, wall", "check_wall"),
    ]
    for label, key in rows:
        before, after = median("baseline", key), median("current", key)
        print(f"{label:28s} {before:16.2f} s {after:10.2f} s {before / after:7.2f}x")
    before = median("baseline", "index_cpu") + median("baseline", "check_cpu")
    after = median("current", "index_cpu") + median("current", "check_cpu")
    print(f"{'gate 2 total, CPU':28s} {before:16.2f} s {after:10.2f} s {before / after:7.2f}x")
    cards = {run["cards"] for side in runs.values() for run in side}
    print(f"scorecards: {'identical' if len(cards) == 1 else 'DIFFER'} on both sides")
    return 0 if len(cards) == 1 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, help="grounding repository (default: stdlib repo)")
    parser.add_argument("--posts", type=Path, help="folder of posts (default: generated)")
    parser.add_argument("--count", type=int, default=250, help="generated posts (default 250)")
    parser.add_argument("--per-post", type=int, default=24, help="tokens per generated post")
    parser.add_argument("--sample", type=int, default=300, help="baseline tokens timed (0 = all)")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--lint-prefix", default="", help="lint_rule_prefix, e.g. neurolink")
    parser.add_argument("--lint-dir", default="", help="lint_rules_dir, e.g. eslint-rules")
    parser.add_argument("--baseline", help="compare gate 2's cold cost with this commit")
    parser.add_argument("--ref", default="HEAD", help="ref to ground against (--baseline)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side (--baseline)")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(HERE.parent))
    # Tokens are taken exactly as the gate takes them (prose code spans, allowlist applied).
    from pytest_postgates.gates.symbol_grounding import classify, extract_tokens
    from pytest_postgates.post import parse_post

    WORK.mkdir(exist_ok=True)
    repo = (args.repo or build_stdlib_repo(WORK / "stdlib-repo")).resolve()
    posts = args.posts or WORK / "posts"
    if args.posts is None:
        generate_posts(repo, posts, args.count, args.per_post, args.seed)
    if args.baseline:
        return compare_with_baseline(args, repo, posts.resolve())
    tokens = [t.text for p in sorted(posts.glob("*.md")) for t in extract_tokens(parse_post(p))]
    files = int(git(repo, "ls-files").stdout.count(b"\n"))
    print(f"repository: {repo} ({files} tracked files)")
    print(f"posts: {len(list(posts.glob('*.md')))}, inline tokens: {len(tokens)}")

    # One cache folder per grounding repository, so runs on different repos never collide.
    cache = WORK / "cache" / hashlib.sha1(str(repo).encode()).hexdigest()[:12]
    shutil.rmtree(cache, ignore_errors=True)
    lint = (args.lint_prefix, args.lint_dir)
    cold = run_gate(repo, posts, cache, lint)
    warm = run_gate(repo, posts, cache, lint)
    print(f"index, cold (build included): {cold['seconds']:.2f} s")
    print(f"index, warm: {warm['seconds']:.2f} s")

    rng = random.Random(args.seed)
    sample = tokens if args.sample == 0 else rng.sample(tokens, min(args.sample, len(tokens)))
    ungrounded_by_index = {t for _, (_, bad) in cold["verdicts"].items() for t in bad}
    start = time.perf_counter()
    disagreements = []
    for token in sample:
        grounded = baseline_grounded(repo, token, classify(token, args.lint_prefix or None), lint)
        if grounded == (token in ungrounded_by_index):
            disagreements.append(token)
    per_token = (time.perf_counter() - start) / len(sample)
    baseline_total = per_token * len(tokens)
    measured = "measured" if args.sample == 0 else f"extrapolated from {len(sample)} timed tokens"
    print(
        f"per-token git grep: {per_token * 1000:.1f} ms/token, "
        f"{baseline_total:.1f} s for all tokens ({measured})"
    )
    print(f"agreement on the sample: {len(sample) - len(disagreements)}/{len(sample)}")
    for token in disagreements[:10]:
        print(f"  disagrees: {token!r}")
    print(f"speed-up, cold cache: {baseline_total / cold['seconds']:.0f}x")
    print(f"speed-up, warm cache: {baseline_total / warm['seconds']:.0f}x")
    return 0 if not disagreements else 1


if __name__ == "__main__":
    raise SystemExit(main())
