"""Reinforcement scheduling: which day a force is due and where it enters."""

from __future__ import annotations

from django.db import transaction

from campaign import models
from campaign.choices import ArrivalStatus, EventVerb
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock, campaign_save
from campaign.services.errors import ConflictError, DomainError

SCHEDULABLE = (ArrivalStatus.IN_RESERVE, ArrivalStatus.SCHEDULED, ArrivalStatus.WILL_NOT_ARRIVE)


def reinforcement_actions(force: models.Force) -> list[str]:
    """What may be done with ``force`` as it stands now (the writes below refuse anything else):
    ``schedule`` while it is off the table, ``postpone`` while it is scheduled or rolling for arrival."""
    actions = []
    if force.arrival_status in SCHEDULABLE:
        actions.append("schedule")
    if force.arrival_status in POSTPONABLE:
        actions.append("postpone")
    return actions


def _force_locked(campaign_id: int, force_id: int | None) -> tuple[models.Campaign, models.Force]:
    campaign = campaign_lock(campaign_id)
    forces = models.Force.objects.select_for_update().filter(campaign=campaign)
    force = forces.filter(pk=force_id).first() if force_id is not None else None
    if force is None:
        raise DomainError("the force is not in this campaign", field="force_id")
    return campaign, force


@transaction.atomic
def reinforcement_schedule(
    campaign_id: int, actor: Actor, *, force_id: int | None, day: int, zone: str = ""
) -> models.Force:
    campaign, force = _force_locked(campaign_id, force_id)
    if force.arrival_status not in SCHEDULABLE:
        raise ConflictError(
            f"{force.name} is {force.get_arrival_status_display().lower()}; "
            "only forces off the table can be scheduled",
            field="force",
            code="not_schedulable",
        )
    if day < max(campaign.current_day, 1):
        raise DomainError(f"day {day} has passed; the campaign is on day {campaign.current_day}", field="day")
    before = {
        "arrival_status": force.arrival_status,
        "arrival_day": force.arrival_day,
        "arrival_zone": force.arrival_zone,
    }
    force.arrival_status = ArrivalStatus.SCHEDULED
    force.arrival_day = day
    force.arrival_zone = zone
    force.arrival_attempts = 0
    force.save(update_fields=["arrival_status", "arrival_day", "arrival_zone", "arrival_attempts"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.REINFORCEMENT_SCHEDULED,
        force,
        f"{force.name} scheduled to arrive on day {day}" + (f" at {zone}" if zone else ""),
        actor,
        before=before,
        after={"arrival_status": force.arrival_status, "arrival_day": day, "arrival_zone": zone},
    )
    return force


POSTPONABLE = (ArrivalStatus.SCHEDULED, ArrivalStatus.ROLLING)


@transaction.atomic
def reinforcement_postpone(campaign_id: int, actor: Actor, *, force_id: int, day: int) -> models.Force:
    """Put a due or scheduled force's arrival off to a later ``day``: it stops rolling until then
    and starts its arrival rolls afresh (rules notes C-16)."""
    campaign, force = _force_locked(campaign_id, force_id)
    if force.arrival_status not in POSTPONABLE:
        raise ConflictError(
            f"{force.name} is {force.get_arrival_status_display().lower()}; "
            "only a scheduled force or one rolling for arrival can be postponed",
            field="force_id",
            code="not_postponable",
        )
    due = force.arrival_day or 0
    earliest = max(due, campaign.current_day) + 1
    if day < earliest:
        raise DomainError(
            f"day {day} is not later than day {earliest - 1}: {force.name} is due on day {due} "
            f"and the campaign is on day {campaign.current_day}",
            field="day",
        )
    before = {
        "arrival_status": force.arrival_status,
        "arrival_day": force.arrival_day,
        "arrival_attempts": force.arrival_attempts,
    }
    force.arrival_status = ArrivalStatus.SCHEDULED
    force.arrival_day = day
    force.arrival_attempts = 0
    force.save(update_fields=["arrival_status", "arrival_day", "arrival_attempts"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.REINFORCEMENT_POSTPONED,
        force,
        f"{force.name}'s arrival postponed from day {due} to day {day}",
        actor,
        before=before,
        after={"arrival_status": force.arrival_status, "arrival_day": day, "arrival_attempts": 0},
    )
    return force
