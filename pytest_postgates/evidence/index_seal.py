"""Whether a repository index read from a cache folder is the one its name claims.

A cache folder may be restored from anywhere (``actions/cache``): an index planted there
could hold an invented name, and gate 2 would ground it. An index folder is trusted only
when it is what it claims to be:

- with ``POSTGATES_CACHE_KEY`` set, its ``seal.json`` (the commit and a digest of every file
  of the folder) carries a valid HMAC under that key (see ``signing.py``), and the files
  still have that digest;
- without a key, it is checked against the repository itself, cheaply: one ``git ls-tree``
  at the commit must list exactly the index's paths, and every searched file's text must
  hash to the blob id git has for it (a text edited or added by hand does not). The word
  table derived from the text cannot be checked without deriving it again; instead every
  yes it gives (a word, a file holding it) is confirmed in that verified text before it
  counts (``word_table.py``). The history the folder holds (commit ids, tags, commit
  messages) is not used at all: it is read from git again (``index.read_history``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

from pytest_postgates import signing
from pytest_postgates.evidence.repo import GitError, git

SEAL = "seal.json"
# Every file an index folder holds, in a fixed order (the seal's digest covers them all).
INDEX_FILES = (
    "meta.json",
    "text.bin",
    "postings.bin",
    "posting_starts.bin",
    "words.bin",
    "reversed.bin",
    "reversed_ids.bin",
    "paths.bin",
    "messages.txt",
)
_CHUNK = 1 << 20


def folder_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for name in INDEX_FILES:
        digest.update(name.encode() + b"\0")
        with open(folder / name, "rb") as handle:
            while chunk := handle.read(_CHUNK):
                digest.update(chunk)
        digest.update(b"\0")
    return digest.hexdigest()


def write_seal(folder: Path, commit: str) -> None:
    """Seal a freshly built index folder (signed when a cache key is set)."""
    seal = {"commit": commit}
    if signing.cache_secret() is not None:
        seal["digest"] = folder_digest(folder)
    (folder / SEAL).write_text(json.dumps(signing.signed(seal), sort_keys=True), "utf-8")


def is_sealed(folder: Path, commit: str) -> bool:
    """With a cache key: the folder's seal is signed for ``commit`` and matches its files."""
    try:
        seal = signing.verified(json.loads((folder / SEAL).read_text(encoding="utf-8")))
        return (
            seal is not None
            and seal.get("commit") == commit
            and seal.get("digest") == folder_digest(folder)
        )
    except (OSError, ValueError):
        return False


def matches_tree(
    root: Path, commit: str, paths: list[str], text_paths: list[str], texts: Iterable[bytes]
) -> bool:
    """Whether ``paths`` are the commit's tracked paths and each of ``texts`` (the content
    of ``text_paths``) is the blob git holds at that path."""
    try:
        listing = git(root, "ls-tree", "-r", "-z", "--full-tree", commit).stdout
    except GitError:
        return False
    blob_of: dict[str, str] = {}
    listed: list[str] = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        path = raw_path.decode("utf-8", "surrogateescape")
        listed.append(path)
        blob_of[path] = meta.split()[-1].decode("ascii", "replace")
    if listed != paths:
        return False
    try:
        for path, text in zip(text_paths, texts, strict=True):
            sha = blob_of.get(path, "")
            blob = hashlib.sha256() if len(sha) == 64 else hashlib.sha1()
            blob.update(b"blob %d\0" % len(text))
            blob.update(text)
            if blob.hexdigest() != sha:
                return False
    except ValueError:  # more or fewer texts than paths
        return False
    return True
