"""Action point roll (chart 6): a percentile roll per battalion each turn.

The chart's "+10%" bonuses widen the low (better) bands, so they are kept as
-10 on the roll, the same way barrage delay keeps "HQ with sighting Bn".
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.great_battles.common import Quality, read_band, ref
from rules_engine.registry import procedure, table
from rules_engine.results import Modifier, RollResult

ACTION_POINT_RULE = ref("6. Action Point Rolls [13]")
DIVISIONAL_RULE = ref("Summary of Variants (May 2003), Action Points")

# Highest d100 score (00 = 100) for 2, 1 and 0 actions, per battalion quality.
ACTION_POINTS: dict[Quality, tuple[tuple[int, int], ...]] = table(
    "gb.action_points",
    "Action points by battalion quality",
    ACTION_POINT_RULE,
    {
        Quality.RAW: ((10, 2), (60, 1), (100, 0)),
        Quality.INFERIOR: ((20, 2), (70, 1), (100, 0)),
        Quality.AVERAGE: ((25, 2), (75, 1), (100, 0)),
        Quality.EXPERIENCED: ((30, 2), (80, 1), (100, 0)),
        Quality.VETERAN: ((40, 2), (90, 1), (100, 0)),
    },
)

ACTION_POINT_BONUS: dict[str, int] = table(
    "gb.action_point_bonus",
    "Action point roll bonus, in percent",
    ACTION_POINT_RULE,
    {"HQ attached": 10},
)

# Variant: one battalion per division, C Ops within 12", C Ops itself not rolling.
DIVISIONAL_INVOLVEMENT_BONUS: int = table(
    "gb.action_point_divisional_bonus",
    "Divisional leadership involvement bonus, in percent (variant)",
    DIVISIONAL_RULE,
    10,
    optional=True,
)


@dataclass(frozen=True)
class ActionPointInput:
    quality: Quality
    hq_attached: bool = False
    divisional_involvement: bool = False  # variant, see DIVISIONAL_RULE


def actions_for(quality: Quality, score: int) -> int:
    """Actions for a modified d100 score; scores past either end clamp."""
    actions = read_band(ACTION_POINTS[quality], min(max(score, 1), 100))
    assert actions is not None  # clamped into the last band
    return actions


@procedure("gb.action_points", "Action point roll", ACTION_POINT_RULE)
def roll_action_points(inputs: ActionPointInput, dice: DiceSource) -> RollResult:
    modifiers = []
    if inputs.hq_attached:
        modifiers.append(Modifier("HQ attached", -ACTION_POINT_BONUS["HQ attached"]))
    if inputs.divisional_involvement:
        modifiers.append(Modifier("divisional involvement (variant)", -DIVISIONAL_INVOLVEMENT_BONUS))
    thrown = roll(DiceKind.PERCENTILE, dice)
    actions = actions_for(inputs.quality, thrown.total + sum(m.value for m in modifiers))
    return RollResult(
        title="Action point roll",
        subject=f"{inputs.quality.value} battalion",
        rule=ACTION_POINT_RULE,
        rolls=(thrown,),
        modifiers=tuple(modifiers),
        cell=f"{inputs.quality.value} column",
        outcome=actions,
        outcome_text=f"{actions} action{'' if actions == 1 else 's'}",
        inputs=asdict(inputs),
    )
