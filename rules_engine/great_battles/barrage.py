"""Barrage delay (chart 4) and barrage roll (chart 5)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.great_battles.common import Quality, ref
from rules_engine.registry import procedure, table
from rules_engine.results import Modifier, RollResult


class BarrageOrder(enum.Enum):
    PRE_PLANNED = "pre-planned"
    REGISTERED = "registered"
    ON_CALL = "on-call"


DELAY_RULE = ref("4. Barrage Delay [11.1.5]")

# Highest d100 score (00 = 100) for each delay in turns, per artillery quality.
BARRAGE_DELAY: dict[Quality, tuple[tuple[int, int], ...]] = table(
    "gb.barrage_delay",
    "Barrage delay by artillery quality",
    DELAY_RULE,
    {
        Quality.RAW: ((20, 0), (60, 1), (84, 2), (100, 3)),
        Quality.INFERIOR: ((30, 0), (65, 1), (86, 2), (100, 3)),
        Quality.AVERAGE: ((40, 0), (70, 1), (88, 2), (100, 3)),
        Quality.EXPERIENCED: ((50, 0), (75, 1), (90, 2), (100, 3)),
        Quality.VETERAN: ((60, 0), (80, 1), (92, 2), (100, 3)),
    },
)


@dataclass(frozen=True)
class BarrageDelayInput:
    artillery_quality: Quality
    order: BarrageOrder = BarrageOrder.REGISTERED
    hq_with_sighting_battalion: bool = False
    # The chart prints "On-call -30%"; the worked example adds 30 to the roll.
    on_call_penalty: int = 30
    hq_bonus: int = 10


@dataclass(frozen=True)
class BarrageDelay:
    turns: int | None  # None: pre-planned, fires as scheduled
    roll: RollResult | None

    def roll_results(self) -> tuple[RollResult, ...]:
        return (self.roll,) if self.roll else ()

    def to_dict(self) -> dict[str, object]:
        return {"turns": self.turns, "roll": self.roll.to_dict() if self.roll else None}


def delay_for(quality: Quality, score: int) -> int:
    """Turns of delay for a modified d100 score; scores past the ends clamp."""
    clamped = min(max(score, 1), 100)
    return next(turns for top, turns in BARRAGE_DELAY[quality] if clamped <= top)


@procedure("gb.barrage_delay", "Barrage delay", DELAY_RULE)
def roll_barrage_delay(inputs: BarrageDelayInput, dice: DiceSource) -> BarrageDelay:
    if inputs.order is BarrageOrder.PRE_PLANNED:
        return BarrageDelay(turns=None, roll=None)
    modifiers = []
    if inputs.order is BarrageOrder.ON_CALL:
        modifiers.append(Modifier("on-call", inputs.on_call_penalty))
    if inputs.hq_with_sighting_battalion:
        modifiers.append(Modifier("HQ with sighting battalion", -inputs.hq_bonus))
    thrown = roll(DiceKind.PERCENTILE, dice)
    score = thrown.total + sum(m.value for m in modifiers)
    turns = delay_for(inputs.artillery_quality, score)
    return BarrageDelay(
        turns=turns,
        roll=RollResult(
            procedure="gb.barrage_delay",
            title="Barrage delay",
            subject=f"{inputs.artillery_quality.value} artillery, {inputs.order.value}",
            rule=DELAY_RULE,
            rolls=(thrown,),
            modifiers=tuple(modifiers),
            cell=f"{inputs.artillery_quality.value} column",
            outcome=turns,
            outcome_text="immediate" if turns == 0 else f"{turns} turn{'s' if turns > 1 else ''}",
            inputs={"artillery_quality": inputs.artillery_quality, "order": inputs.order},
        ),
    )
