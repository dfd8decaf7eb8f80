"""Provably fair dice: the campaign's commitment, its day seeds and their reveal.

Every roll between two reveals belongs to the first unrevealed day (its "dice day"):
set-up rolls before day 1, the day's own and its night's, and the next dawn's once the
night revealed the day before. So nothing is ever rolled with a seed already revealed.
The night phase reveals its day's seeds as it finishes (``night.night_phase_finish``: the
public one stored on the day, in the public ``night.done`` event; each other audience's
served to its readers only, ``campaign.access.dice_audiences_held``). Each roll uses the seed
of its audience, exactly its readers (``campaign.access.dice_audience``, rules notes C-22). The
chains themselves are :mod:`rules_engine.fairness`.
"""

from __future__ import annotations

import secrets
from typing import Any

from campaign import models
from rules_engine import fairness

SEED_BYTES = 32  # a fresh master seed: 64 hex characters, Campaign.rng_seed's length


def dice_seed_fresh() -> str:
    """A new secret master seed, for a campaign whose pack does not fix one."""
    return secrets.token_hex(SEED_BYTES)


def dice_commitment_fields(seed: str, chain_length: int = fairness.DEFAULT_CHAIN_LENGTH) -> dict[str, Any]:
    """The campaign fields of a master seed: the seed, its commitment and the chain's length.
    Every way of creating a campaign sets them through here."""
    return {
        "rng_seed": seed,
        "dice_commitment": fairness.commitment(seed, chain_length),
        "dice_chain_length": chain_length,
    }


def dice_day(campaign: models.Campaign) -> int:
    """The day whose seed rolls now: the first not revealed yet."""
    return campaign.dice_revealed_through + 1


def dice_day_seed(campaign: models.Campaign, day: int, audience: str = fairness.PUBLIC_AUDIENCE) -> str:
    return fairness.day_seed(campaign.rng_seed, campaign.dice_chain_length, day, audience)
