"""003 § CO/Kampfgruppe/Front/Division leader rating (activation roll) — every cell."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.common import BattlefieldCondition
from rules_engine.panzer_korps.leaders import (
    LEADER_RATINGS,
    CommandOutcome,
    CommandRollInput,
    leader_label,
    roll_command,
)
from rules_engine.vocab import DaySegment, LeaderRating

L = LeaderRating

LEADERS = [
    (L.A, "Legendary", 9, 0),
    (L.B, "Exceptional", 8, 0),
    (L.C, "Inspirational", 7, 0),
    (L.D, "Gallant", 6, 0),
    (L.E, "Career", 5, 0),
    (L.F, "Despicable", 4, 0),
    (L.G, "Oppressive", 3, -1),
    (L.H, "Unreliable", 2, -2),
]


@pytest.mark.parametrize(("rating", "character", "activation", "morale"), LEADERS)
def test_leader_rating_cells(rating, character, activation, morale):
    profile = LEADER_RATINGS[rating]
    assert (profile.character, profile.activation, profile.morale_die_modifier) == (
        character,
        activation,
        morale,
    )
    assert leader_label(rating) == f"{character} (rating {rating.value})"


@pytest.mark.parametrize(("rating", "character", "activation", "morale"), LEADERS)
def test_command_roll_at_or_under_activation(rating, character, activation, morale):
    assert roll_command(CommandRollInput(rating), ScriptedDice([activation])).outcome is CommandOutcome.PASSED
    assert (
        roll_command(CommandRollInput(rating), ScriptedDice([activation + 1])).outcome
        is CommandOutcome.FAILED
    )


@pytest.mark.parametrize(
    ("kwargs", "total"),
    [
        ({"out_of_supply": True}, 1),
        ({"conditions": (BattlefieldCondition.RAIN,)}, 1),
        ({"conditions": (BattlefieldCondition.MUD,)}, 1),
        ({"conditions": (BattlefieldCondition.SNOW,)}, 1),
        ({"conditions": (BattlefieldCondition.FOG,)}, 1),
        ({"visibility_problems": True}, 1),
        ({"unwilling": True}, 2),
        ({"conditions": (BattlefieldCondition.SAND,)}, 0),
        ({"out_of_supply": True, "conditions": (BattlefieldCondition.RAIN, BattlefieldCondition.FOG)}, 3),
    ],
)
def test_activation_modifiers(kwargs, total):
    result = roll_command(CommandRollInput(L.E, **kwargs), ScriptedDice([3]))
    assert sum(m.value for m in result.modifiers) == total
    assert result.score == 3 + total


def test_night_segment_failure_removes_force_unless_surrounded():
    night = CommandRollInput(L.H, segment=DaySegment.NIGHT_SEGMENT)
    assert roll_command(night, ScriptedDice([5])).outcome is CommandOutcome.REMOVED
    surrounded = CommandRollInput(L.H, segment=DaySegment.NIGHT_SEGMENT, surrounded=True)
    assert roll_command(surrounded, ScriptedDice([5])).outcome is CommandOutcome.FAILED
    assert roll_command(night, ScriptedDice([2])).outcome is CommandOutcome.PASSED


def test_command_roll_line():
    line = roll_command(CommandRollInput(L.C, out_of_supply=True), ScriptedDice([6])).line()
    assert (
        line == "Command roll, leader Inspirational (rating C): d10 [6] = 6 +1 out of supply = 7 ≤ 7 → passed"
    )
