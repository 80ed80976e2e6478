"""What one commit of the repository changed: its files, a file's added and removed lines,
and the files git scores as copies or renames of others (``git diff-tree``: trees only for
the file list, so it works where some blobs are missing).

Plain arguments (a repository root and full commit ids), one ``git`` call per commit and
question, answers kept for the life of the object.
"""

from __future__ import annotations

from pathlib import Path

from pytest_postgates.evidence.repo import git


class CommitStats:
    """Diffstats of the commits of the repository at ``root``, read once each."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: dict[str, list[str]] = {}
        self._numstat: dict[tuple[str, str], tuple[int, int] | None] = {}
        self._copies: dict[tuple[str, tuple[str, ...]], list[tuple[int, str, str]]] = {}

    def files(self, commit: str) -> list[str]:
        """Paths ``commit`` changes (empty when git cannot say)."""
        known = self._files.get(commit)
        if known is None:
            done = git(
                self.root,
                "diff-tree",
                "-r",
                "--root",  # a first commit's files too
                "--no-commit-id",
                "--name-only",
                "--end-of-options",
                commit,
                check=False,
            )
            text = done.stdout.decode("utf-8", "replace")
            known = [line for line in text.splitlines() if line] if done.returncode == 0 else []
            self._files[commit] = known
        return known

    def numstat(self, commit: str, path: str) -> tuple[int, int] | None:
        """(added, removed) lines of ``path`` in ``commit``, or None (binary, absent)."""
        key = (commit, path)
        if key not in self._numstat:
            done = git(
                self.root,
                "diff-tree",
                "-r",
                "--root",
                "--no-commit-id",
                "--numstat",
                "--end-of-options",
                commit,
                "--",
                path,
                check=False,
            )
            fields = done.stdout.decode("utf-8", "replace").split()
            self._numstat[key] = (
                (int(fields[0]), int(fields[1]))
                if done.returncode == 0
                and len(fields) >= 3
                and fields[0].isdigit()
                and fields[1].isdigit()
                else None
            )
        return self._numstat[key]

    def copies(self, commit: str, paths: tuple[str, ...]) -> list[tuple[int, str, str]]:
        """(similarity %, source, destination) of the files among ``paths`` that git's
        copy and rename detection (``-C -C``: every file of the commit's parent may be a
        source) scores as a copy or rename of another of ``paths`` in ``commit``. Limited
        to ``paths``, it reads only their blobs (a commit touching a missing blob
        elsewhere is still judged)."""
        key = (commit, paths)
        known = self._copies.get(key)
        if known is None:
            done = git(
                self.root,
                "diff-tree",
                "-r",
                "--root",
                "--no-commit-id",
                "-C",
                "-C",
                "--end-of-options",
                commit,
                "--",
                *paths,
                check=False,
            )
            known = []
            if done.returncode == 0:
                for line in done.stdout.decode("utf-8", "replace").splitlines():
                    status, _, names = line.partition("\t")
                    code = status.split()[-1] if status.split() else ""
                    parts = names.split("\t")
                    if code[:1] in ("C", "R") and code[1:].isdigit() and len(parts) == 2:
                        known.append((int(code[1:]), parts[0], parts[1]))
            self._copies[key] = known
        return known
