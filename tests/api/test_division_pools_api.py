"""A division's own activation pool (Malta) is its side's and the umpires' to read: the force's
`activation_points` are hidden from the enemy and observers like the side's pool (fog of war)."""

from __future__ import annotations

import pytest

from campaign import models
from tests.api.world import Role, build_world

pytestmark = pytest.mark.django_db


def test_a_divisions_pool_shows_to_its_side_and_the_umpires_only():
    world = build_world(optional_rules=["gb.malta.division_pools"])
    axis_force = world.campaign.forces.get(side=world.axis)
    models.Force.objects.filter(pk=axis_force.pk).update(activation_points=5)
    # The enemy may see the force itself once one of its battalions is identified.
    models.Side.objects.filter(pk=world.allied.pk).update(fog_of_war={"identified_units": ["A1"]})
    url = world.url("force-detail", pk=axis_force.pk)

    seen = {}
    for role in (Role.UMPIRE, Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER):
        response = world.client(role).get(url)
        seen[role] = response.json().get("activation_points") if response.status_code == 200 else "not found"

    assert seen[Role.UMPIRE] == seen[Role.AXIS_PLAYER] == 5
    assert seen[Role.ALLIED_PLAYER] in (None, "not found")
    assert seen[Role.OBSERVER] in (None, "not found")
    status = world.client(Role.AXIS_PLAYER).get(world.url("force-force-status", pk=axis_force.pk))
    assert status.json()["force"]["activation_points"] == 5
