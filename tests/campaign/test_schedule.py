"""The club schedule starts the night phase at the club's time, or reminds the umpire once.

The clock is controlled (time-machine): a day dawns at a known moment, and the
schedule runs at the moments a beat tick would.
"""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.test import Client

from campaign import models
from campaign.choices import DayStatus
from campaign.selectors import club_schedule_last, club_schedule_next
from campaign.services.battles import battle_create
from campaign.services.days import day_dawn
from campaign.services.operations import operation_run
from campaign.services.schedule import club_schedule_run
from tests.campaign.night_setup import ACTOR, campaign_after_day_one

pytestmark = pytest.mark.django_db
UTC = datetime.UTC
THURSDAY_2300 = datetime.datetime(2026, 11, 19, 23, 0, tzinfo=UTC)
# The Malta demo's schedule: Wednesdays (weekday 2) at 09:00.
WEDNESDAY, NINE = 2, datetime.time(9, 0)


def scheduled(
    campaign: models.Campaign, weekday: int = 3, at: datetime.time = datetime.time(23, 0)
) -> models.Campaign:
    models.Campaign.objects.filter(pk=campaign.pk).update(night_weekday=weekday, night_time=at)
    campaign.refresh_from_db()
    return campaign


def day_one_at(moment: datetime.datetime, **schedule: Any) -> models.Campaign:
    """Day 1 dawned and fought at ``moment``, on the club's schedule."""
    with time_machine.travel(moment, tick=False):
        campaign = campaign_after_day_one()
    return scheduled(campaign, **schedule)


def schedule_at(moment: datetime.datetime, capture) -> list[str]:
    with time_machine.travel(moment, tick=False), capture(execute=False):
        return club_schedule_run(moment)


def night_phases(campaign: models.Campaign) -> list[int]:
    return list(campaign.operations.filter(kind="night_phase").values_list("day__number", flat=True))


def test_the_last_scheduled_moment_is_the_latest_thursday_2300():
    campaign = models.Campaign(night_weekday=3, night_time=datetime.time(23, 0))
    assert club_schedule_last(campaign, THURSDAY_2300) == THURSDAY_2300
    assert club_schedule_last(
        campaign, THURSDAY_2300 - datetime.timedelta(minutes=1)
    ) == THURSDAY_2300 - datetime.timedelta(days=7)
    assert club_schedule_last(models.Campaign(), THURSDAY_2300) is None


def test_at_the_clubs_time_a_fully_reported_day_goes_to_night(django_capture_on_commit_callbacks):
    campaign = day_one_at(THURSDAY_2300 - datetime.timedelta(hours=3))

    done = schedule_at(THURSDAY_2300, django_capture_on_commit_callbacks)

    assert done == [f"{campaign.slug}: night phase started"]
    assert night_phases(campaign) == [1]
    assert campaign.operations.get().created_by is None
    assert (
        schedule_at(THURSDAY_2300 + datetime.timedelta(minutes=5), django_capture_on_commit_callbacks) == []
    )


def test_with_a_battle_unreported_the_umpires_are_reminded_once(django_capture_on_commit_callbacks):
    campaign = day_one_at(THURSDAY_2300 - datetime.timedelta(hours=3))
    umpire = campaign.memberships.get(role="umpire").user
    umpire.email = "umpire@example.org"
    umpire.save()
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Mosta",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["A1"],
    )

    with time_machine.travel(THURSDAY_2300, tick=False), django_capture_on_commit_callbacks(execute=True):
        first = club_schedule_run(THURSDAY_2300)
    campaign.battles.filter(sector__name="Mosta").update(status="reported")
    # Reported since: the schedule has acted on 23:00 and leaves the night to the umpire.
    second = schedule_at(THURSDAY_2300 + datetime.timedelta(minutes=5), django_capture_on_commit_callbacks)

    assert first == [f"{campaign.slug}: umpires reminded"]
    assert second == []
    assert not campaign.operations.exists()
    assert [m.to for m in mail.outbox] == [["umpire@example.org"]]
    assert "Mosta" in mail.outbox[0].body
    campaign.refresh_from_db()
    assert campaign.night_schedule_acted_for == THURSDAY_2300
    week_on = THURSDAY_2300 + datetime.timedelta(days=7)
    assert schedule_at(week_on, django_capture_on_commit_callbacks) == [
        f"{campaign.slug}: night phase started"
    ]


def test_a_day_that_dawned_after_the_clubs_time_waits_for_the_next_one(django_capture_on_commit_callbacks):
    """Issue 13.1: day 2 dawned on Wednesday after 09:00 and the next tick closed it."""
    tuesday_evening = datetime.datetime(2026, 11, 17, 20, 0, tzinfo=UTC)
    wednesday_0900 = datetime.datetime(2026, 11, 18, 9, 0, tzinfo=UTC)
    campaign = day_one_at(tuesday_evening, weekday=WEDNESDAY, at=NINE)
    assert schedule_at(wednesday_0900, django_capture_on_commit_callbacks) == [
        f"{campaign.slug}: night phase started"
    ]
    operation_run(campaign.operations.get().pk)
    late_dawn = wednesday_0900 + datetime.timedelta(hours=1)
    with time_machine.travel(late_dawn, tick=False), django_capture_on_commit_callbacks(execute=False):
        day_dawn(campaign.pk, ACTOR)

    next_tick = wednesday_0900 + datetime.timedelta(hours=1, minutes=5)
    assert schedule_at(next_tick, django_capture_on_commit_callbacks) == []

    day_two = campaign.days.get(number=2)
    assert day_two.status == DayStatus.DAY
    assert night_phases(campaign) == [1]
    campaign.refresh_from_db()
    next_wednesday = wednesday_0900 + datetime.timedelta(days=7)
    assert club_schedule_next(campaign, day_two.dawned_at, next_tick) == next_wednesday
    assert (
        schedule_at(next_wednesday - datetime.timedelta(minutes=1), django_capture_on_commit_callbacks) == []
    )
    assert schedule_at(next_wednesday, django_capture_on_commit_callbacks) == [
        f"{campaign.slug}: night phase started"
    ]
    assert night_phases(campaign) == [2, 1]


def test_the_dashboard_names_the_moment_the_schedule_acts_on(django_capture_on_commit_callbacks):
    tuesday_evening = datetime.datetime(2026, 11, 17, 20, 0, tzinfo=UTC)
    campaign = day_one_at(tuesday_evening, weekday=WEDNESDAY, at=NINE)
    client = Client()
    client.force_login(campaign.memberships.get(role="umpire").user)

    def shown(at: datetime.datetime) -> str | None:
        with time_machine.travel(at, tick=False):
            moment: str | None = client.get(f"/api/v1/campaigns/{campaign.slug}/").json()["next_night_phase"]
        return moment

    assert shown(tuesday_evening) == "2026-11-18T09:00:00Z"
    schedule_at(datetime.datetime(2026, 11, 18, 9, 0, tzinfo=UTC), django_capture_on_commit_callbacks)
    operation_run(campaign.operations.get().pk)
    late_dawn = datetime.datetime(2026, 11, 18, 10, 0, tzinfo=UTC)
    with time_machine.travel(late_dawn, tick=False), django_capture_on_commit_callbacks(execute=False):
        day_dawn(campaign.pk, ACTOR)
    assert shown(late_dawn + datetime.timedelta(minutes=1)) == "2026-11-25T09:00:00Z"


@pytest.mark.parametrize(
    ("zone", "weekday", "dawn", "before", "due"),
    [
        # Malta springs forward on Sunday 29 March 2026: 09:00 is 07:00 UTC, not 08:00.
        (
            "Europe/Malta",
            6,
            datetime.datetime(2026, 3, 28, 11, 0, tzinfo=UTC),
            datetime.datetime(2026, 3, 29, 6, 59, tzinfo=UTC),
            datetime.datetime(2026, 3, 29, 7, 0, tzinfo=UTC),
        ),
        # And falls back on Sunday 25 October 2026: 09:00 is 08:00 UTC, not 07:00.
        (
            "Europe/Malta",
            6,
            datetime.datetime(2026, 10, 24, 10, 0, tzinfo=UTC),
            datetime.datetime(2026, 10, 25, 7, 30, tzinfo=UTC),
            datetime.datetime(2026, 10, 25, 8, 0, tzinfo=UTC),
        ),
        # Monday 09:00 in Auckland (UTC+13) is Sunday 20:00 UTC: the club's weekday counts.
        (
            "Pacific/Auckland",
            0,
            datetime.datetime(2026, 11, 21, 21, 0, tzinfo=UTC),
            datetime.datetime(2026, 11, 22, 19, 59, tzinfo=UTC),
            datetime.datetime(2026, 11, 22, 20, 0, tzinfo=UTC),
        ),
    ],
)
def test_the_schedule_keeps_the_clubs_wall_clock(
    settings, django_capture_on_commit_callbacks, zone, weekday, dawn, before, due
):
    settings.TIME_ZONE = zone
    # A week earlier the same wall-clock time had the other UTC offset (or weekday), so
    # neither "last week plus seven days" in UTC nor the UTC weekday gives ``due``.
    campaign = day_one_at(dawn, weekday=weekday, at=NINE)
    assert due.astimezone(ZoneInfo(zone)).time() == NINE
    assert due.astimezone(ZoneInfo(zone)).weekday() == weekday

    assert club_schedule_next(campaign, campaign.days.get(number=1).dawned_at, dawn) == due
    assert schedule_at(before, django_capture_on_commit_callbacks) == []
    assert schedule_at(due, django_capture_on_commit_callbacks) == [f"{campaign.slug}: night phase started"]
