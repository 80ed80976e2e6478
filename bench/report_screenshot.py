"""Render the HTML report of the bundled corpus and screenshot it in headless Chromium.

    python bench/report_screenshot.py          # writes docs/report.png

The picture in the docs is this script's output: a real run over corpus/ (gates in
expectation mode, so the deliberately wrong posts show their failures).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    browser = (
        shutil.which("chromium")
        or shutil.which("chromium-browser")
        or shutil.which("google-chrome")
    )
    if browser is None:
        print("Chromium is not installed (Debian package 'chromium')", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.html"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "corpus/",
                "-q",
                "-p",
                "no:cacheprovider",
                "-o",
                "postgates_snapshot=false",
                "--snapshot-warn-unused",
                "--postgates-all",
                f"--postgates-scorecards={scratch}/cards",
                f"--postgates-html={report}",
            ],
            cwd=ROOT,
            capture_output=True,
            check=False,
        )
        target = ROOT / "docs" / "report.png"
        target.parent.mkdir(exist_ok=True)
        subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={scratch}/profile",
                "--hide-scrollbars",
                "--window-size=1400,1000",
                f"--screenshot={target}",
                report.as_uri(),
            ],
            capture_output=True,
            check=True,
            timeout=120,
        )
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
