"""003 § CO/Kampfgruppe/Front/Division leader rating (activation roll) and
§ Wind direction & velocity — every cell."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.common import BattlefieldCondition, band_for
from rules_engine.panzer_korps.leaders import (
    LEADER_RATINGS,
    CommandOutcome,
    CommandRollInput,
    leader_label,
    roll_command,
)
from rules_engine.panzer_korps.wind import (
    WIND_DIRECTION,
    WIND_VELOCITY,
    WindDirection,
    WindInput,
    WindVelocity,
    roll_wind,
)
from rules_engine.vocab import DaySegment, LeaderRating, Season

L = LeaderRating

LEADERS = [
    (L.A, "Legendary", 9, 0),
    (L.B, "Exceptional", 8, 0),
    (L.C, "Inspirational", 7, 0),
    (L.D, "Gallant", 6, 0),
    (L.E, "Career", 5, 0),
    (L.F, "Despicable", 4, 0),
    (L.G, "Oppressive", 3, -1),
    (L.H, "Unreliable", 2, -2),
]


@pytest.mark.parametrize(("rating", "character", "activation", "morale"), LEADERS)
def test_leader_rating_cells(rating, character, activation, morale):
    profile = LEADER_RATINGS[rating]
    assert (profile.character, profile.activation, profile.morale_die_modifier) == (
        character,
        activation,
        morale,
    )
    assert leader_label(rating) == f"{rating.value} {character}"


@pytest.mark.parametrize(("rating", "character", "activation", "morale"), LEADERS)
def test_command_roll_at_or_under_activation(rating, character, activation, morale):
    assert roll_command(CommandRollInput(rating), ScriptedDice([activation])).outcome is CommandOutcome.PASSED
    assert (
        roll_command(CommandRollInput(rating), ScriptedDice([activation + 1])).outcome
        is CommandOutcome.FAILED
    )


@pytest.mark.parametrize(
    ("kwargs", "total"),
    [
        ({"out_of_supply": True}, 1),
        ({"conditions": (BattlefieldCondition.RAIN,)}, 1),
        ({"conditions": (BattlefieldCondition.MUD,)}, 1),
        ({"conditions": (BattlefieldCondition.SNOW,)}, 1),
        ({"conditions": (BattlefieldCondition.FOG,)}, 1),
        ({"visibility_problems": True}, 1),
        ({"unwilling": True}, 2),
        ({"conditions": (BattlefieldCondition.SAND,)}, 0),
        ({"out_of_supply": True, "conditions": (BattlefieldCondition.RAIN, BattlefieldCondition.FOG)}, 3),
    ],
)
def test_activation_modifiers(kwargs, total):
    result = roll_command(CommandRollInput(L.E, **kwargs), ScriptedDice([3]))
    assert sum(m.value for m in result.modifiers) == total
    assert result.score == 3 + total


def test_night_segment_failure_removes_force_unless_surrounded():
    night = CommandRollInput(L.H, segment=DaySegment.NIGHT_SEGMENT)
    assert roll_command(night, ScriptedDice([5])).outcome is CommandOutcome.REMOVED
    surrounded = CommandRollInput(L.H, segment=DaySegment.NIGHT_SEGMENT, surrounded=True)
    assert roll_command(surrounded, ScriptedDice([5])).outcome is CommandOutcome.FAILED
    assert roll_command(night, ScriptedDice([2])).outcome is CommandOutcome.PASSED


def test_command_roll_line():
    line = roll_command(CommandRollInput(L.C, out_of_supply=True), ScriptedDice([6])).line()
    assert line == "Command roll, leader C Inspirational: d10 6 +1 out of supply = 7 ≤ 7 → passed"


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
        "Wind velocity, dusk: d6 6 +1 fall = 7 [6+] → heavy wind; "
        "Wind direction, dusk: d10 10 [9-10] → no change ⇒ heavy wind from West"
    )


def test_summer_two_is_no_wind():
    assert roll_wind(WindInput(Season.SUMMER), ScriptedDice([4, 1])).velocity is WindVelocity.NONE
