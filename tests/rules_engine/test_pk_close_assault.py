"""003 § Close assault table, § Close assault results table, § Close assault
intensity shift modifiers (column shifts and the leadership roll) — every cell."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.close_assault import (
    CLOSE_ASSAULT,
    CLOSE_ASSAULT_RESULTS,
    COLUMN_SHIFTS,
    CloseAssaultInput,
    ShiftReason,
    roll_close_assault,
    shifted_letter,
)
from rules_engine.panzer_korps.common import Cover, Quality, Side, TieRule
from rules_engine.vocab import Nation

Q = Quality
COLUMNS = [
    "Hardened",
    "Elite",
    "Veteran",
    "Regulars",
    "Reservists",
    "Recruits",
    "Militia",
    "Partisans",
    "Panic",
]
ROWS = {
    Q.HARDENED: "D D C C B B A A A",
    Q.ELITE: "E D D C C B A A A",
    Q.VETERAN: "E D D C C B B A A",
    Q.REGULAR: "E E D D C C B B A",
    Q.RESERVIST: "F F E E D D C B B",
    Q.RECRUIT: "G F F E D D C B B",
    Q.MILITIA: "G G F E E D D C C",
    Q.PARTISAN: "G G F F E E D D C",
}
CELLS = [
    (row, column, letter)
    for row, text in ROWS.items()
    for column, letter in zip(COLUMNS, text.split(), strict=True)
]


@pytest.mark.parametrize(("row", "column", "letter"), CELLS)
def test_close_assault_cells(row, column, letter):
    assert CLOSE_ASSAULT[row][COLUMNS.index(column)] == letter
    assert shifted_letter(row, column, 0) == (letter, column)


@pytest.mark.parametrize(
    ("letter", "markers"), [("A", 7), ("B", 6), ("C", 5), ("D", 4), ("E", 3), ("F", 2), ("G", 1)]
)
def test_results_cells(letter, markers):
    assert CLOSE_ASSAULT_RESULTS[letter] == markers


@pytest.mark.parametrize(
    ("reason", "columns"),
    [
        (ShiftReason.FACING_AFV, 1),
        (ShiftReason.SUPPRESSED, 1),
        (ShiftReason.FRAGMENTED, 2),
        (ShiftReason.OUT_OF_SUPPLY, 1),
        (ShiftReason.FACING_FANATICS, 1),
        (ShiftReason.FACING_MG, 1),
        (ShiftReason.FACING_FLAMETHROWER, 1),
        (ShiftReason.FACING_TWO_OR_MORE, 1),
        (ShiftReason.LIGHT_MEDIUM_COVER, 1),
        (ShiftReason.HEAVY_COVER, 2),
        (ShiftReason.SUPER_HEAVY_COVER, 3),
        (ShiftReason.LOST_LEADERSHIP_ROLL, 1),
    ],
)
def test_shift_cells(reason, columns):
    assert COLUMN_SHIFTS[reason] == columns


def test_shifts_go_left_and_stop_at_first_column():
    assert shifted_letter(Q.REGULAR, "Partisans", 2) == ("C", "Recruits")
    assert shifted_letter(Q.REGULAR, "Elite", 5) == ("E", "Hardened")


def _tied(**kwargs):
    """Leadership tie with no winner, so only the listed shifts apply."""
    inputs = CloseAssaultInput(**{"attacker": Q.REGULAR, "defender": Q.REGULAR, **kwargs})
    return roll_close_assault(inputs, ScriptedDice([3, 3]))


def test_plain_regulars_clash():
    result = _tied()
    assert result.leadership.winner is None
    assert (result.attacker.letter, result.attacker.disorder_markers_inflicted) == ("D", 4)
    assert (result.defender.letter, result.defender.disorder_markers_inflicted) == ("D", 4)


@pytest.mark.parametrize(
    ("kwargs", "attacker_shift", "defender_shift"),
    [
        ({"defender_has_afv": True}, 1, 0),
        ({"attacker_suppressed": True}, 1, 0),
        ({"attacker_fragmented": True}, 2, 0),
        ({"attacker_out_of_supply": True}, 1, 0),
        ({"defender_fanatics": True}, 1, 0),
        ({"defender_has_mg": True}, 1, 0),
        ({"defender_has_flamethrower": True}, 1, 0),
        ({"defender_units": 2}, 1, 0),
        ({"cover": Cover.LIGHT}, 1, 1),
        ({"cover": Cover.MEDIUM}, 1, 1),
        ({"cover": Cover.HEAVY}, 2, 2),
        ({"cover": Cover.SUPER_HEAVY}, 3, 3),
        ({"cover": Cover.HEAVY, "cover_shifts_both": False}, 2, 0),
        ({"attacker_fragmented": True, "defender_has_mg": True, "defender_units": 3}, 4, 0),
    ],
)
def test_side_shifts(kwargs, attacker_shift, defender_shift):
    result = _tied(**kwargs)
    assert sum(m.value for m in result.attacker.shifts) == attacker_shift
    assert sum(m.value for m in result.defender.shifts) == defender_shift


def test_panicked_opponent_uses_panic_column():
    result = _tied(attacker=Q.RESERVIST, defender_panicked=True)
    assert (result.attacker.column, result.attacker.letter) == ("Panic", "B")


def test_leadership_loser_shifts_one_column():
    inputs = CloseAssaultInput(Q.VETERAN, Q.RECRUIT)
    result = roll_close_assault(inputs, ScriptedDice([5, 2]))
    assert result.leadership.winner is Side.FIRST
    assert result.attacker.shifts == ()
    assert [m.name for m in result.defender.shifts] == ["lost the leadership roll"]
    assert (result.attacker.column, result.attacker.letter) == ("Recruits", "B")
    assert (result.defender.column, result.defender.letter) == ("Elite", "F")


def test_leadership_tie_can_reroll():
    inputs = CloseAssaultInput(Q.VETERAN, Q.RECRUIT, leadership_tie=TieRule.REROLL)
    result = roll_close_assault(inputs, ScriptedDice([4, 4, 1, 6]))
    assert result.leadership.winner is Side.SECOND


@pytest.mark.parametrize(
    ("nation", "year", "vichy", "value"),
    [
        (Nation.SOVIET, 1936, False, -1),
        (Nation.SOVIET, 1942, False, -1),
        (Nation.SOVIET, 1943, False, 0),
        (Nation.ITALIAN, 1943, False, 0),
        (Nation.ITALIAN, 1944, False, -1),
        (Nation.ITALIAN, 1945, False, -1),
        (Nation.FRENCH, 1941, True, -1),
        (Nation.FRENCH, 1940, False, 0),
        (Nation.GERMAN, 1942, False, 0),
        (Nation.GERMAN, 1943, False, 1),
        (Nation.BRITISH, 1944, False, 1),
        (Nation.AMERICAN, 1945, False, 1),
        (Nation.JAPANESE, 1941, False, 2),
        (Nation.JAPANESE, 1945, False, 2),
    ],
)
def test_leadership_nation_modifiers(nation, year, vichy, value):
    inputs = CloseAssaultInput(Q.REGULAR, Q.REGULAR, attacker_nation=nation, attacker_vichy=vichy, year=year)
    result = roll_close_assault(inputs, ScriptedDice([3, 3, 3, 3]))
    assert result.leadership.throws[0].score == 3 + value


def test_decorated_leaders_add_to_leadership():
    inputs = CloseAssaultInput(Q.REGULAR, Q.REGULAR, defender_decorated_leaders=2)
    result = roll_close_assault(inputs, ScriptedDice([4, 3]))
    assert result.leadership.throws[1].score == 5
    assert result.leadership.winner is Side.SECOND
