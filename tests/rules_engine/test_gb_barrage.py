"""004 § 4. Barrage Delay [11.1.5] — every cell, and the worked example; § 5. Barrage
Roll [11.3] — every cell; the destroy-on-1 variant from § Summary of Variants
(May 2003), Barrage.
"""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.great_battles.barrage import (
    BarrageDelayInput,
    BarrageEffect,
    BarrageOrder,
    BarrageRollInput,
    BarrageTarget,
    delay_for,
    roll_barrage,
    roll_barrage_delay,
)
from rules_engine.great_battles.common import Quality

# (quality, lowest and highest score of each delay band) as printed.
PRINTED = {
    Quality.RAW: [(1, 20), (21, 60), (61, 84), (85, 100)],
    Quality.INFERIOR: [(1, 30), (31, 65), (66, 86), (87, 100)],
    Quality.AVERAGE: [(1, 40), (41, 70), (71, 88), (89, 100)],
    Quality.EXPERIENCED: [(1, 50), (51, 75), (76, 90), (91, 100)],
    Quality.VETERAN: [(1, 60), (61, 80), (81, 92), (93, 100)],
}


@pytest.mark.parametrize(
    ("quality", "turns", "low", "high"),
    [(q, turns, low, high) for q, bands in PRINTED.items() for turns, (low, high) in enumerate(bands)],
)
def test_every_cell(quality, turns, low, high):
    assert delay_for(quality, low) == turns
    assert delay_for(quality, high) == turns


def test_worked_example_on_call_inferior_55_is_two_turns():
    result = roll_barrage_delay(BarrageDelayInput(Quality.INFERIOR, BarrageOrder.ON_CALL), ScriptedDice([55]))
    assert result.turns == 2
    assert result.roll is not None
    assert result.roll.score == 85
    assert [(m.name, m.value) for m in result.roll.modifiers] == [("on-call", 30)]
    assert "85" in result.roll.line()
    assert "2 turns" in result.roll.line()


def test_pre_planned_rolls_nothing():
    dice = ScriptedDice([])
    assert roll_barrage_delay(BarrageDelayInput(Quality.RAW, BarrageOrder.PRE_PLANNED), dice).turns is None


SUPPRESSES_UP_TO = {
    BarrageTarget.ACTIVATED_IN_OPEN: 8,
    BarrageTarget.NOT_ACTIVATED_OR_SOFT_COVER: 6,
    BarrageTarget.HARD_COVER: 4,
    BarrageTarget.BUNKER: 2,
}


@pytest.mark.parametrize(
    ("target", "face"), [(target, face) for target in SUPPRESSES_UP_TO for face in range(1, 11)]
)
def test_every_face_for_every_target(target, face):
    expected = BarrageEffect.SUPPRESSED if face <= SUPPRESSES_UP_TO[target] else BarrageEffect.NO_EFFECT
    assert roll_barrage(BarrageRollInput(target), ScriptedDice([face])).effects == (expected,)


@pytest.mark.parametrize(
    ("target", "effect"),
    [
        (BarrageTarget.ACTIVATED_IN_OPEN, BarrageEffect.DESTROYED),
        (BarrageTarget.NOT_ACTIVATED_OR_SOFT_COVER, BarrageEffect.SUPPRESSED),
        (BarrageTarget.HARD_COVER, BarrageEffect.SUPPRESSED),
        (BarrageTarget.BUNKER, BarrageEffect.SUPPRESSED),
    ],
)
def test_destroy_variant_only_for_activated_in_open_on_a_1(target, effect):
    inputs = BarrageRollInput(target, destroy_variant=True)
    assert roll_barrage(inputs, ScriptedDice([1])).effects == (effect,)
    assert roll_barrage(BarrageRollInput(target), ScriptedDice([1])).effects == (BarrageEffect.SUPPRESSED,)


def test_destroy_variant_2_only_suppresses():
    inputs = BarrageRollInput(BarrageTarget.ACTIVATED_IN_OPEN, destroy_variant=True)
    assert roll_barrage(inputs, ScriptedDice([2])).effects == (BarrageEffect.SUPPRESSED,)


def test_one_roll_per_stand_under_the_template():
    result = roll_barrage(BarrageRollInput(BarrageTarget.HARD_COVER, stands=3), ScriptedDice([4, 5, 1]))
    assert result.effects == (BarrageEffect.SUPPRESSED, BarrageEffect.NO_EFFECT, BarrageEffect.SUPPRESSED)
    assert result.to_dict()["suppressed"] == 2
    assert "stand 2 of 3" in result.line()
