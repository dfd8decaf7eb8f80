"""The club schedule: resolve the night phase at the club's set time.

At each campaign's weekday and time (``Campaign.night_weekday``/``night_time``,
in the club's time zone, ``TIME_ZONE``) the night phase starts if every battle
of the day is reported; otherwise the umpires are reminded. The schedule acts
only on a moment after the day under way dawned and after the last moment it
acted on (:func:`campaign.selectors.club_schedule_next`, the moment the
dashboard shows): a day dawned after the club's time waits for the next one,
and a reminded day waits for the umpire or the next week's moment.
"""

from __future__ import annotations

import calendar
import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.mail import send_mass_mail
from django.db import transaction

from campaign import models
from campaign.access import campaign_umpires
from campaign.choices import CampaignStatus, DayStatus, EventVerb
from campaign.selectors import club_schedule_last, club_schedule_next
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock, campaign_save
from campaign.services.errors import ConflictError, DomainError
from campaign.services.night import night_phase_start

SCHEDULER = Actor(request_id="club-schedule")


def club_schedule_run(now: datetime.datetime) -> list[str]:
    """Act for every campaign whose scheduled moment has come; returns what was done."""
    done = []
    campaigns = models.Campaign.objects.filter(
        status=CampaignStatus.ACTIVE, night_weekday__isnull=False, night_time__isnull=False
    )
    for campaign in campaigns:
        day = campaign.days.filter(number=campaign.current_day, status=DayStatus.DAY).first()
        if day is None:
            continue
        due = club_schedule_next(campaign, day.dawned_at, now)
        if due is None or due > now:
            continue
        # The latest moment passed (``due`` or later): a beat that was down for weeks acts
        # once, not once a week.
        moment = club_schedule_last(campaign, now)
        assert moment is not None
        try:
            _night_start(campaign.pk, moment)
            done.append(f"{campaign.slug}: night phase started")
        except ConflictError as refused:
            if refused.code == "battles_unreported" and _remind(campaign.pk, moment, refused.message):
                done.append(f"{campaign.slug}: umpires reminded")
    return done


@transaction.atomic
def _night_start(campaign_id: int, moment: datetime.datetime) -> None:
    """Start the night phase for ``moment``; a refusal leaves ``moment`` unacted on."""
    campaign = campaign_lock(campaign_id)
    campaign.night_schedule_acted_for = moment
    campaign_save(campaign, "night_schedule_acted_for")
    night_phase_start(campaign_id, SCHEDULER)


@transaction.atomic
def _remind(campaign_id: int, moment: datetime.datetime, reason: str) -> bool:
    """E-mail the umpires once per scheduled moment; False if already acted on."""
    campaign = campaign_lock(campaign_id)
    acted_for = campaign.night_schedule_acted_for
    if acted_for is not None and acted_for >= moment:  # a concurrent run got here first
        return False
    campaign.night_schedule_acted_for = moment
    campaign_save(campaign, "night_schedule_acted_for")
    stamp = moment.isoformat()
    event_record(
        campaign,
        EventVerb.UMPIRE_REMINDED,
        campaign,
        f"Night phase not started: {reason}",
        SCHEDULER,
        after={"scheduled_for": stamp},
    )
    umpires = campaign_umpires(campaign).select_related("user")
    messages = [
        (
            f"{campaign.name}: the night phase is waiting",
            f"The scheduled night phase did not start: {reason}. "
            "Start it by hand once they are reported; the schedule waits for its next time.",
            None,
            [m.user.email],
        )
        for m in umpires
        if m.user.email
    ]
    transaction.on_commit(lambda: send_mass_mail(messages, fail_silently=True))
    return True


def _schedule_description(campaign: models.Campaign, nights: list[models.ClubNight]) -> dict[str, Any]:
    return {
        "night_weekday": campaign.night_weekday,
        "night_time": campaign.night_time.isoformat() if campaign.night_time else None,
        "orders_lead_hours": campaign.orders_lead_hours,
        "club_nights": {str(night.campaign_day): night.play_date.isoformat() for night in nights},
    }


@transaction.atomic
def campaign_schedule_set(
    campaign_id: int,
    actor: Actor,
    *,
    night_weekday: int | None,
    night_time: datetime.time | None,
    club_nights: Sequence[Mapping[str, Any]],
    orders_lead_hours: int = 0,
) -> models.Campaign:
    """The club's schedule, whole: the weekly night phase (weekday and time, or neither),
    which real date each campaign day is played (``{campaign_day, play_date}``, replacing all),
    and how long before the night phase the sides' orders close (rules notes C-19)."""
    if (night_weekday is None) != (night_time is None):
        missing = "night_time" if night_time is None else "night_weekday"
        raise DomainError(
            "the night phase needs both a weekday and a time, or neither (no schedule)", field=missing
        )
    days_seen: set[int] = set()
    for index, night in enumerate(club_nights):
        day = night["campaign_day"]
        if day in days_seen:
            raise DomainError(
                f"campaign day {day} is listed twice", field=f"club_nights[{index}].campaign_day"
            )
        days_seen.add(day)
    campaign = campaign_lock(campaign_id)
    before = _schedule_description(campaign, list(campaign.club_nights.order_by("campaign_day")))
    campaign.night_weekday, campaign.night_time = night_weekday, night_time
    campaign.orders_lead_hours = orders_lead_hours
    campaign_save(campaign, "night_weekday", "night_time", "orders_lead_hours")
    campaign.club_nights.all().delete()
    nights = models.ClubNight.objects.bulk_create(
        sorted(
            (
                models.ClubNight(
                    campaign=campaign, campaign_day=night["campaign_day"], play_date=night["play_date"]
                )
                for night in club_nights
            ),
            key=lambda night: night.campaign_day,
        )
    )
    after = _schedule_description(campaign, nights)
    weekly = (
        f"night phase every {calendar.day_name[night_weekday]} at {night_time:%H:%M}"
        if night_weekday is not None and night_time is not None
        else "no weekly night phase"
    )
    event_record(
        campaign,
        EventVerb.SCHEDULE_SET,
        campaign,
        f"Club schedule set: {weekly}, {len(nights)} club nights",
        actor,
        before=before,
        after=after,
    )
    return campaign
