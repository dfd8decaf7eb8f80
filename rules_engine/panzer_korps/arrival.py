"""Force availability, deployment and arrival charts.

A campaign service rolls availability once per force before the battle, then,
from the segment availability allows, an arrival roll each day segment until
the force arrives; deployment says where it marches on.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.panzer_korps.common import (
    Band,
    BattlefieldCondition,
    Mobility,
    band_result,
    inputs_of,
    modifiers,
    ref,
)
from rules_engine.registry import procedure, table
from rules_engine.results import Applies, Comparison, Modifier, RollResult
from rules_engine.vocab import LeaderRating

AVAILABILITY_RULE = ref("Force availability chart")
DEPLOYMENT_RULE = ref("Deployment chart")
ARRIVAL_RULE = ref("Arrival chart")


class ForceAvailability(enum.Enum):
    AT_START = "on the field at the start"
    DEPLOYED_30_INCHES = "deployed at least 30 inches from all known enemy"
    ARRIVAL_FROM_SEGMENT_1 = "rolls for arrival from the 1st day segment"
    ARRIVAL_FROM_SEGMENT_2 = "rolls for arrival from the 2nd day segment"
    LATE = "late: rolls for arrival after the 3rd day segment"
    DOES_NOT_ARRIVE = "delayed, will not arrive (re-roll on a second day)"


# The battle's day segment (1 = its first) from which the force may roll to arrive.
FIRST_ARRIVAL_SEGMENT: dict[ForceAvailability, int] = {
    ForceAvailability.ARRIVAL_FROM_SEGMENT_1: 1,
    ForceAvailability.ARRIVAL_FROM_SEGMENT_2: 2,
    ForceAvailability.LATE: 4,
}


class Ground(enum.Enum):
    MIXED = "mixed"
    CLEAR = "mostly clear"
    WOODS = "mostly woods"
    SWAMP = "mostly swamp"
    MOUNTAIN = "mostly mountain"


def availability_bands(no_show_from: int | None) -> tuple[Band[ForceAvailability], ...]:
    """The chart's rows; ``no_show_from`` is where "will not arrive at all" starts (PK-06)."""
    late_high = None if no_show_from is None else no_show_from - 1
    bands = (
        Band(None, 3, ForceAvailability.AT_START),
        Band(4, 5, ForceAvailability.DEPLOYED_30_INCHES),
        Band(6, 7, ForceAvailability.ARRIVAL_FROM_SEGMENT_1),
        Band(8, 9, ForceAvailability.ARRIVAL_FROM_SEGMENT_2),
        Band(10, late_high, ForceAvailability.LATE),
    )
    if no_show_from is None:
        return bands
    return (*bands, Band(no_show_from, None, ForceAvailability.DOES_NOT_ARRIVE))


FORCE_AVAILABILITY: tuple[Band[ForceAvailability], ...] = table(
    "pk.force_availability", "Force availability (d10, 0 = 10)", AVAILABILITY_RULE, availability_bands(11)
)


@dataclass(frozen=True)
class AvailabilityModifiers:
    force_led_by: dict[LeaderRating, int]
    ground: dict[Ground, int]
    weather: dict[BattlefieldCondition, int]  # one, the worst that applies (PK-07)
    home_nation: int
    out_of_supply: int
    mobility: dict[Mobility, int]


AVAILABILITY_MODIFIERS: AvailabilityModifiers = table(
    "pk.force_availability_modifiers",
    "Force availability modifiers",
    AVAILABILITY_RULE,
    AvailabilityModifiers(
        force_led_by={
            LeaderRating.A: -2,
            LeaderRating.B: -1,
            LeaderRating.F: 1,
            LeaderRating.G: 2,
            LeaderRating.H: 3,
        },
        ground={Ground.WOODS: 1, Ground.SWAMP: 2, Ground.MOUNTAIN: 2, Ground.CLEAR: -1},
        weather={BattlefieldCondition.RAIN: 1, BattlefieldCondition.MUD: 2, BattlefieldCondition.SNOW: 3},
        home_nation=-1,
        out_of_supply=2,
        mobility={Mobility.MECHANIZED: -2, Mobility.MOTORIZED: -1},
    ),
)


@dataclass(frozen=True)
class ForceAvailabilityInput:
    leader_rating: LeaderRating
    ground: Ground = Ground.MIXED
    conditions: tuple[BattlefieldCondition, ...] = ()
    home_nation: bool = False
    out_of_supply: bool = False
    mobility: Mobility = Mobility.MIXED
    # Modified score from which the force will not arrive at all; None reads
    # every score of 10+ as "late" (rules notes PK-06).
    no_show_from: int | None = 11
    force_name: str = ""


def availability_modifiers(inputs: ForceAvailabilityInput) -> tuple[Modifier, ...]:
    table_ = AVAILABILITY_MODIFIERS
    weather = [c for c in inputs.conditions if c in table_.weather]
    worst = max(weather, key=lambda c: table_.weather[c], default=None)
    return modifiers(
        (True, f"led by {inputs.leader_rating.label}", table_.force_led_by.get(inputs.leader_rating, 0)),
        (True, f"ground {inputs.ground.value}", table_.ground.get(inputs.ground, 0)),
        (worst is not None, worst.value if worst else "", table_.weather[worst] if worst else 0),
        (inputs.home_nation, "home nation", table_.home_nation),
        (inputs.out_of_supply, "out of supply", table_.out_of_supply),
        (True, inputs.mobility.value, table_.mobility.get(inputs.mobility, 0)),
    )


@procedure("pk.force_availability", "Force availability", AVAILABILITY_RULE)
def roll_force_availability(inputs: ForceAvailabilityInput, dice: DiceSource) -> RollResult:
    _, result = band_result(
        title="Force availability",
        subject=inputs.force_name or f"force led by {inputs.leader_rating.label}",
        rule=AVAILABILITY_RULE,
        bands=availability_bands(inputs.no_show_from),
        thrown=roll(DiceKind.D10, dice),
        mods=availability_modifiers(inputs),
        text=lambda c: c.value,
        inputs=inputs_of(inputs),
    )
    return result


def first_arrival_segment(availability: ForceAvailability) -> int | None:
    """Battle day segment (1-based) of the first arrival roll; None: no arrival roll."""
    return FIRST_ARRIVAL_SEGMENT.get(availability)


class DeploymentZone(enum.Enum):
    CENTRAL = "central deployment zone"
    LEFT = "left deployment zone"
    RIGHT = "right deployment zone"
    ENEMY_FLANK = "either flank of the enemy zone"
    ENEMY_RIGHT_FLANK = "right flank of the enemy zone"
    ENEMY_LEFT_FLANK = "left flank of the enemy zone"


class ForceOrder(enum.Enum):
    MOVE = "move"
    ADVANCE = "advance"


DEPLOYMENT: tuple[Band[DeploymentZone], ...] = table(
    "pk.deployment",
    "Deployment (d6, in transit column)",
    DEPLOYMENT_RULE,
    (
        Band(None, 4, DeploymentZone.CENTRAL),
        Band(5, 5, DeploymentZone.LEFT),
        Band(6, 6, DeploymentZone.RIGHT),
        Band(7, None, DeploymentZone.ENEMY_FLANK),
    ),
)

# The unmodified re-roll that picks the enemy flank on a 7+.
DEPLOYMENT_FLANK: tuple[Band[DeploymentZone], ...] = table(
    "pk.deployment_flank",
    "Deployment flank re-roll (d6)",
    DEPLOYMENT_RULE,
    (Band(1, 3, DeploymentZone.ENEMY_RIGHT_FLANK), Band(4, 6, DeploymentZone.ENEMY_LEFT_FLANK)),
)

DEPLOYMENT_MODIFIERS: dict[str, int] = table(
    "pk.deployment_modifiers",
    "Deployment modifiers",
    DEPLOYMENT_RULE,
    {
        "all mechanized": 1,
        "air superiority": 1,
        "home nation": 1,
        "A-C leader": 1,
        "E-H leader": -2,
        "advance vs move order": 2,
    },
)

_A_TO_C = frozenset({LeaderRating.A, LeaderRating.B, LeaderRating.C})
_E_TO_H = frozenset({LeaderRating.E, LeaderRating.F, LeaderRating.G, LeaderRating.H})


@dataclass(frozen=True)
class DeploymentInput:
    leader_rating: LeaderRating
    mobility: Mobility = Mobility.MIXED
    air_superiority: bool = False
    home_nation: bool = False
    order: ForceOrder = ForceOrder.MOVE
    force_name: str = ""


@dataclass(frozen=True)
class Deployment:
    zone: DeploymentZone
    roll: RollResult
    flank_roll: RollResult | None = None

    def roll_results(self) -> tuple[RollResult, ...]:
        return (self.roll,) if self.flank_roll is None else (self.roll, self.flank_roll)

    def line(self) -> str:
        return "; ".join(r.line() for r in self.roll_results()) + f" ⇒ {self.zone.value}, in transit column"

    def to_dict(self) -> dict[str, Any]:
        return {
            "zone": self.zone.value,
            "roll": self.roll.to_dict(),
            "flank_roll": self.flank_roll.to_dict() if self.flank_roll else None,
            "line": self.line(),
        }


@procedure("pk.deployment", "Deployment", DEPLOYMENT_RULE)
def roll_deployment(inputs: DeploymentInput, dice: DiceSource) -> Deployment:
    mods = modifiers(
        (inputs.mobility is Mobility.MECHANIZED, "all mechanized", DEPLOYMENT_MODIFIERS["all mechanized"]),
        (inputs.air_superiority, "air superiority", DEPLOYMENT_MODIFIERS["air superiority"]),
        (inputs.home_nation, "home nation", DEPLOYMENT_MODIFIERS["home nation"]),
        (
            inputs.leader_rating in _A_TO_C,
            f"{inputs.leader_rating.value} leader",
            DEPLOYMENT_MODIFIERS["A-C leader"],
        ),
        (
            inputs.leader_rating in _E_TO_H,
            f"{inputs.leader_rating.value} leader",
            DEPLOYMENT_MODIFIERS["E-H leader"],
        ),
        (
            inputs.order is ForceOrder.ADVANCE,
            "advance order",
            DEPLOYMENT_MODIFIERS["advance vs move order"],
        ),
    )
    subject = inputs.force_name or f"force led by {inputs.leader_rating.label}"

    def read(
        title: str, bands: tuple[Band[DeploymentZone], ...], mods: tuple[Modifier, ...]
    ) -> tuple[DeploymentZone, RollResult]:
        return band_result(
            title=title,
            subject=subject,
            rule=DEPLOYMENT_RULE,
            bands=bands,
            thrown=roll(DiceKind.D6, dice),
            mods=mods,
            text=lambda z: z.value,
            inputs=inputs_of(inputs),
        )

    zone, first = read("Deployment", DEPLOYMENT, mods)
    if zone is not DeploymentZone.ENEMY_FLANK:
        return Deployment(zone, first)
    flank, flank_roll = read("Deployment flank", DEPLOYMENT_FLANK, ())
    return Deployment(flank, first, flank_roll)


ARRIVAL_CHANCE: dict[LeaderRating, int] = table(
    "pk.arrival_chance",
    "Arrival chance by leader (d100 at or below)",
    ARRIVAL_RULE,
    {
        LeaderRating.A: 40,
        LeaderRating.B: 35,
        LeaderRating.C: 30,
        LeaderRating.D: 25,
        LeaderRating.E: 20,
        LeaderRating.F: 15,
        LeaderRating.G: 10,
        LeaderRating.H: 5,
    },
)

ARRIVAL_BONUS_PER_SEGMENT = table(
    "pk.arrival_bonus_per_segment",
    "Arrival chance added per day segment since the first attempt",
    ARRIVAL_RULE,
    5,
)


@dataclass(frozen=True)
class ArrivalInput:
    leader_rating: LeaderRating  # the force's general
    segments_since_first_attempt: int = 0  # 0 on the first attempt
    force_name: str = ""


def arrival_bonus(segments: int) -> tuple[Modifier, ...]:
    if segments < 0:
        raise ValueError(f"segments since the first attempt cannot be negative ({segments})")
    name = "per segment" if segments == 1 else f"for {segments} segments"
    return modifiers((segments > 0, name, segments * ARRIVAL_BONUS_PER_SEGMENT), applies=Applies.THRESHOLD)


@procedure("pk.arrival", "Arrival roll", ARRIVAL_RULE)
def roll_arrival(inputs: ArrivalInput, dice: DiceSource) -> RollResult:
    thrown = roll(DiceKind.PERCENTILE, dice)
    mods = arrival_bonus(inputs.segments_since_first_attempt)
    chance = ARRIVAL_CHANCE[inputs.leader_rating] + sum(m.value for m in mods)
    arrives = thrown.total <= chance
    return RollResult(
        title="Arrival roll",
        subject=inputs.force_name or f"Force Led by {inputs.leader_rating.value}",
        rule=ARRIVAL_RULE,
        rolls=(thrown,),
        modifiers=mods,
        threshold_base=ARRIVAL_CHANCE[inputs.leader_rating],
        comparison=Comparison.AT_MOST,
        outcome=arrives,
        outcome_text="arrives" if arrives else "does not arrive",
        inputs=inputs_of(inputs),
    )
