"""004 § Drop Zone: 6.1 Approach Damage, 6.2 Drift Distance (and the Bill Owen
d8/d6 variant, FAQ 5), 6.3 Landing Damage, 7. Consolidation Move Limits item 4.

Cells typed in as printed: "1 D/2-3 S" means 1 destroys, 2-3 suppress.
"""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine.dice import ScriptedDice, SeededDice
from rules_engine.great_battles.airborne import (
    AntiAircraft,
    ApproachInput,
    DamageEffect,
    Delivery,
    DriftInput,
    DriftTheatre,
    DriftVariantInput,
    DropHeight,
    DropTime,
    InfiltrationInput,
    LandingInput,
    LandingTerrain,
    roll_approach,
    roll_drift,
    roll_drift_variant,
    roll_infiltration,
    roll_landing,
)

D, S, NE = DamageEffect.DESTROYED, DamageEffect.SUPPRESSED, DamageEffect.NO_EFFECT


def _effects(printed: str) -> list[DamageEffect]:
    """Faces 1..10 from a printed cell like "1-2 D/3-4 S"."""
    effects = [NE] * 10
    for part in printed.split("/"):
        faces, effect = part.split()
        low, _, high = faces.partition("-")
        for face in range(int(low), int(high or low) + 1):
            if face >= 1:
                effects[face - 1] = DamageEffect(effect)
    return effects


APPROACH = {
    DropHeight.HIGH: {"Light": "1 S", "Medium": "1-2 S", "Heavy": "1 D/2-3 S"},
    DropHeight.NORMAL: {"Light": "1-2 S", "Medium": "1 D/2-3 S", "Heavy": "1-2 D/3-4 S"},
    DropHeight.LOW: {"Light": "1 D/2-3 S", "Medium": "1-2 D/3-4 S", "Heavy": "1-3 D/4-5 S"},
}
AA = {"Light": AntiAircraft.LIGHT, "Medium": AntiAircraft.MEDIUM, "Heavy": AntiAircraft.HEAVY}


@pytest.mark.parametrize(
    ("height", "aa", "face", "effect"),
    [
        (h, AA[a], face, effect)
        for h, row in APPROACH.items()
        for a, printed in row.items()
        for face, effect in enumerate(_effects(printed), 1)
    ],
    ids=str,
)
def test_every_approach_cell(height, aa, face, effect):
    result = roll_approach(ApproachInput(height, aa), ScriptedDice([face]))
    assert result is not None
    assert result.outcome is effect


def test_glider_damage_as_high():
    result = roll_approach(
        ApproachInput(DropHeight.LOW, AntiAircraft.HEAVY, Delivery.GLIDER), ScriptedDice([2])
    )
    assert result is not None
    assert result.outcome is S


def test_no_aa_no_roll():
    assert roll_approach(ApproachInput(DropHeight.LOW, AntiAircraft.NONE), ScriptedDice([])) is None


# Drift: (inches, direction) for faces 1..10, first die and second die.
DRIFT = {
    DriftTheatre.CRETE: (
        ["0", "2 S", "4 S", "4 S", "6 S", "8 S", "1 N", "2 N", "3 N", "4 N"],
        ["0", "2 E", "4 E", "4 E", "6 E", "6 E", "8 E", "1 W", "2 W", "3 W"],
    ),
    DriftTheatre.NW_EUROPE: (
        ["0", "2 S", "4 S", "4 S", "6 S", "1 N", "2 N", "4 N", "4 N", "6 N"],
        ["0", "2 W", "4 W", "4 W", "6 W", "6 W", "8 W", "8 W", "1 E", "2 E"],
    ),
}
SIGN = {"N": 1, "S": -1, "E": 1, "W": -1}


def _signed(cell: str) -> int:
    if cell == "0":
        return 0
    inches, direction = cell.split()
    return int(inches) * SIGN[direction]


@pytest.mark.parametrize(
    ("theatre", "face", "north", "east"),
    [
        (t, face, _signed(cols[0][face - 1]), _signed(cols[1][face - 1]))
        for t, cols in DRIFT.items()
        for face in range(1, 11)
    ],
    ids=str,
)
def test_every_drift_cell_normal_height(theatre, face, north, east):
    # Same face on both dice reads both columns' row for that face.
    result = roll_drift(DriftInput(theatre), ScriptedDice([face, face]))
    assert (result.north_inches, result.east_inches) == (north, east)


@pytest.mark.parametrize(
    ("height", "delivery", "factor"),
    [
        (DropHeight.HIGH, Delivery.PARADROP, Fraction(2)),
        (DropHeight.NORMAL, Delivery.PARADROP, Fraction(1)),
        (DropHeight.LOW, Delivery.PARADROP, Fraction(1, 2)),
        (DropHeight.HIGH, Delivery.GLIDER, Fraction(1, 2)),  # gliders always drift as low
    ],
)
def test_drift_factor(height, delivery, factor):
    result = roll_drift(DriftInput(DriftTheatre.CRETE, height, delivery), ScriptedDice([6, 7]))
    assert result.factor == factor
    assert (result.north_inches, result.east_inches) == (-8 * factor, 8 * factor)


# Landing damage: D, S bands per column, faces 0..10 (0 only with the -1).
LANDING = {
    (DropTime.DAY, Delivery.PARADROP, LandingTerrain.CLEAR): "0 D/1 S",
    (DropTime.DAY, Delivery.PARADROP, LandingTerrain.ROUGH): "0 D/1-3 S",
    (DropTime.DAY, Delivery.GLIDER, LandingTerrain.CLEAR): "0-2 D/3 S",
    (DropTime.DAY, Delivery.GLIDER, LandingTerrain.ROUGH): "0-2 D/3-5 S",
    (DropTime.NIGHT, Delivery.PARADROP, LandingTerrain.CLEAR): "0-2 D/3 S",
    (DropTime.NIGHT, Delivery.PARADROP, LandingTerrain.ROUGH): "0-2 D/3-5 S",
    (DropTime.NIGHT, Delivery.GLIDER, LandingTerrain.CLEAR): "0-4 D/5 S",
    (DropTime.NIGHT, Delivery.GLIDER, LandingTerrain.ROUGH): "0-4 D/5-7 S",
}


@pytest.mark.parametrize(
    ("column", "face", "effect"),
    [
        (column, face, effect)
        for column, printed in LANDING.items()
        for face, effect in enumerate(_effects(printed), 1)
    ],
    ids=str,
)
def test_every_landing_cell(column, face, effect):
    result = roll_landing(LandingInput(*column), ScriptedDice([face]))
    assert result.outcome is effect


@pytest.mark.parametrize("column", list(LANDING), ids=str)
def test_landing_zero_only_near_enemy(column):
    result = roll_landing(LandingInput(*column, within_6_inches_of_enemy=True), ScriptedDice([1]))
    assert result.score == 0
    assert result.outcome is D


def test_drift_variant_d8_compass_d6_distance():
    result = roll_drift_variant(DriftVariantInput(), ScriptedDice([3, 4]))
    assert result.outcome == {"direction": "E", "inches": 4.0}
    assert roll_drift_variant(DriftVariantInput(), ScriptedDice([1, 6])).outcome["inches"] == 0
    assert (
        roll_drift_variant(DriftVariantInput(heavy_weapons=True), ScriptedDice([1, 6])).outcome["inches"] == 6
    )


@pytest.mark.parametrize(("morale", "face", "effect"), [(8, 5, S), (8, 6, D), (10, 7, S), (6, 4, D)])
def test_infiltration_morale_minus_3(morale, face, effect):
    assert roll_infiltration(InfiltrationInput(morale), ScriptedDice([face])).outcome is effect


_landing = st.builds(
    LandingInput,
    time=st.sampled_from(DropTime),
    delivery=st.sampled_from(Delivery),
    terrain=st.sampled_from(LandingTerrain),
    within_6_inches_of_enemy=st.booleans(),
)


@given(_landing, st.integers(0, 10_000))
def test_landing_properties(inputs, seed):
    result = roll_landing(inputs, SeededDice(seed))
    assert result == roll_landing(inputs, SeededDice(seed))
    assert result.outcome in DamageEffect
    assert len(result.modifiers) == int(inputs.within_6_inches_of_enemy)
    assert result.score == result.natural + sum(m.value for m in result.modifiers)


@given(
    st.sampled_from(DriftTheatre),
    st.sampled_from(DropHeight),
    st.sampled_from(Delivery),
    st.integers(0, 10_000),
)
def test_drift_properties(theatre, height, delivery, seed):
    inputs = DriftInput(theatre, height, delivery)
    result = roll_drift(inputs, SeededDice(seed))
    assert result == roll_drift(inputs, SeededDice(seed))
    assert abs(result.north_inches) <= 16
    assert abs(result.east_inches) <= 16
