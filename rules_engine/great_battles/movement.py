"""Movement (chart pg. 2 [14.3]) and the bad-going suppression roll (variant).

A battalion moves at the rate of its slowest stand or carrier, read by class
(the speed letter of the weapon/armour data, foot, horse-drawn, AT/Gun) and by
going and formation.  Suppressed stands make the whole battalion move as if in
bad going; set-up heavy weapons or unlimbered guns hold it to the AT/Gun line.
The variant lets infantry in bad going drop the ½" reduction, and vehicles move
at 150% of the bad-going rate, at the price of a suppression roll.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.great_battles.common import ref
from rules_engine.great_battles.equipment import Speed
from rules_engine.registry import procedure, table
from rules_engine.results import Comparison, RollResult, to_jsonable

MOVEMENT_RULE = ref("Movement [14.3]; 7. Choose Action, Move (All)")
BAD_GOING_RULE = ref("Movement, *Bad Going Infantry penalty; Summary of Variants (May 2003), Move")


class Mover(enum.Enum):
    """A row of the movement chart."""

    SLOW_AFV = "Slow AFV"
    MEDIUM_AFV = "Medium AFV"
    FAST_AFV = "Fast AFV"
    HALFTRACK = "Halftrack"
    WHEELED = "Wheeled"
    HORSE_DRAWN = "Horse-drawn"
    FOOT = "Foot"
    AT_GUN = "AT/Gun"

    @classmethod
    def for_speed(cls, speed: Speed) -> Mover:
        """The row for a vehicle's speed letter (S, M, F, H, W)."""
        return _MOVER_BY_SPEED[speed]


_MOVER_BY_SPEED = {
    Speed.SLOW: Mover.SLOW_AFV,
    Speed.MEDIUM: Mover.MEDIUM_AFV,
    Speed.FAST: Mover.FAST_AFV,
    Speed.HALFTRACK: Mover.HALFTRACK,
    Speed.WHEELED: Mover.WHEELED,
}
_MOTOR_VEHICLES = frozenset(_MOVER_BY_SPEED.values())


class Going(enum.Enum):
    PAVED_ROAD = "paved road"
    DIRT_ROAD = "dirt road"
    GOOD = "good going"
    BAD = "bad going"


class Formation(enum.Enum):
    COLUMN = "column"  # march
    ASSAULT = "assault"
    DEFENSIVE = "defensive"


class MovementColumn(enum.Enum):
    PAVED_ROAD = "Paved Road"
    DIRT_ROAD = "Dirt Road"
    GOOD_COLUMN = "Good Going Column"
    GOOD_ASSAULT = "Good Going Assault"
    GOOD_DEFENSIVE = "Good Going Defensive"
    BAD_COLUMN = "Bad Going Column"
    BAD_ASSAULT = "Bad Going Assault"
    BAD_DEFENSIVE = "Bad Going Defensive"


def _row(*inches: float | None) -> dict[MovementColumn, float | None]:
    return dict(zip(MovementColumn, inches, strict=True))


# Inches per move; None is the printed "-".
MOVEMENT_RATES: dict[Mover, dict[MovementColumn, float | None]] = table(
    "gb.movement_rates",
    "Movement rates in inches by class, going and formation",
    MOVEMENT_RULE,
    {
        Mover.SLOW_AFV: _row(15, 10, 8, 5, 3, 2, 1, 1),
        Mover.MEDIUM_AFV: _row(21, 14, 10, 7, 4, 5, 3, 1),
        Mover.FAST_AFV: _row(27, 18, 12, 9, 4, 6, 4, 2),
        Mover.HALFTRACK: _row(27, 18, 10, 7, 4, 6, 3, 2),
        Mover.WHEELED: _row(36, 24, 6, 4, 2, 2, 1, 1),
        Mover.HORSE_DRAWN: _row(12, 12, 4, 2, 1, 2, 1, 1),
        Mover.FOOT: _row(9, 9, 6, 3, 2, 5.5, 2.5, 1.5),
        Mover.AT_GUN: _row(None, None, 1, 1, 1, 0.5, 0.5, 0.5),
    },
)


@dataclass(frozen=True)
class BadGoingVariant:
    infantry_reduction_inches: float
    vehicle_rate_percent: int
    suppression_chance_per_stand_in_10: int


BAD_GOING_VARIANT: BadGoingVariant = table(
    "gb.bad_going_variant",
    "Bad going: infantry reduction, vehicle rate with suppression roll, chance per stand",
    BAD_GOING_RULE,
    BadGoingVariant(
        infantry_reduction_inches=0.5, vehicle_rate_percent=150, suppression_chance_per_stand_in_10=1
    ),
    optional=True,
)

_GOING_COLUMNS = {
    Going.GOOD: {
        Formation.COLUMN: MovementColumn.GOOD_COLUMN,
        Formation.ASSAULT: MovementColumn.GOOD_ASSAULT,
        Formation.DEFENSIVE: MovementColumn.GOOD_DEFENSIVE,
    },
    Going.BAD: {
        Formation.COLUMN: MovementColumn.BAD_COLUMN,
        Formation.ASSAULT: MovementColumn.BAD_ASSAULT,
        Formation.DEFENSIVE: MovementColumn.BAD_DEFENSIVE,
    },
}
_ROAD_COLUMNS = {Going.PAVED_ROAD: MovementColumn.PAVED_ROAD, Going.DIRT_ROAD: MovementColumn.DIRT_ROAD}


def movement_column(going: Going, formation: Formation) -> MovementColumn:
    """Road rates need march column, end to end; other formations on a road read good going (GB-A-23)."""
    if going in _ROAD_COLUMNS:
        return (
            _ROAD_COLUMNS[going] if formation is Formation.COLUMN else _GOING_COLUMNS[Going.GOOD][formation]
        )
    return _GOING_COLUMNS[going][formation]


class BadGoingChoice(enum.Enum):
    PRINTED_RATE = "printed rate"  # stock: the printed foot cells carry the ½" reduction (GB-A-22)
    ROLL_FOR_SUPPRESSION = "roll for suppression"  # variant: foot without the ½", vehicles at 150%


@dataclass(frozen=True)
class MovementInput:
    movers: tuple[Mover, ...]  # every class of stand or carrier moving; the slowest sets the rate
    going: Going = Going.GOOD
    formation: Formation = Formation.COLUMN
    suppressed_stands: bool = False  # the battalion moves as if in bad going
    set_up_weapons: bool = False  # set-up Hvy Wpns or unlimbered guns: the AT/Gun line
    bad_going_choice: BadGoingChoice = BadGoingChoice.PRINTED_RATE  # only in bad going
    foot_cells_include_reduction: bool = True  # GB-A-22
    horse_drawn_is_vehicle: bool = False  # GB-A-25


@dataclass(frozen=True)
class MoverRate:
    mover: Mover
    column: MovementColumn
    printed: float
    inches: float
    adjustment: str = ""  # a short label when the bad-going penalty or variant changed the cell

    def text(self) -> str:
        shown = f'{self.mover.value} {self.inches:g}" [{self.column.value}'
        return shown + (f", {self.adjustment}]" if self.adjustment else "]")


@dataclass(frozen=True)
class MovementRate:
    rates: tuple[MoverRate, ...]
    conditions: tuple[str, ...]  # battalion-wide rules that changed what was read
    suppression_roll: bool  # the variant's price: roll gb.bad_going_suppression
    inputs: MovementInput

    @property
    def slowest(self) -> MoverRate:
        return min(self.rates, key=lambda rate: rate.inches)

    @property
    def inches(self) -> float:
        return self.slowest.inches

    def roll_results(self) -> tuple[RollResult, ...]:
        return ()

    def line(self) -> str:
        head = f"Movement rate, {self.inputs.going.value}, {self.inputs.formation.value}"
        if self.conditions:
            head += f" ({'; '.join(self.conditions)})"
        tail = f' → {self.inches:g}" (slowest: {self.slowest.mover.value})'
        if self.suppression_roll:
            tail += ", roll for suppression"
        return f"{head}: {', '.join(rate.text() for rate in self.rates)}{tail}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "inches": self.inches,
            "slowest": self.slowest.mover.value,
            "rates": [to_jsonable(rate) for rate in self.rates],
            "conditions": list(self.conditions),
            "suppression_roll": self.suppression_roll,
            "inputs": to_jsonable(self.inputs),
            "line": self.line(),
        }


def _is_vehicle(mover: Mover, inputs: MovementInput) -> bool:
    return mover in _MOTOR_VEHICLES or (inputs.horse_drawn_is_vehicle and mover is Mover.HORSE_DRAWN)


def _takes_bad_going_choice(mover: Mover, inputs: MovementInput) -> bool:
    return mover is Mover.FOOT or _is_vehicle(mover, inputs)


def _bad_going_adjustment(mover: Mover, printed: float, inputs: MovementInput) -> tuple[float, str]:
    """The rate after the infantry penalty or the variant, in real bad going only."""
    variant = BAD_GOING_VARIANT
    rolling = inputs.bad_going_choice is BadGoingChoice.ROLL_FOR_SUPPRESSION
    if mover is Mover.FOOT:
        reduction = variant.infantry_reduction_inches
        if rolling:
            restored = printed + reduction if inputs.foot_cells_include_reduction else printed
            return restored, f'no {reduction:g}" reduction'
        if inputs.foot_cells_include_reduction:
            return printed, ""
        return printed - reduction, f'-{reduction:g}" reduction'
    if rolling and _is_vehicle(mover, inputs):
        return printed * variant.vehicle_rate_percent / 100, f"{variant.vehicle_rate_percent}%"
    return printed, ""


def _mover_rate(mover: Mover, going: Going, inputs: MovementInput) -> MoverRate:
    column = movement_column(going, inputs.formation)
    printed = MOVEMENT_RATES[mover][column]
    if printed is None:
        # "-": no road rate (AT/Gun); it moves as in good going (GB-A-23).
        column = movement_column(Going.GOOD, inputs.formation)
        printed = MOVEMENT_RATES[mover][column]
        assert printed is not None
    inches, adjustment = printed, ""
    if inputs.going is Going.BAD:
        inches, adjustment = _bad_going_adjustment(mover, printed, inputs)
    return MoverRate(mover=mover, column=column, printed=printed, inches=inches, adjustment=adjustment)


@procedure("gb.movement_rate", "Movement rate of a battalion", MOVEMENT_RULE, rolls=False)
def lookup_movement_rate(inputs: MovementInput) -> MovementRate:
    if not inputs.movers:
        raise ValueError(f"{MOVEMENT_RULE.text()}: name at least one mover class")
    rolling = inputs.bad_going_choice is BadGoingChoice.ROLL_FOR_SUPPRESSION
    if rolling and inputs.going is not Going.BAD:
        # Suppressed stands only make the battalion move "as if" in bad going (GB-A-24).
        raise ValueError(f"{BAD_GOING_RULE.text()}: the suppression-roll choice is for bad going only")
    conditions = []
    going = inputs.going
    if inputs.suppressed_stands and going is not Going.BAD:
        going = Going.BAD
        conditions.append("suppressed stands: as if bad going")
    movers = tuple(dict.fromkeys(inputs.movers))
    if inputs.set_up_weapons:
        movers = (Mover.AT_GUN,)
        conditions.append("set-up weapons: AT/Gun line")
    rates = tuple(_mover_rate(mover, going, inputs) for mover in movers)
    return MovementRate(
        rates=rates,
        conditions=tuple(conditions),
        suppression_roll=rolling and any(_takes_bad_going_choice(rate.mover, inputs) for rate in rates),
        inputs=inputs,
    )


# --- the bad-going suppression roll (variant) --------------------------------


@dataclass(frozen=True)
class BadGoingSuppressionInput:
    stands: int  # every stand in the battalion
    battalion: str = ""


@procedure("gb.bad_going_suppression", "Bad going suppression roll", BAD_GOING_RULE, optional=True)
def roll_bad_going_suppression(inputs: BadGoingSuppressionInput, dice: DiceSource) -> RollResult:
    if inputs.stands < 1:
        raise ValueError(f"{BAD_GOING_RULE.text()}: a battalion has at least one stand")
    # One d10 for the battalion: at or under its chance, the face names the stand
    # (1 = first from the left/front).  Ten stands or more: one always suppressed (GB-A-26).
    chance = min(inputs.stands * BAD_GOING_VARIANT.suppression_chance_per_stand_in_10, 10)
    thrown = roll(DiceKind.D10, dice)
    stand = thrown.total if thrown.total <= chance else None
    return RollResult(
        title="Bad going suppression roll",
        subject=inputs.battalion,
        rule=BAD_GOING_RULE,
        rolls=(thrown,),
        threshold_base=chance,
        comparison=Comparison.AT_MOST,
        cell=f"{inputs.stands} stand{'s' * (inputs.stands != 1)}",
        outcome=stand,
        outcome_text=f"stand {stand} from the left/front suppressed" if stand else "no stand suppressed",
        inputs=asdict(inputs),
    )
