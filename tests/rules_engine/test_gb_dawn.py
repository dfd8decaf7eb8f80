"""004 § Dawn Sequence step 7 and § Hidden Units Spotted (sighting by turn),
§ 2. Deployment Chart [10.0].
"""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.great_battles.dawn import (
    DeploymentInput,
    DeploymentTime,
    PlayerOrder,
    SightingInput,
    lookup_deployment_casualties,
    roll_sighting_distance,
)

FIRST, SECOND = PlayerOrder.FIRST, PlayerOrder.SECOND


@pytest.mark.parametrize(
    ("turn", "player", "inches"),
    [(1, FIRST, 3), (1, SECOND, 3), (2, FIRST, 6), (2, SECOND, 6)]
    + [(turn, player, 12) for turn in range(4, 11) for player in (FIRST, SECOND)],
)
def test_sighting_without_a_roll(turn, player, inches):
    dice = ScriptedDice([])
    result = roll_sighting_distance(SightingInput(turn, player), dice)
    assert (result.inches, result.roll) == (inches, None)


@pytest.mark.parametrize(
    ("face", "inches"), [(1, 6), (2, 12), (3, 6), (4, 12), (5, 6), (6, 12), (9, 6), (10, 12)]
)
def test_turn_3_first_player_rolls_odd_or_even(face, inches):
    result = roll_sighting_distance(SightingInput(3, FIRST), ScriptedDice([face]))
    assert result.inches == inches
    assert result.roll is not None
    assert f'{inches}"' in result.roll.line()


def test_turn_3_second_player_sees_12_without_rolling():
    assert roll_sighting_distance(SightingInput(3, SECOND), ScriptedDice([])).inches == 12


def test_stationary_target_in_cover_is_seen_at_1_inch():
    assert roll_sighting_distance(SightingInput(5, target_in_cover=True), ScriptedDice([])).inches == 1


@pytest.mark.parametrize("turn", [0, 11])
def test_turns_outside_the_day_are_refused(turn):
    with pytest.raises(ValueError, match="a day has turns"):
        roll_sighting_distance(SightingInput(turn), ScriptedDice([1]))


DAWN, DAY = DeploymentTime.DAWN, DeploymentTime.DURING_DAY


@pytest.mark.parametrize(
    ("time", "range_inches", "destroyed", "suppressed", "retreat"),
    [
        # Dawn Phase row: 1d/1s/-3", 2s, 1s, -, -
        (DAWN, 0.5, 1, 1, 3),
        (DAWN, 3, 1, 1, 3),
        (DAWN, 4, 0, 2, 0),
        (DAWN, 6, 0, 2, 0),
        (DAWN, 9, 0, 1, 0),
        (DAWN, 12, 0, 0, 0),
        (DAWN, 13, 0, 0, 0),
        # During Day row: 1d/1s/-3", 3s, 2s, 1s, -
        (DAY, 3, 1, 1, 3),
        (DAY, 6, 0, 3, 0),
        (DAY, 7.5, 0, 2, 0),
        (DAY, 9, 0, 2, 0),
        (DAY, 12, 0, 1, 0),
        (DAY, 24, 0, 0, 0),
    ],
)
def test_deployment_chart_every_cell(time, range_inches, destroyed, suppressed, retreat):
    result = lookup_deployment_casualties(DeploymentInput(range_inches, time))
    got = result.casualties
    assert (got.destroyed, got.suppressed, got.retreat_inches) == (destroyed, suppressed, retreat)


def test_friendly_stand_intervening_means_no_casualties():
    result = lookup_deployment_casualties(DeploymentInput(2, DAY, friendly_intervening=True))
    assert result.casualties.text() == "no effect"


def test_deployment_line_names_the_cell():
    assert lookup_deployment_casualties(DeploymentInput(2, DAWN)).line() == (
        'Deployment casualties [Dawn Phase, 3"] → 1d/1s/-3"'
    )
