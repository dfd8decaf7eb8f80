"""rules_engine.dice: the dice kinds and how their faces are read."""

from rules_engine.dice import DiceKind, ScriptedDice, roll, total_range


def test_d20_kind():
    assert DiceKind.D20.value == "d20"
    assert total_range(DiceKind.D20) == (1, 20)
    assert roll(DiceKind.D20, ScriptedDice([20])).total == 20
