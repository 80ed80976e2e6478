"""Issue 13 acceptance: the plugin on a documentation folder (NeuroLink's ``docs/``).

Copies ``docs/`` and the repository's ``.markdownlint.json`` of a NeuroLink checkout
(default ``/work/data/neurolink``; never committed) into a scratch folder, marks it as a
docs folder (``paths = ["docs"]``), runs pytest with the plugin over it (gates 1, 2 and 12
by default, offline, no short-circuit, grounded against the checkout at ``--ref``), reads
every post's overall file and prints:

- files collected, and ERROR items in total and those caused by missing front matter
  (``NO_FRONT_MATTER`` anywhere in an ERROR scorecard; the target is 0);
- gate 12 verdict agreement with markdownlint-cli 0.43.0 run directly on the same files
  under the same configuration (installed into ``bench/.work/node`` by
  ``bench/markdownlint_parity.py``): the share of files where gate 12 FAILs exactly when
  markdownlint-cli reports anything (target >= 99%), with the disagreeing files;
- gate 2: files judged (PASS or FAIL), and any SKIP/ERROR with their reasons (target:
  every file judged);
- the wall time of the pytest run.

    python bench/docs_folder.py                      # the whole docs/ tree
    python bench/docs_folder.py --limit 200 --show 10
    python bench/docs_folder.py --backend markdownlint-cli   # gate 12 through the CLI
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from markdownlint_parity import install_markdownlint_cli  # noqa: E402

from pytest_postgates.tools.lint import lint_batch  # noqa: E402

WORK = HERE / ".work" / "docs-folder"


def prepare(source: Path, limit: int | None) -> tuple[Path, list[Path]]:
    """A fresh scratch site: docs/ (the first ``limit`` files, in path order, when given),
    the repository's .markdownlint.json, a pyproject marking docs/ as a docs folder."""
    if WORK.exists():
        shutil.rmtree(WORK)
    site = WORK / "site"
    files = sorted(p for p in (source / "docs").rglob("*.md") if p.is_file())
    if limit:
        files = files[:limit]
    for path in files:
        target = site / path.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    shutil.copyfile(source / ".markdownlint.json", site / ".markdownlint.json")
    (site / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\n\n[tool.postgates]\npaths = ["docs"]\n', encoding="utf-8"
    )
    (site / ".git").mkdir()  # a repository root: configuration discovery stops here
    return site, [site / path.relative_to(source) for path in files]


def run_plugin(site: Path, repo: Path, ref: str, only: str, backend: str, workers: str) -> float:
    command = [
        sys.executable, "-m", "pytest", "docs",
        f"--postgates-repo={repo}", f"--postgates-ref={ref}", "--postgates-offline",
        "--postgates-all", f"--postgates-only={only}", "-p", "no:cacheprovider",
        "-q", "--tb=no", "--no-header", "-o", "console_output_style=classic",
    ]  # fmt: skip
    if workers != "0":
        command += ["-n", workers]
    env = {**os.environ, "PYTEST_ADDOPTS": ""}
    pyproject = site / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8") + f'lint_backend = "{backend}"\n', encoding="utf-8"
    )
    start = time.perf_counter()
    subprocess.run(command, cwd=site, env=env, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def read_cards(site: Path) -> dict[str, dict[str, Any]]:
    """post -> {"overall": ..., gate id -> gate scorecard}, via each overall file's stem."""
    folder = site / ".postgates" / "scorecards"
    posts: dict[str, dict[str, Any]] = {}
    for overall_path in folder.glob("*-overall.json"):
        overall = json.loads(overall_path.read_text(encoding="utf-8"))
        stem = overall_path.name[: -len("-overall.json")]
        cards: dict[str, Any] = {"overall": overall}
        for entry in overall["gates"]:
            card = folder / f"{stem}-gate{entry['gate']}-{entry['name']}.json"
            cards[entry["gate"]] = json.loads(card.read_text(encoding="utf-8"))
        posts[overall["post"]] = cards
    return posts


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f}%" if whole else "n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=Path("/work/data/neurolink"))
    parser.add_argument("--ref", default="release")
    parser.add_argument("--only", default="1,2,12")
    parser.add_argument("--backend", default="rumdl", choices=("rumdl", "markdownlint-cli"))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--workers", default="2", help="pytest-xdist workers (0: none)")
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument(
        "--reuse", action="store_true", help="report on the last run's scorecards, no new run"
    )
    args = parser.parse_args(argv)
    if not (args.source / "docs").is_dir():
        raise SystemExit(f"{args.source}/docs not found: pass --source a NeuroLink checkout")
    cli = install_markdownlint_cli()
    if args.reuse:
        site = WORK / "site"
        files = sorted(p for p in (site / "docs").rglob("*.md") if p.is_file())
        seconds = float("nan")
    else:
        site, files = prepare(args.source, args.limit)
        seconds = run_plugin(site, args.source, args.ref, args.only, args.backend, args.workers)
    posts = read_cards(site)
    names = {str(p.relative_to(site)) for p in files}
    print(f"docs folder: {len(files)} Markdown files copied, {len(posts)} collected as posts")
    print(f"pytest wall time: {seconds:.1f} s (gates {args.only}, gate 12 via {args.backend})")
    formats = Counter(
        str(cards[1]["detail"].get("front_matter", {}).get("format"))
        for cards in posts.values()
        if 1 in cards and isinstance(cards[1].get("detail"), dict)
    )
    if formats:
        print(
            "front matter (gate 1): " + ", ".join(f"{k}: {v}" for k, v in sorted(formats.items()))
        )
    missing = sorted(names - set(posts))
    if missing:
        print(f"NOT COLLECTED: {len(missing)} file(s), e.g. {missing[: args.show]}")

    errors = [
        (post, gate)
        for post, cards in posts.items()
        for gate, card in cards.items()
        if gate != "overall" and card["verdict"] == "ERROR"
    ]
    front_matter_errors = [
        (post, gate)
        for post, gate in errors
        if "NO_FRONT_MATTER" in json.dumps(posts[post][gate], sort_keys=True)
    ]
    print(
        f"ERROR items: {len(errors)}; from missing front matter: {len(front_matter_errors)} "
        "(target 0)"
    )
    for post, gate in errors[: args.show]:
        print(f"  ERROR {post} gate {gate}: {posts[post][gate].get('summary', '')[:120]}")

    if 12 in {int(g) for g in args.only.split(",")}:
        start = time.perf_counter()
        reference = lint_batch(files, "markdownlint-cli", markdownlint_cli=cli)
        cli_seconds = time.perf_counter() - start
        if reference.get("error"):
            raise SystemExit(f"markdownlint-cli: {reference['error']}")
        agree, disagree, unjudged = 0, [], 0
        for path in files:
            post = str(path.relative_to(site))
            card = posts.get(post, {}).get(12)
            entry = reference["files"][str(path.resolve())]
            cli_fails = bool(entry["violations"])
            if card is None or card["verdict"] not in ("PASS", "FAIL"):
                unjudged += 1
                disagree.append((post, "not judged", cli_fails))
                continue
            if (card["verdict"] == "FAIL") == cli_fails:
                agree += 1
            else:
                disagree.append((post, card["verdict"], cli_fails))
        print(
            f"gate 12 vs markdownlint-cli {reference['version']}: verdicts agree on "
            f"{agree}/{len(files)} files ({pct(agree, len(files))}; target >= 99%); "
            f"{unjudged} not judged; markdownlint-cli alone took {cli_seconds:.1f} s"
        )
        for post, verdict, cli_fails in disagree[: args.show]:
            reference_verdict = "FAIL" if cli_fails else "PASS"
            print(f"  {post}: gate 12 {verdict}, markdownlint-cli {reference_verdict}")

    if 2 in {int(g) for g in args.only.split(",")}:
        verdicts = Counter(cards[2]["verdict"] for cards in posts.values() if 2 in cards)
        judged = verdicts["PASS"] + verdicts["FAIL"]
        print(
            f"gate 2: judged {judged}/{len(posts)} files ({pct(judged, len(posts))}): "
            f"{verdicts['PASS']} PASS, {verdicts['FAIL']} FAIL, {verdicts['SKIP']} SKIP, "
            f"{verdicts['ERROR']} ERROR"
        )
        totals = [
            (cards[2]["detail"].get("total", 0), cards[2]["detail"].get("grounded", 0))
            for cards in posts.values()
            if 2 in cards and isinstance(cards[2].get("detail"), dict)
        ]
        claims = sum(total for total, _ in totals)
        grounded = sum(count for _, count in totals)
        with_claims = sum(1 for total, _ in totals if total)
        print(
            f"gate 2: {claims} backticked claims in {with_claims} files, {grounded} grounded "
            f"({pct(grounded, claims)}); files without any claim pass with nothing to check"
        )
        reasons = Counter(
            str(cards[2].get("summary", ""))[:100]
            for cards in posts.values()
            if 2 in cards and cards[2]["verdict"] not in ("PASS", "FAIL")
        )
        for reason, count in reasons.most_common(args.show):
            print(f"  {count} x {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
