"""004 FAQ 41 — air attacks, every destroy number and every barrage-roll row."""

import pytest

from rules_engine.dice import DiceRoll, ScriptedDice
from rules_engine.great_battles.air_attack import (
    AIR_ATTACK_DESTROY,
    AirAttackInput,
    AirAttackRow,
    Aircraft,
    roll_air_attack,
)
from rules_engine.great_battles.barrage import BarrageEffect, BarrageTarget

# --- FAQ 41 air attacks ----------------------------------------------------------------

# FAQ 41 destroy numbers; chart 5 barrage-roll suppression numbers, typed from the seed.
DESTROY = {
    AirAttackRow.FIGHTER_BOMBER: 2,
    AirAttackRow.ROCKETS: 3,
    AirAttackRow.ROCKETS_VS_VEHICLE_OR_BUNKER: 4,
}
SUPPRESS = {
    BarrageTarget.ACTIVATED_IN_OPEN: 8,
    BarrageTarget.NOT_ACTIVATED_OR_SOFT_COVER: 6,
    BarrageTarget.HARD_COVER: 4,
    BarrageTarget.BUNKER: 2,
}
ATTACKS = {
    AirAttackRow.FIGHTER_BOMBER: (Aircraft.FIGHTER_BOMBER, False),
    AirAttackRow.ROCKETS: (Aircraft.ROCKET_EQUIPPED, False),
    AirAttackRow.ROCKETS_VS_VEHICLE_OR_BUNKER: (Aircraft.ROCKET_EQUIPPED, True),
}


def test_air_attack_table_matches_print():
    assert AIR_ATTACK_DESTROY == DESTROY


@pytest.mark.parametrize(
    ("row", "target", "face"),
    [(row, target, face) for row in DESTROY for target in SUPPRESS for face in range(1, 11)],
)
def test_air_attack_every_row_target_and_face(row, target, face):
    aircraft, vehicle = ATTACKS[row]
    if target is BarrageTarget.BUNKER and aircraft is Aircraft.ROCKET_EQUIPPED:
        row = AirAttackRow.ROCKETS_VS_VEHICLE_OR_BUNKER  # rockets on a bunker read the "4" line
    result = roll_air_attack(AirAttackInput(aircraft, target, vehicle), ScriptedDice([face]))
    if face <= DESTROY[row]:
        expected = BarrageEffect.DESTROYED
    elif face <= SUPPRESS[target]:
        expected = BarrageEffect.SUPPRESSED
    else:
        expected = BarrageEffect.NO_EFFECT
    assert result.outcome is expected
    assert result.cell.startswith(f"{row.value}: destroy 1-{DESTROY[row]}")


def test_air_attack_without_barrage_suppression():
    inputs = AirAttackInput(
        Aircraft.FIGHTER_BOMBER, BarrageTarget.ACTIVATED_IN_OPEN, suppress_as_barrage=False
    )
    assert roll_air_attack(inputs, ScriptedDice([3])).outcome is BarrageEffect.NO_EFFECT
    assert roll_air_attack(inputs, ScriptedDice([2])).outcome is BarrageEffect.DESTROYED


def test_air_attack_only_in_full_daylight():
    with pytest.raises(ValueError, match="full daylight"):
        roll_air_attack(
            AirAttackInput(Aircraft.FIGHTER_BOMBER, BarrageTarget.HARD_COVER, full_daylight=False),
            ScriptedDice([1]),
        )


def test_air_attack_line():
    result = roll_air_attack(
        AirAttackInput(Aircraft.ROCKET_EQUIPPED, BarrageTarget.HARD_COVER, target_is_vehicle=True),
        ScriptedDice([4]),
    )
    assert result.line() == (
        "Air attack, rocket equipped on a vehicle: d10 [4] = 4 [rocket equipped attacking vehicle and/or "
        "bunker: destroy 1-4; In Hard Cover: suppress 1-4] → destroyed"
    )
    assert isinstance(result.rolls[0], DiceRoll)
    assert result.to_dict()["outcome"] == "destroyed"
