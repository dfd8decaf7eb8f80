"""The club's calendar: club nights, the weekly night phase, orders deadlines, and the words that say when."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from campaign import models
from campaign.choices import (
    CampaignStatus,
    DayStatus,
)


def _club_moment(campaign: models.Campaign, date: datetime.date) -> datetime.datetime:
    """The club's night time on ``date`` in the club's time zone (``TIME_ZONE``), in UTC.

    A wall time the spring change skips reads as the hour after it, and one the
    autumn change repeats as its first occurrence (zoneinfo's ``fold=0``).
    """
    assert campaign.night_time is not None
    local = datetime.datetime.combine(date, campaign.night_time, tzinfo=timezone.get_default_timezone())
    return local.astimezone(datetime.UTC)


def _club_date(moment: datetime.datetime) -> datetime.date:
    return moment.astimezone(timezone.get_default_timezone()).date()


def club_schedule_last(campaign: models.Campaign, now: datetime.datetime) -> datetime.datetime | None:
    """The latest scheduled night-phase moment at or before ``now``; None without a schedule."""
    if campaign.night_weekday is None or campaign.night_time is None:
        return None
    today = _club_date(now)
    date = today - datetime.timedelta(days=(today.weekday() - campaign.night_weekday) % 7)
    moment = _club_moment(campaign, date)
    return moment if moment <= now else _club_moment(campaign, date - datetime.timedelta(days=7))


def club_schedule_next(
    campaign: models.Campaign, day_dawned_at: datetime.datetime | None, now: datetime.datetime
) -> datetime.datetime | None:
    """The scheduled moment the club schedule acts on next (:mod:`campaign.services.schedule`).

    The first moment after the day under way dawned (``day_dawned_at``) and after
    the last moment the schedule acted on. With no day under way, the first after
    ``now``: the next day dawns no earlier. None without a schedule or once the
    campaign is finished.
    """
    if campaign.night_weekday is None or campaign.night_time is None:
        return None
    if campaign.status == CampaignStatus.FINISHED:
        return None
    acted_for = campaign.night_schedule_acted_for
    since = max(day_dawned_at or now, acted_for) if acted_for else day_dawned_at or now
    first = _club_date(since)
    date = first + datetime.timedelta(days=(campaign.night_weekday - first.weekday()) % 7)
    moment = _club_moment(campaign, date)
    return moment if moment > since else _club_moment(campaign, date + datetime.timedelta(days=7))


def side_orders_day(campaign: models.Campaign) -> int:
    """The campaign day a side's new orders are for: the day under way until its night phase
    starts, else the next one (its night and dawn are the coming ones)."""
    day = campaign.days.filter(number=campaign.current_day).only("status").first()
    if day is not None and day.status in (DayStatus.DAWN, DayStatus.DAY):
        return campaign.current_day
    return campaign.current_day + 1


def side_orders_deadline(campaign: models.Campaign, day_number: int) -> datetime.datetime | None:
    """When a side's orders for campaign day ``day_number`` close (rules notes C-19): the night
    phase that follows the club night the club plays that day (:func:`club_night_orders_deadline`),
    else, once the day is under way, the weekly schedule's first night-phase moment after its
    dawn; less the club's lead time (``Campaign.orders_lead_hours``). None when the schedule sets
    no moment: orders then close when the night phase starts."""
    night = campaign.club_nights.filter(campaign_day=day_number).first()
    if night is not None:
        return club_night_orders_deadline(campaign, night.play_date)
    day = campaign.days.filter(number=day_number).only("dawned_at").first()
    if day is None or day.dawned_at is None:
        return None
    moment = club_schedule_next(campaign, day.dawned_at, day.dawned_at)
    return moment - datetime.timedelta(hours=campaign.orders_lead_hours) if moment is not None else None


def club_night_orders_deadline(campaign: models.Campaign, play_date: datetime.date) -> datetime.datetime:
    """When orders for the campaign day played on ``play_date`` close: the weekly night phase's
    first moment on or after that date (the night that follows the club night: a club playing on
    Tuesdays with its night phase on Wednesday mornings closes orders on the Wednesday), or the
    start of that date without a weekly schedule; less the club's lead time."""
    lead = datetime.timedelta(hours=campaign.orders_lead_hours)
    if campaign.night_weekday is not None and campaign.night_time is not None:
        date = play_date + datetime.timedelta(days=(campaign.night_weekday - play_date.weekday()) % 7)
        return _club_moment(campaign, date) - lead
    start = datetime.datetime.combine(play_date, datetime.time(0), tzinfo=timezone.get_default_timezone())
    return start.astimezone(datetime.UTC) - lead


def deadline_text(moment: datetime.datetime) -> str:
    """A deadline as the club reads it: its own time zone, named."""
    local = moment.astimezone(timezone.get_default_timezone())
    return f"{local:%A %d %B %Y, %H:%M} {local.tzname()}"


@dataclass(frozen=True)
class ClubSchedule:
    campaign: models.Campaign
    club_nights: list[models.ClubNight]
    next_night_phase: datetime.datetime | None


def club_schedule(campaign: models.Campaign, now: datetime.datetime) -> ClubSchedule:
    """The club's schedule: the weekly night phase, the club nights by campaign day, and the
    moment the schedule acts on next (:func:`club_schedule_next`)."""
    dawned_at = (
        models.CampaignDay.objects.filter(
            campaign=campaign, number=campaign.current_day, status=DayStatus.DAY
        )
        .values_list("dawned_at", flat=True)
        .first()
    )
    return ClubSchedule(
        campaign=campaign,
        club_nights=list(campaign.club_nights.order_by("campaign_day")),
        next_night_phase=club_schedule_next(campaign, dawned_at, now),
    )


def calendar_feed(token: str) -> ClubSchedule | None:
    """The schedule a member's calendar secret opens (None for an unknown one): their campaign's
    weekly night phase and club nights, nothing else of the campaign or the member."""
    membership = models.Membership.objects.filter(calendar_token=token).select_related("campaign").first()
    if membership is None:
        return None
    campaign = membership.campaign
    return ClubSchedule(
        campaign=campaign,
        club_nights=list(campaign.club_nights.order_by("campaign_day")),
        next_night_phase=None,
    )
