"""Bill Owen's optional variants (FAQ 33, 45 and the May 2003 summary).

All optional: a campaign switches them on.  Reactivation, initiative
activation and their morale penalties live with activation and morale.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.great_battles.action_points import actions_for
from rules_engine.great_battles.barrage import delay_for
from rules_engine.great_battles.campaign_pools import ACTIVATION_POOL_CAP, PoolChange, gain_points
from rules_engine.great_battles.combat import ammo_to_hit_modifier as ammo_to_hit_modifier
from rules_engine.great_battles.common import Quality, ref, roll_against
from rules_engine.registry import procedure, table
from rules_engine.results import Applies, Modifier, RollResult
from rules_engine.vocab import SupplyQuality, SupplySituation

ACTION_TO_ACTIVATION_RULE = ref("FAQ 45, variant 1) Action Pts.=Activation Pts.")
ACTIVATION_DELAY_RULE = ref("FAQ 45, variant 1) Activation Delay")
AMMO_RULE = ref("Summary of Variants, SUPPLY (Ammo); FAQ 33")
SUPPLY_RULE = ref("Summary of Variants, SUPPLY; FAQ 23")


# --- variant 1: action points become activation points --------------------------


@dataclass(frozen=True)
class ActionConversionInput:
    pool: int  # the division's saved activation points
    action_points_converted: int  # the C Ops' diced-for action points, not used
    cap: int = ACTIVATION_POOL_CAP


@procedure(
    "gb.variant.action_to_activation",
    "C Ops action points saved as activation points",
    ACTION_TO_ACTIVATION_RULE,
    optional=True,
    rolls=False,
)
def lookup_action_conversion(inputs: ActionConversionInput) -> PoolChange:
    return gain_points(inputs.pool, inputs.action_points_converted, inputs.cap)


# "-10% if isolated": a percent off the good bands, so +10 on the roll (as chart 6 keeps +10% as -10).
COPS_ISOLATION_PENALTY: int = table(
    "gb.variant.cops_isolation_penalty",
    "C Ops action-point roll: isolated from source of supply, in percent",
    ACTION_TO_ACTIVATION_RULE,
    10,
    optional=True,
)


@dataclass(frozen=True)
class CopsActionPointInput:
    quality: Quality  # the C Ops' quality; an attached HQ's +10% is ignored
    # No supply line of any length to the source without passing within 1" of enemy.
    isolated_from_source: bool = False


@procedure(
    "gb.variant.cops_action_points",
    "C Ops action points (to spend or save as activation points)",
    ACTION_TO_ACTIVATION_RULE,
    optional=True,
)
def roll_cops_action_points(inputs: CopsActionPointInput, dice: DiceSource) -> RollResult:
    modifiers = (
        (Modifier("C Ops isolated from source of supply", COPS_ISOLATION_PENALTY),)
        if inputs.isolated_from_source
        else ()
    )
    thrown = roll(DiceKind.PERCENTILE, dice)
    actions = actions_for(inputs.quality, thrown.total + sum(m.value for m in modifiers))
    return RollResult(
        title="C Ops action point roll",
        rule=ACTION_TO_ACTIVATION_RULE,
        rolls=(thrown,),
        modifiers=modifiers,
        cell=f"chart 6, {inputs.quality.value} column",
        outcome=actions,
        outcome_text=f"{actions} action{'' if actions == 1 else 's'}",
        subject=f"{inputs.quality.value} C Ops",
        inputs={"quality": inputs.quality, "isolated_from_source": inputs.isolated_from_source},
    )


@dataclass(frozen=True)
class ActivationDelayInput:
    """A battalion's activation rolled on the barrage-delay chart (d100)."""

    quality: Quality  # column read (GB-B-10)
    with_regiment_hq: bool = False
    over_4_inches_from_regiment_hq: bool = False
    regiment_hq_over_12_inches_from_c_ops: bool = False
    with_hq_bonus: int = 10
    far_from_hq_penalty: int = 10
    # The printed value is missing; +10 like the other distance penalty (GB-B-09).
    hq_far_from_c_ops_penalty: int = 10


@procedure(
    "gb.variant.activation_delay",
    "Activation delay on the barrage-delay chart",
    ACTIVATION_DELAY_RULE,
    optional=True,
)
def roll_activation_delay(inputs: ActivationDelayInput, dice: DiceSource) -> RollResult:
    flags = (
        (inputs.with_regiment_hq, "battalion with regiment HQ", -inputs.with_hq_bonus),
        (inputs.over_4_inches_from_regiment_hq, 'over 4" from regiment HQ', inputs.far_from_hq_penalty),
        (
            inputs.regiment_hq_over_12_inches_from_c_ops,
            'regiment HQ over 12" from C Ops',
            inputs.hq_far_from_c_ops_penalty,
        ),
    )
    modifiers = tuple(Modifier(name, value) for applies, name, value in flags if applies)
    thrown = roll(DiceKind.PERCENTILE, dice)
    turns = delay_for(inputs.quality, thrown.total + sum(m.value for m in modifiers))
    return RollResult(
        title="Activation delay",
        rule=ACTIVATION_DELAY_RULE,
        rolls=(thrown,),
        modifiers=modifiers,
        cell=f"barrage delay, {inputs.quality.value} column",
        outcome=turns,
        outcome_text="activated now" if turns == 0 else f"activated after {turns} turn{'s' * (turns > 1)}",
        subject=f"{inputs.quality.value} battalion",
        inputs={"quality": inputs.quality},
    )


# --- ammunition low markers --------------------------------------------------------


# The -1 to hit per marker (``ammo_to_hit_modifier``, imported above) is a cell of
# the fire chart's variant to-hit modifiers; gb.fire applies it (``ammo_low_markers``).


class AmmoScheme(enum.Enum):
    SUMMARY_2003 = "2003 summary"  # marker on an unmodified 0 to destroy; % removal
    FAQ_2002 = "FAQ 33"  # marker on an unmodified 1 to hit; count removal


@dataclass(frozen=True)
class AmmoMarkerInput:
    to_hit_die: int  # natural d10 faces, 10 = the printed 0
    hit: bool
    to_destroy_die: int | None = None  # as read; the red/black d20 reads 1-10 (GB-A-20)
    scheme: AmmoScheme = AmmoScheme.SUMMARY_2003
    # FAQ 33 refinement: after the 1 to hit, a marker only if to-destroy ≥ rally number.
    rally_number: int | None = None


@procedure(
    "gb.variant.ammo_low_marker", "Ammo-low marker from a fire roll", AMMO_RULE, optional=True, rolls=False
)
def lookup_ammo_low_marker(inputs: AmmoMarkerInput) -> bool:
    if inputs.scheme is AmmoScheme.SUMMARY_2003:
        return inputs.hit and inputs.to_destroy_die == 10
    if inputs.to_hit_die != 1:
        return False
    if inputs.rally_number is None:
        return True
    return inputs.to_destroy_die is not None and inputs.to_destroy_die >= inputs.rally_number


AMMO_REMOVAL_PERCENT: dict[SupplySituation, int] = table(
    "gb.variant.ammo_removal_percent",
    "Ammo-low markers removed at night, percent by situation",
    AMMO_RULE,
    {
        SupplySituation.ISOLATED: 0,
        SupplySituation.SEPARATED: 50,
        SupplySituation.OK: 80,
        SupplySituation.RESERVE: 80,
    },
    optional=True,
)

AMMO_REMOVAL_SUPPLY_MODIFIER: dict[SupplyQuality, int] = table(
    "gb.variant.ammo_removal_supply_modifier",
    "Ammo-low removal percent modifier by supply quality",
    AMMO_RULE,
    {
        SupplyQuality.POOR: -20,
        SupplyQuality.INFERIOR: -10,
        SupplyQuality.AVERAGE: 0,
        SupplyQuality.SUPERIOR: 10,
        SupplyQuality.SUPERB: 20,
    },
    optional=True,
)

# FAQ 33: markers removed outright; None removes all.
AMMO_REMOVAL_COUNT_2002: dict[SupplySituation, int | None] = table(
    "gb.variant.ammo_removal_count_2002",
    "Ammo-low markers removed at night (FAQ 33 scheme)",
    AMMO_RULE,
    {
        SupplySituation.ISOLATED: 0,
        SupplySituation.SEPARATED: 1,
        SupplySituation.OK: None,
        SupplySituation.RESERVE: None,
    },
    optional=True,
)


def ammo_removal_chance(situation: SupplySituation, supply: SupplyQuality) -> int:
    """Isolated removes none whatever the supply quality (GB-B-13)."""
    base = AMMO_REMOVAL_PERCENT[situation]
    return 0 if base == 0 else base + AMMO_REMOVAL_SUPPLY_MODIFIER[supply]


@dataclass(frozen=True)
class AmmoRemovalInput:
    situation: SupplySituation
    supply_quality: SupplyQuality
    markers: int
    scheme: AmmoScheme = AmmoScheme.SUMMARY_2003
    stand: str = ""


@dataclass(frozen=True)
class AmmoRemoval:
    removed: int
    left: int
    rolls: tuple[RollResult, ...]

    def roll_results(self) -> tuple[RollResult, ...]:
        return self.rolls

    def to_dict(self) -> dict[str, Any]:
        return {
            "removed": self.removed,
            "left": self.left,
            "rolls": [r.to_dict() for r in self.rolls],
            "outcome_text": f"{self.removed} ammo-low markers removed, {self.left} left",
        }


@procedure("gb.variant.ammo_night_removal", "Ammo-low markers removed at night", AMMO_RULE, optional=True)
def roll_ammo_removal(inputs: AmmoRemovalInput, dice: DiceSource) -> AmmoRemoval:
    """2003: one d100 per marker at or under the percent (GB-B-14); FAQ 33: counts."""
    if inputs.scheme is AmmoScheme.FAQ_2002:
        count = AMMO_REMOVAL_COUNT_2002[inputs.situation]
        removed = inputs.markers if count is None else min(count, inputs.markers)
        return AmmoRemoval(removed, inputs.markers - removed, ())
    chance = ammo_removal_chance(inputs.situation, inputs.supply_quality)
    supply = Modifier(
        f"{inputs.supply_quality.value} supply",
        AMMO_REMOVAL_SUPPLY_MODIFIER[inputs.supply_quality],
        Applies.THRESHOLD,
    )
    rolls = (
        tuple(
            roll_against(
                title="Ammo-low removal",
                rule=AMMO_RULE,
                dice=dice,
                kind=DiceKind.PERCENTILE,
                threshold=AMMO_REMOVAL_PERCENT[inputs.situation],
                modifiers=(supply,) if supply.value else (),
                passed=(True, "marker removed"),
                failed=(False, "marker stays"),
                subject=f"{inputs.stand or 'stand'} marker {number}",
                cell=inputs.situation.value,
                inputs={"situation": inputs.situation, "supply_quality": inputs.supply_quality},
            )
            for number in range(1, inputs.markers + 1)
        )
        if chance > 0
        else ()
    )
    removed = sum(1 for r in rolls if r.outcome)
    return AmmoRemoval(removed, inputs.markers - removed, rolls)


# --- supply isolation --------------------------------------------------------------


@dataclass(frozen=True)
class IsolationTrace:
    """How far a supply line may run and what blocks it."""

    longest_line_inches: int | None  # None: any length
    enemy_zoc_inches: int


SUPPLY_ISOLATION_VARIANT: IsolationTrace = table(
    "gb.variant.supply_isolation",
    'Supply isolation: 36" line clear of enemy and their zone of control',
    SUPPLY_RULE,
    IsolationTrace(longest_line_inches=36, enemy_zoc_inches=12),
    optional=True,
)
