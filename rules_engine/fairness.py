"""Provably fair dice: a campaign's day seeds as a SHA-256 hash chain.

From the campaign's secret master seed, link 0 is the seed itself and link k is the
SHA-256 (hex) of link k-1.  With a chain of ``length`` links the campaign publishes
link ``length`` as its **commitment** before any die is rolled; day d rolls with link
``length - d``, revealed after day d's night phase.  Hashing day d's seed d times
gives the commitment, so the seed was fixed when the commitment was published; day
d+1's seed is a preimage of day d's, which SHA-256 does not give away.

Each **audience** (who reads a roll besides the umpires: every member, one side, a battle's
two sides, the umpires alone) has a chain of its own, with its own commitment: the public's
master seed is the campaign's own (the one chain campaigns had before audiences), any other's
is the SHA-256 of the master seed and the audience's name, so no link of one chain gives any
link of another.  Every roll of a day comes from ``SeededDice(day seed of its audience,
*stream_labels)``: a reader holding the revealed seeds of the audiences they belong to replays
the rolls they read (``python -m rules_engine verify``), and no seed they hold computes a face
of a roll they may not read, whatever stream name they guess.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

ALGORITHM = "sha256-chain"
# Read by people on the roll log: the chain in words (commitment and day_seed below, in code).
ALGORITHM_TEXT = (
    "link 0 is the master seed and each further link the SHA-256 hex digest of the link before "
    "it (as UTF-8); the commitment is the chain's last link and day d's seed the link d places "
    "before it; each audience has its own chain and commitment; each roll's dice come from "
    "SHA-256 in counter mode over its audience's day seed and the roll's stream labels"
)
PUBLIC_AUDIENCE = "public"  # every member's rolls: the campaign's own chain
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


def audience_master(master_seed: str, audience: str) -> str:
    """Link 0 of ``audience``'s chain: the master seed itself for the public, else a one-way
    hash of it and the audience's name (which no revealed link of any chain gives)."""
    if audience == PUBLIC_AUDIENCE:
        return master_seed
    return sha256_hex(f"{master_seed}\naudience\n{audience}")


@lru_cache(maxsize=256)
def commitment(master_seed: str, length: int, audience: str = PUBLIC_AUDIENCE) -> str:
    """What a campaign publishes before any roll: link ``length`` of the audience's chain."""
    if length < 1:
        raise FairnessError(f"a dice chain needs at least one link, got {length}")
    return chain_hash(audience_master(master_seed, audience), length)


@lru_cache(maxsize=1024)
def day_seed(master_seed: str, length: int, day: int, audience: str = PUBLIC_AUDIENCE) -> str:
    """Day ``day``'s seed of the audience: link ``length - day`` of its chain; cached, a night
    rolls thousands of times."""
    if not 1 <= day < length:
        raise FairnessError(f"day {day} is outside the campaign's dice chain of {length} days")
    return chain_hash(audience_master(master_seed, audience), length - day)


def revealed_seeds(master_seed: str, length: int, through: int, audience: str = PUBLIC_AUDIENCE) -> list[str]:
    """Days 1 to ``through``'s seeds of the audience: the last one's, then each hashed once more."""
    if through < 1:
        return []
    seeds = [day_seed(master_seed, length, through, audience)]
    while len(seeds) < through:
        seeds.append(sha256_hex(seeds[-1]))
    return seeds[::-1]


def seed_proves(seed: str, day: int, commitment_hex: str) -> bool:
    """Whether ``seed`` hashed ``day`` times is the commitment: it was fixed in advance."""
    return day >= 1 and chain_hash(seed, day) == commitment_hex
