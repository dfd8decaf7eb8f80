"""Barrage delay (chart 4) and barrage roll (chart 5)."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass

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


BARRAGE_ROLL_RULE = ref("5. Barrage Roll [11.3]")
BARRAGE_DESTROY_RULE = ref("5. Barrage Roll; Summary of Variants (May 2003), Barrage")


class BarrageTarget(enum.Enum):
    ACTIVATED_IN_OPEN = "Activated & in Open"
    NOT_ACTIVATED_OR_SOFT_COVER = "Non-Act./Soft Cover"
    HARD_COVER = "In Hard Cover"
    BUNKER = "Bunker"


# Highest d10 face that suppresses a stand under the template.
BARRAGE_ROLL: dict[BarrageTarget, int] = table(
    "gb.barrage_roll",
    "Barrage roll: d10 at or under suppresses",
    BARRAGE_ROLL_RULE,
    {
        BarrageTarget.ACTIVATED_IN_OPEN: 8,
        BarrageTarget.NOT_ACTIVATED_OR_SOFT_COVER: 6,
        BarrageTarget.HARD_COVER: 4,
        BarrageTarget.BUNKER: 2,
    },
)

# Variant: these faces destroy instead of suppressing.
BARRAGE_DESTROY: dict[BarrageTarget, int] = table(
    "gb.barrage_destroy_variant",
    "Barrage roll destroys (variant): d10 at or under",
    BARRAGE_DESTROY_RULE,
    {BarrageTarget.ACTIVATED_IN_OPEN: 1},
    optional=True,
)


class BarrageEffect(enum.Enum):
    NO_EFFECT = "no effect"
    SUPPRESSED = "suppressed"
    DESTROYED = "destroyed"


@dataclass(frozen=True)
class BarrageRollInput:
    """One roll per stand under the template; HQ and Hvy Wpns stands are not rolled for."""

    target: BarrageTarget
    stands: int = 1
    destroy_variant: bool = False


@dataclass(frozen=True)
class BarrageRoll:
    rolls: tuple[RollResult, ...]

    @property
    def effects(self) -> tuple[BarrageEffect, ...]:
        return tuple(result.outcome for result in self.rolls)

    def count(self, effect: BarrageEffect) -> int:
        return self.effects.count(effect)

    def roll_results(self) -> tuple[RollResult, ...]:
        return self.rolls

    def line(self) -> str:
        return "; ".join(result.line() for result in self.rolls)

    def to_dict(self) -> dict[str, object]:
        return {
            "rolls": [result.to_dict() for result in self.rolls],
            "suppressed": self.count(BarrageEffect.SUPPRESSED),
            "destroyed": self.count(BarrageEffect.DESTROYED),
            "line": self.line(),
        }


def barrage_effect(target: BarrageTarget, face: int, destroy_variant: bool = False) -> BarrageEffect:
    if destroy_variant and face <= BARRAGE_DESTROY.get(target, 0):
        return BarrageEffect.DESTROYED
    if face <= BARRAGE_ROLL[target]:
        return BarrageEffect.SUPPRESSED
    return BarrageEffect.NO_EFFECT


@procedure("gb.barrage_roll", "Barrage roll", BARRAGE_ROLL_RULE)
def roll_barrage(inputs: BarrageRollInput, dice: DiceSource) -> BarrageRoll:
    if inputs.stands < 1:
        raise ValueError(f"{BARRAGE_ROLL_RULE.text()}: roll for at least one stand")
    destroys = BARRAGE_DESTROY.get(inputs.target) if inputs.destroy_variant else None
    cell = f"{inputs.target.value} 1-{BARRAGE_ROLL[inputs.target]}"
    if destroys:
        cell += f", destroy 1-{destroys} (variant)"
    results = []
    for stand in range(1, inputs.stands + 1):
        thrown = roll(DiceKind.D10, dice)
        effect = barrage_effect(inputs.target, thrown.total, inputs.destroy_variant)
        results.append(
            RollResult(
                title="Barrage roll",
                subject=f"stand {stand} of {inputs.stands}",
                rule=BARRAGE_ROLL_RULE,
                rolls=(thrown,),
                cell=cell,
                outcome=effect,
                outcome_text=effect.value,
                inputs=asdict(inputs),
            )
        )
    return BarrageRoll(rolls=tuple(results))
