"""How the campaign stands: the scenario's victory conditions and where each side is against them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaign import models
from campaign.choices import (
    CampaignStatus,
)


@dataclass(frozen=True)
class SectorHeld:
    id: int
    name: str
    owner_id: int | None  # None: contested
    held: bool  # by the condition's side


@dataclass(frozen=True)
class ConditionStanding:
    """One of the scenario's victory conditions and how its side stands against it now. Sectors,
    their owners and victory points are public (rules notes C-17): every member reads it all."""

    side_id: int
    side_name: str
    result: str
    sectors: list[SectorHeld]
    victory_points: int | None  # the threshold; None: none
    points_held: int
    by_day: int | None
    day: int  # the day it is read on: tonight's night checks it

    @property
    def expired(self) -> bool:
        return self.by_day is not None and self.day > self.by_day

    @property
    def met(self) -> bool:
        enough = self.victory_points is None or self.points_held >= self.victory_points
        return not self.expired and all(sector.held for sector in self.sectors) and enough

    @property
    def standing(self) -> str:
        """Where the side stands, in words."""
        parts = []
        if self.sectors:
            held = [s.name for s in self.sectors if s.held]
            missing = [s.name for s in self.sectors if not s.held]
            parts.append(
                f"holds {len(held)} of {len(self.sectors)} sectors"
                + (f" ({', '.join(held)})" if held else "")
                + (f"; not {', '.join(missing)}" if missing else "")
            )
        if self.victory_points is not None:
            point_word = "victory point" if self.victory_points == 1 else "victory points"
            parts.append(f"holds {self.points_held} of {self.victory_points} {point_word}")
        if self.by_day is not None:
            parts.append(f"by day {self.by_day}" + (": too late" if self.expired else ""))
        text = f"{self.side_name} " + "; ".join(parts)
        if self.met:
            text += ". Met as the map stands: tonight's night phase would end the campaign"
        return text + "."


@dataclass(frozen=True)
class SideStanding:
    side_id: int
    name: str
    sectors_held: int
    victory_points: int


@dataclass(frozen=True)
class VictoryStanding:
    campaign: models.Campaign
    conditions: list[ConditionStanding]
    sides: list[SideStanding]
    end: Mapping[str, Any] | None  # the pack's: {day, side, result}

    @property
    def end_text(self) -> str | None:
        """What happens when no condition is met, in words; None without an end."""
        if not self.end:
            return None
        side = self.end.get("side")
        outcome = f"{side} wins" if side else "drawn"
        result = self.end.get("result") or outcome
        return (
            f"If no condition is met by then, the night of day {self.end['day']} ends the campaign: "
            f"{result} ({outcome})."
        )

    @property
    def summary(self) -> str:
        campaign = self.campaign
        if campaign.status == CampaignStatus.FINISHED:
            names = {side.side_id: side.name for side in self.sides}
            heading = f"{names[campaign.winner_id]} victory" if campaign.winner_id in names else "Drawn"
            return f"The campaign ended on day {campaign.finished_day}. {heading}: {campaign.result}"
        if not self.conditions and not self.end:
            return "The scenario sets no victory conditions: the umpire decides how the campaign ends."
        met = [condition for condition in self.conditions if condition.met]
        if met:
            return f"{met[0].side_name} meets a victory condition as the map stands: {met[0].result}."
        return "No victory condition is met as the map stands: the campaign goes on."


def victory_standing(campaign: models.Campaign, day_number: int | None = None) -> VictoryStanding:
    """The scenario's victory conditions (``Campaign.victory``) read against who holds what now (or
    at the night of ``day_number``): two queries, the sides and the sectors. The night's victory
    step (:func:`campaign.services.victory.victory_check`) reads the same."""
    victory: Mapping[str, Any] = campaign.victory or {}
    day = campaign.current_day if day_number is None else day_number
    sides = list(campaign.sides.order_by("pk").values_list("pk", "name"))
    by_name = {name: pk for pk, name in sides}
    sectors = list(campaign.sectors.values_list("pk", "key", "name", "owner_id", "victory_points"))
    by_key = {key: (pk, name, owner) for pk, key, name, owner, _ in sectors}
    points: dict[int, int] = defaultdict(int)
    held: dict[int, int] = defaultdict(int)
    for _, _, _, owner, value in sectors:
        if owner is not None:
            points[owner] += value
            held[owner] += 1
    conditions = []
    for condition in victory.get("conditions") or ():
        side_id = by_name[condition["side"]]
        wanted = [by_key[key] for key in condition.get("sectors") or ()]
        conditions.append(
            ConditionStanding(
                side_id=side_id,
                side_name=condition["side"],
                result=condition.get("result") or f"{condition['side']} victory",
                sectors=[SectorHeld(pk, name, owner, owner == side_id) for pk, name, owner in wanted],
                victory_points=condition.get("victory_points"),
                points_held=points[side_id],
                by_day=condition.get("by_day"),
                day=day,
            )
        )
    return VictoryStanding(
        campaign=campaign,
        conditions=conditions,
        sides=[SideStanding(pk, name, held[pk], points[pk]) for pk, name in sides],
        end=victory.get("end"),
    )
