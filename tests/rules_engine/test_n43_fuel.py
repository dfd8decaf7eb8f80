"""000 § 21) Fuel Supply tables 1-3 (optional) — every cell.

Fuel tables are typed here per row as the result for each die total (the
seed lists die ranges under result columns), so this is an independent
transcription.
"""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.nineteen43.common import PlaceTime
from rules_engine.nineteen43.fuel import (
    FUEL_TURNS,
    REFUEL_DELAY,
    REFUEL_RATE,
    FuelSupplyInput,
    fuel_cell,
    roll_fuel_supply,
)

PT = PlaceTime


# Table 1: turns of fuel for 2D6 totals 2..12 ("8" is the "8+" column); None = printed empty.
TURNS_BY_TOTAL = {
    PT.GERMAN_WEST_1940: [6, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8],
    PT.GERMAN_WEST_1944_45: [4, 5, 5, 6, 6, 7, 7, 8, 8, 8, 8],
    PT.GERMAN_EAST_1941_42: [5, 6, 6, 7, 7, 7, 8, 8, 8, 8, 8],
    PT.GERMAN_EAST_1943_45: [4, 5, 6, 6, 7, 7, 7, 8, 8, 8, 8],
    PT.GERMAN_NORTH_AFRICA: [4, 5, 5, 6, 6, 7, 7, 7, 8, 8, 8],
    PT.RUSSIAN_1941_42: [5, 5, 6, 6, 7, 7, 8, 8, 8, 8, 8],
    PT.RUSSIAN_1943: [5, 6, 7, 7, 8, 8, 8, 8, 8, 8, 8],
    PT.RUSSIAN_1944_45: [6, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8],
    PT.AMERICAN_PACIFIC: [7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8],
    PT.AMERICAN_EUROPE: [6, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8],
    PT.JAPANESE_MAINLAND_CHINA: [5, 6, 7, 7, 8, 8, 8, 8, 8, 8, 8],
    PT.JAPANESE_PACIFIC_FIELD_FORCE: [4, 5, 6, 7, 8, 8, 8, 8, 8, 8, 8],
    PT.JAPANESE_ISLAND_GARRISON: [7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8],
    PT.COMMONWEALTH_NORTH_AFRICA_OPEN: [5, 6, 7, 8, 8, 8, 8, 8, 8, 8, 8],
    PT.COMMONWEALTH_NORTH_AFRICA_FORTIFIED: [7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8],
    PT.COMMONWEALTH_EUROPE_1940: [4, 5, 6, 7, 8, 8, 8, 8, 8, 8, 8],
    PT.COMMONWEALTH_EUROPE_1944: [5, 6, 7, 8, 8, 8, 8, 8, 8, 8, 8],
    PT.COMMONWEALTH_BURMA_1943_45: [6, 7, 7, 8, 8, 8, 8, 8, 8, 8, 8],
    PT.FRENCH_1940_FIELD_FORCE: [6, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8],
    PT.FRENCH_1940_FORTIFIED: [7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8],
}
# Table 2: turns until refueling starts, for 1D6 faces 1..6.
DELAY_BY_FACE = {
    PT.GERMAN_WEST_1940: [2, 2, 2, 3, 3, 4],
    PT.GERMAN_WEST_1944_45: [4, 4, 5, 5, 6, 6],
    PT.GERMAN_EAST_1941_42: [2, 2, 3, 3, 4, 5],
    PT.GERMAN_EAST_1943_45: [2, 3, 4, 5, 5, 6],
    PT.GERMAN_SOUTHERN_EUROPE: [2, 3, 3, 4, 4, 5],
    PT.GERMAN_NORTH_AFRICA: [3, 3, 4, 4, 5, 5],
    PT.RUSSIAN_1941_42: [3, 4, 4, 5, 5, 6],
    PT.RUSSIAN_1943: [2, 3, 3, 4, 4, 4],
    PT.RUSSIAN_1944_45: [2, 2, 3, 3, 4, 4],
    PT.AMERICAN_PACIFIC: [2, 2, 2, 2, 2, 3],
    PT.AMERICAN_EUROPE: [2, 2, 2, 3, 3, 3],
    PT.JAPANESE_MAINLAND_CHINA: [2, 3, 3, 3, 4, 4],
    PT.JAPANESE_PACIFIC_FIELD_FORCE: [3, 3, 4, 4, 5, 6],
    PT.JAPANESE_ISLAND_GARRISON: [2, 2, 2, 2, 3, 3],
    PT.COMMONWEALTH_NORTH_AFRICA_OPEN: [2, 3, 4, 4, 5, 5],
    PT.COMMONWEALTH_NORTH_AFRICA_FORTIFIED: [2, 2, 2, 2, 3, 3],
    PT.COMMONWEALTH_EUROPE_1940: [3, 3, 4, 5, 6, 6],
    PT.COMMONWEALTH_EUROPE_1944: [2, 2, 2, 3, 3, 3],
    PT.COMMONWEALTH_BURMA_1943_45: [2, 3, 3, 4, 5, 6],
    PT.FRENCH_1940_FIELD_FORCE: [4, 4, 5, 5, 5, 6],
    PT.FRENCH_1940_FORTIFIED: [2, 2, 2, 3, 3, 4],
}
# Table 3: bases refueled per turn, for 1D6 faces 1..6.
RATE_BY_FACE = {
    PT.GERMAN_WEST_1940: [3, 3, 6, 6, 9, 9],
    PT.GERMAN_WEST_1944_45: [3, 3, 3, 3, 6, 6],
    PT.GERMAN_EAST_1941_42: [3, 6, 6, 6, 9, 12],
    PT.GERMAN_EAST_1943_45: [3, 3, 3, 6, 6, 6],
    PT.GERMAN_SOUTHERN_EUROPE: [3, 3, 6, 6, 6, 9],
    PT.GERMAN_NORTH_AFRICA: [3, 6, 6, 6, 9, 9],
    PT.RUSSIAN_1941_42: [3, 3, 3, 3, 6, 6],
    PT.RUSSIAN_1943: [3, 6, 6, 6, 9, 9],
    PT.RUSSIAN_1944_45: [9, 9, 12, 12, 12, 15],
    PT.AMERICAN_PACIFIC: [9, 9, 9, 9, 12, 12],
    PT.AMERICAN_EUROPE: [6, 9, 9, 12, 12, 15],
    PT.JAPANESE_MAINLAND_CHINA: [3, 3, 3, 6, 6, 6],
    PT.JAPANESE_PACIFIC_FIELD_FORCE: [3, 3, 3, 3, 3, 3],
    PT.JAPANESE_ISLAND_GARRISON: [3, 3, 3, 3, 3, 3],
    PT.COMMONWEALTH_NORTH_AFRICA_OPEN: [6, 6, 9, 9, 9, 12],
    PT.COMMONWEALTH_NORTH_AFRICA_FORTIFIED: [9, 9, 12, 12, 15, 15],
    PT.COMMONWEALTH_EUROPE_1940: [3, 3, 6, 6, 9, 9],
    PT.COMMONWEALTH_EUROPE_1944: [6, 9, 9, 12, 12, 12],
    PT.COMMONWEALTH_BURMA_1943_45: [3, 3, 6, 6, 9, 12],
    PT.FRENCH_1940_FIELD_FORCE: [3, 3, 3, 6, 6, 6],
    PT.FRENCH_1940_FORTIFIED: [3, 6, 6, 9, 9, 12],
}


@pytest.mark.parametrize(
    ("row", "total", "turns"),
    [
        (row, total, turns)
        for row, line in TURNS_BY_TOTAL.items()
        for total, turns in zip(range(2, 13), line, strict=True)
    ],
)
def test_fuel_table_1_every_cell(row, total, turns):
    assert fuel_cell(FUEL_TURNS, row, total) == turns


@pytest.mark.parametrize(
    ("table", "row", "face", "value"),
    [(REFUEL_DELAY, row, f + 1, v) for row, line in DELAY_BY_FACE.items() for f, v in enumerate(line)]
    + [(REFUEL_RATE, row, f + 1, v) for row, line in RATE_BY_FACE.items() for f, v in enumerate(line)],
)
def test_fuel_tables_2_and_3_every_cell(table, row, face, value):
    assert fuel_cell(table, row, face) == value


def test_fuel_rows_complete():
    assert set(FUEL_TURNS.rows) - set(TURNS_BY_TOTAL) == {PT.GERMAN_SOUTHERN_EUROPE}
    assert set(REFUEL_DELAY.rows) == set(DELAY_BY_FACE) == set(REFUEL_RATE.rows) == set(RATE_BY_FACE)


def test_fuel_supply_rolls_all_three_tables():
    # German North Africa: 2D6 = 7 → 7 turns (7 - 9); 1D6 3 → 4 turns delay; 1D6 5 → 9 bases per turn.
    supply = roll_fuel_supply(FuelSupplyInput(PT.GERMAN_NORTH_AFRICA), ScriptedDice([3, 4, 3, 5]))
    assert (supply.turns_of_fuel, supply.refuel_delay_turns, supply.refuel_bases_per_turn) == (7, 4, 9)
    assert not supply.turns_of_fuel_or_more
    assert len(supply.roll_results()) == 3


def test_eight_plus_column_and_unprinted_row_substitute():
    supply = roll_fuel_supply(FuelSupplyInput(PT.GERMAN_SOUTHERN_EUROPE), ScriptedDice([6, 6, 1, 1]))
    assert supply.turns_of_fuel == 8
    assert supply.turns_of_fuel_or_more
    assert "substitute" in (supply.rolls[0].cell or "")
    assert supply.refuel_delay_turns == 2
    assert supply.refuel_bases_per_turn == 3
    other = FuelSupplyInput(PT.GERMAN_SOUTHERN_EUROPE, unprinted_row_substitute=PT.GERMAN_NORTH_AFRICA)
    assert roll_fuel_supply(other, ScriptedDice([1, 1, 1, 1])).turns_of_fuel == 4


def test_a_company_out_of_fuel_rolls_only_for_its_refueling():
    # Tables 2 and 3 only: 1D6 3 → 4 turns delay, 1D6 5 → 9 bases per turn (German North Africa).
    supply = roll_fuel_supply(FuelSupplyInput(PT.GERMAN_NORTH_AFRICA, out_of_fuel=True), ScriptedDice([3, 5]))
    assert (supply.turns_of_fuel, supply.refuel_delay_turns, supply.refuel_bases_per_turn) == (0, 4, 9)
    assert [r.title for r in supply.roll_results()] == [
        "Turns to start refueling",
        "Refueling rate (bases per turn)",
    ]
    assert supply.text().startswith("out of fuel; refueling starts 4 turns")
