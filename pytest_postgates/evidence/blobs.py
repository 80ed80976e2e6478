"""The text files of a commit and their contents, as ``git grep -I`` decides which are text.

``git grep -I -l -e '' COMMIT`` reads every blob once to list the text files, and the
index then read the text ones again through ``git cat-file``. Here one ``git cat-file
--batch`` reads every candidate blob once and git's own rule is applied in Python, in the
order git applies it (grep.c, ``grep_source_is_binary``; userdiff.c):

1. the ``diff`` attribute of the path (``git check-attr``, which reads attributes as
   ``git grep`` does): unset (``-diff``, the ``binary`` macro) is binary, set (``diff``) is
   text; a driver name (``diff=foo``) is binary or text when ``diff.foo.binary`` is set;
2. otherwise a NUL byte in the first 8,000 bytes makes the file binary.

Only regular files are grepped (symlinks and submodules are not), and a file with no line
(an empty file) never matches the empty pattern, so it is not listed. A blob missing from
the object store (a partial clone) cannot be read by either, and is left out.
"""

from __future__ import annotations

import subprocess
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path

from pytest_postgates.evidence.repo import GitError, git

_REGULAR_MODES = frozenset({"100644", "100755"})
_FIRST_FEW_BYTES = 8000  # git's buffer_is_binary()


def regular_files(listing: list[tuple[str, str, str, str]]) -> list[tuple[str, str]]:
    """(path, blob id) of the regular files of ``git ls-tree -r`` rows (mode, kind, id,
    path), in tree order."""
    return [
        (path, sha)
        for mode, kind, sha, path in listing
        if kind == "blob" and mode in _REGULAR_MODES
    ]


def text_files(root: Path, files: list[tuple[str, str]]) -> Iterator[tuple[str, bytes]]:
    """(path, content) of each of ``files`` (path, blob id) that ``git grep -I`` searches,
    in the given order."""
    verdicts = _attribute_verdicts(root, [path for path, _sha in files])
    wanted = [(path, sha) for path, sha in files if verdicts.get(path) is not True]
    contents = _read_blobs(root, [sha for _path, sha in wanted])
    for (path, _sha), content in zip(wanted, contents, strict=True):
        if not content:
            continue  # missing from the object store, or empty: no line to match
        if verdicts.get(path) is None and content.find(b"\0", 0, _FIRST_FEW_BYTES) >= 0:
            continue
        yield path, content


def _attribute_verdicts(root: Path, paths: list[str]) -> dict[str, bool]:
    """path -> True (binary) or False (text) for the paths whose ``diff`` attribute
    decides; the others are decided by their content."""
    if not paths:
        return {}
    try:
        result = subprocess.run(
            ["git", "-C", str(root), "check-attr", "-z", "--stdin", "diff"],
            input=b"".join(path.encode("utf-8", "surrogateescape") + b"\0" for path in paths),
            capture_output=True,
            check=False,
        )
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH") from None
    if result.returncode != 0:
        raise GitError(result.stderr.decode("utf-8", "replace").strip() or "git check-attr failed")
    fields = result.stdout.split(b"\0")
    verdicts: dict[str, bool] = {}
    drivers: dict[str, list[str]] = {}
    for start in range(0, len(fields) - 2, 3):
        path = fields[start].decode("utf-8", "surrogateescape")
        value = fields[start + 2].decode("utf-8", "surrogateescape")
        if value == "unset":
            verdicts[path] = True
        elif value == "set":
            verdicts[path] = False
        elif value != "unspecified":
            drivers.setdefault(value, []).append(path)
    if drivers:
        configured = _binary_drivers(root)
        for name, named in drivers.items():
            if name in configured:
                for path in named:
                    verdicts[path] = configured[name]
    return verdicts


def _binary_drivers(root: Path) -> dict[str, bool]:
    """diff driver name -> its ``diff.<name>.binary`` setting, where one is set."""
    found = git(
        root, "config", "--type=bool", "-z", "--get-regexp", r"^diff\..*\.binary$", check=False
    )
    settings: dict[str, bool] = {}
    for entry in found.stdout.split(b"\0"):
        key, _, value = entry.decode("utf-8", "replace").partition("\n")
        if key.startswith("diff.") and key.endswith(".binary"):
            settings[key[len("diff.") : -len(".binary")]] = value == "true"
    return settings


def _read_blobs(root: Path, shas: list[str]) -> Iterator[bytes]:
    """Contents of blobs, in order, through one ``git cat-file --batch`` process (a blob
    the object store lacks reads as empty)."""
    process = subprocess.Popen(
        ["git", "-C", str(root), "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None

    def feed() -> None:  # from a thread, so that a large batch cannot deadlock on full pipes
        assert process.stdin is not None
        try:
            process.stdin.write(b"".join(sha.encode() + b"\n" for sha in shas))
        finally:
            process.stdin.close()

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    out = process.stdout
    try:
        for _ in shas:
            header = out.readline().split()
            if len(header) == 2 and header[1] == b"missing":
                yield b""
                continue
            if len(header) != 3:
                raise GitError(f"git cat-file --batch gave an unexpected header: {header!r}")
            data = out.read(int(header[2]))
            out.read(1)  # the newline after each object
            yield data
    finally:
        feeder.join()
        out.close()
        process.wait()


class ObjectProbe:
    """``git cat-file -e NAME`` for many names through one long-lived ``git cat-file
    --batch-check`` process (a process per question cost more than the question), started
    at the first question and ended when the probe is collected or the interpreter exits.
    A name git reports missing or ambiguous does not exist, as for ``-e``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def exists(self, name: str) -> bool:
        with self._lock:
            process = self._process
            if process is None or process.poll() is not None:
                process = self._process = self._start()
            assert process.stdin is not None and process.stdout is not None
            try:
                process.stdin.write(name.encode() + b"\n")
                process.stdin.flush()
                answer = process.stdout.readline().split()
            except OSError:
                self._process = None
                return git(self.root, "cat-file", "-e", name, check=False).returncode == 0
        return len(answer) == 3 and answer[1] not in (b"missing", b"ambiguous")

    def _start(self) -> subprocess.Popen[bytes]:
        try:
            process = subprocess.Popen(
                ["git", "-C", str(self.root), "cat-file", "--batch-check"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except FileNotFoundError:
            raise GitError("git is not installed or not on PATH") from None
        weakref.finalize(self, _stop, process)
        return process


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.stdin is not None:
        process.stdin.close()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if process.stdout is not None:
        process.stdout.close()
