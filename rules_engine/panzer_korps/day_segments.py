"""Battlefield day-segment simulator: segments, turns per segment, initiative.

The campaign service calls :func:`roll_segment_turns` and :func:`roll_initiative`
at the start of every day segment with values it keeps in its own state.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.panzer_korps.common import (
    Band,
    BattlefieldCondition,
    OpposedRoll,
    TieRule,
    band_result,
    inputs_of,
    modifiers,
    ref,
    roll_opposed,
)
from rules_engine.panzer_korps.leaders import leader_label
from rules_engine.registry import procedure, table
from rules_engine.results import Comparison, Modifier, RollResult
from rules_engine.vocab import DaySegment, LeaderRating

SEGMENT_RULE = ref("Battlefield segment simulator")
CHART_RULE = ref("Battlefield segment simulator chart & modifiers")
INITIATIVE_RULE = ref("Initiative modifiers group/division led by")
SEQUENCE_RULE = ref("Sequence of play")


class SegmentRule(enum.Enum):
    """Special rules a day segment switches on."""

    FOG_AND_VISIBILITY = "fog and visibility rules"
    VISIBILITY = "visibility rules"
    NIGHT_RULES = "night rules"
    WITHDRAWAL_LOSES_CAPTURED_EQUIPMENT = "withdrawal loses captured equipment"
    NIGHT_AIRCRAFT_ONLY = "only radar-equipped/night aircraft fly combat missions"
    FAILED_COMMAND_REMOVED = "forces failing the intrinsic command roll removed unless surrounded"
    DOUBLE_MOVE_BEYOND_6_INCHES = "double movement outside 6 inch visibility"


@dataclass(frozen=True)
class SegmentProfile:
    hours: str
    start_must_be_forced: bool  # the battle only starts if an A-C commander forces it
    fixed_turns: int | None  # None: turns come from the simulator roll
    rules: frozenset[SegmentRule]


DAY_SEGMENTS: dict[DaySegment, SegmentProfile] = table(
    "pk.day_segments",
    "Battlefield day segments",
    SEGMENT_RULE,
    {
        DaySegment.EARLY_MORNING: SegmentProfile(
            "6am-8am", True, None, frozenset({SegmentRule.FOG_AND_VISIBILITY})
        ),
        DaySegment.MORNING: SegmentProfile("8am-10am", False, None, frozenset()),
        DaySegment.LATE_MORNING: SegmentProfile("10am-12 noon", False, None, frozenset()),
        DaySegment.MIDDAY: SegmentProfile("12 noon-2pm", False, None, frozenset()),
        DaySegment.AFTERNOON: SegmentProfile("2pm-4pm", False, None, frozenset()),
        DaySegment.EVENING: SegmentProfile("4pm-6pm", False, None, frozenset()),
        DaySegment.DUSK: SegmentProfile("6pm-8pm", False, None, frozenset({SegmentRule.VISIBILITY})),
        DaySegment.NIGHT: SegmentProfile(
            "8pm-12am",
            False,
            None,
            frozenset({SegmentRule.NIGHT_RULES, SegmentRule.WITHDRAWAL_LOSES_CAPTURED_EQUIPMENT}),
        ),
        # "Night 8pm to 12am and night": night rules carry on past midnight (PK-04).
        DaySegment.NIGHT_SEGMENT: SegmentProfile(
            "12am-6am",
            False,
            1,
            frozenset(
                {
                    SegmentRule.NIGHT_RULES,
                    SegmentRule.NIGHT_AIRCRAFT_ONLY,
                    SegmentRule.FAILED_COMMAND_REMOVED,
                    SegmentRule.DOUBLE_MOVE_BEYOND_6_INCHES,
                }
            ),
        ),
    },
)

# Commanders who may force the early-morning start, and the d6 faces that do it.
FORCED_START: dict[str, Any] = table(
    "pk.early_morning_forced_start",
    "Early morning forced start",
    SEGMENT_RULE,
    {"commanders": (LeaderRating.A, LeaderRating.B, LeaderRating.C), "die": DiceKind.D6, "at_least": 4},
)

TURNS_PER_SEGMENT: tuple[Band[int], ...] = table(
    "pk.turns_per_segment",
    "Turns per day segment by modified d6",
    CHART_RULE,
    (Band(None, -1, 0), Band(0, 2, 1), Band(3, 4, 2), Band(5, 6, 3), Band(7, None, 4)),
)

CO_LEADER_VALUES: dict[LeaderRating, int] = table(
    "pk.segment_co_leader_values",
    "CO leader values averaged into the turns-per-segment roll",
    CHART_RULE,
    {
        LeaderRating.A: 4,
        LeaderRating.B: 3,
        LeaderRating.C: 2,
        LeaderRating.D: 1,
        LeaderRating.E: 0,
        LeaderRating.F: -1,
        LeaderRating.G: -2,
        LeaderRating.H: -3,
    },
)

SEGMENT_MODIFIERS: dict[str, int] = table(
    "pk.segment_modifiers",
    "Other modifiers to the turns-per-segment roll",
    CHART_RULE,
    {
        "air superiority": 1,
        "rain, sand, mud": -1,
        "snow, fog, ice, marsh": -2,
        "out of supply": -1,
        "second or successive day battle": -1,
        "arrived the day before": 1,
        "60% or more of force reservists or worse": -1,
    },
)

RESERVIST_SHARE_PERCENT = 60
_RAIN_SAND_MUD = frozenset({BattlefieldCondition.RAIN, BattlefieldCondition.SAND, BattlefieldCondition.MUD})
_SNOW_FOG_ICE_MARSH = frozenset(
    {
        BattlefieldCondition.SNOW,
        BattlefieldCondition.FOG,
        BattlefieldCondition.ICE,
        BattlefieldCondition.MARSH,
    }
)


class Rounding(enum.Enum):
    """How a fractional average of CO leader values becomes a modifier (PK-02)."""

    HALF_UP = "nearest, halves up"
    DOWN = "down"
    UP = "up"
    TOWARD_ZERO = "toward zero"

    def apply(self, value: Fraction) -> int:
        if self is Rounding.HALF_UP:
            return math.floor(value + Fraction(1, 2))
        if self is Rounding.DOWN:
            return math.floor(value)
        if self is Rounding.UP:
            return math.ceil(value)
        return math.trunc(value)


def co_average_modifier(ratings: tuple[LeaderRating, ...], rounding: Rounding) -> int:
    if not ratings:
        raise ValueError("the turns-per-segment roll needs at least one CO rating")
    return rounding.apply(Fraction(sum(CO_LEADER_VALUES[r] for r in ratings), len(ratings)))


@dataclass(frozen=True)
class SegmentTurnsInput:
    segment: DaySegment
    # Leader ratings of the COs of the force group with the initiative (it rolls).
    co_ratings: tuple[LeaderRating, ...] = ()
    air_superiority: bool = False
    conditions: tuple[BattlefieldCondition, ...] = ()
    out_of_supply: bool = False
    battle_day: int = 1  # 2+: second or successive day of the battle
    arrived_day_before: bool = False
    reservist_or_worse_percent: int = 0
    # Early morning only: the commander trying to force the start (A-C may).
    forcing_commander: LeaderRating | None = None
    average_rounding: Rounding = Rounding.HALF_UP


@dataclass(frozen=True)
class SegmentTurns:
    segment: DaySegment
    turns: int
    rules: tuple[SegmentRule, ...]
    start_roll: RollResult | None = None
    turns_roll: RollResult | None = None
    note: str = ""

    def roll_results(self) -> tuple[RollResult, ...]:
        return tuple(r for r in (self.start_roll, self.turns_roll) if r is not None)

    def line(self) -> str:
        parts = [r.line() for r in self.roll_results()]
        head = "; ".join(parts) + " ⇒ " if parts else ""
        tail = f" ({self.note})" if self.note else ""
        return f"{head}{self.segment.value}: {self.turns} turn{'' if self.turns == 1 else 's'}{tail}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "segment": self.segment.value,
            "turns": self.turns,
            "rules": [r.value for r in self.rules],
            "start_roll": self.start_roll.to_dict() if self.start_roll else None,
            "turns_roll": self.turns_roll.to_dict() if self.turns_roll else None,
            "note": self.note,
            "line": self.line(),
        }


def segment_modifiers(inputs: SegmentTurnsInput) -> tuple[Modifier, ...]:
    co_value = co_average_modifier(inputs.co_ratings, inputs.average_rounding)
    co_names = ", ".join(r.character for r in inputs.co_ratings)
    conditions = set(inputs.conditions)
    return modifiers(
        (True, f"CO average ({co_names})", co_value),
        (inputs.air_superiority, "air superiority", SEGMENT_MODIFIERS["air superiority"]),
        (bool(conditions & _RAIN_SAND_MUD), "rain, sand, mud", SEGMENT_MODIFIERS["rain, sand, mud"]),
        (
            bool(conditions & _SNOW_FOG_ICE_MARSH),
            "snow, fog, ice, marsh",
            SEGMENT_MODIFIERS["snow, fog, ice, marsh"],
        ),
        (inputs.out_of_supply, "out of supply", SEGMENT_MODIFIERS["out of supply"]),
        (
            inputs.battle_day >= 2,
            "second or successive day",
            SEGMENT_MODIFIERS["second or successive day battle"],
        ),
        (inputs.arrived_day_before, "arrived the day before", SEGMENT_MODIFIERS["arrived the day before"]),
        (
            inputs.reservist_or_worse_percent >= RESERVIST_SHARE_PERCENT,
            "60%+ reservists or worse",
            SEGMENT_MODIFIERS["60% or more of force reservists or worse"],
        ),
    )


def roll_forced_start(commander: LeaderRating, inputs: dict[str, Any], dice: DiceSource) -> RollResult:
    thrown = roll(FORCED_START["die"], dice)
    started = thrown.total >= FORCED_START["at_least"]
    return RollResult(
        title="Early morning forced start",
        subject=f"commander {leader_label(commander)}",
        rule=SEGMENT_RULE,
        rolls=(thrown,),
        threshold_base=FORCED_START["at_least"],
        comparison=Comparison.AT_LEAST,
        outcome=started,
        outcome_text="battle starts" if started else "no start",
        inputs=inputs,
    )


@procedure("pk.segment_turns", "Turns per day segment", CHART_RULE)
def roll_segment_turns(inputs: SegmentTurnsInput, dice: DiceSource) -> SegmentTurns:
    profile = DAY_SEGMENTS[inputs.segment]
    rules = tuple(r for r in SegmentRule if r in profile.rules)
    record = inputs_of(inputs)
    if profile.fixed_turns is not None:
        return SegmentTurns(inputs.segment, profile.fixed_turns, rules, note="fixed, no roll")
    start_roll = None
    if profile.start_must_be_forced:
        commander = inputs.forcing_commander
        if commander is None or commander not in FORCED_START["commanders"]:
            return SegmentTurns(inputs.segment, 0, rules, note="no A-C commander forcing the start")
        start_roll = roll_forced_start(commander, record, dice)
        if not start_roll.outcome:
            return SegmentTurns(inputs.segment, 0, rules, start_roll=start_roll, note="start not forced")
    turns, turns_roll = band_result(
        title="Turns per segment",
        subject=inputs.segment.value,
        rule=CHART_RULE,
        bands=TURNS_PER_SEGMENT,
        thrown=roll(DiceKind.D6, dice),
        mods=segment_modifiers(inputs),
        text=lambda n: f"{n} turn{'' if n == 1 else 's'}" + (", roll next segment" if n == 0 else ""),
        inputs=record,
    )
    return SegmentTurns(inputs.segment, turns, rules, start_roll=start_roll, turns_roll=turns_roll)


INITIATIVE_MODIFIERS: dict[LeaderRating, int] = table(
    "pk.initiative_modifiers",
    "Initiative modifiers by group/division leader",
    INITIATIVE_RULE,
    {
        LeaderRating.A: 3,
        LeaderRating.B: 2,
        LeaderRating.C: 1,
        LeaderRating.D: 0,
        LeaderRating.E: 0,
        LeaderRating.F: -1,
        LeaderRating.G: -2,
        LeaderRating.H: -3,
    },
)


@dataclass(frozen=True)
class InitiativeInput:
    first_leader: LeaderRating  # rating of the leader of each side's group/division
    second_leader: LeaderRating
    first_name: str = "first side"
    second_name: str = "second side"
    # The chart names no die; a d6 as in the pilot initiative roll (PK-03).
    die: DiceKind = DiceKind.D6
    tie_rule: TieRule = TieRule.REROLL


def initiative_modifiers(leader: LeaderRating) -> tuple[Modifier, ...]:
    return modifiers((True, f"led by {leader_label(leader)}", INITIATIVE_MODIFIERS[leader]))


@procedure("pk.initiative", "Initiative", INITIATIVE_RULE)
def roll_initiative(inputs: InitiativeInput, dice: DiceSource) -> OpposedRoll:
    return roll_opposed(
        title="Initiative",
        rule=INITIATIVE_RULE,
        kind=inputs.die,
        first=(inputs.first_name, initiative_modifiers(inputs.first_leader)),
        second=(inputs.second_name, initiative_modifiers(inputs.second_leader)),
        tie_rule=inputs.tie_rule,
        inputs=inputs_of(inputs),
        dice=dice,
    )


class Phase(enum.Enum):
    SEGMENT_TURNS = "roll turns per day segment"
    INITIATIVE = "check initiative"
    LOGISTICS = "logistics (simultaneous)"
    AIR_AND_BOMBARDMENT = "air support/bombardment (simultaneous)"
    MOVEMENT = "movement: initiative player rolls decision dice, moves first, overruns"
    FIRE = "fire: initiative player first"
    CLOSE_COMBAT = "close combat"
    MORALE = "morale: routed units"


SEQUENCE_OF_PLAY: dict[str, tuple[Phase, ...]] = table(
    "pk.sequence_of_play",
    "Sequence of play",
    SEQUENCE_RULE,
    {
        "day segment": (Phase.SEGMENT_TURNS, Phase.INITIATIVE),
        "tactical turn": (
            Phase.LOGISTICS,
            Phase.AIR_AND_BOMBARDMENT,
            Phase.MOVEMENT,
            Phase.FIRE,
            Phase.CLOSE_COMBAT,
            Phase.MORALE,
        ),
    },
)
