"""The umpire's journal: a short public text per campaign day, which the timeline shows."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import EventVerb
from campaign.models.days import JOURNAL_MAX_LENGTH
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock, campaign_save
from campaign.services.errors import DomainError, NotFoundError


def day_actions(access: CampaignAccess, day: models.CampaignDay) -> list[str]:
    """What ``access`` may do with a day of the timeline: umpires write its journal, even once the
    campaign is over (it is the campaign's account, not its state)."""
    return ["write_journal"] if access.is_umpire else []


@transaction.atomic
def day_journal_write(campaign_id: int, actor: Actor, day_number: int, text: str) -> models.CampaignDay:
    """Replace day ``day_number``'s journal with ``text`` (blank: none). Its readers are every member."""
    text = text.strip()
    if len(text) > JOURNAL_MAX_LENGTH:
        raise DomainError(
            f"the journal is {len(text)} characters long: keep it to {JOURNAL_MAX_LENGTH}", field="text"
        )
    # Who reads the text is settled (everybody): the campaign's end does not close the account.
    campaign = campaign_lock(campaign_id, finished_ok=True)
    day = models.CampaignDay.objects.select_for_update().filter(campaign=campaign, number=day_number).first()
    if day is None:
        raise NotFoundError(f"day {day_number} has not dawned in this campaign", field="day")
    if day.journal == text:
        return day  # the same text again: nothing changes, nothing is recorded
    before = day.journal
    day.journal, day.journal_written_at = text, timezone.now()
    day.save(update_fields=["journal", "journal_written_at"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.DAY_JOURNAL_WRITTEN,
        day,
        f"The journal of day {day.number} was {'written' if text else 'cleared'}",
        actor,
        before={"journal": before},
        after={"journal": text},
    )
    return day
