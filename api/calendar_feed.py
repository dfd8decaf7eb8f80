"""A campaign's club nights as iCalendar (RFC 5545), for a member's calendar app.

Built with the ``icalendar`` library, which writes the time zone (VTIMEZONE) the
weekly night phase is set in, folds long lines and escapes text as the RFC says.
The feed holds the campaign's name, its club nights, when the sides' orders for each
club night's day close (the same moment for every side) and its weekly night phase:
nothing of its sides, forces or members.
"""

from __future__ import annotations

import datetime

from django.utils import timezone
from icalendar import Calendar, Event

from campaign.selectors import ClubSchedule, club_night_orders_deadline, deadline_text

PRODUCT_ID = "-//Campaign service//Club nights//EN"


def _weekly_start(schedule: ClubSchedule) -> datetime.datetime | None:
    """The first weekly night phase: on its weekday, from the week the campaign was created."""
    campaign = schedule.campaign
    if campaign.night_weekday is None or campaign.night_time is None:
        return None
    club_zone = timezone.get_default_timezone()
    first = timezone.localtime(campaign.created_at, club_zone).date()
    date = first + datetime.timedelta(days=(campaign.night_weekday - first.weekday()) % 7)
    return datetime.datetime.combine(date, campaign.night_time, tzinfo=club_zone)


def calendar_ics(schedule: ClubSchedule) -> bytes:
    campaign = schedule.campaign
    # The schedule's last change: a calendar app that polls sees the same stamps until it changes.
    stamp = campaign.updated_at
    feed = Calendar()
    feed.add("prodid", PRODUCT_ID)
    feed.add("version", "2.0")
    feed.add("x-wr-calname", f"{campaign.name}: club nights")
    for night in schedule.club_nights:
        event = Event()
        event.add("uid", f"{campaign.slug}-club-night-{night.campaign_day}@campaign-service")
        event.add("dtstamp", stamp)
        event.add("summary", f"{campaign.name}: club night, campaign day {night.campaign_day}")
        event.add("dtstart", night.play_date)  # a whole day: the club meets that evening
        event.add("dtend", night.play_date + datetime.timedelta(days=1))
        feed.add_component(event)
        deadline = club_night_orders_deadline(campaign, night.play_date)
        event = Event()
        event.add("uid", f"{campaign.slug}-orders-deadline-{night.campaign_day}@campaign-service")
        event.add("dtstamp", stamp)
        event.add("summary", f"{campaign.name}: orders for campaign day {night.campaign_day} close")
        event.add(
            "description",
            f"Each side's sealed orders for day {night.campaign_day} must be submitted before "
            f"{deadline_text(deadline)}.",
        )
        # A moment in the club's time zone (no end: RFC 5545 § 3.6.1).
        event.add("dtstart", deadline.astimezone(timezone.get_default_timezone()))
        feed.add_component(event)
    weekly = _weekly_start(schedule)
    if weekly is not None:
        event = Event()
        event.add("uid", f"{campaign.slug}-night-phase@campaign-service")
        event.add("dtstamp", stamp)
        event.add("summary", f"{campaign.name}: night phase")
        event.add("description", "The night phase starts by itself if every battle of the day is reported.")
        event.add("dtstart", weekly)
        event.add("rrule", {"freq": "weekly"})
        feed.add_component(event)
    feed.add_missing_timezones()
    return bytes(feed.to_ical())
