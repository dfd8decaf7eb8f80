"""003 § AFV & AT direct fire ranges, § Small arms ranges, § Indirect fire ranges,
§ Tactical movement factors, § Terrain modifiers and § Additional modifiers to
movement — every printed cell, and the d4 terrain disorder roll."""

from fractions import Fraction

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.common import Quality
from rules_engine.panzer_korps.movement import (
    MOVEMENT_ADJUSTMENTS,
    TACTICAL_MOVEMENT,
    TERRAIN_MOVEMENT,
    MoveAdjustment,
    MoveAllowanceInput,
    Mover,
    NoDisorderRoll,
    Terrain,
    TerrainDisorderInput,
    VehicleNation,
    move_allowance,
    roll_terrain_disorder,
)
from rules_engine.panzer_korps.ranges import (
    INDIRECT_FIRE_RANGES,
    SMALL_ARMS_RANGES,
    CalibreOutOfChart,
    DirectRangeInput,
    IndirectRangeInput,
    RangeBand,
    SmallArm,
    read_direct_range,
    read_indirect_range,
)

# calibre inside the band → (short, long) as printed
DIRECT = [(20, 12, 18), (40, 12, 18), (41, 18, 35), (60, 18, 35), (75, 24, 42), (88, 32, 62),
          (105, 38, 72), (128, 44, 82), (150, 44, 82)]  # fmt: skip


@pytest.mark.parametrize(("calibre", "short", "long"), DIRECT)
def test_direct_ranges_by_calibre(calibre: int, short: int, long: int) -> None:
    at_short = read_direct_range(DirectRangeInput(calibre, short))
    assert (at_short.short_inches, at_short.long_inches, at_short.reading) == (short, long, RangeBand.SHORT)
    assert read_direct_range(DirectRangeInput(calibre, short + 0.5)).reading is RangeBand.LONG
    assert read_direct_range(DirectRangeInput(calibre, long + 0.5)).reading is RangeBand.OUT_OF_RANGE


def test_a_calibre_between_printed_bands_takes_the_lower_band() -> None:
    assert read_direct_range(DirectRangeInput(40.5, 10)).band == "20mm-40mm"  # PK-32


def test_rocket_launchers_and_calibres_off_the_chart() -> None:
    bazooka = read_direct_range(DirectRangeInput(88, 3, rocket_launcher=True))
    assert (bazooka.short_inches, bazooka.long_inches, bazooka.reading) == (2, 3, RangeBand.LONG)
    with pytest.raises(CalibreOutOfChart, match="152mm"):
        read_direct_range(DirectRangeInput(152, 10))


def test_small_arms_ranges_as_printed() -> None:
    assert SMALL_ARMS_RANGES == {
        SmallArm.ANTI_TANK_RIFLE: 2,
        SmallArm.SMALL_ARMS_SHORT: 6,
        SmallArm.SMALL_ARMS_LONG: 12,
        SmallArm.AFV_COAX: 2,
        SmallArm.FLAMETHROWER: 2,
    }


@pytest.mark.parametrize(
    ("calibre", "inches"),
    [(50, 60), (81, 90), (105, 120), (150, 160), (155, 160), (170, 200), (280, 290), (380, 360)],
)
def test_indirect_ranges(calibre: int, inches: int) -> None:
    assert read_indirect_range(IndirectRangeInput(calibre)).max_inches == inches
    assert len(INDIRECT_FIRE_RANGES) == 7


def test_movement_factors_as_printed() -> None:
    assert TACTICAL_MOVEMENT == {
        Mover.WHEELED: 10, Mover.TRACKED: 9, Mover.INFANTRY: 4, Mover.INFANTRY_DOUBLE_QUICK: 7,
        Mover.CAVALRY_LINE: 10, Mover.CAVALRY_COLUMN: 18, Mover.HORSE_WAGONS: 5,
    }  # fmt: skip
    assert MOVEMENT_ADJUSTMENTS[MoveAdjustment.SUPER_HEAVY_TRACKED] == -6
    assert MOVEMENT_ADJUSTMENTS[MoveAdjustment.ROAD] == 4
    starred = {t for t, cost in TERRAIN_MOVEMENT.items() if cost.disorder_roll}
    assert starred == {
        Terrain.MARSH_MUD, Terrain.WALL_HEDGE, Terrain.GULLY_STREAM, Terrain.RIVER, Terrain.MEDIUM_WOODS,
        Terrain.HEAVY_WOODS, Terrain.SAND_SNOW, Terrain.RUBBLE,
    }  # fmt: skip


def test_move_allowance_adds_quality_ss_road_and_deducts_terrain() -> None:
    moved = move_allowance(
        MoveAllowanceInput(
            Mover.TRACKED,
            adjustments=(MoveAdjustment.HEAVY_TRACKED, MoveAdjustment.ROAD),
            quality=Quality.HARDENED,
            ss=True,
            terrain=(Terrain.HILL_LEVEL, Terrain.MEDIUM_WOODS),
        )
    )
    # 9 - 3 + 4 + 2 (Hardened) + 1 (SS) - 1½ - 2
    assert moved.inches == Fraction(19, 2)
    assert moved.disorder_rolls == (Terrain.MEDIUM_WOODS,)
    infantry = move_allowance(
        MoveAllowanceInput(Mover.INFANTRY, quality=Quality.MILITIA, terrain=(Terrain.RIVER,))
    )
    assert infantry.inches == 0
    assert infantry.disorder_rolls == ()
    assert move_allowance(MoveAllowanceInput(Mover.WHEELED, terrain=(Terrain.LARGE_RIVER,))).inches is None


@pytest.mark.parametrize(
    ("nation", "year", "modifier"),
    [
        (VehicleNation.JAPANESE, 1944, 2),
        (VehicleNation.JAPANESE, 1942, 1),
        (VehicleNation.ITALIAN, 1941, 1),
        (VehicleNation.CHINESE, 1938, 1),
        (VehicleNation.GERMAN, 1945, 1),
        (VehicleNation.GERMAN, 1943, 0),
        (VehicleNation.RUSSIAN, 1941, 1),
        (VehicleNation.RUSSIAN, 1942, 0),
        (VehicleNation.OTHER, 1944, 0),
    ],
)
def test_terrain_disorder_roll_modifiers(nation: VehicleNation, year: int, modifier: int) -> None:
    result = roll_terrain_disorder(TerrainDisorderInput(Terrain.RIVER, nation, year), ScriptedDice([3]))
    assert result.outcome == 3 + modifier
    assert result.procedure == "pk.terrain_disorder"


def test_terrain_without_a_star_has_no_disorder_roll() -> None:
    with pytest.raises(NoDisorderRoll, match="light woods"):
        roll_terrain_disorder(
            TerrainDisorderInput(Terrain.LIGHT_WOODS, VehicleNation.GERMAN, 1943), ScriptedDice([1])
        )
