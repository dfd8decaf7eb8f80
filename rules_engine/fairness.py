"""Provably fair dice: a campaign's day seeds as a SHA-256 hash chain.

From the campaign's secret master seed, link 0 is the seed itself and link k is the
SHA-256 (hex) of link k-1.  With a chain of ``length`` links the campaign publishes
link ``length`` as its **commitment** before any die is rolled; day d rolls with link
``length - d``, revealed after day d's night phase.  Hashing day d's seed d times
gives the commitment, so the seed was fixed when the commitment was published; day
d+1's seed is a preimage of day d's, which SHA-256 does not give away.

Every roll of a day comes from ``SeededDice(day_seed, *stream_labels)``, so anyone
holding the revealed seed replays the day's roll log (``python -m rules_engine verify``).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

ALGORITHM = "sha256-chain"
ALGORITHM_TEXT = (
    "link 0 is the master seed, link k = SHA-256 hex digest of link k-1 (UTF-8); "
    "the commitment is link L (L the chain length) and day d's seed is link L-d; "
    "each roll is SeededDice(day seed, *stream labels): SHA-256 in counter mode"
)
DEFAULT_CHAIN_LENGTH = 1000  # days a campaign may roll; a long campaign runs a few dozen


class FairnessError(ValueError):
    """A day outside the chain, or a seed that does not hash to the commitment."""


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def chain_hash(text: str, times: int) -> str:
    """``text`` hashed ``times`` times."""
    for _ in range(times):
        text = sha256_hex(text)
    return text


@lru_cache(maxsize=256)
def commitment(master_seed: str, length: int) -> str:
    """What a campaign publishes before any roll: link ``length`` of its chain."""
    if length < 1:
        raise FairnessError(f"a dice chain needs at least one link, got {length}")
    return chain_hash(master_seed, length)


@lru_cache(maxsize=1024)
def day_seed(master_seed: str, length: int, day: int) -> str:
    """Day ``day``'s seed: link ``length - day``; cached, a night rolls thousands of times."""
    if not 1 <= day < length:
        raise FairnessError(f"day {day} is outside the campaign's dice chain of {length} days")
    return chain_hash(master_seed, length - day)


def seed_proves(seed: str, day: int, commitment_hex: str) -> bool:
    """Whether ``seed`` hashed ``day`` times is the commitment: it was fixed in advance."""
    return day >= 1 and chain_hash(seed, day) == commitment_hex
