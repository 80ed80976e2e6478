"""Signatures of what a run reads back from a cache folder.

A cache folder is often shared or restored in CI (``actions/cache``), so anything in it may
have been planted: a repository index that holds an invented name, a mermaid entry that
says a broken diagram parses, a link entry that says a dead link is alive. With
``POSTGATES_CACHE_KEY`` set (a CI secret), every entry is written with an HMAC-SHA256 under
that key and an entry without a valid one is a miss; without a key, entries are still
checked against what they claim to be (their key, the diagram's digest, the commit), but a
writer who can edit the folder can forge a consistent one: sign it in CI.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Mapping
from typing import Any

# The secret entries are signed with (HMAC-SHA256); unset: entries are unsigned.
ENV_CACHE_KEY = "POSTGATES_CACHE_KEY"
MAC_FIELD = "mac"


def cache_secret() -> bytes | None:
    """The signing key of this process's caches, or None (read at each use: a test or a
    CI step may set it after import)."""
    value = os.environ.get(ENV_CACHE_KEY)
    return value.encode("utf-8") if value else None


def mac_of(data: Mapping[str, Any] | bytes, secret: bytes) -> str:
    """The HMAC of an entry (canonical JSON: sorted keys, ASCII) or of raw bytes."""
    if not isinstance(data, bytes):
        data = json.dumps(data, sort_keys=True, ensure_ascii=True).encode("ascii")
    return hmac.new(secret, data, hashlib.sha256).hexdigest()


def signed(entry: dict[str, Any]) -> dict[str, Any]:
    """``entry`` with its MAC under the cache key, when one is set."""
    secret = cache_secret()
    entry = {k: v for k, v in entry.items() if k != MAC_FIELD}
    if secret is not None:
        # Through JSON first: the MAC is of what a reader will load (tuples become lists).
        entry[MAC_FIELD] = mac_of(json.loads(json.dumps(entry)), secret)
    return entry


def verified(entry: Any) -> dict[str, Any] | None:
    """A loaded entry without its MAC, or None when it is not a mapping or (with a cache
    key set) its MAC is missing or wrong."""
    if not isinstance(entry, dict):
        return None
    data = {k: v for k, v in entry.items() if k != MAC_FIELD}
    secret = cache_secret()
    if secret is None:
        return data
    mac = entry.get(MAC_FIELD)
    if not isinstance(mac, str) or not hmac.compare_digest(mac, mac_of(data, secret)):
        return None
    return data
