"""004 § 5. Barrage Roll [11.3] — every cell; the destroy-on-1 variant from
§ Summary of Variants (May 2003), Barrage."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.great_battles.barrage import (
    BarrageEffect,
    BarrageRollInput,
    BarrageTarget,
    roll_barrage,
)

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
