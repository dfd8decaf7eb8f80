"""A division's own activation pool (Malta) is its side's and the umpires' to read: the force's
`activation_points`, the pools carried into each dawn and the C Ops' isolation are hidden from the
enemy and observers like the side's pool (fog of war)."""

from __future__ import annotations

import pytest

from campaign import models
from campaign.services.day_rules import force_cops_overrun
from tests.api.world import ACTOR, Role, build_world

pytestmark = pytest.mark.django_db


def test_a_divisions_pool_shows_to_its_side_and_the_umpires_only():
    world = build_world(optional_rules=["gb.malta.division_pools"])
    axis_force = world.campaign.forces.get(side=world.axis)
    models.Force.objects.filter(pk=axis_force.pk).update(activation_points=5)
    # The enemy may see the force itself once one of its battalions is identified.
    models.Side.objects.filter(pk=world.allied.pk).update(fog_of_war={"identified_units": ["A1"]})
    url = world.url("force-detail", pk=axis_force.public_id)

    seen = {}
    for role in (Role.UMPIRE, Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER):
        response = world.client(role).get(url)
        seen[role] = response.json().get("activation_points") if response.status_code == 200 else "not found"

    assert seen[Role.UMPIRE] == seen[Role.AXIS_PLAYER] == 5
    assert seen[Role.ALLIED_PLAYER] in (None, "not found")
    assert seen[Role.OBSERVER] in (None, "not found")
    status = world.client(Role.AXIS_PLAYER).get(world.url("force-force-status", pk=axis_force.public_id))
    assert status.json()["force"]["activation_points"] == 5


def test_a_player_reads_their_divisions_pools_at_each_dawn_and_never_the_enemys():
    world = build_world(optional_rules=["gb.malta.division_pools"])
    forces = {
        side.pk: dict(world.campaign.forces.filter(side=side).values_list("name", "activation_points"))
        for side in (world.axis, world.allied)
    }

    def divisions(role: Role) -> dict[int, object]:
        """Each side's division pools at the latest dawn, as ``role`` reads them."""
        body = world.client(role).get(world.url("campaign-statistics")).json()
        return {entry["side"]: entry["division_activation_points"] for entry in body["days"][-1]["sides"]}

    assert divisions(Role.UMPIRE) == forces
    assert divisions(Role.AXIS_PLAYER) == {world.axis.pk: forces[world.axis.pk], world.allied.pk: None}
    assert divisions(Role.ALLIED_PLAYER) == {world.axis.pk: None, world.allied.pk: forces[world.allied.pk]}
    assert divisions(Role.OBSERVER) == {world.axis.pk: None, world.allied.pk: None}


def test_a_player_sees_when_their_c_ops_is_cut_off_and_the_enemy_never_does():
    world = build_world(optional_rules=["gb.malta.division_pools", "gb.variant.cops_action_points"])
    axis_force = world.campaign.forces.get(side=world.axis)
    models.Side.objects.filter(pk=world.allied.pk).update(fog_of_war={"identified_units": ["A1"]})
    url = world.url("force-force-status", pk=axis_force.public_id)

    def isolated() -> dict[Role, object]:
        seen = {}
        for role in (Role.UMPIRE, Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER):
            response = world.client(role).get(url)
            seen[role] = (
                response.json()["cops_isolated_from_source"] if response.status_code == 200 else "not found"
            )
        return seen

    before = isolated()
    # An overrun isolates every battalion of the division: its C Ops rolls as isolated from now on.
    force_cops_overrun(world.campaign.pk, ACTOR, force_id=axis_force.pk, turn=3)
    after = isolated()

    assert (before[Role.UMPIRE], before[Role.AXIS_PLAYER]) == (False, False)
    assert (after[Role.UMPIRE], after[Role.AXIS_PLAYER]) == (True, True)
    for seen in (before, after):
        assert seen[Role.ALLIED_PLAYER] in (None, "not found")
        assert seen[Role.OBSERVER] in (None, "not found")


def test_without_variant_one_there_is_no_c_ops_isolation_to_show():
    world = build_world(optional_rules=["gb.malta.division_pools"])
    force = world.campaign.forces.get(side=world.axis)

    status = world.client(Role.AXIS_PLAYER).get(world.url("force-force-status", pk=force.public_id)).json()

    assert status["cops_isolated_from_source"] is None


MALTA_POOL_RULES = [
    "gb.malta.division_pools",
    "gb.variant.cops_action_points",
    "gb.variant.action_to_activation",
    "gb.activation_carry_over",
]


@pytest.mark.parametrize(
    ("optional_rules", "said", "not_said"),
    [
        (
            [],
            ["starts with the scenario's points", "battle report adds", "the night keeps the saved points"],
            ["C Ops", "division", "rolls to carry"],
        ),
        (
            MALTA_POOL_RULES,
            [
                "loses what is left of them that night; from then on each division pays from its own pool",
                "when the umpire rolls a C Ops' action points (once a division a turn) and saves them",
                "when a confirmed battle report adds the points it awards",
                "and when the night rolls to carry the saved points over",
            ],
            ["the night keeps"],
        ),
    ],
)
def test_the_summary_tells_every_member_where_a_sides_activation_points_come_from(
    optional_rules: list[str], said: list[str], not_said: list[str]
):
    """Day 2 of a club night showed both sides at 0 of 20 and nothing said why: the campaign summary
    says where points come from, as the rules the campaign plays have it (rules notes C-05, CR-03, CR-09)."""
    world = build_world(optional_rules=optional_rules)

    helps = {
        role: world.client(role).get(world.url("campaign-detail")).json()["activation_points_help"]
        for role in (Role.UMPIRE, Role.AXIS_PLAYER, Role.OBSERVER)
    }

    assert len(set(helps.values())) == 1  # a rule, not a pool: the same words for everybody
    sentence = helps[Role.UMPIRE]
    assert [phrase for phrase in said if phrase not in sentence] == []
    assert [phrase for phrase in not_said if phrase in sentence] == []


@pytest.mark.parametrize(
    ("optional_rules", "actions"),
    [
        ([], []),
        (["gb.variant.cops_action_points"], ["roll_cops_action_points"]),
        (MALTA_POOL_RULES, ["roll_cops_action_points", "save_action_points"]),
    ],
)
def test_the_order_of_battle_offers_the_c_ops_roll_as_the_rules_and_the_day_allow(
    optional_rules: list[str], actions: list[str]
):
    """The web app's C Ops form is shown from the forces' actions: the umpire's while a day's turns
    are played under variant 1 (saving them with variant 2), never a player's; the qualities to
    roll at come with their labels."""
    world = build_world(optional_rules=optional_rules)

    def offered(role: Role) -> list[list[str]]:
        body = world.client(role).get(world.url("campaign-oob")).json()
        assert body["cops_qualities"] == ["Raw", "Inferior", "Average", "Experienced", "Veteran"]
        assert body["cops_qualities_labels"] == body["cops_qualities"]
        return [force["actions"] for force in body["forces"]]

    umpire = offered(Role.UMPIRE)
    assert umpire
    assert all(force_actions == actions for force_actions in umpire)
    assert all(force_actions == [] for force_actions in offered(Role.AXIS_PLAYER))
    models.CampaignDay.objects.filter(campaign=world.campaign).update(status="night")
    assert all(force_actions == [] for force_actions in offered(Role.UMPIRE))  # no day's turns under way
