"""Tactical movement: base factors, terrain and quality modifiers, terrain disorder.

A move's allowance is the mover's base factor plus its adjustments (weight class,
road, quality); terrain crossed then costs inches.  Vehicle formations crossing
terrain marked * on the chart roll a d4 for the disorder markers it causes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.panzer_korps.common import Quality, inputs_of, modifiers, ref, score_of
from rules_engine.registry import procedure, table
from rules_engine.results import RollResult

FACTORS_RULE = ref("Tactical movement factors")
TERRAIN_RULE = ref("Terrain modifiers to tactical movement")
DISORDER_RULE = ref("Terrain modifiers to tactical movement, *d4 terrain caused disorder")
QUALITY_RULE = ref("Additional modifiers to movement")


class Mover(enum.Enum):
    WHEELED = "wheeled vehicles"
    TRACKED = "tracked vehicles"
    INFANTRY = "infantry"
    INFANTRY_DOUBLE_QUICK = "infantry at the double quick"
    CAVALRY_LINE = "cavalry in line"
    CAVALRY_COLUMN = "cavalry in column"
    HORSE_WAGONS = "horse-drawn wagons"


TACTICAL_MOVEMENT: dict[Mover, int] = table(
    "pk.tactical_movement",
    "Tactical movement factors (inches per move)",
    FACTORS_RULE,
    {
        Mover.WHEELED: 10,
        Mover.TRACKED: 9,
        Mover.INFANTRY: 4,
        Mover.INFANTRY_DOUBLE_QUICK: 7,
        Mover.CAVALRY_LINE: 10,
        Mover.CAVALRY_COLUMN: 18,
        Mover.HORSE_WAGONS: 5,
    },
)


class MoveAdjustment(enum.Enum):
    LIGHT_TRACKED = "light tracked vehicle"
    HEAVY_TRACKED = "heavy tracked vehicle"
    SUPER_HEAVY_TRACKED = "super heavy tracked vehicle"
    ROAD = "road bonus"
    PARTISANS = "partisan unit"
    PROLONGE = "AT/infantry gun by prolonge"
    CAVALRY_CHARGE = "cavalry charge (additional)"


MOVEMENT_ADJUSTMENTS: dict[MoveAdjustment, int] = table(
    "pk.movement_adjustments",
    "Tactical movement additions and deductions (inches)",
    FACTORS_RULE,
    {
        MoveAdjustment.LIGHT_TRACKED: 2,
        MoveAdjustment.HEAVY_TRACKED: -3,
        MoveAdjustment.SUPER_HEAVY_TRACKED: -6,
        MoveAdjustment.ROAD: 4,
        MoveAdjustment.PARTISANS: 2,
        # The chart prints "pro-long 2 inches": a gun manhandled by prolonge moves 2".
        MoveAdjustment.PROLONGE: 2,
        MoveAdjustment.CAVALRY_CHARGE: 4,
    },
)

QUALITY_MOVEMENT: dict[Quality, int] = table(
    "pk.quality_movement",
    "Additional movement modifiers by quality (inches); SS +1 is an input",
    QUALITY_RULE,
    {Quality.HARDENED: 2, Quality.ELITE: 1, Quality.MILITIA: -1},
)
SS_MOVEMENT_BONUS: int = table("pk.ss_movement", "SS formations' movement bonus (inches)", QUALITY_RULE, 1)


class Terrain(enum.Enum):
    HILL_LEVEL = "hill, each level"
    STEEP_HILL_LEVEL = "steep hill, one level"
    MARSH_MUD = "marsh, mud"
    WALL_HEDGE = "wall, hedge, fence, works"
    GULLY_STREAM = "gully or stream"
    RIVER = "river"
    LARGE_RIVER = "large river"
    LIGHT_WOODS = "light woods"
    MEDIUM_WOODS = "medium woods"
    HEAVY_WOODS = "heavy woods"
    LIGHT_BUILT_UP = "light built-up area (farm)"
    MEDIUM_BUILT_UP = "medium built-up area (village)"
    HEAVY_BUILT_UP = "heavy built-up area (town)"
    SAND_SNOW = "sand (not camels), snow bank"
    SCRUB = "scrub, brush"
    RUBBLE = "breached city wall, rubble"


@dataclass(frozen=True)
class TerrainCost:
    inches: Fraction | None  # None: impassable without a bridge or pontoon
    disorder_roll: bool  # marked * on the chart: vehicle formations roll a d4


TERRAIN_MOVEMENT: dict[Terrain, TerrainCost] = table(
    "pk.terrain_movement",
    "Terrain modifiers to tactical movement (inches deducted; * vehicles roll for disorder)",
    TERRAIN_RULE,
    {
        Terrain.HILL_LEVEL: TerrainCost(Fraction(3, 2), False),
        Terrain.STEEP_HILL_LEVEL: TerrainCost(Fraction(4), False),
        Terrain.MARSH_MUD: TerrainCost(Fraction(2), True),
        Terrain.WALL_HEDGE: TerrainCost(Fraction(2), True),
        Terrain.GULLY_STREAM: TerrainCost(Fraction(2), True),
        Terrain.RIVER: TerrainCost(Fraction(4), True),
        Terrain.LARGE_RIVER: TerrainCost(None, False),
        Terrain.LIGHT_WOODS: TerrainCost(Fraction(1), False),
        Terrain.MEDIUM_WOODS: TerrainCost(Fraction(2), True),
        Terrain.HEAVY_WOODS: TerrainCost(Fraction(3), True),
        Terrain.LIGHT_BUILT_UP: TerrainCost(Fraction(2), False),
        Terrain.MEDIUM_BUILT_UP: TerrainCost(Fraction(3), False),
        Terrain.HEAVY_BUILT_UP: TerrainCost(Fraction(5), False),
        Terrain.SAND_SNOW: TerrainCost(Fraction(3), True),
        Terrain.SCRUB: TerrainCost(Fraction(1), False),
        Terrain.RUBBLE: TerrainCost(Fraction(4), True),
    },
)


class VehicleNation(enum.Enum):
    GERMAN = "German"
    ITALIAN = "Italian"
    JAPANESE = "Japanese"
    CHINESE = "Chinese"
    RUSSIAN = "Russian"
    OTHER = "other"


@dataclass(frozen=True)
class DisorderModifier:
    nation: VehicleNation
    year_from: int | None
    year_to: int | None
    value: int


# PK-33: the nation-wide Japanese +1 and the '44-'45 Japanese +2 do not add up:
# a Japanese formation in 1944-45 takes +2 (the larger), as Germany and Russia only
# ever carry one dated line.
TERRAIN_DISORDER_MODIFIERS: tuple[DisorderModifier, ...] = table(
    "pk.terrain_disorder_modifiers",
    "Terrain caused disorder (d4) modifiers by nation and year",
    DISORDER_RULE,
    (
        DisorderModifier(VehicleNation.JAPANESE, 1944, 1945, 2),
        DisorderModifier(VehicleNation.ITALIAN, None, None, 1),
        DisorderModifier(VehicleNation.JAPANESE, None, None, 1),
        DisorderModifier(VehicleNation.CHINESE, None, None, 1),
        DisorderModifier(VehicleNation.GERMAN, 1944, 1945, 1),
        DisorderModifier(VehicleNation.RUSSIAN, 1939, 1941, 1),
    ),
)


def _disorder_modifier(nation: VehicleNation, year: int) -> DisorderModifier | None:
    applying = [
        m
        for m in TERRAIN_DISORDER_MODIFIERS
        if m.nation is nation
        and (m.year_from is None or year >= m.year_from)
        and (m.year_to is None or year <= m.year_to)
    ]
    return max(applying, key=lambda m: m.value, default=None)


@dataclass(frozen=True)
class TerrainDisorderInput:
    terrain: Terrain
    nation: VehicleNation
    year: int
    formation: str = ""


class NoDisorderRoll(ValueError):
    """The terrain is not marked * : vehicles cross it without a disorder roll."""


@procedure("pk.terrain_disorder", "Terrain caused disorder (vehicle formations)", DISORDER_RULE)
def roll_terrain_disorder(inputs: TerrainDisorderInput, dice: DiceSource) -> RollResult:
    if not TERRAIN_MOVEMENT[inputs.terrain].disorder_roll:
        raise NoDisorderRoll(f"{inputs.terrain.value} is not marked * on the chart: no disorder roll")
    found = _disorder_modifier(inputs.nation, inputs.year)
    label = "" if found is None else _modifier_label(found)
    mods = modifiers((found is not None, label, found.value if found else 0))
    thrown = roll(DiceKind.D4, dice)
    markers = score_of(thrown, mods)  # PK-34: the d4, modified, is the number of markers
    return RollResult(
        title="Terrain disorder",
        subject=inputs.formation or inputs.terrain.value,
        rule=DISORDER_RULE,
        rolls=(thrown,),
        modifiers=mods,
        outcome=markers,
        outcome_text=f"{markers} disorder marker{'s' if markers != 1 else ''}",
        cell=inputs.terrain.value,
        inputs=inputs_of(inputs),
    )


def _modifier_label(modifier: DisorderModifier) -> str:
    if modifier.year_from is None:
        return modifier.nation.value
    return f"{modifier.nation.value} {modifier.year_from}-{modifier.year_to}"


@dataclass(frozen=True)
class MoveAllowanceInput:
    mover: Mover
    adjustments: tuple[MoveAdjustment, ...] = ()
    quality: Quality = Quality.REGULAR
    ss: bool = False
    terrain: tuple[Terrain, ...] = ()  # each feature crossed (a hill twice for two levels)


@dataclass(frozen=True)
class MoveAllowance:
    base_inches: int
    adjustments: tuple[tuple[str, Fraction], ...]
    inches: Fraction | None  # None: blocked (a large river without a bridge)
    disorder_rolls: tuple[Terrain, ...]  # the * terrain a vehicle formation rolls for

    def to_dict(self) -> dict[str, Any]:
        return {
            "base_inches": self.base_inches,
            "adjustments": [{"name": n, "inches": str(v)} for n, v in self.adjustments],
            "inches": None if self.inches is None else str(self.inches),
            "disorder_rolls": [t.value for t in self.disorder_rolls],
        }


VEHICLES = (Mover.WHEELED, Mover.TRACKED)


@procedure("pk.move_allowance", "Tactical move allowance", FACTORS_RULE, rolls=False)
def move_allowance(inputs: MoveAllowanceInput) -> MoveAllowance:
    adjustments: list[tuple[str, Fraction]] = [
        (a.value, Fraction(MOVEMENT_ADJUSTMENTS[a])) for a in inputs.adjustments
    ]
    if inputs.quality in QUALITY_MOVEMENT:
        adjustments.append((inputs.quality.value, Fraction(QUALITY_MOVEMENT[inputs.quality])))
    if inputs.ss:
        adjustments.append(("SS", Fraction(SS_MOVEMENT_BONUS)))
    blocked = False
    for feature in inputs.terrain:
        cost = TERRAIN_MOVEMENT[feature].inches
        if cost is None:
            blocked = True
        else:
            adjustments.append((feature.value, -cost))
    base = TACTICAL_MOVEMENT[inputs.mover]
    total = max(Fraction(0), base + sum((v for _, v in adjustments), Fraction(0)))
    rolls_for = tuple(
        t for t in inputs.terrain if inputs.mover in VEHICLES and TERRAIN_MOVEMENT[t].disorder_roll
    )
    return MoveAllowance(base, tuple(adjustments), None if blocked else total, rolls_for)
