"""004 § 4. Barrage Delay [11.1.5] — every cell, and the worked example."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.great_battles.barrage import (
    BarrageDelayInput,
    BarrageOrder,
    delay_for,
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
