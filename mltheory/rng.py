"""Deterministic random generators: one per claim, derived from its id and a global seed."""

from __future__ import annotations

import hashlib

import numpy as np

__all__ = ["DEFAULT_SEED", "claim_rng", "claim_seed"]

#: The global seed used when none is given (``mltheory verify --seed``).
DEFAULT_SEED = 20261122


def claim_seed(claim_id: str, seed: int = DEFAULT_SEED) -> int:
    """A 64-bit seed derived from the claim id and the global seed (stable across runs
    and platforms: SHA-256, not Python's salted ``hash``)."""
    digest = hashlib.sha256(f"{int(seed)}:{claim_id}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def claim_rng(claim_id: str, seed: int = DEFAULT_SEED) -> np.random.Generator:
    """The :class:`numpy.random.Generator` a claim's check receives as ``rng``."""
    return np.random.default_rng(claim_seed(claim_id, seed))
