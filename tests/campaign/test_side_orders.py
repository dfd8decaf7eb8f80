"""Sealed orders on the Malta demo (rules notes C-19): an artillery order is refused when the
scenario forbids its mode that day, and approved through the artillery service when it does
not; the deadline follows the club schedule."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from campaign import models, selectors
from campaign.choices import SideOrderStatus
from campaign.services.errors import DomainError
from campaign.services.orders import order_words, side_order_approve, side_order_draft, side_order_submit
from tests.campaign.night_setup import ACTOR
from tests.e2e.demo import malta_day_one

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("equipment_reference")]
HOUSE_RULE = "Malta"


def test_an_artillery_order_follows_the_scenarios_modes_of_the_day():
    campaign = malta_day_one(battle=False)
    axis = campaign.sides.get(is_axis=True)

    with pytest.raises(DomainError) as refused:
        side_order_draft(
            campaign.pk,
            ACTOR,
            side_id=axis.pk,
            kind="artillery",
            payload={"template": 1, "mode": "pre-planned"},
        )
    assert (refused.value.field, refused.value.code) == ("payload.mode", "mode_not_allowed")
    assert "Axis may order only on call artillery on day 1" in refused.value.message
    assert HOUSE_RULE in (refused.value.rule or "")

    order = side_order_draft(
        campaign.pk, ACTOR, side_id=axis.pk, kind="artillery", payload={"template": 1, "mode": "on-call"}
    )
    side_order_submit(campaign.pk, ACTOR, order.pk, side_id=axis.pk)
    approved = side_order_approve(campaign.pk, ACTOR, order.pk)

    assert approved.status == SideOrderStatus.APPLIED
    assert models.ArtilleryOrder.objects.get(side=axis, day__number=1, template=1).mode == "on-call"
    # Issue 29: the order's words name the mode by its label, not its code.
    assert order_words(approved) == "artillery template 1, on call"


def test_without_a_club_night_the_weekly_time_after_dawn_less_the_lead_closes_orders():
    campaign = malta_day_one(battle=False)
    campaign.club_nights.all().delete()
    dawned = campaign.days.get(number=1).dawned_at
    assert dawned is not None
    campaign.night_weekday = dawned.astimezone(timezone.get_default_timezone()).weekday()
    campaign.night_time = datetime.time(23, 59)
    campaign.orders_lead_hours = 3
    campaign.save()

    deadline = selectors.side_orders_deadline(campaign, 1)

    # The night phase at 23:59 on the day of the dawn (its weekday), less 3 hours.
    local = dawned.astimezone(timezone.get_default_timezone())
    assert deadline == datetime.datetime.combine(local.date(), datetime.time(20, 59), tzinfo=local.tzinfo)
    assert selectors.side_orders_deadline(campaign, 2) is None  # day 2 has not dawned: no moment yet
