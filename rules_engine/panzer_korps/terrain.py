"""Theatre battlefield terrain generator and the terrain features chart."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, nd6, roll
from rules_engine.panzer_korps.common import Band, band_result, inputs_of, ref
from rules_engine.registry import procedure, table
from rules_engine.results import RollResult

GENERATOR_RULE = ref("Theatre battlefield terrain generator")
FEATURES_RULE = ref("Terrain features chart")


class Theatre(enum.Enum):
    WESTERN_FRONT = "Western Front"
    EASTERN_FRONT = "Eastern Front"
    NORTH_AFRICA_MIDDLE_EAST = "North Africa/Middle East"
    ASIA = "Asia"
    PACIFIC_ISLANDS = "Pacific Islands"
    SUB_SAHARAN_AFRICA = "Sub-Saharan Africa"
    NORTH_AMERICA = "North America"
    SOUTH_AMERICA = "South America"
    ITALIAN_IBERIAN = "Italian/Iberian front"


class TerrainType(enum.Enum):
    HILLS = "Hills"
    WOODS = "Woods"
    RIVER = "River/stream"
    GULLY = "Gully"
    BRUSH = "Brush"
    VILLAGE = "Village/Town"


@dataclass(frozen=True)
class TheatreTerrain:
    hills_climate: str  # the printed adjective, e.g. "Cold & Wet"
    dice: dict[TerrainType, int]  # the "N" of "N x d6"


def _theatre(
    climate: str, hills: int, woods: int, river: int, gully: int, brush: int, village: int
) -> TheatreTerrain:
    counts = (hills, woods, river, gully, brush, village)
    return TheatreTerrain(climate, dict(zip(TerrainType, counts, strict=True)))


TERRAIN_GENERATOR: dict[Theatre, TheatreTerrain] = table(
    "pk.terrain_generator",
    "Theatre battlefield terrain generator (N x d6 per terrain type)",
    GENERATOR_RULE,
    {
        Theatre.WESTERN_FRONT: _theatre("Cold", 2, 3, 2, 1, 2, 3),
        Theatre.EASTERN_FRONT: _theatre("Cold & Wet", 1, 1, 1, 2, 2, 1),
        Theatre.NORTH_AFRICA_MIDDLE_EAST: _theatre("Dry", 1, 1, 1, 2, 3, 1),
        Theatre.ASIA: _theatre("Warm & Wet", 3, 3, 2, 3, 3, 1),
        Theatre.PACIFIC_ISLANDS: _theatre("Warm & Wet", 1, 4, 2, 3, 4, 1),
        Theatre.SUB_SAHARAN_AFRICA: _theatre("Warm", 2, 3, 2, 2, 5, 1),
        Theatre.NORTH_AMERICA: _theatre("Cold & Wet", 2, 3, 1, 2, 2, 3),
        Theatre.SOUTH_AMERICA: _theatre("Warm & Wet", 1, 4, 2, 3, 3, 1),
        Theatre.ITALIAN_IBERIAN: _theatre("Warm", 4, 2, 1, 3, 2, 3),
    },
)


class TerrainFeature(enum.Enum):
    LIGHT_WOODS = "light woods"
    MEDIUM_WOODS = "medium woods"
    HEAVY_WOODS = "heavy woods"
    UNKNOWN_WOODS = "woods/unknown"
    FORDABLE_STREAM = "stream, fordable"
    MINOR_RIVER = "minor river, 1 ford placed by enemy"
    MAJOR_RIVER = "major river, 1 bridge placed by enemy"
    SHORE = "shore/beach/edge of river"
    BROKEN_GROUND = "broken ground"
    GULLY = "gully"
    LARGE_DEPRESSION = "large depression"
    CLIFF = "cliff/chasm"
    BRUSH = "brush"
    TALL_BRUSH = "tall 5 ft. brush/hedgerow"
    HEAVY_GROWTH = "heavy growth/vineyard"
    JUNGLE = "jungle/unknown"
    FARM = "farm, light cover"
    VILLAGE = "village, medium cover"
    TOWN = "town, heavy cover"
    CITY = "city, super heavy cover"
    ROLLING_HILL = "rolling hill"
    TWO_LEVEL_HILL = "two level hill"
    CLIFF_SIDED_HILL = "two level hill, impassable cliff side"
    STEEP_HILL = "steep hill"


TERRAIN_FEATURES: dict[TerrainType, tuple[Band[TerrainFeature], ...]] = table(
    "pk.terrain_features",
    "Terrain features chart (d6 per feature)",
    FEATURES_RULE,
    {
        TerrainType.WOODS: (
            Band(1, 3, TerrainFeature.LIGHT_WOODS),
            Band(4, 4, TerrainFeature.MEDIUM_WOODS),
            Band(5, 5, TerrainFeature.HEAVY_WOODS),
            Band(6, 6, TerrainFeature.UNKNOWN_WOODS),
        ),
        TerrainType.RIVER: (
            Band(1, 3, TerrainFeature.FORDABLE_STREAM),
            Band(4, 4, TerrainFeature.MINOR_RIVER),
            Band(5, 5, TerrainFeature.MAJOR_RIVER),
            Band(6, 6, TerrainFeature.SHORE),
        ),
        TerrainType.GULLY: (
            Band(1, 3, TerrainFeature.BROKEN_GROUND),
            Band(4, 4, TerrainFeature.GULLY),
            Band(5, 5, TerrainFeature.LARGE_DEPRESSION),
            Band(6, 6, TerrainFeature.CLIFF),
        ),
        TerrainType.BRUSH: (
            Band(1, 2, TerrainFeature.BRUSH),
            Band(3, 4, TerrainFeature.TALL_BRUSH),
            Band(5, 5, TerrainFeature.HEAVY_GROWTH),
            Band(6, 6, TerrainFeature.JUNGLE),
        ),
        TerrainType.VILLAGE: (
            Band(1, 3, TerrainFeature.FARM),
            Band(4, 4, TerrainFeature.VILLAGE),
            Band(5, 5, TerrainFeature.TOWN),
            Band(6, 6, TerrainFeature.CITY),
        ),
        TerrainType.HILLS: (
            Band(1, 3, TerrainFeature.ROLLING_HILL),
            Band(4, 4, TerrainFeature.TWO_LEVEL_HILL),
            Band(5, 5, TerrainFeature.CLIFF_SIDED_HILL),
            Band(6, 6, TerrainFeature.STEEP_HILL),
        ),
    },
)

# Features that roll a further d6 for how many walls or sections they have.
FEATURE_COUNT_ROLL: dict[TerrainFeature, str] = table(
    "pk.terrain_feature_counts",
    "Terrain features rolling d6 for walls or sections",
    FEATURES_RULE,
    {
        TerrainFeature.FARM: "6 inch walls",
        TerrainFeature.TOWN: "sections",
        TerrainFeature.CITY: "sections",
    },
)


class CountReading(enum.Enum):
    """How "N x d6" reads (rules notes PK-19)."""

    FEATURE_PER_DIE = "N features, one features-chart d6 each"
    SUM_OF_DICE = "Nd6 summed is the number of features"


@dataclass(frozen=True)
class PlacedFeature:
    terrain: TerrainType
    feature: TerrainFeature
    count: int | None  # walls or sections, where the chart asks for them
    rolls: tuple[RollResult, ...]

    def text(self) -> str:
        if self.count is None:
            return self.feature.value
        return f"{self.feature.value}, {self.count} {FEATURE_COUNT_ROLL[self.feature]}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "terrain": self.terrain.value,
            "feature": self.feature.value,
            "count": self.count,
            "text": self.text(),
            "rolls": [r.to_dict() for r in self.rolls],
        }


@dataclass(frozen=True)
class TerrainFeatureInput:
    terrain: TerrainType


@procedure("pk.terrain_feature", "Terrain feature", FEATURES_RULE)
def roll_terrain_feature(inputs: TerrainFeatureInput, dice: DiceSource) -> PlacedFeature:
    record = inputs_of(inputs)
    feature, feature_roll = band_result(
        title="Terrain feature",
        subject=inputs.terrain.value,
        rule=FEATURES_RULE,
        bands=TERRAIN_FEATURES[inputs.terrain],
        thrown=roll(DiceKind.D6, dice),
        mods=(),
        text=lambda f: f.value,
        inputs=record,
    )
    if feature not in FEATURE_COUNT_ROLL:
        return PlacedFeature(inputs.terrain, feature, None, (feature_roll,))
    counted = roll(DiceKind.D6, dice)
    count_roll = RollResult(
        title="Feature size",
        subject=feature.value,
        rule=FEATURES_RULE,
        rolls=(counted,),
        outcome=counted.total,
        outcome_text=f"{counted.total} {FEATURE_COUNT_ROLL[feature]}",
        inputs=record,
    )
    return PlacedFeature(inputs.terrain, feature, counted.total, (feature_roll, count_roll))


@dataclass(frozen=True)
class TerrainGeneratorInput:
    theatre: Theatre
    count_reading: CountReading = CountReading.FEATURE_PER_DIE


@dataclass(frozen=True)
class Battlefield:
    theatre: Theatre
    features: tuple[PlacedFeature, ...]
    count_rolls: tuple[RollResult, ...]

    def roll_results(self) -> tuple[RollResult, ...]:
        return self.count_rolls + tuple(r for f in self.features for r in f.rolls)

    def line(self) -> str:
        return f"{self.theatre.value}: " + "; ".join(f.text() for f in self.features)

    def to_dict(self) -> dict[str, Any]:
        return {
            "theatre": self.theatre.value,
            "features": [f.to_dict() for f in self.features],
            "count_rolls": [r.to_dict() for r in self.count_rolls],
            "line": self.line(),
        }


@procedure("pk.terrain_generator", "Theatre battlefield terrain", GENERATOR_RULE)
def roll_battlefield(inputs: TerrainGeneratorInput, dice: DiceSource) -> Battlefield:
    theatre = TERRAIN_GENERATOR[inputs.theatre]
    features: list[PlacedFeature] = []
    count_rolls: list[RollResult] = []
    for terrain, n in theatre.dice.items():
        count = n
        if inputs.count_reading is CountReading.SUM_OF_DICE:
            thrown = roll(nd6(n), dice)
            count = thrown.total
            count_rolls.append(
                RollResult(
                    title="Number of features",
                    subject=terrain.value,
                    rule=GENERATOR_RULE,
                    rolls=(thrown,),
                    outcome=count,
                    outcome_text=f"{count} {terrain.value}",
                    inputs=inputs_of(inputs),
                )
            )
        features.extend(roll_terrain_feature(TerrainFeatureInput(terrain), dice) for _ in range(count))
    return Battlefield(inputs.theatre, tuple(features), tuple(count_rolls))
