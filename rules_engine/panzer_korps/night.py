"""Between two days: the night segment's command roll and the availability re-roll.

The campaign's night phase is the simulator's night segment (midnight to 6am),
so two of its rules change campaign state there: a force whose intrinsic
command roll fails is removed unless surrounded, and a force that sent word it
will not arrive rolls for availability again on the next day.  The segment's
other rules (night aircraft, double movement beyond 6") are tabletop rules.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rules_engine.dice import DiceSource
from rules_engine.panzer_korps.arrival import AVAILABILITY_RULE, ForceAvailability
from rules_engine.panzer_korps.common import ref
from rules_engine.panzer_korps.leaders import CommandOutcome, CommandRollInput, roll_command
from rules_engine.registry import procedure, table
from rules_engine.results import RollResult
from rules_engine.vocab import DaySegment, LeaderRating

NIGHT_SEGMENT_RULE = ref("Battlefield segment simulator: night segment")

# "Reroll if there is a second day" (003 § Force availability chart, row 0).
REROLLED_ON_A_SECOND_DAY: frozenset[ForceAvailability] = table(
    "pk.availability_rerolled_next_day",
    "Force availability results rolled again on the next day",
    AVAILABILITY_RULE,
    frozenset({ForceAvailability.DOES_NOT_ARRIVE}),
)


@dataclass(frozen=True)
class NightCommandInput:
    """One force on the table as the night segment begins."""

    leader: LeaderRating
    force: str = ""
    # Every battalion on the table cut off (isolated): not removed, and out of supply (PK-30).
    surrounded: bool = False
    out_of_supply: bool = False
    # The dark counts as "fog/visibility problems", +1 (PK-29).
    dark_is_visibility_problem: bool = True


@procedure("pk.night_command", "Night segment command roll", NIGHT_SEGMENT_RULE)
def roll_night_command(inputs: NightCommandInput, dice: DiceSource) -> RollResult:
    """The intrinsic command roll in the night segment: a failed force is removed unless surrounded."""
    result = roll_command(
        CommandRollInput(
            leader=inputs.leader,
            out_of_supply=inputs.out_of_supply,
            visibility_problems=inputs.dark_is_visibility_problem,
            segment=DaySegment.NIGHT_SEGMENT,
            surrounded=inputs.surrounded,
        ),
        dice,
    )
    # The command roll read as this procedure's own: it is recorded and replayed as a night roll.
    return dataclasses.replace(
        result,
        procedure="pk.night_command",
        title="Night command roll",
        subject=f"{inputs.force}, {result.subject}" if inputs.force else result.subject,
    )


def removes_force(result: RollResult) -> bool:
    return result.outcome is CommandOutcome.REMOVED


@dataclass(frozen=True)
class AvailabilityRerollInput:
    # A club that reads "will not arrive at all" as final switches the re-roll off (PK-31).
    reroll_on_a_second_day: bool = True


@procedure(
    "pk.night_availability_reroll",
    "Availability results rolled again on the next day",
    AVAILABILITY_RULE,
    rolls=False,
)
def lookup_availability_reroll(inputs: AvailabilityRerollInput) -> frozenset[ForceAvailability]:
    return REROLLED_ON_A_SECOND_DAY if inputs.reroll_on_a_second_day else frozenset()
