"""000 § 20) Defensive Works (optional) — every cell."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.nineteen43.common import BattleRole, PlaceTime, dice_label
from rules_engine.nineteen43.defences import (
    DEFENSIVE_WORKS,
    DefenceWork,
    DefensiveWorksInput,
    roll_defensive_works,
    roll_sets,
)

PT = PlaceTime


# 000 § 20: AT ditch (x10"), trenches (x10"), pillboxes, bunkers, minefields.
WORKS_PRINTED = {
    PT.GERMAN_WEST_1940: "- ½D6 - - -",
    PT.GERMAN_WEST_1944_45: "½D6 1D6 ½D6 ½D6 1D6",
    PT.GERMAN_EAST_1941_42: "- ½D6 - - -",
    PT.GERMAN_EAST_1943_45: "- 1D6 ½D6 - 3D6",
    PT.GERMAN_SOUTHERN_EUROPE: "- 2D6 ½D6 - 1D6",
    PT.GERMAN_NORTH_AFRICA: "- 2D6 ½D6 - 3D6",
    PT.RUSSIAN_1941_42: "- 1D6 ½D6 - 1D6",
    PT.RUSSIAN_1943: "- 2D6 ½D6 ½D6 5D6",
    PT.RUSSIAN_1944_45: "- ½D6 - - 2D6",
    PT.AMERICAN_PACIFIC: "- 2D6 - - -",
    PT.AMERICAN_EUROPE: "- 1D6 - - 1D6",
    PT.JAPANESE_MAINLAND_CHINA: "- 1D6 ½D6 - 1D6",
    PT.JAPANESE_PACIFIC_FIELD_FORCE: "- 1D6 1D6 1D6 1D6",
    PT.JAPANESE_ISLAND_GARRISON: "- 2D6 2D6 2D6 4D6",
    PT.COMMONWEALTH_NORTH_AFRICA_OPEN: "- 3D6 1D6 - 6D6",
    PT.COMMONWEALTH_NORTH_AFRICA_FORTIFIED: "3D6 4D6 2D6 1D6 6D6",
    PT.COMMONWEALTH_EUROPE_1940: "- ½D6 - - -",
    PT.COMMONWEALTH_EUROPE_1944: "- 1D6 - - -",
    PT.FRENCH_1940_FIELD_FORCE: "- - - - -",
    PT.FRENCH_1940_FORTIFIED: "1D6 2D6 2D6 2D6 1D6",
}


@pytest.mark.parametrize(
    ("row", "work", "printed"),
    [
        (row, work, cell)
        for row, line in WORKS_PRINTED.items()
        for work, cell in zip(DefenceWork, line.split(), strict=True)
    ],
)
def test_defensive_works_every_cell(row, work, printed):
    kind = DEFENSIVE_WORKS[row][list(DefenceWork).index(work)]
    assert ("-" if kind is None else dice_label(kind)) == printed


def test_defensive_works_rows():
    assert set(DEFENSIVE_WORKS) == set(WORKS_PRINTED)


@pytest.mark.parametrize(
    ("bases", "partial", "sets"),
    [(0, True, 0), (1, True, 1), (150, True, 1), (151, True, 2), (149, False, 0), (300, False, 2)],
)
def test_rolls_per_150_bases(bases, partial, sets):
    assert roll_sets(bases, partial) == sets


def test_defender_rolls_each_category_and_ditches_trenches_are_tens_of_inches():
    # Commonwealth North Africa fortress: 3D6 ditch, 4D6 trenches, 2D6 pillboxes, 1D6 bunkers, 6D6 mines.
    faces = [1, 2, 3] + [1, 1, 1, 1] + [2, 2] + [5] + [1] * 6
    works = roll_defensive_works(
        DefensiveWorksInput(total_bases=150, row=PT.COMMONWEALTH_NORTH_AFRICA_FORTIFIED), ScriptedDice(faces)
    )
    assert dict(works.amounts) == {
        DefenceWork.AT_DITCH: 60,
        DefenceWork.TRENCHES: 40,
        DefenceWork.PILLBOXES: 4,
        DefenceWork.BUNKERS: 5,
        DefenceWork.MINEFIELDS: 6,
    }
    assert len(works.roll_results()) == 5


def test_attacker_rolls_2d6_trenches_and_1d6_minefields():
    works = roll_defensive_works(
        DefensiveWorksInput(total_bases=100, row=PT.FRENCH_1940_FIELD_FORCE, role=BattleRole.ATTACKER),
        ScriptedDice([3, 4, 2]),
    )
    assert dict(works.amounts) == {DefenceWork.TRENCHES: 70, DefenceWork.MINEFIELDS: 2}
    none = roll_defensive_works(
        DefensiveWorksInput(
            total_bases=100, row=PT.FRENCH_1940_FIELD_FORCE, role=BattleRole.ATTACKER, attacker_may_roll=False
        ),
        ScriptedDice([]),
    )
    assert none.amounts == ()


def test_the_defender_needs_a_row_the_attacker_none():
    with pytest.raises(ValueError, match="need a row"):
        roll_defensive_works(DefensiveWorksInput(total_bases=100), ScriptedDice([1] * 10))
    works = roll_defensive_works(
        DefensiveWorksInput(total_bases=100, role=BattleRole.ATTACKER), ScriptedDice([3, 4, 2])
    )
    assert works.rolls[0].cell == "attacker: 2D6"


def test_burma_row_is_not_in_the_defensive_works_table():
    with pytest.raises(ValueError, match="no row"):
        roll_defensive_works(
            DefensiveWorksInput(total_bases=100, row=PT.COMMONWEALTH_BURMA_1943_45), ScriptedDice([1] * 10)
        )
