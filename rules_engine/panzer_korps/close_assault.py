"""Close assault: combatant vs opponent letter, column shifts, leadership dice-off.

Row is the side dealing the result, column its opponent (or "Panic" when the
opponent is panicked); the letter is the disorder markers it inflicts.  Every
shift moves that side's column to the left (rules notes PK-13).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource
from rules_engine.panzer_korps.common import (
    Cover,
    NationYearModifier,
    OpposedRoll,
    Quality,
    Side,
    TieRule,
    inputs_of,
    modifiers,
    nation_year_modifiers,
    per_item,
    ref,
    roll_opposed,
)
from rules_engine.registry import procedure, table
from rules_engine.results import Modifier, RollResult
from rules_engine.vocab import Nation

ASSAULT_RULE = ref("Close assault table")
RESULTS_RULE = ref("Close assault results table")
SHIFT_RULE = ref("Close assault intensity shift modifiers")

PANIC_COLUMN = "Panic"
COLUMNS: tuple[str, ...] = (*(q.value for q in Quality), PANIC_COLUMN)

CLOSE_ASSAULT: dict[Quality, tuple[str, ...]] = table(
    "pk.close_assault",
    "Close assault table (row combatant, column opponent)",
    ASSAULT_RULE,
    {
        Quality.HARDENED: tuple("DDCCBBAAA"),
        Quality.ELITE: tuple("EDDCCBAAA"),
        Quality.VETERAN: tuple("EDDCCBBAA"),
        Quality.REGULAR: tuple("EEDDCCBBA"),
        Quality.RESERVIST: tuple("FFEEDDCBB"),
        Quality.RECRUIT: tuple("GFFEDDCBB"),
        Quality.MILITIA: tuple("GGFEEDDCC"),
        Quality.PARTISAN: tuple("GGFFEEDDC"),
    },
)

CLOSE_ASSAULT_RESULTS: dict[str, int] = table(
    "pk.close_assault_results",
    "Close assault results: disorder markers by letter",
    RESULTS_RULE,
    {"A": 7, "B": 6, "C": 5, "D": 4, "E": 3, "F": 2, "G": 1},
)


class ShiftReason(enum.Enum):
    FACING_AFV = "facing any AFV"
    SUPPRESSED = "suppressed"
    FRAGMENTED = "fragmented"
    OUT_OF_SUPPLY = "out of supply"
    FACING_FANATICS = "facing fanatics"
    FACING_MG = "facing MMG/HMG"
    FACING_FLAMETHROWER = "facing flamethrower"
    FACING_TWO_OR_MORE = "facing 2 or more units"
    LIGHT_MEDIUM_COVER = "fighting in light/medium cover"
    HEAVY_COVER = "fighting in heavy cover"
    SUPER_HEAVY_COVER = "fighting in super heavy cover"
    LOST_LEADERSHIP_ROLL = "lost the leadership roll"


COLUMN_SHIFTS: dict[ShiftReason, int] = table(
    "pk.close_assault_shifts",
    "Close assault column shifts (to the left, cumulative)",
    SHIFT_RULE,
    {
        ShiftReason.FACING_AFV: 1,
        ShiftReason.SUPPRESSED: 1,
        ShiftReason.FRAGMENTED: 2,
        ShiftReason.OUT_OF_SUPPLY: 1,
        ShiftReason.FACING_FANATICS: 1,
        ShiftReason.FACING_MG: 1,
        ShiftReason.FACING_FLAMETHROWER: 1,
        ShiftReason.FACING_TWO_OR_MORE: 1,
        ShiftReason.LIGHT_MEDIUM_COVER: 1,
        ShiftReason.HEAVY_COVER: 2,
        ShiftReason.SUPER_HEAVY_COVER: 3,
        ShiftReason.LOST_LEADERSHIP_ROLL: 1,
    },
)

COVER_SHIFT_REASON: dict[Cover, ShiftReason | None] = {
    Cover.OPEN: None,
    Cover.LIGHT: ShiftReason.LIGHT_MEDIUM_COVER,
    Cover.MEDIUM: ShiftReason.LIGHT_MEDIUM_COVER,
    Cover.HEAVY: ShiftReason.HEAVY_COVER,
    Cover.SUPER_HEAVY: ShiftReason.SUPER_HEAVY_COVER,
}

LEADERSHIP_DECORATED_LEADER = 1
LEADERSHIP_VICHY_FRANCE = -1
LEADERSHIP_NATION_MODIFIERS: tuple[NationYearModifier[Nation], ...] = table(
    "pk.close_assault_leadership_modifiers",
    "Close assault leadership roll (d6) nation modifiers",
    SHIFT_RULE,
    (
        NationYearModifier("Russia 36-42", frozenset({Nation.SOVIET}), -1, 1936, 1942),
        NationYearModifier("Italy 44-45", frozenset({Nation.ITALIAN}), -1, 1944, 1945),
        NationYearModifier(
            "Germany/Britain/US 43-45",
            frozenset({Nation.GERMAN, Nation.BRITISH, Nation.AMERICAN}),
            1,
            1943,
            1945,
        ),
        NationYearModifier("Japan", frozenset({Nation.JAPANESE}), 2),
    ),
)


def shifted_letter(combatant: Quality, opponent_column: str, shift: int) -> tuple[str, str]:
    """The letter and column reached by shifting ``shift`` columns left; stops at the first."""
    start = COLUMNS.index(opponent_column)
    column = COLUMNS[max(start - shift, 0)]
    return CLOSE_ASSAULT[combatant][COLUMNS.index(column)], column


@dataclass(frozen=True)
class CloseAssaultInput:
    attacker: Quality
    defender: Quality
    attacker_panicked: bool = False
    defender_panicked: bool = False
    attacker_suppressed: bool = False
    defender_suppressed: bool = False
    attacker_fragmented: bool = False
    defender_fragmented: bool = False
    attacker_out_of_supply: bool = False
    defender_out_of_supply: bool = False
    attacker_fanatics: bool = False
    defender_fanatics: bool = False
    attacker_has_afv: bool = False
    defender_has_afv: bool = False
    attacker_has_mg: bool = False  # MMG/HMG
    defender_has_mg: bool = False
    attacker_has_flamethrower: bool = False
    defender_has_flamethrower: bool = False
    attacker_units: int = 1
    defender_units: int = 1
    cover: Cover = Cover.OPEN  # the ground the assault is fought in
    # True: the cover shift applies to both sides (intensity); False: only
    # to the attacker fighting into it (rules notes PK-14).
    cover_shifts_both: bool = True
    attacker_decorated_leaders: int = 0
    defender_decorated_leaders: int = 0
    attacker_nation: Nation | None = None
    defender_nation: Nation | None = None
    attacker_vichy: bool = False
    defender_vichy: bool = False
    year: int = 1943
    # A tied leadership roll: no loser, no shift (rules notes PK-15).
    leadership_tie: TieRule = TieRule.NO_WINNER


@dataclass(frozen=True)
class AssaultSide:
    """One side's result: markers it inflicts on its opponent."""

    name: str
    quality: Quality
    column: str  # after shifts
    letter: str
    disorder_markers_inflicted: int
    shifts: tuple[Modifier, ...]

    def text(self) -> str:
        shifts = ", ".join(f"{m.name} {m.value}" for m in self.shifts) or "no shifts"
        return (
            f"{self.name} ({self.quality.value}) vs column {self.column} ({shifts}): "
            f"{self.letter} = {self.disorder_markers_inflicted} disorder markers"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "quality": self.quality.value,
            "column": self.column,
            "letter": self.letter,
            "disorder_markers_inflicted": self.disorder_markers_inflicted,
            "shifts": [{"name": m.name, "columns": m.value} for m in self.shifts],
        }


@dataclass(frozen=True)
class CloseAssault:
    attacker: AssaultSide
    defender: AssaultSide
    leadership: OpposedRoll

    def roll_results(self) -> tuple[RollResult, ...]:
        return self.leadership.roll_results()

    def line(self) -> str:
        return f"{self.leadership.line()} ⇒ {self.attacker.text()}; {self.defender.text()}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker.to_dict(),
            "defender": self.defender.to_dict(),
            "leadership": self.leadership.to_dict(),
            "line": self.line(),
        }


def _side(inputs: CloseAssaultInput, prefix: str) -> dict[str, Any]:
    return {name[len(prefix) :]: getattr(inputs, name) for name in vars(inputs) if name.startswith(prefix)}


def column_shifts(
    own: dict[str, Any], enemy: dict[str, Any], cover: Cover, in_cover: bool, lost_leadership: bool
) -> tuple[Modifier, ...]:
    cover_reason = COVER_SHIFT_REASON[cover] if in_cover else None
    reasons = (
        (enemy["has_afv"], ShiftReason.FACING_AFV),
        (own["suppressed"], ShiftReason.SUPPRESSED),
        (own["fragmented"], ShiftReason.FRAGMENTED),
        (own["out_of_supply"], ShiftReason.OUT_OF_SUPPLY),
        (enemy["fanatics"], ShiftReason.FACING_FANATICS),
        (enemy["has_mg"], ShiftReason.FACING_MG),
        (enemy["has_flamethrower"], ShiftReason.FACING_FLAMETHROWER),
        (enemy["units"] >= 2, ShiftReason.FACING_TWO_OR_MORE),
        (cover_reason is not None, cover_reason),
        (lost_leadership, ShiftReason.LOST_LEADERSHIP_ROLL),
    )
    return tuple(Modifier(r.value, COLUMN_SHIFTS[r]) for holds, r in reasons if holds and r is not None)


def leadership_modifiers(side: dict[str, Any], year: int) -> tuple[Modifier, ...]:
    return modifiers(
        per_item(side["decorated_leaders"], "decorated leader", LEADERSHIP_DECORATED_LEADER),
        (side["vichy"], "Vichy France", LEADERSHIP_VICHY_FRANCE),
    ) + nation_year_modifiers(LEADERSHIP_NATION_MODIFIERS, side["nation"], year)


@procedure("pk.close_assault", "Close assault", ASSAULT_RULE)
def roll_close_assault(inputs: CloseAssaultInput, dice: DiceSource) -> CloseAssault:
    attacker, defender = _side(inputs, "attacker_"), _side(inputs, "defender_")
    leadership = roll_opposed(
        title="Leadership roll",
        rule=SHIFT_RULE,
        kind=DiceKind.D6,
        first=("attacker", leadership_modifiers(attacker, inputs.year)),
        second=("defender", leadership_modifiers(defender, inputs.year)),
        tie_rule=inputs.leadership_tie,
        inputs=inputs_of(inputs),
        dice=dice,
    )

    def resolve(
        name: str, own: dict[str, Any], enemy: dict[str, Any], in_cover: bool, side: Side
    ) -> AssaultSide:
        lost = leadership.winner is not None and leadership.winner is not side
        shifts = column_shifts(own, enemy, inputs.cover, in_cover, lost)
        quality: Quality = getattr(inputs, name)
        opponent: Quality = inputs.defender if name == "attacker" else inputs.attacker
        start = PANIC_COLUMN if enemy["panicked"] else opponent.value
        letter, column = shifted_letter(quality, start, sum(m.value for m in shifts))
        return AssaultSide(name, quality, column, letter, CLOSE_ASSAULT_RESULTS[letter], shifts)

    return CloseAssault(
        resolve("attacker", attacker, defender, True, Side.FIRST),
        resolve("defender", defender, attacker, inputs.cover_shifts_both, Side.SECOND),
        leadership,
    )
