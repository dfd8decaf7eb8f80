"""002 § 2.1 Command Control, § 2.3 Vehicle Movement, § 2.4 Transport and
Towing, § 2.5 Defenses — every value, and the gun set-up worked example."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.nineteen43.common import ReactionProfile
from rules_engine.nineteen43.movement import (
    COMMAND_MODIFIERS,
    GUN_HANDLING,
    MINEFIELDS,
    MOVEMENT_RULES,
    CommandAction,
    CommandModifier,
    CommandTestInput,
    DangerousTerrainInput,
    DigInInput,
    DigInWork,
    GunClassBand,
    GunDeploymentInput,
    RidersInput,
    lookup_dig_in,
    lookup_gun_deployment,
    lookup_riders_allowed,
    roll_command_test,
    roll_dangerous_terrain,
)
from rules_engine.vocab import Nation


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        (CommandModifier.OVER_THE_TOP, -1),
        (CommandModifier.HQ_HIT, -1),
        (CommandModifier.CONSECUTIVE_ASSAULT, -1),
        (CommandModifier.PINNED_OR_WITHDRAWN, -2),
        (CommandModifier.DEMORALIZED, -4),
    ],
)
def test_command_modifier_values(kind, value):
    assert COMMAND_MODIFIERS[kind] == value


@pytest.mark.parametrize(("face", "passed"), [(3, False), (4, True), (6, True)])
def test_command_test_needs_equal_or_greater(face, passed):
    result = roll_command_test(CommandTestInput(CommandAction.MANEUVER, required=4), ScriptedDice([face]))
    assert result.outcome is passed
    assert result.succeeded is passed


def test_command_modifiers_stack_per_count():
    inputs = CommandTestInput(
        CommandAction.ASSAULT,
        required=3,
        over_the_top=True,
        hq_hits=2,
        consecutive_assault_moves=1,
        pinned_or_withdrew=True,
        demoralized=True,
    )
    result = roll_command_test(inputs, ScriptedDice([6]))
    assert [m.value for m in result.modifiers] == [-1, -2, -1, -2, -4]
    assert result.score == -4
    assert result.outcome is False


def test_going_prone_needs_no_roll():
    assert roll_command_test(CommandTestInput(CommandAction.GO_PRONE), ScriptedDice([])).outcome is True


def test_uncoordinated_failure_also_loses_fire():
    inputs = CommandTestInput(CommandAction.MANEUVER, required=5, reaction_profile=ReactionProfile.D)
    assert "may not fire" in roll_command_test(inputs, ScriptedDice([2])).outcome_text
    other = CommandTestInput(CommandAction.MANEUVER, required=5, reaction_profile=ReactionProfile.C)
    assert "may not fire" not in roll_command_test(other, ScriptedDice([2])).outcome_text


@pytest.mark.parametrize(("faces", "stuck"), [([1, 1], True), ([1, 2], True), ([2, 2], False)])
def test_dangerous_terrain(faces, stuck):
    result = roll_dangerous_terrain(DangerousTerrainInput(2, 3, "marsh"), ScriptedDice(faces))
    assert result.outcome is stuck


# 002 § 2.4: limber - unlimber cost and set-up time, in quarters of a turn.
@pytest.mark.parametrize(
    ("gun_class", "band", "limber", "unlimber", "set_up"),
    [
        (1, GunClassBand.CLASS_1_TO_4, 1, 0, 0),
        (4, GunClassBand.CLASS_1_TO_4, 1, 0, 0),
        (5, GunClassBand.CLASS_5_OR_6, 2, 1, 3),
        (6, GunClassBand.CLASS_5_OR_6, 2, 1, 3),
        (7, GunClassBand.CLASS_7_UP, 4, 2, 4),
        (10, GunClassBand.CLASS_7_UP, 4, 2, 4),
    ],
)
def test_gun_handling_every_cell(gun_class, band, limber, unlimber, set_up):
    assert GunClassBand.of(gun_class) is band
    handling = GUN_HANDLING[band]
    assert (handling.limber_quarters, handling.unlimber_quarters, handling.set_up_quarters) == (
        limber,
        unlimber,
        set_up,
    )


def _plan(deployment):
    return [(t.may_fire, t.moved_modifier) for t in deployment.turns]


def test_worked_example_russian_76mm_towed_half_a_move():
    # 002 § 2.4: class 5, truck moved ½ then unlimbers ¼; set-up ¾ finishes mid next turn → Moved.
    deployment = lookup_gun_deployment(GunDeploymentInput(5, tow_moved_quarters=2))
    assert _plan(deployment) == [(False, False), (True, True), (True, False)]


def test_worked_example_truck_stationary():
    # Unlimbered and set up all in one turn: no fire that turn, full effect the next.
    assert _plan(lookup_gun_deployment(GunDeploymentInput(5))) == [(False, False), (True, False)]


@pytest.mark.parametrize(
    ("gun_class", "moved", "plan"),
    [
        (2, 0, [(True, False)]),
        (2, 4, [(False, False), (True, False)]),
        (8, 0, [(False, False), (True, True), (True, False)]),
        (8, 2, [(False, False), (False, False), (True, False)]),
    ],
)
def test_gun_deployment_other_cases(gun_class, moved, plan):
    assert _plan(lookup_gun_deployment(GunDeploymentInput(gun_class, moved))) == plan


@pytest.mark.parametrize(
    ("nation", "year", "allowed"),
    [
        (Nation.SOVIET, 1941, False),
        (Nation.SOVIET, 1942, True),
        (Nation.GERMAN, 1942, False),
        (Nation.GERMAN, 1943, True),
        (Nation.AMERICAN, 1944, True),
        (Nation.BRITISH, 1942, False),
    ],
)
def test_riders_by_nation_and_year(nation, year, allowed):
    assert lookup_riders_allowed(RidersInput(nation, year)).allowed is allowed


def test_transport_values():
    rules = MOVEMENT_RULES
    assert rules.vehicle_minimum_move_yards == 100
    assert rules.mount_dismount_infantry_share == rules.mount_dismount_vehicle_share == 0.5
    assert (rules.rider_mount_infantry_yards, rules.rider_mount_vehicle_yards) == (100, 200)
    assert rules.riders_per_large_tank == 1
    assert rules.towing_speed_share == 0.75
    assert rules.towing_terrain_penalty_multiplier == 2
    assert rules.cavalry_mount_dismount_share == 0.25


@pytest.mark.parametrize(
    ("work", "dug", "left"),
    [
        (DigInWork.HASTY_DIG_IN, 0, 6),
        (DigInWork.HASTY_DIG_IN, 6, 0),
        (DigInWork.FOXHOLES, 5, 15),
        (DigInWork.FOXHOLES, 25, 0),
    ],
)
def test_digging_in(work, dug, left):
    progress = lookup_dig_in(DigInInput(work, dug))
    assert progress.turns_left == left
    assert progress.complete is (left == 0)


def test_minefields():
    assert MINEFIELDS.marker_radius_yards == 120
    assert (MINEFIELDS.clearing_speed_standing, MINEFIELDS.clearing_speed_prone) == ("rough", "double rough")
    assert MINEFIELDS.attack_modifiers_applied is False
