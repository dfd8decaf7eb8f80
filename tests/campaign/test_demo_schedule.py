"""The Malta demo as shipped, loaded on any date (issue 30's blocker): its club nights start from
the date it is loaded on, the sides' orders for day 1 are open, and their deadline is the weekly
night phase that follows the club night (rules notes C-19), in the calendar feed too.

The clock is controlled (time-machine), on dates months apart and on either side of the demo's
weekly night phase (Wednesdays, 09:00)."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone
from icalendar import Calendar

from api.calendar_feed import calendar_ics
from campaign import models
from campaign.choices import SideOrderStatus
from campaign.selectors import club_schedule, club_schedule_next, side_orders_deadline
from campaign.services.audit import Actor
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn
from campaign.services.demo import demo_campaign_create, demo_campaign_load, demo_users_ensure
from campaign.services.orders import side_order_draft, side_order_submit

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("equipment_reference")]
UTC = datetime.UTC

LOADED_ON = [
    # (the moment it is loaded and played, the date of day 1's club night, its orders' deadline)
    # A Wednesday after the night phase's 09:00: the club plays next Tuesday, orders close on the
    # Wednesday after.
    (
        datetime.datetime(2027, 1, 13, 10, 0, tzinfo=UTC),
        datetime.date(2027, 1, 19),
        datetime.datetime(2027, 1, 20, 9, 0, tzinfo=UTC),
    ),
    # A Tuesday, the club's own evening, months later: day 1 is played tonight.
    (
        datetime.datetime(2027, 6, 8, 18, 0, tzinfo=UTC),
        datetime.date(2027, 6, 8),
        datetime.datetime(2027, 6, 9, 9, 0, tzinfo=UTC),
    ),
]


@pytest.mark.parametrize(("moment", "club_night", "deadline"), LOADED_ON)
def test_the_demo_loaded_on_any_date_takes_sealed_orders_for_day_one_until_its_night_phase(
    moment: datetime.datetime,
    club_night: datetime.date,
    deadline: datetime.datetime,
    django_capture_on_commit_callbacks,
) -> None:
    with time_machine.travel(moment, tick=False), django_capture_on_commit_callbacks(execute=False):
        demo_users_ensure()
        campaign = demo_campaign_load()
        assert campaign is not None
        nights = dict(campaign.club_nights.values_list("campaign_day", "play_date"))
        assert nights[1] == club_night
        assert [nights[day] - nights[1] for day in sorted(nights)] == [
            datetime.timedelta(weeks=week) for week in range(len(nights))
        ]

        umpire = Actor(user=get_user_model().objects.get(username="umpire"), request_id="club-night")
        campaign_start(campaign.pk, umpire)
        dawned = day_dawn(campaign.pk, umpire)
        campaign.refresh_from_db()

        # Orders close when the night phase the schedule starts for day 1 begins: they agree.
        assert side_orders_deadline(campaign, 1) == deadline
        assert club_schedule_next(campaign, dawned.dawned_at, timezone.now()) == deadline
        assert club_schedule(campaign, timezone.now()).next_night_phase == deadline

        axis = campaign.sides.get(is_axis=True)
        battalion = campaign.battalions.filter(side=axis, in_reserve=False).order_by("code").first()
        assert battalion is not None
        player = Actor(user=get_user_model().objects.get(username="axis"), request_id="orders")
        order = side_order_draft(
            campaign.pk, player, side_id=axis.pk, kind="withdraw", payload={"battalion_code": battalion.code}
        )
        submitted = side_order_submit(campaign.pk, player, order.pk, side_id=axis.pk)
        assert (submitted.status, submitted.day_number) == (SideOrderStatus.SUBMITTED, 1)

        # The calendar feed says when each day's orders close: day 1's is that same moment.
        feed = Calendar.from_ical(calendar_ics(club_schedule(campaign, timezone.now())))
        closes = {
            str(event["summary"]): event.decoded("dtstart")
            for event in feed.walk("VEVENT")
            if "orders for" in str(event["summary"])
        }
        assert len(closes) == len(nights)
        assert closes[f"{campaign.name}: orders for campaign day 1 close"] == deadline
        assert closes[f"{campaign.name}: orders for campaign day 2 close"] == deadline + datetime.timedelta(
            weeks=1
        )


def test_a_campaign_made_from_the_demo_starts_its_club_nights_from_today_too() -> None:
    with time_machine.travel(datetime.datetime(2028, 2, 24, 12, 0, tzinfo=UTC), tick=False):  # a Thursday
        creator = get_user_model().objects.create(username="new-club")
        campaign = demo_campaign_create(Actor(user=creator, request_id="new-club"), slug="new-club")

    first = models.ClubNight.objects.get(campaign=campaign, campaign_day=1).play_date
    assert first == datetime.date(2028, 2, 29)  # the Tuesday after
