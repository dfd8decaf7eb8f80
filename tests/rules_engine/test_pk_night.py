"""003 § Battlefield segment simulator, night segment, and § Force availability chart row 0:
the Panzer Korps rules the campaign's night phase applies (rules notes PK-29 to PK-31)."""

import pytest

from rules_engine import catalog
from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.arrival import ForceAvailability
from rules_engine.panzer_korps.leaders import CommandOutcome
from rules_engine.panzer_korps.night import (
    REROLLED_ON_A_SECOND_DAY,
    AvailabilityRerollInput,
    NightCommandInput,
    lookup_availability_reroll,
    removes_force,
    roll_night_command,
)
from rules_engine.profiles import CLUB, GREAT_BATTLES, PANZER_KORPS, CampaignStep
from rules_engine.vocab import LeaderRating

L = LeaderRating

# leader, face, surrounded, dark counts, out of supply → outcome, score
NIGHT_COMMAND = [
    (L.C, 6, False, True, False, CommandOutcome.PASSED, 7),  # 6 +1 dark = 7 ≤ 7
    (L.C, 7, False, True, False, CommandOutcome.REMOVED, 8),
    (L.C, 7, False, False, False, CommandOutcome.PASSED, 7),  # a club not counting the dark
    (L.C, 7, True, True, True, CommandOutcome.FAILED, 9),  # surrounded: stays however it fails
    (L.C, 5, False, True, True, CommandOutcome.PASSED, 7),  # 5 +1 dark +1 supply
    (L.A, 8, False, True, False, CommandOutcome.PASSED, 9),
    (L.A, 9, False, True, False, CommandOutcome.REMOVED, 10),
    (L.H, 1, False, True, False, CommandOutcome.PASSED, 2),
    (L.H, 2, False, True, False, CommandOutcome.REMOVED, 3),
    (L.H, 10, True, True, True, CommandOutcome.FAILED, 12),
]


@pytest.mark.parametrize(
    ("leader", "face", "surrounded", "dark", "out_of_supply", "outcome", "score"), NIGHT_COMMAND
)
def test_night_command_roll(leader, face, surrounded, dark, out_of_supply, outcome, score):
    result = roll_night_command(
        NightCommandInput(
            leader=leader,
            force="Kampfgruppe Ramcke",
            surrounded=surrounded,
            out_of_supply=out_of_supply,
            dark_is_visibility_problem=dark,
        ),
        ScriptedDice([face]),
    )
    assert (result.outcome, result.score) == (outcome, score)
    assert removes_force(result) is (outcome is CommandOutcome.REMOVED)
    assert result.procedure == "pk.night_command"
    assert result.line().startswith("Night command roll, Kampfgruppe Ramcke, leader ")


@pytest.mark.parametrize(
    ("reroll", "rerolled"),
    [(True, frozenset({ForceAvailability.DOES_NOT_ARRIVE})), (False, frozenset())],
)
def test_which_availability_results_roll_again_on_a_second_day(reroll, rerolled):
    assert lookup_availability_reroll(AvailabilityRerollInput(reroll_on_a_second_day=reroll)) == rerolled


def test_the_reroll_table_is_data_with_its_source():
    entry = catalog.get_table("pk.availability_rerolled_next_day")
    assert entry.rule.seed_file == "003_87cc295bdca6f18c.txt"
    assert frozenset({ForceAvailability.DOES_NOT_ARRIVE}) == REROLLED_ON_A_SECOND_DAY


@pytest.mark.parametrize(
    ("profile", "command", "reroll"),
    [
        (PANZER_KORPS, "pk.night_command", "pk.night_availability_reroll"),
        (CLUB, None, None),  # C-10: the club borrows Panzer Korps' day, not its night
        (GREAT_BATTLES, None, None),
    ],
)
def test_only_the_panzer_korps_profile_has_its_night_rules(profile, command, reroll):
    assert profile.procedure_for(CampaignStep.NIGHT_COMMAND) == command
    assert profile.procedure_for(CampaignStep.NIGHT_AVAILABILITY_REROLL) == reroll
