"""003 § Force availability chart, § Deployment chart, § Arrival chart — every
cell, and the arrival line given as the example in the brief."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.arrival import (
    ARRIVAL_CHANCE,
    DEPLOYMENT,
    DEPLOYMENT_FLANK,
    FORCE_AVAILABILITY,
    ArrivalInput,
    DeploymentInput,
    DeploymentZone,
    ForceAvailability,
    ForceAvailabilityInput,
    ForceOrder,
    Ground,
    availability_bands,
    first_arrival_segment,
    roll_arrival,
    roll_deployment,
    roll_force_availability,
)
from rules_engine.panzer_korps.common import BattlefieldCondition, Mobility, band_for
from rules_engine.vocab import LeaderRating

L = LeaderRating
FA = ForceAvailability

AVAILABILITY = [
    (-3, FA.AT_START),
    (1, FA.AT_START),
    (2, FA.AT_START),
    (3, FA.AT_START),
    (4, FA.DEPLOYED_30_INCHES),
    (5, FA.DEPLOYED_30_INCHES),
    (6, FA.ARRIVAL_FROM_SEGMENT_1),
    (7, FA.ARRIVAL_FROM_SEGMENT_1),
    (8, FA.ARRIVAL_FROM_SEGMENT_2),
    (9, FA.ARRIVAL_FROM_SEGMENT_2),
    (10, FA.LATE),  # the printed "0"
    (11, FA.DOES_NOT_ARRIVE),
    (15, FA.DOES_NOT_ARRIVE),
]


@pytest.mark.parametrize(("score", "category"), AVAILABILITY)
def test_availability_cells(score, category):
    assert band_for(FORCE_AVAILABILITY, score).value is category


def test_availability_without_no_show_row_reads_all_10_plus_late():
    assert band_for(availability_bands(None), 14).value is FA.LATE


@pytest.mark.parametrize(
    ("category", "segment"),
    [
        (FA.AT_START, None),
        (FA.DEPLOYED_30_INCHES, None),
        (FA.ARRIVAL_FROM_SEGMENT_1, 1),
        (FA.ARRIVAL_FROM_SEGMENT_2, 2),
        (FA.LATE, 4),
        (FA.DOES_NOT_ARRIVE, None),
    ],
)
def test_first_arrival_segment(category, segment):
    assert first_arrival_segment(category) == segment


AVAILABILITY_MODIFIERS = [
    ({"leader_rating": L.A}, -2),
    ({"leader_rating": L.B}, -1),
    ({"leader_rating": L.C}, 0),
    ({"leader_rating": L.D}, 0),
    ({"leader_rating": L.E}, 0),
    ({"leader_rating": L.F}, 1),
    ({"leader_rating": L.G}, 2),
    ({"leader_rating": L.H}, 3),
    ({"ground": Ground.WOODS}, 1),
    ({"ground": Ground.SWAMP}, 2),
    ({"ground": Ground.MOUNTAIN}, 2),
    ({"ground": Ground.CLEAR}, -1),
    ({"conditions": (BattlefieldCondition.RAIN,)}, 1),
    ({"conditions": (BattlefieldCondition.MUD,)}, 2),
    ({"conditions": (BattlefieldCondition.SNOW,)}, 3),
    ({"conditions": (BattlefieldCondition.RAIN, BattlefieldCondition.SNOW)}, 3),  # worst only
    ({"home_nation": True}, -1),
    ({"out_of_supply": True}, 2),
    ({"mobility": Mobility.MECHANIZED}, -2),
    ({"mobility": Mobility.MOTORIZED}, -1),
]


@pytest.mark.parametrize(("kwargs", "total"), AVAILABILITY_MODIFIERS)
def test_availability_modifiers(kwargs, total):
    inputs = ForceAvailabilityInput(**{"leader_rating": L.E, **kwargs})
    result = roll_force_availability(inputs, ScriptedDice([5]))
    assert sum(m.value for m in result.modifiers) == total
    assert result.score == 5 + total


def test_availability_zero_face_is_late_and_line():
    result = roll_force_availability(ForceAvailabilityInput(L.E), ScriptedDice([10]))
    assert result.outcome is FA.LATE
    assert result.line() == (
        "Force availability, force led by Career (rating E): d10 [10] = 10 [10] → late: "
        "rolls for arrival after the 3rd day segment"
    )


def test_availability_poor_leader_in_snow_never_arrives():
    inputs = ForceAvailabilityInput(L.H, conditions=(BattlefieldCondition.SNOW,))
    assert roll_force_availability(inputs, ScriptedDice([5])).outcome is FA.DOES_NOT_ARRIVE


DEPLOYMENT_CELLS = [
    (-1, DeploymentZone.CENTRAL),
    (1, DeploymentZone.CENTRAL),
    (2, DeploymentZone.CENTRAL),
    (3, DeploymentZone.CENTRAL),
    (4, DeploymentZone.CENTRAL),
    (5, DeploymentZone.LEFT),
    (6, DeploymentZone.RIGHT),
    (7, DeploymentZone.ENEMY_FLANK),
    (10, DeploymentZone.ENEMY_FLANK),
]


@pytest.mark.parametrize(("score", "zone"), DEPLOYMENT_CELLS)
def test_deployment_cells(score, zone):
    assert band_for(DEPLOYMENT, score).value is zone


@pytest.mark.parametrize(
    ("face", "zone"),
    [(f, DeploymentZone.ENEMY_RIGHT_FLANK) for f in (1, 2, 3)]
    + [(f, DeploymentZone.ENEMY_LEFT_FLANK) for f in (4, 5, 6)],
)
def test_deployment_flank_reroll_cells(face, zone):
    assert band_for(DEPLOYMENT_FLANK, face).value is zone
    result = roll_deployment(DeploymentInput(L.A, order=ForceOrder.ADVANCE), ScriptedDice([4, face]))
    assert result.zone is zone  # 4 +1 A +2 advance = 7
    assert result.flank_roll is not None
    assert result.flank_roll.modifiers == ()


@pytest.mark.parametrize(
    ("kwargs", "total"),
    [
        ({"mobility": Mobility.MECHANIZED}, 1),
        ({"mobility": Mobility.MOTORIZED}, 0),
        ({"air_superiority": True}, 1),
        ({"home_nation": True}, 1),
        ({"leader_rating": L.A}, 1),
        ({"leader_rating": L.B}, 1),
        ({"leader_rating": L.C}, 1),
        ({"leader_rating": L.D}, 0),
        ({"leader_rating": L.E}, -2),
        ({"leader_rating": L.F}, -2),
        ({"leader_rating": L.G}, -2),
        ({"leader_rating": L.H}, -2),
        ({"order": ForceOrder.ADVANCE}, 2),
    ],
)
def test_deployment_modifiers(kwargs, total):
    result = roll_deployment(DeploymentInput(**{"leader_rating": L.D, **kwargs}), ScriptedDice([2, 1]))
    assert sum(m.value for m in result.roll.modifiers) == total


def test_deployment_line():
    result = roll_deployment(DeploymentInput(L.D), ScriptedDice([5]))
    assert result.zone is DeploymentZone.LEFT
    assert result.flank_roll is None
    assert result.line().endswith("⇒ left deployment zone, in transit column")


@pytest.mark.parametrize(
    ("rating", "chance"),
    [(L.A, 40), (L.B, 35), (L.C, 30), (L.D, 25), (L.E, 20), (L.F, 15), (L.G, 10), (L.H, 5)],
)
def test_arrival_chance_cells(rating, chance):
    assert ARRIVAL_CHANCE[rating] == chance
    assert roll_arrival(ArrivalInput(rating), ScriptedDice([chance])).outcome is True
    assert roll_arrival(ArrivalInput(rating), ScriptedDice([chance + 1])).outcome is False


def test_arrival_example_line():
    result = roll_arrival(ArrivalInput(L.C, segments_since_first_attempt=1), ScriptedDice([27]))
    assert result.outcome is True
    assert result.threshold == 35
    assert result.line() == "Arrival roll, Force Led by C: d100 [27] = 27 ≤ 35 (30 +5 per segment) → arrives"


@pytest.mark.parametrize(("segments", "threshold"), [(0, 20), (1, 25), (2, 30), (5, 45), (16, 100)])
def test_arrival_adds_five_per_segment_since_first_attempt(segments, threshold):
    result = roll_arrival(ArrivalInput(L.E, segments), ScriptedDice([100]))
    assert result.threshold == threshold
    assert result.score == 100
    assert result.outcome is (threshold >= 100)


def test_arrival_rejects_negative_segments():
    with pytest.raises(ValueError, match="cannot be negative"):
        roll_arrival(ArrivalInput(L.E, -1), ScriptedDice([1]))
