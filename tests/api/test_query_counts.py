"""Every list and detail endpoint runs as many queries for 1 battalion a side as for 50."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import models
from tests.api.world import Role, World, build_world, query_count

pytestmark = pytest.mark.django_db


def endpoints(world: World, role: Role) -> dict[str, str]:
    """One URL per list and detail endpoint, naming rows the role may see."""
    axis_force = models.Force.objects.get(side=world.axis)
    battalion = world.battalion("A1")
    roll = world.campaign.rolls.filter(battalion=battalion).first()
    event = world.campaign.events.order_by("pk").first()
    report = models.NightReport.objects.get(side=world.axis)
    return {
        "campaign-list": reverse("api:campaign-list"),
        "campaign-detail": world.url("campaign-detail"),
        "campaign-oob": world.url("campaign-oob"),
        "side-list": world.url("side-list"),
        "side-detail": world.url("side-detail", pk=world.allied.pk),
        "force-list": world.url("force-list"),
        "force-detail": world.url("force-detail", pk=axis_force.pk),
        "force-status": world.url("force-force-status", pk=axis_force.pk),
        "battalion-list": world.url("battalion-list"),
        "battalion-detail": world.url("battalion-detail", pk=battalion.pk),
        "stand-list": world.url("stand-list"),
        "stand-detail": world.url("stand-detail", pk=battalion.stands.first().pk),
        "day-list": world.url("day-list"),
        "day-detail": world.url("day-detail", number=1),
        "battle-list": world.url("battle-list"),
        "battle-detail": world.url("battle-detail", pk=world.fought.pk),
        "operation-list": world.url("operation-list"),
        "operation-detail": world.url("operation-detail", pk=world.campaign.operations.get().pk),
        "night-report-list": world.url("night-report-list"),
        "night-report-detail": world.url("night-report-detail", pk=report.pk),
        "roll-list": world.url("roll-list"),
        "roll-detail": world.url("roll-detail", pk=roll.pk),
        "event-list": world.url("event-list"),
        "event-detail": world.url("event-detail", pk=event.pk),
    }


@pytest.mark.parametrize("role", [Role.UMPIRE, Role.AXIS_PLAYER])
def test_query_counts_do_not_grow_with_the_order_of_battle(role: Role) -> None:
    counts: dict[str, list[int]] = {}
    for world in (build_world(battalions_per_side=1), build_world(battalions_per_side=50)):
        client = world.client(role)
        for name, url in endpoints(world, role).items():
            count, response = query_count(client, url)
            assert response.status_code == 200, (name, response.json())
            counts.setdefault(name, []).append(count)

    grew = {name: pair for name, pair in counts.items() if pair[0] != pair[1]}
    assert not grew, f"queries at 1 vs 50 battalions a side: {grew}"
