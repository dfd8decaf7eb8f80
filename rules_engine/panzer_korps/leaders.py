"""Leader ratings A-H and the activation (intrinsic command) roll."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.panzer_korps.common import BattlefieldCondition, inputs_of, modifiers, ref
from rules_engine.registry import procedure, table
from rules_engine.results import Comparison, RollResult
from rules_engine.vocab import DaySegment, LeaderRating

LEADER_RULE = ref("CO/Kampfgruppe/Front/Division leader rating")


@dataclass(frozen=True)
class LeaderProfile:
    character: str
    activation: int  # the activation roll needed, at or under
    morale_die_modifier: int  # added to the morale die of formations this leader leads


LEADER_RATINGS: dict[LeaderRating, LeaderProfile] = table(
    "pk.leader_ratings",
    "Leader character rating and activation roll",
    LEADER_RULE,
    {
        LeaderRating.A: LeaderProfile(LeaderRating.A.character, 9, 0),
        LeaderRating.B: LeaderProfile(LeaderRating.B.character, 8, 0),
        LeaderRating.C: LeaderProfile(LeaderRating.C.character, 7, 0),
        LeaderRating.D: LeaderProfile(LeaderRating.D.character, 6, 0),
        LeaderRating.E: LeaderProfile(LeaderRating.E.character, 5, 0),
        LeaderRating.F: LeaderProfile(LeaderRating.F.character, 4, 0),
        LeaderRating.G: LeaderProfile(LeaderRating.G.character, 3, -1),
        LeaderRating.H: LeaderProfile(LeaderRating.H.character, 2, -2),
    },
)

ACTIVATION_MODIFIERS: dict[str, int] = table(
    "pk.activation_modifiers",
    "Activation die roll modifiers",
    LEADER_RULE,
    {
        "out of supply": 1,
        "rain, mud or snow": 1,
        "fog/visibility problems": 1,
        "leader unwilling, conquered or pressed into service": 2,
    },
)

# Conditions that count as "Rain, mud or snow" and as fog for the activation roll.
_FOUL_WEATHER = frozenset({BattlefieldCondition.RAIN, BattlefieldCondition.MUD, BattlefieldCondition.SNOW})


def leader_label(rating: LeaderRating) -> str:
    """E.g. "Inspirational (rating C)": the rating's word first, its letter named as one."""
    return rating.label


class CommandOutcome(enum.Enum):
    PASSED = "passed"
    FAILED = "failed"
    REMOVED = "failed, force removed"  # night segment, not surrounded


@dataclass(frozen=True)
class CommandRollInput:
    leader: LeaderRating
    out_of_supply: bool = False
    conditions: tuple[BattlefieldCondition, ...] = ()
    visibility_problems: bool = False
    unwilling: bool = False  # conquered or pressed into service
    # In the night segment a force whose command fails is removed unless surrounded.
    segment: DaySegment | None = None
    surrounded: bool = False
    # The chart names no die; a d10 fits ratings 2..9 (rules notes PK-01).
    die: DiceKind = DiceKind.D10


@procedure("pk.command_roll", "Activation / intrinsic command roll", LEADER_RULE)
def roll_command(inputs: CommandRollInput, dice: DiceSource) -> RollResult:
    mods = modifiers(
        (inputs.out_of_supply, "out of supply", ACTIVATION_MODIFIERS["out of supply"]),
        (
            bool(_FOUL_WEATHER.intersection(inputs.conditions)),
            "rain, mud or snow",
            ACTIVATION_MODIFIERS["rain, mud or snow"],
        ),
        (
            inputs.visibility_problems or BattlefieldCondition.FOG in inputs.conditions,
            "fog/visibility problems",
            ACTIVATION_MODIFIERS["fog/visibility problems"],
        ),
        (
            inputs.unwilling,
            "leader unwilling",
            ACTIVATION_MODIFIERS["leader unwilling, conquered or pressed into service"],
        ),
    )
    thrown = roll(inputs.die, dice)
    needed = LEADER_RATINGS[inputs.leader].activation
    passed = thrown.total + sum(m.value for m in mods) <= needed
    if passed:
        outcome = CommandOutcome.PASSED
    elif inputs.segment is DaySegment.NIGHT_SEGMENT and not inputs.surrounded:
        outcome = CommandOutcome.REMOVED
    else:
        outcome = CommandOutcome.FAILED
    return RollResult(
        title="Command roll",
        subject=f"leader {leader_label(inputs.leader)}",
        rule=LEADER_RULE,
        rolls=(thrown,),
        modifiers=mods,
        threshold_base=needed,
        comparison=Comparison.AT_MOST,
        outcome=outcome,
        outcome_text=outcome.value,
        inputs=inputs_of(inputs),
    )
