"""003 § Wind direction & velocity — every cell."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.common import band_for
from rules_engine.panzer_korps.wind import (
    WIND_DIRECTION,
    WIND_VELOCITY,
    WindDirection,
    WindInput,
    WindVelocity,
    roll_wind,
    wind_words,
)
from rules_engine.vocab import DaySegment, Season

VELOCITY = [
    (-2, WindVelocity.NONE),
    (0, WindVelocity.NONE),
    (1, WindVelocity.NONE),
    (2, WindVelocity.NONE),
    (3, WindVelocity.LIGHT_BREEZE),
    (4, WindVelocity.LIGHT_WIND),
    (5, WindVelocity.MEDIUM_WIND),
    (6, WindVelocity.HEAVY_WIND),
    (7, WindVelocity.HEAVY_WIND),
]


@pytest.mark.parametrize(("score", "velocity"), VELOCITY)
def test_wind_velocity_cells(score, velocity):
    assert band_for(WIND_VELOCITY, score).value is velocity


DIRECTION = [
    (1, WindDirection.NORTH),
    (2, WindDirection.NORTH_EAST),
    (3, WindDirection.EAST),
    (4, WindDirection.SOUTH_EAST),
    (5, WindDirection.SOUTH),
    (6, WindDirection.SOUTH_WEST),
    (7, WindDirection.WEST),
    (8, WindDirection.NORTH_WEST),
    (9, None),
    (10, None),
]


@pytest.mark.parametrize(("face", "direction"), DIRECTION)
def test_wind_direction_cells(face, direction):
    assert band_for(WIND_DIRECTION, face).value is direction


@pytest.mark.parametrize(
    ("season", "late_summer", "modifier"),
    [
        (Season.SUMMER, False, -2),
        (Season.SUMMER, True, -1),
        (Season.AUTUMN, False, 1),
        (Season.SPRING, False, 0),
        (Season.WINTER, False, 0),
    ],
)
def test_wind_season_modifier_velocity_only(season, late_summer, modifier):
    wind = roll_wind(WindInput(season, late_summer), ScriptedDice([4, 3]))
    assert wind.velocity_roll.score == 4 + modifier
    assert wind.direction_roll.modifiers == ()
    assert wind.direction is WindDirection.EAST


def test_wind_no_change_keeps_previous_direction():
    wind = roll_wind(
        WindInput(Season.AUTUMN, previous_direction=WindDirection.WEST, segment=DaySegment.DUSK),
        ScriptedDice([6, 10]),
    )
    assert wind.velocity is WindVelocity.HEAVY_WIND
    assert wind.direction is WindDirection.WEST
    assert not wind.direction_changed
    assert wind.line() == (
        "Wind velocity, dusk: d6 [6] = 6 +1 fall = 7 [6+] → heavy wind; "
        "Wind direction, dusk: d10 [10] = 10 [9-10] → no change ⇒ heavy wind from the West"
    )


def test_summer_two_is_no_wind():
    assert roll_wind(WindInput(Season.SUMMER), ScriptedDice([4, 1])).velocity is WindVelocity.NONE


def test_the_wind_reads_as_people_say_it():
    assert wind_words("light breeze", "South-East") == "light breeze from the South-East"
    # A calm has no direction, though the day carries the last one on ("North no wind" was shown).
    assert wind_words("no wind", "North") == "no wind"
    assert wind_words(None, None) == ""
