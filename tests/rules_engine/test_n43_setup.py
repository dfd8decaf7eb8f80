"""000 § 1) Battle Type, § 7) Setup Proximity, § 8) Troop Reaction and
§ Combat Lulls — every cell."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.nineteen43.battle import AttackerDecisionInput, roll_attacker_decision
from rules_engine.nineteen43.common import (
    BattleRole,
    BattleType,
    CommandSystem,
    ProximityTerrain,
    ReactionProfile,
    TableScale,
    Training,
)
from rules_engine.nineteen43.lulls import (
    LULL_FEATURES,
    LullCheckInput,
    LullFeature,
    LullFeatureInput,
    LullLength,
    roll_lull_check,
    roll_lull_feature,
)
from rules_engine.nineteen43.setup import (
    ProximityInput,
    TroopReactionInput,
    YardsInput,
    lookup_yards_to_inches,
    roll_setup_proximity,
    roll_troop_reaction,
)


def test_battle_high_roller_decides_and_tie_throws_again():
    result = roll_attacker_decision(
        AttackerDecisionInput(BattleType.MAJOR_OFFENSIVE), ScriptedDice([4, 4, 2, 6])
    )
    assert result.outcome == "Allies"
    assert len(result.results) == 4
    assert result.outcome_text == "Allies decides who attacks: Allies is the attacker"


def test_a_club_may_read_the_high_roller_as_taking_the_defence():
    inputs = AttackerDecisionInput(BattleType.LOCAL_ATTACK, high_roller_takes=BattleRole.DEFENDER)
    result = roll_attacker_decision(inputs, ScriptedDice([5, 2]))
    assert result.outcome == "Axis"
    assert result.outcome_text.endswith("Axis is the defender")


def test_no_attacker_to_decide_in_a_meeting_engagement():
    with pytest.raises(ValueError, match="no attacker"):
        roll_attacker_decision(AttackerDecisionInput(BattleType.MEETING_ENGAGEMENT), ScriptedDice([1, 2]))


# 000 § 7, 1D6 faces 1..6, yards.
PROXIMITY_PRINTED = {
    ProximityTerrain.CONSTRICTED: "100 200 300 400 600 800",
    ProximityTerrain.OPEN: "400 500 600 700 900 1100",
    ProximityTerrain.WIDE_OPEN: "700 800 900 1000 1200 1600",
}


@pytest.mark.parametrize(
    ("terrain", "face", "yards"),
    [(t, i + 1, int(y)) for t, row in PROXIMITY_PRINTED.items() for i, y in enumerate(row.split())],
)
def test_proximity_every_cell_and_lull_start(terrain, face, yards):
    result = roll_setup_proximity(ProximityInput(terrain, TableScale.LARGE), ScriptedDice([face]))
    assert result.outcome.yards == yards
    assert result.outcome.lull_checks_from_turn == face
    assert result.outcome.inches == yards / 20


@pytest.mark.parametrize(
    ("scale", "yards", "inches"),
    [
        (TableScale.LARGE, 600, 30.0),
        (TableScale.MEDIUM, 600, 20.0),
        (TableScale.SMALL, 600, 15.0),
        (TableScale.MEDIUM, 100, 3.33),
        (TableScale.SMALL, 1100, 27.5),
    ],
)
def test_scales(scale, yards, inches):
    assert lookup_yards_to_inches(YardsInput(yards, scale)).inches == inches


# 000 § 8 reaction table.
REACTION_PRINTED = {
    CommandSystem.FLEXIBLE: "C B B/A A A",
    CommandSystem.NORMAL: "D C C/B B A",
    CommandSystem.RIGID: "D D D/C C B",
}
TRAINING_COLUMNS = [Training.POOR, Training.MARGINAL, Training.AVERAGE, Training.GREAT, Training.OUTSTANDING]


@pytest.mark.parametrize(
    ("command", "training", "printed"),
    [
        (c, t, cell)
        for c, row in REACTION_PRINTED.items()
        for t, cell in zip(TRAINING_COLUMNS, row.split(), strict=True)
    ],
)
def test_reaction_every_cell(command, training, printed):
    letters = printed.split("/")
    for face in range(1, 7):
        dice = ScriptedDice([face] if len(letters) == 2 else [])
        result = roll_troop_reaction(TroopReactionInput(command, training), dice)
        expected = letters[0] if len(letters) == 1 or face <= 3 else letters[1]
        assert result.outcome is ReactionProfile(expected)
        assert result.cell == printed


def test_average_training_roll_recorded():
    result = roll_troop_reaction(TroopReactionInput(CommandSystem.RIGID, Training.AVERAGE), ScriptedDice([3]))
    assert result.natural == 3
    assert result.outcome is ReactionProfile.D
    assert result.outcome_text == "Uncoordinated (reaction profile D)"


@pytest.mark.parametrize(
    ("turn", "start", "face", "outcome"),
    [
        (2, 3, None, None),
        (3, 3, 5, None),
        (3, 3, 6, LullLength.SHORT),
        (6, 1, 6, LullLength.SHORT),
        (7, 1, 6, LullLength.LONG),
        (12, 6, 6, LullLength.LONG),
    ],
)
def test_lull_check(turn, start, face, outcome):
    dice = ScriptedDice([] if face is None else [face])
    result = roll_lull_check(LullCheckInput(turn, start), dice)
    assert result.outcome is outcome
    assert len(result.rolls) == (0 if face is None else 1)


# 000 § Combat Lulls: (feature, short cell, long cell) as printed.
LULL_PRINTED = [
    (LullFeature.EXTRA_DEFENSES, "Hasty Dig-in: Unlimited", "Trenchline: 2D6 in inches"),
    (LullFeature.REPAIR_COMBAT_BASE, "6", "3 - 6"),
    (LullFeature.REPAIR_COMMAND_BASE, "6", "5,6"),
    (LullFeature.REFUELING, "Two free turns of refueling", "All units fully refueled"),
    (LullFeature.RECOVER_DEMORALIZED, "No recovery", "5,6"),
    (LullFeature.REORGANIZE, "No reorganizing", "Remain pinned on a 1,2"),
    (LullFeature.EXTRA_PLANNED_FIRE, "No", "Yes, roll with a -2"),
    (LullFeature.EXTRA_SUPPORT_POINTS, "No", "Yes, roll with a -3"),
    (LullFeature.REROLL_AIR_SUPERIORITY, "No", "Yes"),
    (LullFeature.REROLL_AIR_PRESENCE, "Yes", "Yes"),
]


@pytest.mark.parametrize(("feature", "short", "long"), LULL_PRINTED)
def test_lull_feature_labels(feature, short, long):
    assert LULL_FEATURES[feature][LullLength.SHORT].label == short
    assert LULL_FEATURES[feature][LullLength.LONG].label == long


# (feature, length, passing faces) for the cells that are rolls.
LULL_ROLLS = [
    (LullFeature.REPAIR_COMBAT_BASE, LullLength.SHORT, {6}),
    (LullFeature.REPAIR_COMBAT_BASE, LullLength.LONG, {3, 4, 5, 6}),
    (LullFeature.REPAIR_COMMAND_BASE, LullLength.SHORT, {6}),
    (LullFeature.REPAIR_COMMAND_BASE, LullLength.LONG, {5, 6}),
    (LullFeature.RECOVER_DEMORALIZED, LullLength.LONG, {5, 6}),
    (LullFeature.REORGANIZE, LullLength.LONG, {3, 4, 5, 6}),
]


@pytest.mark.parametrize(("feature", "length", "passing"), LULL_ROLLS)
@pytest.mark.parametrize("face", range(1, 7))
def test_lull_feature_rolls(feature, length, passing, face):
    result = roll_lull_feature(LullFeatureInput(feature, length), ScriptedDice([face]))
    assert result.outcome is (face in passing)


@pytest.mark.parametrize(
    ("feature", "length", "allowed"),
    [
        (LullFeature.RECOVER_DEMORALIZED, LullLength.SHORT, False),
        (LullFeature.REORGANIZE, LullLength.SHORT, False),
        (LullFeature.EXTRA_PLANNED_FIRE, LullLength.SHORT, False),
        (LullFeature.EXTRA_PLANNED_FIRE, LullLength.LONG, True),
        (LullFeature.EXTRA_SUPPORT_POINTS, LullLength.SHORT, False),
        (LullFeature.REROLL_AIR_SUPERIORITY, LullLength.SHORT, False),
        (LullFeature.REROLL_AIR_SUPERIORITY, LullLength.LONG, True),
        (LullFeature.REROLL_AIR_PRESENCE, LullLength.SHORT, True),
        (LullFeature.REFUELING, LullLength.SHORT, True),
    ],
)
def test_lull_permissions(feature, length, allowed):
    assert roll_lull_feature(LullFeatureInput(feature, length), ScriptedDice([])).outcome is allowed


def test_command_base_repair_limits():
    assert LULL_FEATURES[LullFeature.REPAIR_COMMAND_BASE][LullLength.SHORT].max_points == 1
    assert LULL_FEATURES[LullFeature.REPAIR_COMMAND_BASE][LullLength.LONG].max_points == 3


def test_long_lull_trenchline_is_2d6_inches():
    result = roll_lull_feature(
        LullFeatureInput(LullFeature.EXTRA_DEFENSES, LullLength.LONG), ScriptedDice([4, 5])
    )
    assert result.outcome == 9


def test_seed_worked_lull_example():
    # 000 § Combat Lulls: demoralized unit cannot recover in a short lull, recovers on 5,6 in a long
    # one; a damaged combat base repairs on 6 (short) and on 4 through 6 (long).
    demoralized = LullFeature.RECOVER_DEMORALIZED
    assert (
        roll_lull_feature(LullFeatureInput(demoralized, LullLength.SHORT), ScriptedDice([])).outcome is False
    )
    assert (
        roll_lull_feature(LullFeatureInput(demoralized, LullLength.LONG), ScriptedDice([5])).outcome is True
    )
    base = LullFeature.REPAIR_COMBAT_BASE
    assert roll_lull_feature(LullFeatureInput(base, LullLength.SHORT), ScriptedDice([6])).outcome is True
    assert roll_lull_feature(LullFeatureInput(base, LullLength.LONG), ScriptedDice([4])).outcome is True


def test_long_lull_combat_repair_threshold_setting():
    base = LullFeature.REPAIR_COMBAT_BASE
    assert roll_lull_feature(LullFeatureInput(base, LullLength.LONG), ScriptedDice([3])).outcome is True
    as_example = LullFeatureInput(base, LullLength.LONG, long_lull_combat_repair_from=4)
    assert roll_lull_feature(as_example, ScriptedDice([3])).outcome is False
