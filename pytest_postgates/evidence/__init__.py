"""The repository side of grounding: what the configured repository really contains.

Built once per repository (and, in later layers, once per commit), never per token.
"""

from pytest_postgates.evidence.repo import (
    GitError,
    RepoEvidence,
    find_repo_root,
    load_repo_evidence,
)

__all__ = ["GitError", "RepoEvidence", "find_repo_root", "load_repo_evidence"]
