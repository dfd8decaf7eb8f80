"""003 § Theatre battlefield terrain generator and § Terrain features chart —
every cell."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.common import band_for
from rules_engine.panzer_korps.terrain import (
    FEATURE_COUNT_ROLL,
    TERRAIN_FEATURES,
    TERRAIN_GENERATOR,
    CountReading,
    TerrainFeature,
    TerrainFeatureInput,
    TerrainGeneratorInput,
    TerrainType,
    Theatre,
    roll_battlefield,
    roll_terrain_feature,
)

T = TerrainType
F = TerrainFeature
# Theatre: hills adjective, then dice for hills, woods, river/stream, gully, brush, village/town.
PRINTED = {
    Theatre.WESTERN_FRONT: ("Cold", 2, 3, 2, 1, 2, 3),
    Theatre.EASTERN_FRONT: ("Cold & Wet", 1, 1, 1, 2, 2, 1),
    Theatre.NORTH_AFRICA_MIDDLE_EAST: ("Dry", 1, 1, 1, 2, 3, 1),
    Theatre.ASIA: ("Warm & Wet", 3, 3, 2, 3, 3, 1),
    Theatre.PACIFIC_ISLANDS: ("Warm & Wet", 1, 4, 2, 3, 4, 1),
    Theatre.SUB_SAHARAN_AFRICA: ("Warm", 2, 3, 2, 2, 5, 1),
    Theatre.NORTH_AMERICA: ("Cold & Wet", 2, 3, 1, 2, 2, 3),
    Theatre.SOUTH_AMERICA: ("Warm & Wet", 1, 4, 2, 3, 3, 1),
    Theatre.ITALIAN_IBERIAN: ("Warm", 4, 2, 1, 3, 2, 3),
}
ORDER = (T.HILLS, T.WOODS, T.RIVER, T.GULLY, T.BRUSH, T.VILLAGE)
CELLS = [(theatre, kind, row[1 + i]) for theatre, row in PRINTED.items() for i, kind in enumerate(ORDER)]


@pytest.mark.parametrize(("theatre", "kind", "dice"), CELLS)
def test_generator_cells(theatre, kind, dice):
    assert TERRAIN_GENERATOR[theatre].dice[kind] == dice


@pytest.mark.parametrize("theatre", list(Theatre))
def test_generator_hills_climate(theatre):
    assert TERRAIN_GENERATOR[theatre].hills_climate == PRINTED[theatre][0]


FEATURES = {
    T.WOODS: [F.LIGHT_WOODS] * 3 + [F.MEDIUM_WOODS, F.HEAVY_WOODS, F.UNKNOWN_WOODS],
    T.RIVER: [F.FORDABLE_STREAM] * 3 + [F.MINOR_RIVER, F.MAJOR_RIVER, F.SHORE],
    T.GULLY: [F.BROKEN_GROUND] * 3 + [F.GULLY, F.LARGE_DEPRESSION, F.CLIFF],
    T.BRUSH: [F.BRUSH] * 2 + [F.TALL_BRUSH] * 2 + [F.HEAVY_GROWTH, F.JUNGLE],
    T.VILLAGE: [F.FARM] * 3 + [F.VILLAGE, F.TOWN, F.CITY],
    T.HILLS: [F.ROLLING_HILL] * 3 + [F.TWO_LEVEL_HILL, F.CLIFF_SIDED_HILL, F.STEEP_HILL],
}
FEATURE_CELLS = [
    (kind, face, feature) for kind, row in FEATURES.items() for face, feature in enumerate(row, 1)
]


@pytest.mark.parametrize(("kind", "face", "feature"), FEATURE_CELLS)
def test_feature_cells(kind, face, feature):
    assert band_for(TERRAIN_FEATURES[kind], face).value is feature
    placed = roll_terrain_feature(TerrainFeatureInput(kind), ScriptedDice([face, 4]))
    assert placed.feature is feature
    assert placed.count == (4 if feature in (F.FARM, F.TOWN, F.CITY) else None)


def test_feature_count_rolls():
    assert FEATURE_COUNT_ROLL == {F.FARM: "6 inch walls", F.TOWN: "sections", F.CITY: "sections"}
    placed = roll_terrain_feature(TerrainFeatureInput(T.VILLAGE), ScriptedDice([2, 5]))
    assert placed.text() == "farm, light cover, 5 6 inch walls"


def test_western_front_battlefield_one_feature_per_die():
    # 2 hills, 3 woods, 2 rivers, 1 gully, 2 brush, 3 villages: 13 feature rolls,
    # plus a size roll for each farm/town/city.
    faces = [1, 4, 1, 2, 6, 1, 2, 4, 1, 3, 4, 4, 5, 2]  # villages: 4, 4, then a town (5) of 2 sections
    result = roll_battlefield(TerrainGeneratorInput(Theatre.WESTERN_FRONT), ScriptedDice(faces))
    counts = {kind: sum(1 for f in result.features if f.terrain is kind) for kind in T}
    assert counts == {T.HILLS: 2, T.WOODS: 3, T.RIVER: 2, T.GULLY: 1, T.BRUSH: 2, T.VILLAGE: 3}
    assert result.features[-1].feature is F.TOWN
    assert result.features[-1].count == 2


def test_sum_of_dice_reading_rolls_counts_first():
    # Eastern front: 1d6 hills → 1 hill, 1 woods, 1 river, 2d6 gully → 2, 2d6 brush → 2, 1d6 villages → 1.
    faces = [1, 3, 1, 4, 1, 5, 1, 1, 6, 1, 1, 1, 1, 2, 1, 4]
    result = roll_battlefield(
        TerrainGeneratorInput(Theatre.EASTERN_FRONT, CountReading.SUM_OF_DICE), ScriptedDice(faces)
    )
    assert [r.outcome for r in result.count_rolls] == [1, 1, 1, 2, 2, 1]
    assert len(result.features) == 8
