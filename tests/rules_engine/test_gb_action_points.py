"""004 § 6. Action Point Rolls [13] — every cell; HQ +10%; the divisional
leadership involvement variant, § Summary of Variants (May 2003), Action Points."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.great_battles.action_points import ActionPointInput, actions_for, roll_action_points
from rules_engine.great_battles.common import Quality

# (quality, (2 actions low-high), (1 action low-high), (0 actions low-high)) as printed.
PRINTED = {
    Quality.RAW: ((1, 10), (11, 60), (61, 100)),
    Quality.INFERIOR: ((1, 20), (21, 70), (71, 100)),
    Quality.AVERAGE: ((1, 25), (26, 75), (76, 100)),
    Quality.EXPERIENCED: ((1, 30), (31, 80), (81, 100)),
    Quality.VETERAN: ((1, 40), (41, 90), (91, 100)),
}


@pytest.mark.parametrize(
    ("quality", "actions", "low", "high"),
    [
        (quality, 2 - index, low, high)
        for quality, bands in PRINTED.items()
        for index, (low, high) in enumerate(bands)
    ],
)
def test_every_cell(quality, actions, low, high):
    assert actions_for(quality, low) == actions
    assert actions_for(quality, high) == actions
    assert roll_action_points(ActionPointInput(quality), ScriptedDice([low])).outcome == actions


def test_hq_attached_adds_10_percent():
    # Average 35 is 1 action; with the HQ it reads as 25: 2 actions.
    result = roll_action_points(ActionPointInput(Quality.AVERAGE, hq_attached=True), ScriptedDice([35]))
    assert (result.score, result.outcome) == (25, 2)
    assert result.line() == (
        "Action point roll, Average battalion: d100 [35] = 35 -10 HQ attached = 25 "
        "[Average column] → 2 actions"
    )


def test_divisional_involvement_variant_stacks_with_hq():
    inputs = ActionPointInput(Quality.RAW, hq_attached=True, divisional_involvement=True)
    result = roll_action_points(inputs, ScriptedDice([30]))
    assert (result.score, result.outcome) == (10, 2)


def test_low_scores_clamp_to_the_best_band():
    result = roll_action_points(ActionPointInput(Quality.RAW, hq_attached=True), ScriptedDice([5]))
    assert result.outcome == 2
