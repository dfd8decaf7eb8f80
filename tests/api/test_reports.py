"""Reports of night phases and of arrival rolls: each listed, filtered and titled under its kind."""

from __future__ import annotations

from typing import Any

import pytest

from campaign import models
from campaign.choices import ArrivalStatus, OperationKind
from campaign.services.days import segment_arrivals_start
from campaign.services.operations import operation_run
from tests.api.world import ACTOR, Role, World, build_world
from tests.campaign.factories import ForceFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    """The world's day 1 night phase, then day 2's arrival rolls for an Axis force."""
    world = build_world()
    ForceFactory(
        side=world.axis,
        campaign=world.campaign,
        name="Ariete",
        arrival_status=ArrivalStatus.SCHEDULED,
        arrival_day=world.campaign.current_day,
    )
    operation_run(segment_arrivals_start(world.campaign.pk, ACTOR).pk)
    return world


def listed(world: World, role: Role, **query: str) -> list[dict[str, Any]]:
    response = world.client(role).get(world.url("night-report-list"), {"page_size": "100", **query})
    assert response.status_code == 200, response.json()
    results: list[dict[str, Any]] = response.json()["results"]
    return results


def test_each_report_carries_its_kind_with_its_label_and_a_title_in_words(world):
    arrivals = world.campaign.operations.get(kind=OperationKind.ARRIVALS)
    assert arrivals.segment is not None

    by_kind = {
        (r["kind"], r["kind_label"], r["title"], r["day"], r["side"]) for r in listed(world, Role.UMPIRE)
    }

    arrival_title = f"Arrivals, day 2, {arrivals.segment.segment}"
    assert by_kind == {
        ("night_phase", "Night phase", "Night of day 1", 1, world.axis.pk),
        ("night_phase", "Night phase", "Night of day 1", 1, world.allied.pk),
        ("arrivals", "Arrival rolls", arrival_title, 2, world.axis.pk),
        ("arrivals", "Arrival rolls", arrival_title, 2, world.allied.pk),
    }
    (axis_arrivals,) = listed(world, Role.AXIS_PLAYER, kind="arrivals")
    (entry,) = axis_arrivals["body"]["arrivals"]
    assert entry["force"] == "Ariete"
    assert entry["arrival_status_label"] == ArrivalStatus(entry["arrival_status"]).label


def test_the_list_filters_by_kind_and_refuses_an_unknown_one(world):
    nights = listed(world, Role.UMPIRE, kind="night_phase")
    arrivals = listed(world, Role.UMPIRE, kind="arrivals")

    assert {r["kind"] for r in nights} == {"night_phase"}
    assert {r["kind"] for r in arrivals} == {"arrivals"}
    assert len(nights) + len(arrivals) == models.NightReport.objects.count() == 4
    assert [r["side"] for r in listed(world, Role.ALLIED_PLAYER, kind="arrivals")] == [world.allied.pk]
    refused = world.client(Role.UMPIRE).get(world.url("night-report-list"), {"kind": "battle"})
    assert refused.status_code == 400
    assert "kind" in refused.json()["error"]["fields"]


def test_the_latest_night_report_of_a_force_status_is_a_night_phases(world):
    """A later day's arrival report does not pass for the side's night report."""
    force = models.Force.objects.filter(side=world.axis).order_by("pk").first()
    assert force is not None

    status = world.client(Role.AXIS_PLAYER).get(world.url("force-force-status", pk=force.public_id)).json()

    latest = status["latest_night_report"]
    assert (latest["kind"], latest["title"], latest["day"]) == ("night_phase", "Night of day 1", 1)


def test_a_report_body_reads_as_the_services_wrote_it(world):
    """The bodies' schemas (NightReportBody, ArrivalReportBody) declare every figure the
    services write: the API drops none."""
    stored = {str(report.public_id): report.body for report in models.NightReport.objects.all()}
    assert {report["id"]: report["body"] for report in listed(world, Role.UMPIRE)} == stored
