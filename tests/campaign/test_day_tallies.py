"""The dawn tally: each side's strength and stocks, recorded set-based as a day dawns."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import models
from campaign.choices import ArrivalStatus
from campaign.services.audit import Actor
from campaign.services.days import DeploymentOrder, day_dawn
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="test-request")


def test_dawn_records_one_tally_per_side_after_its_own_changes():
    campaign = campaign_with_sides(battalions_per_side=2)
    axis = campaign.sides.get(name="Axis")
    models.Side.objects.filter(pk=axis.pk).update(activation_points=5, barrage_rounds=7)
    models.Battalion.objects.filter(campaign=campaign, code="A1").update(in_reserve=True)
    allied_reserve = models.Battalion.objects.filter(campaign=campaign, side__name="Allied").first()
    models.Battalion.objects.filter(pk=allied_reserve.pk).update(in_reserve=True)  # not deployed

    day = day_dawn(campaign.pk, ACTOR, deployments=[DeploymentOrder("A1", range_inches=3)])

    tallies = {t.side.name: t for t in models.SideDayTally.objects.filter(day=day).select_related("side")}
    assert set(tallies) == {"Axis", "Allied"}
    assert (tallies["Axis"].activation_points, tallies["Axis"].barrage_rounds) == (5, 7)
    # 004 chart 2 at 3": the deployment destroys one stand and suppresses another, before the tally.
    assert tallies["Axis"].strength == {
        "hq": {"ok": 2, "suppressed": 0, "destroyed": 0, "in_action": 2},
        "infantry": {"ok": 4, "suppressed": 1, "destroyed": 1, "in_action": 5},
    }
    # A battalion in reserve is not in action.
    assert tallies["Allied"].strength == {
        "hq": {"ok": 2, "suppressed": 0, "destroyed": 0, "in_action": 1},
        "infantry": {"ok": 6, "suppressed": 0, "destroyed": 0, "in_action": 3},
    }


def test_a_force_off_the_table_is_not_in_action():
    campaign = campaign_with_sides(battalions_per_side=2)
    models.Force.objects.filter(campaign=campaign, side__name="Allied").update(
        arrival_status=ArrivalStatus.SCHEDULED, arrival_day=3
    )

    day = day_dawn(campaign.pk, ACTOR)

    allied = models.SideDayTally.objects.get(day=day, side__name="Allied")
    assert allied.strength == {
        "hq": {"ok": 2, "suppressed": 0, "destroyed": 0, "in_action": 0},
        "infantry": {"ok": 6, "suppressed": 0, "destroyed": 0, "in_action": 0},
    }


def test_the_tally_costs_the_same_queries_for_any_number_of_battalions():
    counts = []
    for battalions in (1, 8):
        campaign = campaign_with_sides(battalions_per_side=battalions)
        with CaptureQueriesContext(connection) as captured:
            day_dawn(campaign.pk, ACTOR)
        counts.append(len(captured))
        assert models.SideDayTally.objects.filter(day__campaign=campaign).count() == 2

    assert counts[0] == counts[1]
