"""The dice a reader may check: each day's seeds once revealed, the procedures rolled,
and what a roll's columns mean."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from campaign import access as access_rules
from campaign import models
from campaign.access import CampaignAccess
from campaign.selectors.scoped import rolls
from rules_engine import fairness


@dataclass(frozen=True)
class DaySeed:
    day: int
    seed: str


@dataclass(frozen=True)
class AudienceSeeds:
    """One audience's chain (rules notes C-22): its commitment, public from the start, and the
    revealed day seeds the reader holds (none when they are not of its audience)."""

    audience: str
    commitment: str
    seeds: list[DaySeed]

    @property
    def seed(self) -> str:
        """The one day's seed, in a day's document."""
        return self.seeds[0].seed if self.seeds else ""


def _audience_seeds(access: CampaignAccess, days: Sequence[int]) -> list[AudienceSeeds]:
    """Every audience but the public (whose seeds are stored on the days): the seeds of ``days``
    for those the reader is of; the commitment of every one."""
    campaign = access.campaign
    held = set(access_rules.dice_audiences_held(access))
    chains = []
    for audience in access_rules.dice_audiences(side.name for side in access.sides.values()):
        if audience == fairness.PUBLIC_AUDIENCE:
            continue
        seeds: list[DaySeed] = []
        if audience in held and days:
            revealed = fairness.revealed_seeds(
                campaign.rng_seed, campaign.dice_chain_length, max(days), audience
            )
            seeds = [DaySeed(day, revealed[day - 1]) for day in days]
        # Fixed with the master seed: the same from the campaign's start, whoever asks.
        commitment = fairness.commitment(campaign.rng_seed, campaign.dice_chain_length, audience)
        chains.append(AudienceSeeds(audience, commitment, seeds))
    return chains


@dataclass(frozen=True)
class DiceSummary:
    """The campaign's dice commitments and the day seeds revealed so far: the public's to every
    member, each other audience's to its readers."""

    campaign: models.Campaign
    days: list[models.CampaignDay]
    audiences: list[AudienceSeeds]
    algorithm: ClassVar[str] = fairness.ALGORITHM

    @property
    def rolling_day(self) -> int:
        return self.campaign.dice_revealed_through + 1


def dice_summary(access: CampaignAccess) -> DiceSummary:
    revealed = list(
        models.CampaignDay.objects.filter(campaign=access.campaign)
        .exclude(dice_seed="")
        .only("number", "dice_seed")
        .order_by("number")
    )
    return DiceSummary(access.campaign, revealed, _audience_seeds(access, [day.number for day in revealed]))


@dataclass(frozen=True)
class DayDice:
    """A revealed day's verification document: its public seed, the seeds of the other audiences
    the reader is of, and the rolls it rolled that the reader may read (campaign.access), in the
    order they were rolled."""

    campaign: models.Campaign
    day: models.CampaignDay
    audiences: list[AudienceSeeds]
    rolls: list[models.RollRecord]
    algorithm: ClassVar[str] = fairness.ALGORITHM


def day_dice(access: CampaignAccess, day: models.CampaignDay) -> DayDice | None:
    """None while the day's seed is not revealed."""
    if not day.dice_seed:
        return None
    rolled = rolls(access).filter(dice_day=day.number).select_related(None).select_related("override_of")
    held = [chain for chain in _audience_seeds(access, [day.number]) if chain.seeds]
    return DayDice(access.campaign, day, held, list(rolled.order_by("id")))


def roll_procedures(access: CampaignAccess) -> list[str]:
    """The procedures of the rolls the reader may read (what the roll log filters by)."""
    readable = models.RollRecord.objects.filter(campaign=access.campaign).filter(
        access_rules.rolls_readable(access)
    )
    return list(readable.order_by("procedure").values_list("procedure", flat=True).distinct())


# Rolls set columns of these rows (campaign.services.overrides' targets): the coded ones' choices.
def _roll_column_choices() -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for model in (models.CampaignDay, models.DaySegmentRecord, models.Battalion, models.Force):
        for field in model._meta.concrete_fields:
            if field.choices and field.name not in found:
                found[field.name] = {str(code): str(label) for code, label in field.flatchoices}
    return found


ROLL_COLUMN_CHOICES = _roll_column_choices()


# Rolls name a side they set (a segment's initiative) by the side's name.
ROLL_SIDE_COLUMNS = frozenset(
    field.name
    for model in (models.CampaignDay, models.DaySegmentRecord, models.Battalion, models.Force)
    for field in model._meta.concrete_fields
    if field.is_relation and field.related_model is models.Side
)


def roll_change_choices(
    changes: Mapping[str, Any] | None, side_names: Iterable[str]
) -> dict[str, dict[str, str]]:
    """Each coded value a roll set, with every code it may take and its label, and each side it
    named with the campaign's ``side_names``: an override offers words to choose, never codes."""
    sides = {name: name for name in side_names}
    return {
        name: sides if name in ROLL_SIDE_COLUMNS else ROLL_COLUMN_CHOICES[name]
        for name in (changes or {})
        if name in ROLL_COLUMN_CHOICES or name in ROLL_SIDE_COLUMNS
    }
