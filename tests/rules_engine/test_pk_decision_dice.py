"""003 § Decision dice (d6 by command colour, force group size, attached
leaders) — every cell."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.common import band_for
from rules_engine.panzer_korps.decision_dice import (
    DECISION_DICE,
    FORCE_GROUP_SIZE_MODIFIER,
    CommandColour,
    DecisionDieInput,
    Halt,
    decision_row,
    roll_decision_die,
)

C = CommandColour
# (Yellow, Blue, Red, White, Black, halt, move units, auto rally, free-move formations), as printed.
PRINTED = [
    (1, -1, -4, -5, -6, Halt.PANIC_FREEZE, 0, 0, 0),
    (2, 0, -3, -4, -5, Halt.FREEZE, 0, 0, 0),
    (3, 1, -2, -3, -4, Halt.NONE, 1, 0, 0),
    (4, 2, -1, -2, -3, Halt.NONE, 1, 0, 0),
    (5, 3, 0, -1, -2, Halt.NONE, 2, 0, 0),
    (6, 4, 1, 0, -1, Halt.NONE, 3, 0, 0),
    (7, 5, 2, 1, 0, Halt.NONE, 3, 1, 0),
    (8, 6, 3, 2, 1, Halt.NONE, 4, 2, 0),
    (9, 7, 4, 3, 2, Halt.NONE, 5, 3, 0),
    (10, 8, 5, 4, 3, Halt.NONE, 6, 4, 0),
    (11, 9, 6, 5, 4, Halt.NONE, 7, 5, 0),
    (12, 10, 7, 6, 5, Halt.NONE, 8, 6, 1),
    (13, 11, 8, 7, 6, Halt.NONE, 9, 7, 2),
    (14, 12, 9, 8, 7, Halt.NONE, 9, 8, 3),
]
CELLS = [
    (colour, row[i], row[5:])
    for row in PRINTED
    for i, colour in enumerate((C.YELLOW, C.BLUE, C.RED, C.WHITE, C.BLACK))
]


@pytest.mark.parametrize(("colour", "score", "allows"), CELLS)
def test_every_cell(colour, score, allows):
    row = decision_row(colour, score)
    assert (row.halt, row.move_units, row.auto_rally, row.free_move_formations) == allows


def test_table_has_fourteen_rows():
    assert len(DECISION_DICE) == 14


@pytest.mark.parametrize("colour", list(C))
def test_scores_past_the_ends_read_the_end_rows(colour):
    assert decision_row(colour, -20).halt is Halt.PANIC_FREEZE
    assert decision_row(colour, 30).free_move_formations == 3


@pytest.mark.parametrize(
    ("size", "modifier"),
    [(1, -4), (2, -4), (3, -3), (4, -3), (5, -2), (6, -2), (7, -1), (8, -1), (9, 0), (12, 0)],
)
def test_force_group_size_modifier(size, modifier):
    assert band_for(FORCE_GROUP_SIZE_MODIFIER, size).value == modifier


def test_attached_leaders_add_and_line():
    result = roll_decision_die(DecisionDieInput(C.BLACK, 8, attached_leaders=2), ScriptedDice([4]))
    assert result.score == 5
    assert result.outcome["move_units"] == 8
    assert result.outcome["free_move_formations"] == 1
    assert result.line() == (
        "Decision die, Black: d6 [4] = 4 -1 force group size 8 +2 attached leader ×2 = 5 [Black 5]"
        " → move 8 units, auto rally 6, 1 formation free move"
    )


def test_yellow_low_roll_panics():
    result = roll_decision_die(DecisionDieInput(C.YELLOW, 2), ScriptedDice([3]))
    assert result.outcome["halt"] == Halt.PANIC_FREEZE.value
