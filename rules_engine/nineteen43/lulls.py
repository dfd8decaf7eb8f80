"""Combat lulls (000 § Combat Lulls): when they come, and what each length allows."""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.nineteen43.common import as_inputs, ref
from rules_engine.registry import procedure, table
from rules_engine.results import Comparison, RollResult

LULL_RULE = ref("Combat Lulls")

LULL_FACE = 6  # an unmodified 6 at the start of an attacker assault phase
LONG_LULL_FROM_TURN = 7
LONG_LULL_PLANNED_FIRE_MODIFIER = -2
LONG_LULL_SUPPORT_FIRE_MODIFIER = -3


class LullLength(enum.Enum):
    SHORT = "short"
    LONG = "long"


class LullFeature(enum.Enum):
    EXTRA_DEFENSES = "Extra Defenses"
    REPAIR_COMBAT_BASE = "Repair Roll: Combat Base Damage"
    REPAIR_COMMAND_BASE = "Repair Roll: Command Base Damage"
    REFUELING = "Refueling: Units"
    RECOVER_DEMORALIZED = "Recovery: Demoralized Unit"
    REORGANIZE = "Reorganize: Units"
    EXTRA_PLANNED_FIRE = "Extra Resource Roll: Planned Fire (barrages)"
    EXTRA_SUPPORT_POINTS = "Extra Resource Roll: Additional fire support pool points"
    REROLL_AIR_SUPERIORITY = "Re-Roll for air superiority?"
    REROLL_AIR_PRESENCE = "Re-roll for air presence?"


@dataclass(frozen=True)
class LullCell:
    """One Short/Long Lull cell.

    ``allowed`` False is a printed "No"/"No recovery"/"No reorganizing".  A
    cell with ``dice`` is thrown: with ``needs`` it passes on that face or
    more, without it the total is the result (trenchline inches).
    """

    label: str
    allowed: bool = True
    dice: DiceKind | None = None
    needs: int | None = None
    modifier: int | None = None  # the roll modifier for an extra resource roll
    max_points: int | None = None  # command base damage points a lull may repair


def _needs(label: str, face: int, **extra: Any) -> LullCell:
    return LullCell(label, dice=DiceKind.D6, needs=face, **extra)


LULL_FEATURES: dict[LullFeature, dict[LullLength, LullCell]] = table(
    "n43.lull_features",
    "Combat lull features: short and long lull",
    LULL_RULE,
    {
        LullFeature.EXTRA_DEFENSES: {
            LullLength.SHORT: LullCell("Hasty Dig-in: Unlimited"),
            LullLength.LONG: LullCell("Trenchline: 2D6 in inches", dice=DiceKind.TWO_D6),
        },
        LullFeature.REPAIR_COMBAT_BASE: {
            LullLength.SHORT: _needs("6", 6),
            LullLength.LONG: _needs("3 - 6", 3),
        },
        LullFeature.REPAIR_COMMAND_BASE: {
            LullLength.SHORT: _needs("6", 6, max_points=1),
            LullLength.LONG: _needs("5,6", 5, max_points=3),
        },
        LullFeature.REFUELING: {
            LullLength.SHORT: LullCell("Two free turns of refueling"),
            LullLength.LONG: LullCell("All units fully refueled"),
        },
        LullFeature.RECOVER_DEMORALIZED: {
            LullLength.SHORT: LullCell("No recovery", allowed=False),
            LullLength.LONG: _needs("5,6", 5),
        },
        # "Remain pinned on a 1,2": the roll is passed (unpinned) on 3 or more.
        LullFeature.REORGANIZE: {
            LullLength.SHORT: LullCell("No reorganizing", allowed=False),
            LullLength.LONG: _needs("Remain pinned on a 1,2", 3),
        },
        LullFeature.EXTRA_PLANNED_FIRE: {
            LullLength.SHORT: LullCell("No", allowed=False),
            LullLength.LONG: LullCell("Yes, roll with a -2", modifier=LONG_LULL_PLANNED_FIRE_MODIFIER),
        },
        LullFeature.EXTRA_SUPPORT_POINTS: {
            LullLength.SHORT: LullCell("No", allowed=False),
            LullLength.LONG: LullCell("Yes, roll with a -3", modifier=LONG_LULL_SUPPORT_FIRE_MODIFIER),
        },
        LullFeature.REROLL_AIR_SUPERIORITY: {
            LullLength.SHORT: LullCell("No", allowed=False),
            LullLength.LONG: LullCell("Yes"),
        },
        LullFeature.REROLL_AIR_PRESENCE: {
            LullLength.SHORT: LullCell("Yes"),
            LullLength.LONG: LullCell("Yes"),
        },
    },
)


def lull_length(turn: int) -> LullLength:
    return LullLength.LONG if turn >= LONG_LULL_FROM_TURN else LullLength.SHORT


@dataclass(frozen=True)
class LullCheckInput:
    turn: int
    start_turn: int  # the unmodified set-up proximity die


@procedure("n43.lull_check", "Combat lull check", LULL_RULE)
def roll_lull_check(inputs: LullCheckInput, dice: DiceSource) -> RollResult:
    """At the start of the attacker assault phase, from ``start_turn`` on."""
    common: dict[str, Any] = {
        "procedure": "n43.lull_check",
        "title": "Combat lull check",
        "subject": f"turn {inputs.turn}",
        "rule": LULL_RULE,
        "inputs": as_inputs(inputs),
    }
    if inputs.turn < inputs.start_turn:
        return RollResult(
            rolls=(),
            cell=f"checks start on turn {inputs.start_turn}",
            outcome=None,
            outcome_text="no check yet",
            **common,
        )
    thrown = roll(DiceKind.D6, dice)
    length = lull_length(inputs.turn) if thrown.total == LULL_FACE else None
    return RollResult(
        rolls=(thrown,),
        threshold_base=LULL_FACE,
        comparison=Comparison.AT_LEAST,
        outcome=length,
        outcome_text="no lull" if length is None else f"{length.value} lull",
        **common,
    )


@dataclass(frozen=True)
class LullFeatureInput:
    feature: LullFeature
    length: LullLength
    # The table prints "3 - 6", the worked example beside it says 4 through 6 (N43-18).
    long_lull_combat_repair_from: int = 3


@procedure("n43.lull_feature", "Combat lull feature", LULL_RULE)
def roll_lull_feature(inputs: LullFeatureInput, dice: DiceSource) -> RollResult:
    """Throws the cell's roll if it has one; otherwise reports the permission."""
    cell = LULL_FEATURES[inputs.feature][inputs.length]
    if inputs.feature is LullFeature.REPAIR_COMBAT_BASE and inputs.length is LullLength.LONG:
        cell = dataclasses.replace(cell, needs=inputs.long_lull_combat_repair_from)
    common: dict[str, Any] = {
        "procedure": "n43.lull_feature",
        "title": inputs.feature.value,
        "subject": f"{inputs.length.value} lull",
        "rule": LULL_RULE,
        "cell": cell.label,
        "inputs": as_inputs(inputs),
    }
    if cell.dice is None:
        text = cell.label if cell.allowed else "not allowed"
        return RollResult(rolls=(), outcome=cell.allowed, outcome_text=text, **common)
    thrown = roll(cell.dice, dice)
    if cell.needs is None:
        return RollResult(
            rolls=(thrown,), outcome=thrown.total, outcome_text=f'{thrown.total}" of trenchline', **common
        )
    passed = thrown.total >= cell.needs
    text = "passed" if passed else "failed"
    if inputs.feature is LullFeature.REORGANIZE:
        text = "may reorganize" if passed else "remains pinned"
    elif passed and cell.max_points is not None:
        text += f" (up to {cell.max_points} damage point{'s' if cell.max_points > 1 else ''})"
    return RollResult(
        rolls=(thrown,),
        threshold_base=cell.needs,
        comparison=Comparison.AT_LEAST,
        outcome=passed,
        outcome_text=text,
        **common,
    )
