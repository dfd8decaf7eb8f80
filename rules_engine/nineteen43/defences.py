"""Optional: defensive works (000 § 20)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.nineteen43.common import BattleRole, PlaceTime, as_inputs, dice_label, ref
from rules_engine.registry import procedure, table
from rules_engine.results import RollResult

DEFENCES_RULE = ref("20) Defensive Works")

BASES_PER_ROLL = 150


class DefenceWork(enum.Enum):
    AT_DITCH = "Anti-tank Ditch"
    TRENCHES = "Trenches"
    PILLBOXES = "Pillboxes"
    BUNKERS = "Bunkers"
    MINEFIELDS = "Minefields"

    @property
    def unit(self) -> str:
        return '"' if self in INCHES_PER_POINT else ""


# Ditches and trenches are printed "(x10")": each point is 10 inches of work.
INCHES_PER_POINT = {DefenceWork.AT_DITCH: 10, DefenceWork.TRENCHES: 10}

H, D1, D2, D3, D4, D5, D6_ = (
    DiceKind.HALF_D6,
    DiceKind.D6,
    DiceKind.TWO_D6,
    DiceKind.THREE_D6,
    DiceKind.FOUR_D6,
    DiceKind.FIVE_D6,
    DiceKind.SIX_D6,
)
X = None  # "-"

# Dice per column: AT ditch, trenches, pillboxes, bunkers, minefields.
DEFENSIVE_WORKS: dict[PlaceTime, tuple[DiceKind | None, ...]] = table(
    "n43.defensive_works",
    "Defensive works dice by nation and place/time",
    DEFENCES_RULE,
    {
        PlaceTime.GERMAN_WEST_1940: (X, H, X, X, X),
        PlaceTime.GERMAN_WEST_1944_45: (H, D1, H, H, D1),
        PlaceTime.GERMAN_EAST_1941_42: (X, H, X, X, X),
        PlaceTime.GERMAN_EAST_1943_45: (X, D1, H, X, D3),
        PlaceTime.GERMAN_SOUTHERN_EUROPE: (X, D2, H, X, D1),
        PlaceTime.GERMAN_NORTH_AFRICA: (X, D2, H, X, D3),
        PlaceTime.RUSSIAN_1941_42: (X, D1, H, X, D1),
        PlaceTime.RUSSIAN_1943: (X, D2, H, H, D5),
        PlaceTime.RUSSIAN_1944_45: (X, H, X, X, D2),
        PlaceTime.AMERICAN_PACIFIC: (X, D2, X, X, X),
        PlaceTime.AMERICAN_EUROPE: (X, D1, X, X, D1),
        PlaceTime.JAPANESE_MAINLAND_CHINA: (X, D1, H, X, D1),
        PlaceTime.JAPANESE_PACIFIC_FIELD_FORCE: (X, D1, D1, D1, D1),
        PlaceTime.JAPANESE_ISLAND_GARRISON: (X, D2, D2, D2, D4),
        PlaceTime.COMMONWEALTH_NORTH_AFRICA_OPEN: (X, D3, D1, X, D6_),
        PlaceTime.COMMONWEALTH_NORTH_AFRICA_FORTIFIED: (D3, D4, D2, D1, D6_),
        PlaceTime.COMMONWEALTH_EUROPE_1940: (X, H, X, X, X),
        PlaceTime.COMMONWEALTH_EUROPE_1944: (X, D1, X, X, X),
        PlaceTime.FRENCH_1940_FIELD_FORCE: (X, X, X, X, X),
        PlaceTime.FRENCH_1940_FORTIFIED: (D1, D2, D2, D2, D1),
    },
    optional=True,
)

ATTACKER_DEFENCES: dict[DefenceWork, DiceKind] = table(
    "n43.attacker_defensive_works",
    "Defensive works the attacker may roll",
    DEFENCES_RULE,
    {DefenceWork.TRENCHES: DiceKind.TWO_D6, DefenceWork.MINEFIELDS: DiceKind.D6},
    optional=True,
)


def roll_sets(total_bases: int, partial_block_counts: bool) -> int:
    """Rolls per category: one per 150 bases (both sides); a started block counts by default (N43-14)."""
    if total_bases < 0:
        raise ValueError("total_bases cannot be negative")
    if partial_block_counts:
        return -(-total_bases // BASES_PER_ROLL)
    return total_bases // BASES_PER_ROLL


@dataclass(frozen=True)
class DefensiveWorksInput:
    total_bases: int
    # The defender's row; the attacker's rolls read none (000 § 20).
    row: PlaceTime | None = None
    role: BattleRole = BattleRole.DEFENDER
    partial_block_counts: bool = True
    # One variant printed with the rule: only the scenario defender rolls.
    attacker_may_roll: bool = True


@dataclass(frozen=True)
class DefensiveWorks:
    role: BattleRole
    amounts: tuple[tuple[DefenceWork, int], ...]  # inches for ditches/trenches, else a count
    rolls: tuple[RollResult, ...]

    def roll_results(self) -> tuple[RollResult, ...]:
        return self.rolls

    def to_dict(self) -> dict[str, Any]:
        return {
            "role": self.role.value,
            "amounts": {work.value: amount for work, amount in self.amounts},
            "results": [r.to_dict() for r in self.rolls],
            "outcome_text": self.text(),
        }

    def text(self) -> str:
        return ", ".join(f"{work.value} {amount}{work.unit}" for work, amount in self.amounts) or "none"


def _dice_for(inputs: DefensiveWorksInput) -> dict[DefenceWork, DiceKind]:
    if inputs.role is BattleRole.ATTACKER:
        return dict(ATTACKER_DEFENCES) if inputs.attacker_may_roll else {}
    if inputs.row is None:
        raise ValueError("the defender's defensive works need a row of the table")
    if inputs.row not in DEFENSIVE_WORKS:
        raise ValueError(f"the defensive works table has no row {inputs.row.value}")
    cells = zip(DefenceWork, DEFENSIVE_WORKS[inputs.row], strict=True)
    return {work: kind for work, kind in cells if kind is not None}


@procedure("n43.defensive_works", "Defensive works", DEFENCES_RULE, optional=True)
def roll_defensive_works(inputs: DefensiveWorksInput, dice: DiceSource) -> DefensiveWorks:
    sets = roll_sets(inputs.total_bases, inputs.partial_block_counts)
    row_label = inputs.row.value if inputs.row and inputs.role is BattleRole.DEFENDER else "attacker"
    results: list[RollResult] = []
    totals: dict[DefenceWork, int] = {}
    for number in range(1, sets + 1):
        for work, kind in _dice_for(inputs).items():
            thrown = roll(kind, dice)
            amount = thrown.total * INCHES_PER_POINT.get(work, 1)
            totals[work] = totals.get(work, 0) + amount
            results.append(
                RollResult(
                    title=work.value,
                    subject=f"{inputs.role.value}, roll {number} of {sets}",
                    rule=DEFENCES_RULE,
                    rolls=(thrown,),
                    cell=f"{row_label}: {dice_label(kind)}",
                    outcome=amount,
                    outcome_text=f"{amount}{work.unit}",
                    inputs=as_inputs(inputs),
                )
            )
    return DefensiveWorks(role=inputs.role, amounts=tuple(totals.items()), rolls=tuple(results))
