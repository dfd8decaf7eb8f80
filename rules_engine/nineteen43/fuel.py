"""Optional: fuel supply, tables 1-3 (000 § 21), rolled per tank company."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.nineteen43.common import PlaceTime, Span, as_inputs, column_for, ref, span_text
from rules_engine.registry import procedure, table
from rules_engine.results import RollResult, RuleRef

FUEL_RULE = ref("21) Fuel Supply")
TABLE_1_RULE = ref("21) Fuel Supply: Table 1")
TABLE_2_RULE = ref("21) Fuel Supply: Table 2")
TABLE_3_RULE = ref("21) Fuel Supply: Table 3")

PT = PlaceTime
X = None  # "-" or an empty box: no result in that column


def upward(low: int) -> Span:
    """A 2D6 cell printed "n+"."""
    return (low, 12)


def on(low: int, high: int | None = None) -> Span:
    return (low, low if high is None else high)


@dataclass(frozen=True)
class FuelTable:
    """Column headings (the result) and, per row, the die range under each."""

    dice: DiceKind
    columns: tuple[int, ...]
    last_column_or_more: bool
    rows: dict[PlaceTime, tuple[Span | None, ...]]


FUEL_TURNS: FuelTable = table(
    "n43.fuel_turns",
    "Fuel table 1: turns worth of fuel (2D6)",
    TABLE_1_RULE,
    FuelTable(
        dice=DiceKind.TWO_D6,
        columns=(4, 5, 6, 7, 8),  # the last heading is "8+"
        last_column_or_more=True,
        rows={
            PT.GERMAN_WEST_1940: (X, X, on(2), on(3), upward(4)),
            PT.GERMAN_WEST_1944_45: (on(2), on(3, 4), on(5, 6), on(7, 8), upward(9)),
            PT.GERMAN_EAST_1941_42: (X, on(2), on(3, 4), on(5, 7), upward(8)),
            PT.GERMAN_EAST_1943_45: (on(2), on(3), on(4, 5), on(6, 8), upward(9)),
            PT.GERMAN_SOUTHERN_EUROPE: (X, X, X, X, X),  # printed empty (N43-15)
            PT.GERMAN_NORTH_AFRICA: (on(2), on(3, 4), on(5, 6), on(7, 9), upward(10)),
            PT.RUSSIAN_1941_42: (X, on(2, 3), on(4, 5), on(6, 7), upward(8)),
            PT.RUSSIAN_1943: (X, on(2), on(3), on(4, 5), upward(6)),
            PT.RUSSIAN_1944_45: (X, X, on(2), on(3), upward(4)),
            PT.AMERICAN_PACIFIC: (X, X, X, on(2), upward(3)),
            PT.AMERICAN_EUROPE: (X, X, on(2), on(3), upward(4)),
            PT.JAPANESE_MAINLAND_CHINA: (X, on(2), on(3), on(4, 5), upward(6)),
            PT.JAPANESE_PACIFIC_FIELD_FORCE: (on(2), on(3), on(4), on(5), upward(6)),
            PT.JAPANESE_ISLAND_GARRISON: (X, X, X, on(2), upward(3)),
            PT.COMMONWEALTH_NORTH_AFRICA_OPEN: (X, on(2), on(3), on(4), upward(5)),
            PT.COMMONWEALTH_NORTH_AFRICA_FORTIFIED: (X, X, X, on(2), upward(3)),
            PT.COMMONWEALTH_EUROPE_1940: (on(2), on(3), on(4), on(5), upward(6)),
            PT.COMMONWEALTH_EUROPE_1944: (X, on(2), on(3), on(4), upward(5)),
            PT.COMMONWEALTH_BURMA_1943_45: (X, X, on(2), on(3, 4), upward(5)),
            PT.FRENCH_1940_FIELD_FORCE: (X, X, on(2), on(3), upward(4)),
            PT.FRENCH_1940_FORTIFIED: (X, X, X, on(2), upward(3)),
        },
    ),
    optional=True,
)

REFUEL_DELAY: FuelTable = table(
    "n43.refuel_delay",
    "Fuel table 2: turns to start refueling after running out (1D6)",
    TABLE_2_RULE,
    FuelTable(
        dice=DiceKind.D6,
        columns=(2, 3, 4, 5, 6),
        last_column_or_more=False,
        rows={
            PT.GERMAN_WEST_1940: (on(1, 3), on(4, 5), on(6), X, X),
            PT.GERMAN_WEST_1944_45: (X, X, on(1, 2), on(3, 4), on(5, 6)),
            PT.GERMAN_EAST_1941_42: (on(1, 2), on(3, 4), on(5), on(6), X),
            PT.GERMAN_EAST_1943_45: (on(1), on(2), on(3), on(4, 5), on(6)),
            PT.GERMAN_SOUTHERN_EUROPE: (on(1), on(2, 3), on(4, 5), on(6), X),
            PT.GERMAN_NORTH_AFRICA: (X, on(1, 2), on(3, 4), on(5, 6), X),
            PT.RUSSIAN_1941_42: (X, on(1), on(2, 3), on(4, 5), on(6)),
            PT.RUSSIAN_1943: (on(1), on(2, 3), on(4, 6), X, X),
            PT.RUSSIAN_1944_45: (on(1, 2), on(3, 4), on(5, 6), X, X),
            PT.AMERICAN_PACIFIC: (on(1, 5), on(6), X, X, X),
            PT.AMERICAN_EUROPE: (on(1, 3), on(4, 6), X, X, X),
            PT.JAPANESE_MAINLAND_CHINA: (on(1), on(2, 4), on(5, 6), X, X),
            PT.JAPANESE_PACIFIC_FIELD_FORCE: (X, on(1, 2), on(3, 4), on(5), on(6)),
            PT.JAPANESE_ISLAND_GARRISON: (on(1, 4), on(5, 6), X, X, X),
            PT.COMMONWEALTH_NORTH_AFRICA_OPEN: (on(1), on(2), on(3, 4), on(5, 6), X),
            PT.COMMONWEALTH_NORTH_AFRICA_FORTIFIED: (on(1, 4), on(5, 6), X, X, X),
            PT.COMMONWEALTH_EUROPE_1940: (X, on(1, 2), on(3), on(4), on(5, 6)),
            PT.COMMONWEALTH_EUROPE_1944: (on(1, 3), on(4, 6), X, X, X),
            PT.COMMONWEALTH_BURMA_1943_45: (on(1), on(2, 3), on(4), on(5), on(6)),
            PT.FRENCH_1940_FIELD_FORCE: (X, X, on(1, 2), on(3, 5), on(6)),
            PT.FRENCH_1940_FORTIFIED: (on(1, 3), on(4, 5), on(6), X, X),
        },
    ),
    optional=True,
)

REFUEL_RATE: FuelTable = table(
    "n43.refuel_rate",
    "Fuel table 3: refueling rate in bases per turn (1D6)",
    TABLE_3_RULE,
    FuelTable(
        dice=DiceKind.D6,
        columns=(3, 6, 9, 12, 15),
        last_column_or_more=False,
        rows={
            PT.GERMAN_WEST_1940: (on(1, 2), on(3, 4), on(5, 6), X, X),
            PT.GERMAN_WEST_1944_45: (on(1, 4), on(5, 6), X, X, X),
            PT.GERMAN_EAST_1941_42: (on(1), on(2, 4), on(5), on(6), X),
            PT.GERMAN_EAST_1943_45: (on(1, 3), on(4, 6), X, X, X),
            PT.GERMAN_SOUTHERN_EUROPE: (on(1, 2), on(3, 5), on(6), X, X),
            PT.GERMAN_NORTH_AFRICA: (on(1), on(2, 4), on(5, 6), X, X),
            PT.RUSSIAN_1941_42: (on(1, 4), on(5, 6), X, X, X),
            PT.RUSSIAN_1943: (on(1), on(2, 4), on(5, 6), X, X),
            PT.RUSSIAN_1944_45: (X, X, on(1, 2), on(3, 5), on(6)),
            PT.AMERICAN_PACIFIC: (X, X, on(1, 4), on(5, 6), X),
            PT.AMERICAN_EUROPE: (X, on(1), on(2, 3), on(4, 5), on(6)),
            PT.JAPANESE_MAINLAND_CHINA: (on(1, 3), on(4, 6), X, X, X),
            PT.JAPANESE_PACIFIC_FIELD_FORCE: (on(1, 6), X, X, X, X),
            PT.JAPANESE_ISLAND_GARRISON: (on(1, 6), X, X, X, X),
            PT.COMMONWEALTH_NORTH_AFRICA_OPEN: (X, on(1, 2), on(3, 5), on(6), X),
            PT.COMMONWEALTH_NORTH_AFRICA_FORTIFIED: (X, X, on(1, 2), on(3, 4), on(5, 6)),
            PT.COMMONWEALTH_EUROPE_1940: (on(1, 2), on(3, 4), on(5, 6), X, X),
            PT.COMMONWEALTH_EUROPE_1944: (X, on(1), on(2, 3), on(4, 6), X),
            PT.COMMONWEALTH_BURMA_1943_45: (on(1, 2), on(3, 4), on(5), on(6), X),
            PT.FRENCH_1940_FIELD_FORCE: (on(1, 3), on(4, 6), X, X, X),
            PT.FRENCH_1940_FORTIFIED: (on(1), on(2, 3), on(4, 5), on(6), X),
        },
    ),
    optional=True,
)


def fuel_cell(spec: FuelTable, row: PlaceTime, total: int) -> int:
    """The column heading whose die range holds ``total``."""
    if row not in spec.rows:
        raise ValueError(f"no fuel table row {row.value}")
    column = column_for(spec.rows[row], total)
    if column is None:
        raise ValueError(f"no cell for {total} on {row.value}")
    return spec.columns[column]


def row_is_printed(spec: FuelTable, row: PlaceTime) -> bool:
    return any(cell is not None for cell in spec.rows.get(row, ()))


@dataclass(frozen=True)
class FuelSupplyInput:
    row: PlaceTime
    # Table 1 prints nothing for German Southern Europe; this row stands in (N43-15).
    unprinted_row_substitute: PlaceTime = PlaceTime.GERMAN_WEST_1944_45
    # A company that starts the battle out of fuel reads no turns of fuel: only tables 2-3 (N43-29).
    out_of_fuel: bool = False


@dataclass(frozen=True)
class FuelSupply:
    """A company's fuel: turns it has, turns until the truck comes, bases refueled per turn."""

    turns_of_fuel: int
    turns_of_fuel_or_more: bool
    refuel_delay_turns: int
    refuel_bases_per_turn: int
    rolls: tuple[RollResult, ...]

    def roll_results(self) -> tuple[RollResult, ...]:
        return self.rolls

    def text(self) -> str:
        more = "+" if self.turns_of_fuel_or_more else ""
        fuel = f"{self.turns_of_fuel}{more} turns of fuel" if self.turns_of_fuel else "out of fuel"
        return (
            f"{fuel}; refueling starts {self.refuel_delay_turns}"
            f" turns after running out at {self.refuel_bases_per_turn} bases per turn"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "turns_of_fuel": self.turns_of_fuel,
            "turns_of_fuel_or_more": self.turns_of_fuel_or_more,
            "refuel_delay_turns": self.refuel_delay_turns,
            "refuel_bases_per_turn": self.refuel_bases_per_turn,
            "results": [r.to_dict() for r in self.rolls],
            "outcome_text": self.text(),
        }


def _roll_table(
    spec: FuelTable, title: str, rule: RuleRef, inputs: FuelSupplyInput, dice: DiceSource
) -> tuple[int, RollResult]:
    row = inputs.row if row_is_printed(spec, inputs.row) else inputs.unprinted_row_substitute
    thrown = roll(spec.dice, dice)
    value = fuel_cell(spec, row, thrown.total)
    index = spec.columns.index(value)
    span = spec.rows[row][index]
    assert span is not None
    heading = f"{value}+" if spec.last_column_or_more and index == len(spec.columns) - 1 else str(value)
    top = 12 if spec.dice is DiceKind.TWO_D6 else 6
    substitute = "" if row is inputs.row else " (substitute row)"
    return value, RollResult(
        title=title,
        subject=inputs.row.value,
        rule=rule,
        rolls=(thrown,),
        cell=f"{row.value}{substitute}: {span_text(*span, top)} → {heading}",
        outcome=value,
        outcome_text=heading,
        inputs=as_inputs(inputs),
    )


@procedure("n43.fuel_supply", "Fuel supply (tables 1-3)", FUEL_RULE, optional=True)
def roll_fuel_supply(inputs: FuelSupplyInput, dice: DiceSource) -> FuelSupply:
    turns = 0
    first: tuple[RollResult, ...] = ()
    if not inputs.out_of_fuel:
        turns, table_1 = _roll_table(FUEL_TURNS, "Turns worth of fuel", TABLE_1_RULE, inputs, dice)
        first = (table_1,)
    delay, second = _roll_table(REFUEL_DELAY, "Turns to start refueling", TABLE_2_RULE, inputs, dice)
    rate, third = _roll_table(REFUEL_RATE, "Refueling rate (bases per turn)", TABLE_3_RULE, inputs, dice)
    return FuelSupply(
        turns_of_fuel=turns,
        turns_of_fuel_or_more=turns == FUEL_TURNS.columns[-1],
        refuel_delay_turns=delay,
        refuel_bases_per_turn=rate,
        rolls=(*first, second, third),
    )
