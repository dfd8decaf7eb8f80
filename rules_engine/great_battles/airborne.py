"""Airborne drops: approach damage, drift and landing damage (Drop Zone, 6.1-6.3),
and the consolidation infiltration roll (7.4).

Each stand rolls in order: approach (d10), drift (2D10: the first, coloured,
die north/south, the second east/west), landing (d10).  Gliders take damage as
if dropped high and drift as if low.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.great_battles.common import ref, roll_against
from rules_engine.registry import procedure, table
from rules_engine.results import Applies, Modifier, RollResult, RuleRef, fraction_jsonable
from rules_engine.vocab import SupplySituation

APPROACH_RULE = ref("Drop Zone, 6.1 Approach Damage [pg 20, AL#1]")
DRIFT_RULE = ref("Drop Zone, 6.2 Drift Distance [pg 20, AL#2]")
DRIFT_VARIANT_RULE = ref("Drop Zone, 6.2 Bill Owen variant for normal drift; FAQ 5")
LANDING_RULE = ref("Drop Zone, 6.3 Landing Damage [pg 20, AL#3]")
CONSOLIDATION_RULE = ref("7. Consolidation Move Limits, item 4")


class DropHeight(enum.Enum):
    HIGH = "High"
    NORMAL = "Normal"
    LOW = "Low"


class Delivery(enum.Enum):
    PARADROP = "Paradrop"
    GLIDER = "Glider"


class AntiAircraft(enum.Enum):
    NONE = "none"  # no AA over the drop: no approach roll (GB-B-20)
    LIGHT = "Light AA"
    MEDIUM = "Medium AA"
    HEAVY = "Heavy AA"


class DamageEffect(enum.Enum):
    DESTROYED = "D"
    SUPPRESSED = "S"
    NO_EFFECT = "NE"


@dataclass(frozen=True)
class DamageBands:
    """Highest score destroying and highest suppressing (0-based: 0 = none)."""

    destroyed_at_most: int
    suppressed_at_most: int

    def effect(self, score: int) -> DamageEffect:
        if score <= self.destroyed_at_most:
            return DamageEffect.DESTROYED
        if score <= self.suppressed_at_most:
            return DamageEffect.SUPPRESSED
        return DamageEffect.NO_EFFECT

    def text(self) -> str:
        return f"D ≤{self.destroyed_at_most}, S ≤{self.suppressed_at_most}"


# Drift factor per drop height, as printed (2X, 1X, 1/2X).
DRIFT_FACTOR: dict[DropHeight, Fraction] = table(
    "gb.airborne.drift_factor",
    "Drift factor by drop height",
    APPROACH_RULE,
    {DropHeight.HIGH: Fraction(2), DropHeight.NORMAL: Fraction(1), DropHeight.LOW: Fraction(1, 2)},
)

APPROACH_DAMAGE: dict[DropHeight, dict[AntiAircraft, DamageBands]] = table(
    "gb.airborne.approach_damage",
    "Approach damage by drop height and anti-aircraft",
    APPROACH_RULE,
    {
        DropHeight.HIGH: {
            AntiAircraft.LIGHT: DamageBands(0, 1),
            AntiAircraft.MEDIUM: DamageBands(0, 2),
            AntiAircraft.HEAVY: DamageBands(1, 3),
        },
        DropHeight.NORMAL: {
            AntiAircraft.LIGHT: DamageBands(0, 2),
            AntiAircraft.MEDIUM: DamageBands(1, 3),
            AntiAircraft.HEAVY: DamageBands(2, 4),
        },
        DropHeight.LOW: {
            AntiAircraft.LIGHT: DamageBands(1, 3),
            AntiAircraft.MEDIUM: DamageBands(2, 4),
            AntiAircraft.HEAVY: DamageBands(3, 5),
        },
    },
)


@dataclass(frozen=True)
class ApproachInput:
    height: DropHeight
    anti_aircraft: AntiAircraft
    delivery: Delivery = Delivery.PARADROP
    stand: str = ""


def _damage_roll(
    title: str,
    rule: RuleRef,
    bands: DamageBands,
    cell: str,
    subject: str,
    dice: DiceSource,
    modifiers: tuple[Modifier, ...] = (),
    inputs: dict[str, Any] | None = None,
) -> RollResult:
    thrown = roll(DiceKind.D10, dice)
    effect = bands.effect(thrown.total + sum(m.value for m in modifiers))
    return RollResult(
        title=title,
        rule=rule,
        rolls=(thrown,),
        modifiers=modifiers,
        cell=cell,
        outcome=effect,
        outcome_text={"D": "destroyed", "S": "suppressed", "NE": "no effect"}[effect.value],
        subject=subject,
        inputs=inputs or {},
    )


@procedure("gb.airborne.approach", "Airborne approach damage", APPROACH_RULE)
def roll_approach(inputs: ApproachInput, dice: DiceSource) -> RollResult | None:
    """None when no AA fires at the drop."""
    if inputs.anti_aircraft is AntiAircraft.NONE:
        return None
    height = DropHeight.HIGH if inputs.delivery is Delivery.GLIDER else inputs.height
    bands = APPROACH_DAMAGE[height][inputs.anti_aircraft]
    return _damage_roll(
        "Approach damage",
        APPROACH_RULE,
        bands,
        f"{height.value} / {inputs.anti_aircraft.value}: {bands.text()}",
        inputs.stand or f"{inputs.delivery.value.lower()} stand",
        dice,
        inputs={"height": height, "anti_aircraft": inputs.anti_aircraft, "delivery": inputs.delivery},
    )


# --- drift -----------------------------------------------------------------------


class DriftTheatre(enum.Enum):
    CRETE = "Crete"
    NW_EUROPE = "NW Europe"


class Compass(enum.Enum):
    N = "N"
    NE = "NE"
    E = "E"
    SE = "SE"
    S = "S"
    SW = "SW"
    W = "W"
    NW = "NW"


@dataclass(frozen=True)
class DriftCell:
    inches: int
    direction: Compass | None  # None for 0"

    def text(self) -> str:
        return f'{self.inches}" {self.direction.value}' if self.direction else f'{self.inches}"'


def _column(*cells: str) -> tuple[DriftCell, ...]:
    """Cells for faces 1..10 as printed, e.g. '4S'; '0' is no drift."""
    return tuple(DriftCell(int(c[:-1]), Compass(c[-1])) if c != "0" else DriftCell(0, None) for c in cells)


# Per theatre: (first die column, second die column), faces 1..10 (10 = "0").
DRIFT_TABLE: dict[DriftTheatre, tuple[tuple[DriftCell, ...], tuple[DriftCell, ...]]] = table(
    "gb.airborne.drift",
    "Drift distance by theatre, per die",
    DRIFT_RULE,
    {
        DriftTheatre.CRETE: (
            _column("0", "2S", "4S", "4S", "6S", "8S", "1N", "2N", "3N", "4N"),
            _column("0", "2E", "4E", "4E", "6E", "6E", "8E", "1W", "2W", "3W"),
        ),
        DriftTheatre.NW_EUROPE: (
            _column("0", "2S", "4S", "4S", "6S", "1N", "2N", "4N", "4N", "6N"),
            _column("0", "2W", "4W", "4W", "6W", "6W", "8W", "8W", "1E", "2E"),
        ),
    },
)

_SIGN = {Compass.N: 1, Compass.S: -1, Compass.E: 1, Compass.W: -1}


@dataclass(frozen=True)
class DriftInput:
    theatre: DriftTheatre
    height: DropHeight = DropHeight.NORMAL
    delivery: Delivery = Delivery.PARADROP
    stand: str = ""


@dataclass(frozen=True)
class Drift:
    """Offset in inches after the drift factor: north and east positive."""

    north_inches: Fraction
    east_inches: Fraction
    factor: Fraction
    roll: RollResult

    def roll_results(self) -> tuple[RollResult, ...]:
        return (self.roll,)

    def to_dict(self) -> dict[str, Any]:
        return {
            "north_inches": fraction_jsonable(self.north_inches),
            "east_inches": fraction_jsonable(self.east_inches),
            "factor": fraction_jsonable(self.factor),
            "roll": self.roll.to_dict(),
        }


def _drift_factor(height: DropHeight, delivery: Delivery) -> Fraction:
    return DRIFT_FACTOR[DropHeight.LOW if delivery is Delivery.GLIDER else height]


def _offset(cell: DriftCell, factor: Fraction) -> Fraction:
    return factor * cell.inches * _SIGN[cell.direction] if cell.direction else Fraction(0)


def _inches(value: Fraction) -> str:
    return f'{float(value):g}"'


@procedure("gb.airborne.drift", "Airborne drift", DRIFT_RULE)
def roll_drift(inputs: DriftInput, dice: DiceSource) -> Drift:
    """Landing in a major river, the sea or off the board destroys the stand."""
    thrown = roll(DiceKind.TWO_D10, dice)
    north_south, east_west = DRIFT_TABLE[inputs.theatre]
    first, second = north_south[thrown.faces[0] - 1], east_west[thrown.faces[1] - 1]
    factor = _drift_factor(inputs.height, inputs.delivery)
    north, east = _offset(first, factor), _offset(second, factor)
    text = (
        f"{_inches(abs(north))} {'N' if north >= 0 else 'S'}, "
        f"{_inches(abs(east))} {'E' if east >= 0 else 'W'}"
    )
    return Drift(
        north_inches=north,
        east_inches=east,
        factor=factor,
        roll=RollResult(
            title="Drift",
            rule=DRIFT_RULE,
            rolls=(thrown,),
            outcome={"north_inches": float(north), "east_inches": float(east)},
            outcome_text=text,
            subject=inputs.stand or f"{inputs.delivery.value.lower()} stand",
            cell=f"{inputs.theatre.value}: 1st {first.text()}, 2nd {second.text()} ×{factor}",
            inputs={"theatre": inputs.theatre, "height": inputs.height, "delivery": inputs.delivery},
        ),
    )


# Bill Owen's variant: d8 compass point (1 = N, clockwise; GB-B-21), d6 inches with 6 = 0.
DRIFT_VARIANT_COMPASS: tuple[Compass, ...] = table(
    "gb.airborne.drift_variant_compass",
    "Drift variant: d8 face to compass point",
    DRIFT_VARIANT_RULE,
    tuple(Compass),
    optional=True,
)


@dataclass(frozen=True)
class DriftVariantInput:
    heavy_weapons: bool = False  # a 6 is 6" for heavy weapons, 0" for all others
    height: DropHeight = DropHeight.NORMAL
    delivery: Delivery = Delivery.PARADROP
    apply_drift_factor: bool = True
    stand: str = ""


@procedure("gb.airborne.drift_variant", "Airborne drift (d8/d6 variant)", DRIFT_VARIANT_RULE, optional=True)
def roll_drift_variant(inputs: DriftVariantInput, dice: DiceSource) -> RollResult:
    direction_roll = roll(DiceKind.D8, dice)
    distance_roll = roll(DiceKind.D6, dice)
    direction = DRIFT_VARIANT_COMPASS[direction_roll.total - 1]
    inches = distance_roll.total if distance_roll.total < 6 or inputs.heavy_weapons else 0
    factor = _drift_factor(inputs.height, inputs.delivery) if inputs.apply_drift_factor else Fraction(1)
    distance = factor * inches
    return RollResult(
        title="Drift (variant)",
        rule=DRIFT_VARIANT_RULE,
        rolls=(direction_roll, distance_roll),
        outcome={"direction": direction.value, "inches": float(distance)},
        outcome_text=f"{_inches(distance)} {direction.value}" if distance else "no drift",
        subject=inputs.stand or ("heavy weapons stand" if inputs.heavy_weapons else "stand"),
        cell=f'd8 {direction_roll.total} = {direction.value}, d6 {distance_roll.total} = {inches}" ×{factor}',
        inputs={"heavy_weapons": inputs.heavy_weapons, "height": inputs.height, "delivery": inputs.delivery},
    )


# --- landing ---------------------------------------------------------------------


class DropTime(enum.Enum):
    DAY = "Day"
    NIGHT = "Night"


class LandingTerrain(enum.Enum):
    CLEAR = "Clear"
    ROUGH = "Rough"  # rough, hills, woods and buildings


LANDING_DAMAGE: dict[tuple[DropTime, Delivery, LandingTerrain], DamageBands] = table(
    "gb.airborne.landing_damage",
    "Landing damage by time, delivery and terrain",
    LANDING_RULE,
    {
        (DropTime.DAY, Delivery.PARADROP, LandingTerrain.CLEAR): DamageBands(0, 1),
        (DropTime.DAY, Delivery.PARADROP, LandingTerrain.ROUGH): DamageBands(0, 3),
        (DropTime.DAY, Delivery.GLIDER, LandingTerrain.CLEAR): DamageBands(2, 3),
        (DropTime.DAY, Delivery.GLIDER, LandingTerrain.ROUGH): DamageBands(2, 5),
        (DropTime.NIGHT, Delivery.PARADROP, LandingTerrain.CLEAR): DamageBands(2, 3),
        (DropTime.NIGHT, Delivery.PARADROP, LandingTerrain.ROUGH): DamageBands(2, 5),
        (DropTime.NIGHT, Delivery.GLIDER, LandingTerrain.CLEAR): DamageBands(4, 5),
        (DropTime.NIGHT, Delivery.GLIDER, LandingTerrain.ROUGH): DamageBands(4, 7),
    },
)


@dataclass(frozen=True)
class LandingInput:
    time: DropTime
    delivery: Delivery
    terrain: LandingTerrain
    within_6_inches_of_enemy: bool = False
    stand: str = ""


@procedure("gb.airborne.landing", "Airborne landing damage", LANDING_RULE)
def roll_landing(inputs: LandingInput, dice: DiceSource) -> RollResult:
    """The -1 near the enemy is the only way to score 0."""
    bands = LANDING_DAMAGE[(inputs.time, inputs.delivery, inputs.terrain)]
    modifiers = (Modifier('landing within 6" of enemy', -1),) if inputs.within_6_inches_of_enemy else ()
    return _damage_roll(
        "Landing damage",
        LANDING_RULE,
        bands,
        f"{inputs.time.value} {inputs.delivery.value} {inputs.terrain.value}",
        inputs.stand or f"{inputs.delivery.value.lower()} stand",
        dice,
        modifiers,
        inputs={"time": inputs.time, "delivery": inputs.delivery, "terrain": inputs.terrain},
    )


# --- consolidation ---------------------------------------------------------------

INFILTRATION_PENALTY = table(
    "gb.airborne.infiltration_penalty",
    "Consolidation through enemy lines: morale number minus",
    CONSOLIDATION_RULE,
    3,
)


@dataclass(frozen=True)
class InfiltrationInput:
    morale_number: int  # the stand's rally number (chart 9)
    stand: str = ""


@procedure("gb.airborne.infiltration", "Consolidation through enemy lines", CONSOLIDATION_RULE)
def roll_infiltration(inputs: InfiltrationInput, dice: DiceSource) -> RollResult:
    return roll_against(
        title="Infiltration to rendezvous",
        rule=CONSOLIDATION_RULE,
        dice=dice,
        threshold=inputs.morale_number,
        modifiers=(Modifier("through enemy lines", -INFILTRATION_PENALTY, Applies.THRESHOLD),),
        passed=(DamageEffect.SUPPRESSED, "gets through, suppressed"),
        failed=(DamageEffect.DESTROYED, "destroyed"),
        subject=inputs.stand or "airborne stand",
        inputs={"morale_number": inputs.morale_number},
    )


# --- airborne supply ----------------------------------------------------------------

AIRBORNE_SUPPLY_RULE = ref("Airborne Supply, items 1-3")


@dataclass(frozen=True)
class AirborneSupplyRules:
    drop_zone_reach_inches: int  # C Ops traces friendly roads to within this of the drop zone
    isolated_loses_extra_stand: bool  # the charts' isolated row costs one more stand; not airborne's


AIRBORNE_SUPPLY: AirborneSupplyRules = table(
    "gb.airborne.supply",
    "Airborne supply: supply drop zones and airborne isolation",
    AIRBORNE_SUPPLY_RULE,
    AirborneSupplyRules(drop_zone_reach_inches=12, isolated_loses_extra_stand=False),
)


@dataclass(frozen=True)
class AirborneSupplyInput:
    c_ops_or_fup_on_table: bool
    # Along friendly roads from the C Ops to the supply drop zone; None: no drop zone or no road.
    road_trace_to_drop_zone_inches: float | None = None


@dataclass(frozen=True)
class AirborneSupply:
    situation: SupplySituation
    may_withdraw_at_night: bool
    loses_extra_stand: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "situation": self.situation.value,
            "may_withdraw_at_night": self.may_withdraw_at_night,
            "loses_extra_stand": self.loses_extra_stand,
            "reason": self.reason,
        }


@procedure("gb.airborne.supply", "Airborne battalion's supply", AIRBORNE_SUPPLY_RULE, rolls=False)
def read_airborne_supply(inputs: AirborneSupplyInput) -> AirborneSupply:
    reach = AIRBORNE_SUPPLY.drop_zone_reach_inches
    trace = inputs.road_trace_to_drop_zone_inches
    if trace is not None and trace <= reach:
        # GB-B-37: supplied by the drop zone reads as OK; the scenario grades its quality.
        return AirborneSupply(
            SupplySituation.OK,
            inputs.c_ops_or_fup_on_table,
            False,
            f'C Ops traces friendly roads to within {reach}" of the supply drop zone',
        )
    return AirborneSupply(
        SupplySituation.ISOLATED,
        inputs.c_ops_or_fup_on_table,
        AIRBORNE_SUPPLY.isolated_loses_extra_stand,
        "no C Ops or FUP on the table"
        if not inputs.c_ops_or_fup_on_table
        else f'no friendly road from C Ops to within {reach}" of a supply drop zone',
    )
