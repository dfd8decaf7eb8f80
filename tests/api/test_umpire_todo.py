"""`todo/`: what waits for the umpire now, in one list (issue 30), and the notifications that tell
the umpires of orders submitted and drafts filed."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from campaign import models
from campaign.choices import NotificationKind
from campaign.services.audit import Actor
from campaign.services.battle_drafts import battle_draft_save
from campaign.services.orders import side_order_draft, side_order_submit
from tests.e2e.demo import malta_day_one

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("equipment_reference")]


def todo(campaign: models.Campaign, username: str = "umpire") -> tuple[int, Any]:
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(username=username))
    response = client.get(f"/api/v1/campaigns/{campaign.slug}/todo/")
    return response.status_code, response.json()


def test_the_umpire_reads_what_waits_and_is_told_of_orders_and_drafts(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):  # no worker: arrival rolls wait
        campaign = malta_day_one()  # a segment on, G1 attacks W1 at Gudja
        status, body = todo(campaign)
        assert status == 200
        kinds = [item["kind"] for item in body["items"]]
        assert "supply_unconfirmed" in kinds
        segments = next(item for item in body["items"] if item["kind"] == "segments_left")
        assert segments["kind_label"] == "Segments left to play"
        assert segments["text"].startswith(f"{segments['count']} segments of day 1 left to play: next the ")
        assert segments["link"] == f"/campaigns/{campaign.slug}/day"
        assert "orders_submitted" not in kinds
        assert "night_due" not in kinds  # segments are left and the club's time has not come

        axis = campaign.sides.get(is_axis=True)
        player = Actor(user=get_user_model().objects.get(username="axis"), request_id="todo")
        code = (
            campaign.battalions.filter(side=axis, in_reserve=False)
            .exclude(code="G1")
            .order_by("code")[0]
            .code
        )
        order = side_order_draft(
            campaign.pk, player, side_id=axis.pk, kind="withdraw", payload={"battalion_code": code}
        )
        side_order_submit(campaign.pk, player, order.pk, side_id=axis.pk)
        battle = campaign.battles.get()
        battle_draft_save(campaign.pk, player, battle.pk, {"battalions": [{"code": "G1"}]})

        _, body = todo(campaign)
    items = {item["kind"]: item for item in body["items"]}
    assert items["orders_submitted"]["text"] == "1 order waits for your approval"
    assert items["orders_submitted"]["link"] == f"/campaigns/{campaign.slug}/orders"
    assert (
        items["draft_awaited"]["text"]
        == "Axis filed its draft of the battle at Gudja (day 1); Allied's is awaited"
    )
    assert items["draft_awaited"]["link"] == f"/campaigns/{campaign.slug}/battles/{battle.public_id}"
    umpire = get_user_model().objects.get(username="umpire")
    told = dict(
        models.Notification.objects.filter(recipient=umpire, campaign=campaign).values_list("kind", "title")
    )
    assert told[NotificationKind.ORDER_SUBMITTED] == "Axis submitted an order for day 1"
    assert told[NotificationKind.DRAFT_FILED] == "Axis filed its draft of the battle at Gudja"
    # A player has no to-do of the umpire's.
    assert todo(campaign, "axis")[0] == 403


def test_the_night_is_due_once_the_clubs_time_has_come(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        campaign = malta_day_one(battle=False)
    dawned = campaign.days.get(number=1).dawned_at
    later = dawned + datetime.timedelta(days=8)  # past the weekly night phase after the dawn

    with time_machine.travel(later, tick=False):
        _, body = todo(campaign)

    night = next(item for item in body["items"] if item["kind"] == "night_due")
    assert night["text"].startswith("The night phase of day 1 is due (the club's schedule: ")
    assert night["link"] == f"/campaigns/{campaign.slug}/night"


def test_arrival_rolls_running_are_listed_until_they_finish(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        campaign = malta_day_one(battle=False)
    day = campaign.days.get(number=1)
    operation = models.Operation.objects.create(
        campaign=campaign, kind="arrivals", day=day, segment=day.segments.order_by("-order").first()
    )

    running = [item for item in todo(campaign)[1]["items"] if item["kind"] == "arrivals_rolling"]
    operation.status = "done"
    operation.save(update_fields=["status"])
    done = [item for item in todo(campaign)[1]["items"] if item["kind"] == "arrivals_rolling"]

    assert [item["text"] for item in running] == [
        "Reinforcements are rolling for arrival: wait for their reports"
    ]
    assert done == []
