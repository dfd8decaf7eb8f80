"""The club schedule starts the night phase at the club's time, or reminds the umpire once."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.utils import timezone

from campaign import models
from campaign.services.battles import battle_create
from campaign.services.schedule import club_schedule_run, last_scheduled
from tests.campaign.night_setup import ACTOR, campaign_after_day_one

pytestmark = pytest.mark.django_db
THURSDAY_2300 = timezone.make_aware(datetime.datetime(2026, 11, 19, 23, 0))


def scheduled(campaign: models.Campaign) -> models.Campaign:
    models.Campaign.objects.filter(pk=campaign.pk).update(night_weekday=3, night_time=datetime.time(23, 0))
    campaign.refresh_from_db()
    return campaign


def test_the_last_scheduled_moment_is_the_latest_thursday_2300():
    campaign = models.Campaign(night_weekday=3, night_time=datetime.time(23, 0))
    assert last_scheduled(campaign, THURSDAY_2300) == THURSDAY_2300
    assert last_scheduled(
        campaign, THURSDAY_2300 - datetime.timedelta(minutes=1)
    ) == THURSDAY_2300 - datetime.timedelta(days=7)
    assert last_scheduled(models.Campaign(), THURSDAY_2300) is None


def test_at_the_clubs_time_a_fully_reported_day_goes_to_night(django_capture_on_commit_callbacks):
    campaign = scheduled(campaign_after_day_one())

    with django_capture_on_commit_callbacks(execute=False):
        done = club_schedule_run(THURSDAY_2300)

    assert done == [f"{campaign.slug}: night phase started"]
    assert campaign.operations.filter(kind="night_phase").count() == 1
    with django_capture_on_commit_callbacks(execute=False):
        assert club_schedule_run(THURSDAY_2300) == []


def test_with_a_battle_unreported_the_umpires_are_reminded_once(django_capture_on_commit_callbacks):
    campaign = scheduled(campaign_after_day_one())
    umpire = campaign.memberships.get(role="umpire").user
    umpire.email = "umpire@example.org"
    umpire.save()
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    battle_create(
        campaign.pk,
        ACTOR,
        sector="Mosta",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["A1"],
    )

    with django_capture_on_commit_callbacks(execute=True):
        first = club_schedule_run(THURSDAY_2300)
    with django_capture_on_commit_callbacks(execute=True):
        second = club_schedule_run(THURSDAY_2300 + datetime.timedelta(minutes=5))

    assert first == [f"{campaign.slug}: umpires reminded"]
    assert second == []
    assert not campaign.operations.exists()
    assert [m.to for m in mail.outbox] == [["umpire@example.org"]]
    assert "Mosta" in mail.outbox[0].body
