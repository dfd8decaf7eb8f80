"""Entrenchments and barrage spotting: umpire aids read by the table, no dice.

The Malta house rule's entrenchments (Allied start entrenched outside towns, 5
action points in the open) live with the Malta scenario
(:data:`rules_engine.great_battles.campaign_pools.MALTA`); these are the charts'.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rules_engine.great_battles.common import Cover, ref
from rules_engine.registry import procedure, table

ENTRENCH_RULE = ref("Entrenchments")
SPOTTING_RULE = ref("FAQ 3, barrage spotting")


@dataclass(frozen=True)
class Entrenchment:
    cover: Cover
    actions: int | None  # actions the stand spends, or None when counted in days
    days: int | None


class EntrenchmentKind(enum.Enum):
    ENTRENCHMENT = "entrenchment"
    FIELD_WORKS = "field works"


ENTRENCHMENTS: dict[EntrenchmentKind, Entrenchment] = table(
    "gb.entrenchments",
    "Entrenchments (actions for soft cover) and field works (days for hard cover)",
    ENTRENCH_RULE,
    {
        EntrenchmentKind.ENTRENCHMENT: Entrenchment(Cover.SOFT, actions=4, days=None),
        EntrenchmentKind.FIELD_WORKS: Entrenchment(Cover.HARD, actions=None, days=2),
    },
)


class BarrageCall(enum.Enum):
    PRE_PLANNED = "pre-planned"  # plotted at dawn with its turn: no spotter
    REGISTERED = "registered"  # plotted at dawn, fired once a friendly stand spots it
    ON_CALL = "on-call"  # placed where a friendly stand spots
    INFANTRY_INDIRECT = "infantry indirect fire"  # mortars: an unseen spotting team


@dataclass(frozen=True)
class SpottingDistance:
    target_in_cover_inches: int | None  # None: no spotter needed
    target_in_open_inches: int | None
    line_of_sight: bool


BARRAGE_SPOTTING: dict[BarrageCall, SpottingDistance] = table(
    "gb.barrage_spotting",
    "Barrage spotting distances by call mode (inches from a friendly stand)",
    SPOTTING_RULE,
    {
        BarrageCall.PRE_PLANNED: SpottingDistance(None, None, line_of_sight=False),
        BarrageCall.REGISTERED: SpottingDistance(1, 12, line_of_sight=True),
        BarrageCall.ON_CALL: SpottingDistance(1, 12, line_of_sight=True),
        # A spotting team sees 8" all round without a line of sight.
        BarrageCall.INFANTRY_INDIRECT: SpottingDistance(8, 8, line_of_sight=False),
    },
)


@dataclass(frozen=True)
class BarrageSpottingInput:
    call: BarrageCall
    distance_inches: float
    target_in_cover: bool = False


@dataclass(frozen=True)
class BarrageSpotting:
    spotted: bool
    within_inches: int | None

    def to_dict(self) -> dict[str, object]:
        return {"spotted": self.spotted, "within_inches": self.within_inches}


@procedure("gb.barrage_spotting", "Can a friendly stand spot the barrage target?", SPOTTING_RULE, rolls=False)
def read_barrage_spotting(inputs: BarrageSpottingInput) -> BarrageSpotting:
    row = BARRAGE_SPOTTING[inputs.call]
    within = row.target_in_cover_inches if inputs.target_in_cover else row.target_in_open_inches
    if within is None:
        return BarrageSpotting(True, None)
    return BarrageSpotting(inputs.distance_inches <= within, within)
