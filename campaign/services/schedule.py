"""The club schedule: resolve the night phase at the club's set time.

At each campaign's weekday and time (``Campaign.night_weekday``/``night_time``,
in the server's time zone) the night phase starts if every battle of the day is
reported; otherwise the umpires are reminded, once for that scheduled time.
"""

from __future__ import annotations

import datetime

from django.core.mail import send_mass_mail
from django.db import transaction
from django.utils import timezone

from campaign import models
from campaign.choices import CampaignStatus, DayStatus, EventVerb, MemberRole
from campaign.services.audit import Actor, event_record
from campaign.services.errors import ConflictError
from campaign.services.night import night_phase_start

SCHEDULER = Actor(request_id="club-schedule")


def last_scheduled(campaign: models.Campaign, now: datetime.datetime) -> datetime.datetime | None:
    """The latest scheduled night-phase moment at or before ``now``."""
    if campaign.night_weekday is None or campaign.night_time is None:
        return None
    local = timezone.localtime(now)
    days_back = (local.weekday() - campaign.night_weekday) % 7
    moment = timezone.make_aware(
        datetime.datetime.combine(local.date() - datetime.timedelta(days=days_back), campaign.night_time)
    )
    return moment if moment <= now else moment - datetime.timedelta(days=7)


def club_schedule_run(now: datetime.datetime) -> list[str]:
    """Act for every campaign whose scheduled moment has come; returns what was done."""
    done = []
    for campaign in models.Campaign.objects.filter(status=CampaignStatus.ACTIVE, night_weekday__isnull=False):
        moment = last_scheduled(campaign, now)
        day = campaign.days.filter(number=campaign.current_day, status=DayStatus.DAY).first()
        if moment is None or day is None or day.operations.filter(kind="night_phase").exists():
            continue
        try:
            night_phase_start(campaign.pk, SCHEDULER)
            done.append(f"{campaign.slug}: night phase started")
        except ConflictError as refused:
            if refused.code == "battles_unreported" and _remind(campaign.pk, moment, refused.message):
                done.append(f"{campaign.slug}: umpires reminded")
    return done


@transaction.atomic
def _remind(campaign_id: int, moment: datetime.datetime, reason: str) -> bool:
    """E-mail the umpires once per scheduled moment; False if already reminded."""
    campaign = models.Campaign.objects.select_for_update().get(pk=campaign_id)
    stamp = moment.isoformat()
    if campaign.events.filter(verb=EventVerb.UMPIRE_REMINDED, after__scheduled_for=stamp).exists():
        return False
    event_record(
        campaign,
        EventVerb.UMPIRE_REMINDED,
        campaign,
        f"Night phase not started: {reason}",
        SCHEDULER,
        after={"scheduled_for": stamp},
    )
    umpires = campaign.memberships.filter(role=MemberRole.UMPIRE).select_related("user")
    messages = [
        (
            f"{campaign.name}: the night phase is waiting",
            f"The scheduled night phase did not start: {reason}.",
            None,
            [m.user.email],
        )
        for m in umpires
        if m.user.email
    ]
    transaction.on_commit(lambda: send_mass_mail(messages, fail_silently=True))
    return True
