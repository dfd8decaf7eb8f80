"""Bookkeeping across days: barrage rounds, activation points gained and
carried over night, and the Malta scenario's carry-over, reserves, air support
and day end (FAQ 44).  Spending from the activation pool is the activation
module's ledger.

Pools are plain integers moved by pure functions; each returns a frozen
result saying what happened, so a campaign can store the history.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.great_battles.barrage import BarrageOrder
from rules_engine.great_battles.common import ref, roll_against
from rules_engine.registry import procedure, table
from rules_engine.results import Comparison, RollResult

ROUNDS_RULE = ref("Barrage Rounds & Activation Point Charts Examples (chart pg. 13)")
CARRY_OVER_RULE = ref("FAQ 45, variant 1) Action Pts.=Activation Pts.; FAQ 44 Malta Scenario")
MALTA_RULE = ref("FAQ 44, Malta Scenario")
MALTA_HOUSE_RULE = ref("FAQ 44, House Rules/Clarifications for Malta")

# Variant 1 and the Malta tracker (a d20) both stop the pool at 20.
ACTIVATION_POOL_CAP = 20


# --- barrage rounds -----------------------------------------------------------


@dataclass(frozen=True)
class BarrageRoundsInput:
    first_day_rounds: int
    rounds_per_day: int  # replenished each night after the first day
    spent_by_day: tuple[int, ...] = ()  # rounds fired on day 1, 2, ...


@dataclass(frozen=True)
class BarrageRoundsDay:
    day: int
    at_dawn: int
    spent: int

    @property
    def carried_over(self) -> int:
        return self.at_dawn - self.spent


@dataclass(frozen=True)
class BarrageRoundsLedger:
    days: tuple[BarrageRoundsDay, ...]
    next_dawn: int  # rounds available at the dawn after the last day given

    def to_dict(self) -> dict[str, Any]:
        return {
            "days": [
                {"day": d.day, "at_dawn": d.at_dawn, "spent": d.spent, "carried_over": d.carried_over}
                for d in self.days
            ],
            "next_dawn": self.next_dawn,
        }


@procedure("gb.barrage_rounds", "Barrage rounds across days", ROUNDS_RULE, rolls=False)
def lookup_barrage_rounds(inputs: BarrageRoundsInput) -> BarrageRoundsLedger:
    """Unused rounds carry over; each night adds the per-day replenishment."""
    available = inputs.first_day_rounds
    days: list[BarrageRoundsDay] = []
    for day, spent in enumerate(inputs.spent_by_day, 1):
        if not 0 <= spent <= available:
            raise ValueError(f"day {day}: {spent} rounds spent but {available} available")
        days.append(BarrageRoundsDay(day, available, spent))
        available = available - spent + inputs.rounds_per_day
    return BarrageRoundsLedger(days=tuple(days), next_dawn=available)


@dataclass(frozen=True)
class BarrageTurnInput:
    templates: int  # batteries the side owns
    templates_done_today: int = 0  # picked up or cancelled: back only at night
    rounds_left: int = 0


@dataclass(frozen=True)
class BarrageTurnLimit:
    templates_available: int
    most_rounds_this_turn: int

    def to_dict(self) -> dict[str, int]:
        return {
            "templates_available": self.templates_available,
            "most_rounds_this_turn": self.most_rounds_this_turn,
        }


@procedure("gb.barrage_turn_limit", "Barrage rounds one turn can fire", ROUNDS_RULE, rolls=False)
def lookup_barrage_turn_limit(inputs: BarrageTurnInput) -> BarrageTurnLimit:
    """One round per available template per turn, and never more than are left."""
    available = max(inputs.templates - inputs.templates_done_today, 0)
    return BarrageTurnLimit(available, min(available, inputs.rounds_left))


# --- activation-point pool ------------------------------------------------------


@dataclass(frozen=True)
class PoolChange:
    before: int
    after: int
    lost_to_cap: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"before": self.before, "after": self.after, "lost_to_cap": self.lost_to_cap}


def gain_points(pool: int, gained: int, cap: int | None = ACTIVATION_POOL_CAP) -> PoolChange:
    total = pool + gained
    kept = total if cap is None else min(total, cap)
    return PoolChange(pool, kept, total - kept)


def lose_points(pool: int, lost: int) -> PoolChange:
    """Points taken away (C Ops overrun costs 10): never below zero."""
    return PoolChange(pool, max(pool - lost, 0))


C_OPS_OVERRUN_POINTS_LOST = table(
    "gb.c_ops_overrun_points_lost",
    "Activation points a division loses when its C Ops is overrun",
    ref("Unit Type Capabilities, C Ops"),
    10,
)


# --- overnight carry-over (variant 1, Malta) ------------------------------------


@dataclass(frozen=True)
class CarryOverInput:
    points: int  # saved activation points at nightfall
    day_ending: int
    base_score: int
    shift_per_day: int  # +1: score rises with each day, -1: falls
    cap: int = ACTIVATION_POOL_CAP
    side: str = ""


@dataclass(frozen=True)
class CarryOverResult:
    score_needed: int
    rolls: tuple[RollResult, ...]
    carried: int
    lost_to_cap: int

    def roll_results(self) -> tuple[RollResult, ...]:
        return self.rolls

    def to_dict(self) -> dict[str, Any]:
        return {
            "score_needed": self.score_needed,
            "rolls": [r.to_dict() for r in self.rolls],
            "carried": self.carried,
            "lost_to_cap": self.lost_to_cap,
            "outcome_text": f"{self.carried} of {len(self.rolls)} points carried over",
        }


def carry_over_score(base_score: int, shift_per_day: int, day_ending: int) -> int:
    return base_score + shift_per_day * day_ending


@procedure("gb.activation_carry_over", "Activation points carried over night", CARRY_OVER_RULE, optional=True)
def roll_carry_over(inputs: CarryOverInput, dice: DiceSource) -> CarryOverResult:
    """One d10 per saved point, at or under base ± day number."""
    score = carry_over_score(inputs.base_score, inputs.shift_per_day, inputs.day_ending)
    step = abs(inputs.shift_per_day)
    sign = "+" if inputs.shift_per_day >= 0 else "-"
    shift = f"{inputs.base_score} {sign} {'' if step == 1 else f'{step}×'}day {inputs.day_ending} = {score}"
    rolls = tuple(
        roll_against(
            title="Activation point carry-over",
            rule=CARRY_OVER_RULE,
            dice=dice,
            threshold=score,
            passed=(True, "carried over"),
            failed=(False, "lost"),
            subject=f"{inputs.side + ' ' if inputs.side else ''}point {number}",
            cell=shift,
            inputs={"day_ending": inputs.day_ending, "base_score": inputs.base_score},
        )
        for number in range(1, inputs.points + 1)
    )
    kept = gain_points(0, sum(1 for r in rolls if r.outcome), inputs.cap)
    return CarryOverResult(score, rolls, kept.after, kept.lost_to_cap)


# --- Malta ----------------------------------------------------------------------


class MaltaSide(enum.Enum):
    AXIS = "Axis"
    ALLIED = "Allied"


@dataclass(frozen=True)
class MaltaSideRules:
    starting_points: int  # day 1, turn 1
    carry_over_base: int
    carry_over_shift_per_day: int
    day_one_barrage_orders: tuple[BarrageOrder, ...]


@dataclass(frozen=True)
class MaltaRules:
    sides: dict[MaltaSide, MaltaSideRules]
    points_per_port: int
    air_support_at_most: int
    day_end_turns: tuple[int, ...]  # end of these Allied turns: d10 ≥ turn ends the day
    entrench_action_points: int
    days: int


MALTA: MaltaRules = table(
    "gb.malta.scenario",
    "Malta scenario: activation points, air support, day end",
    MALTA_RULE,
    MaltaRules(
        sides={
            MaltaSide.AXIS: MaltaSideRules(8, 8, -1, (BarrageOrder.ON_CALL,)),
            MaltaSide.ALLIED: MaltaSideRules(3, 3, +1, tuple(BarrageOrder)),
        },
        points_per_port=2,
        air_support_at_most=3,
        day_end_turns=(7, 8, 9, 10),
        entrench_action_points=5,
        days=6,
    ),
)


@dataclass(frozen=True)
class MaltaBarrageOrdersInput:
    side: MaltaSide
    day: int


@procedure(
    "gb.malta.barrage_orders", "Malta barrage orders allowed", MALTA_HOUSE_RULE, optional=True, rolls=False
)
def lookup_malta_barrage_orders(inputs: MaltaBarrageOrdersInput) -> tuple[BarrageOrder, ...]:
    """Axis artillery is on-call only on day 1; every order from day 2."""
    return MALTA.sides[inputs.side].day_one_barrage_orders if inputs.day == 1 else tuple(BarrageOrder)


class PoolOwner(enum.Enum):
    SIDE = "side"  # the side's starting points, usable by all its units
    DIVISION = "division"  # the pool of the battalion's division (C Ops)


@dataclass(frozen=True)
class MaltaPoolInput:
    day: int
    turn: int  # 0 = dawn
    # The last turn of day 1 the side's starting points pay for (rules notes CR-03).
    shared_until_turn: int = 1


@procedure(
    "gb.malta.division_pools", "Malta: which activation pool pays", MALTA_RULE, optional=True, rolls=False
)
def lookup_malta_pool_owner(inputs: MaltaPoolInput) -> PoolOwner:
    """The side's pool on day 1 up to ``shared_until_turn``; each division's own from then on."""
    if inputs.day == 1 and inputs.turn <= inputs.shared_until_turn:
        return PoolOwner.SIDE
    return PoolOwner.DIVISION


@dataclass(frozen=True)
class MaltaEntrenchInput:
    stand_type: str  # campaign stand type: only infantry stands dig in
    action_points_so_far: int
    action_points_spent: int
    at_start: bool = False  # Allied units outside towns start entrenched
    allied: bool = True
    day: int = 1


@dataclass(frozen=True)
class Entrenchment:
    action_points: int
    entrenched: bool

    def to_dict(self) -> dict[str, Any]:
        return {"action_points": self.action_points, "entrenched": self.entrenched}


class EntrenchRefused(ValueError):
    rule = MALTA_HOUSE_RULE


# Stand types that dig in with action points ("a stationary infantry unit"): rules notes CR-05.
ENTRENCHING_STAND_TYPES = frozenset({"infantry", "smg", "engineer"})


@procedure("gb.malta.entrenchment", "Malta entrenchment", MALTA_HOUSE_RULE, optional=True, rolls=False)
def lookup_malta_entrenchment(inputs: MaltaEntrenchInput) -> Entrenchment:
    """House rule 8: Allied stands may start entrenched (day 1, before they move); a stationary
    infantry stand is entrenched once it has spent 5 action points on it."""
    if inputs.at_start:
        if not inputs.allied or inputs.day != 1:
            raise EntrenchRefused("only Allied units start entrenched, on day 1")
        return Entrenchment(MALTA.entrench_action_points, True)
    if inputs.stand_type not in ENTRENCHING_STAND_TYPES:
        raise EntrenchRefused(f"only infantry stands build entrenchments, not {inputs.stand_type}")
    if inputs.action_points_spent < 1:
        raise EntrenchRefused("spend at least one action point on the entrenchment")
    points = min(inputs.action_points_so_far + inputs.action_points_spent, MALTA.entrench_action_points)
    return Entrenchment(points, points >= MALTA.entrench_action_points)


@dataclass(frozen=True)
class MaltaCarryOverInput:
    side: MaltaSide
    points: int
    day_ending: int


@procedure("gb.malta.carry_over", "Malta activation carry-over", MALTA_RULE)
def roll_malta_carry_over(inputs: MaltaCarryOverInput, dice: DiceSource) -> CarryOverResult:
    side = MALTA.sides[inputs.side]
    return roll_carry_over(
        CarryOverInput(
            points=inputs.points,
            day_ending=inputs.day_ending,
            base_score=side.carry_over_base,
            shift_per_day=side.carry_over_shift_per_day,
            side=inputs.side.value,
        ),
        dice,
    )


@dataclass(frozen=True)
class MaltaAirSupportInput:
    side: MaltaSide


@procedure("gb.malta.air_support", "Malta air support request", MALTA_RULE, optional=True)
def roll_malta_air_support(inputs: MaltaAirSupportInput, dice: DiceSource) -> RollResult:
    """Costs one activation point; a template arrives as on-call barrage."""
    return roll_against(
        title="Air support",
        rule=MALTA_RULE,
        dice=dice,
        threshold=MALTA.air_support_at_most,
        passed=(True, "one air template (roll on-call delay)"),
        failed=(False, "no air support"),
        subject=inputs.side.value,
        inputs={"side": inputs.side},
    )


@dataclass(frozen=True)
class MaltaDayEndInput:
    allied_turn: int


@procedure("gb.malta.day_end", "Malta day end after Allied turn", MALTA_HOUSE_RULE, optional=True)
def roll_malta_day_end(inputs: MaltaDayEndInput, dice: DiceSource) -> RollResult | None:
    """None before turn 7: the day goes on without a roll."""
    if inputs.allied_turn not in MALTA.day_end_turns:
        return None
    return roll_against(
        title="Malta day end",
        rule=MALTA_HOUSE_RULE,
        dice=dice,
        threshold=inputs.allied_turn,
        comparison=Comparison.AT_LEAST,
        passed=(True, "day is over"),
        failed=(False, "day goes on"),
        subject=f"end of Allied turn {inputs.allied_turn}",
        inputs={"allied_turn": inputs.allied_turn},
    )


@dataclass(frozen=True)
class MaltaReserveInput:
    unit: str = ""


@procedure("gb.malta.reserve_delay", "Malta unspecified reserve arrival delay", MALTA_HOUSE_RULE)
def roll_malta_reserve_delay(inputs: MaltaReserveInput, dice: DiceSource) -> RollResult:
    """Two average dice (1 reads 3, 6 reads 4): 4-10 turns; also for a postponement."""
    throws = (roll(DiceKind.AVERAGE_D6, dice), roll(DiceKind.AVERAGE_D6, dice))
    turns = sum(t.total for t in throws)
    return RollResult(
        title="Reserve arrival",
        rule=MALTA_HOUSE_RULE,
        rolls=throws,
        outcome=turns,
        outcome_text=f"arrives in {turns} turns",
        subject=inputs.unit or "Axis reserve",
        inputs={"unit": inputs.unit},
    )


# A force's availability when the scenario holds it in unspecified reserve: it rolls the delay above.
UNSPECIFIED_RESERVE = "unspecified reserve"


@dataclass(frozen=True)
class ReserveCountdown:
    turns_left: int  # still to wait after this segment
    enters_on_turn: int | None  # the turn of this segment the reserve comes on, if it does


def reserve_countdown(turns_left: int, segment_turns: int) -> ReserveCountdown:
    """A reserve still ``turns_left`` turns away, through a segment of ``segment_turns`` turns.

    It comes on once its turns have passed, on the next turn (rules notes C-09).
    """
    if turns_left < segment_turns:
        return ReserveCountdown(0, turns_left + 1)
    return ReserveCountdown(turns_left - segment_turns, None)
