"""Arrival rolls for scheduled forces, one operation per day segment.

Per force, per the profile: force availability (once), then from its first
arrival segment the arrival chart (+5 per segment since the first attempt)
and, on arrival, the deployment chart, whose zone is kept beside the entry
zone the scenario or the force's side chose.  A force the scenario holds in
Malta-style unspecified reserve rolls its delay in turns instead, and enters
once the segments' turns have run it down.  Every segment a force may arrive
in counts as an arrival attempt, the one it arrives in included.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from campaign import models
from campaign.access import Owner
from campaign.choices import ArrivalStatus, EventVerb, Mobility, OperationKind
from campaign.selectors import version_shown
from campaign.services.audit import Actor, RollContext, event_record
from campaign.services.errors import ConflictError
from campaign.services.operations import (
    OperationProcedure,
    operation_kind_register,
    operation_reports_write,
    operation_start,
)
from campaign.services.rules import RuleRun, procedure_key, procedure_run
from rules_engine.great_battles.campaign_pools import UNSPECIFIED_RESERVE, reserve_countdown
from rules_engine.panzer_korps.arrival import ForceAvailability, first_arrival_segment
from rules_engine.panzer_korps.common import Mobility as ForceMobility
from rules_engine.profiles import CampaignStep
from rules_engine.vocab import SupplySituation

SYSTEM_ACTOR = Actor(request_id="arrival-rolls")
RESERVE_DELAY = "gb.malta.reserve_delay"
MOBILITY = {
    Mobility.FOOT: ForceMobility.MIXED,
    Mobility.MOTORISED: ForceMobility.MOTORIZED,
    Mobility.MECHANISED: ForceMobility.MECHANIZED,
}


def arrivals_start(
    campaign: models.Campaign, segment: models.DaySegmentRecord, actor: Actor
) -> models.Operation | None:
    """Inside the caller's transaction: the arrival operation of ``segment``, enqueued on commit."""
    forces = list(campaign.forces.filter(arrival_status=ArrivalStatus.ROLLING).order_by("pk"))
    if not forces:
        return None
    names = ", ".join(f.name for f in forces)
    return operation_start(
        campaign,
        OperationKind.ARRIVALS,
        actor,
        day=segment.day,
        segment=segment,
        steps=[f"force:{f.pk}" for f in forces],
        started=(
            EventVerb.ARRIVALS_STARTED,
            f"Arrival rolls for {names} ({segment.get_segment_display().lower()})",
        ),
        duplicate=ConflictError(
            f"arrival rolls for {segment} have already been started", field="segment", code="arrivals_exist"
        ),
    )


def arrivals_step(operation: models.Operation, step: str) -> dict[str, Any]:
    campaign = operation.campaign
    segment = operation.segment
    assert segment is not None
    force = models.Force.objects.select_for_update().get(pk=int(step.split(":")[1]))
    if force.arrival_status != ArrivalStatus.ROLLING:
        return {}
    context = RollContext(day=operation.day, segment=segment, force=force, owner=Owner.side(force.side_id))
    # The force by its place in the campaign, not its row number: the same pack rolls the same dice
    # whatever other campaigns the database holds (a row number varied from load to load).
    ordinal = campaign.forces.filter(pk__lte=force.pk).count()
    stream = ("day", operation.day.number, "segment", segment.segment, "arrival", ordinal)
    leader = {"leader_rating": force.leader_rating, "force_name": force.name}
    if force.availability == UNSPECIFIED_RESERVE:
        runs, entry = _reserve_wait(campaign, force, segment, stream, context)
    else:
        runs, entry = _arrival_charts(campaign, force, segment, stream, leader, context)
    placed = _place_arrived(campaign, force) if force.arrival_status == ArrivalStatus.ARRIVED else None
    force.save(
        update_fields=[
            "availability",
            "arrival_status",
            "arrival_attempts",
            "deployment_zone",
            "arrival_turns_left",
            "sector",
        ]
    )
    if placed is not None:
        force_battalions = models.Battalion.objects.filter(battlegroup__force=force, in_reserve=False)
        force_battalions.filter(sector__isnull=True).update(sector=placed)
        # "Reserve" supply means off the table: on it, in supply until the night traces its line.
        force_battalions.filter(supply_situation=SupplySituation.RESERVE.value).update(
            supply_situation=SupplySituation.OK.value
        )
    models.RollRecord.objects.bulk_create(
        record for run, changes in runs for record in run.records(campaign, SYSTEM_ACTOR, context, changes)
    )
    lines = [r.line() for run, _ in runs for r in run.outcome.roll_results()]
    arrival = {
        "force": force.name,
        "arrival_status": force.arrival_status,
        "arrival_status_label": ArrivalStatus(force.arrival_status).label,
        "zone": force.arrival_zone,
        "deployment_zone": force.deployment_zone,
        "arrival_attempts": force.arrival_attempts,
    }
    return {"sides": {str(force.side_id): {"arrivals": [{**arrival, **entry, "lines": lines}]}}}


RunsAndChanges = list[tuple[RuleRun, dict[str, Any]]]


def _place_arrived(campaign: models.Campaign, force: models.Force) -> models.Sector | None:
    """An arrived force stands on its entry zone's sector (by the sector's name or key), its C
    Ops there unless already on the map; its battalions on the table with it (the caller)."""
    zone = force.arrival_zone.strip()
    sector = (
        campaign.sectors.filter(Q(name__iexact=zone) | Q(key__iexact=zone)).order_by("pk").first()
        if zone
        else None
    )
    if sector is None:
        return None
    if force.sector_id is None:
        force.sector = sector
    return sector


def _arrival_charts(
    campaign: models.Campaign,
    force: models.Force,
    segment: models.DaySegmentRecord,
    stream: tuple[Any, ...],
    leader: dict[str, Any],
    context: RollContext,
) -> tuple[RunsAndChanges, dict[str, Any]]:
    """Force availability (once), the arrival chart from its first segment, deployment on arrival."""
    runs: RunsAndChanges = []
    availability_key = procedure_key(campaign, CampaignStep.FORCE_AVAILABILITY)
    if availability_key and not force.availability:
        run = procedure_run(
            campaign,
            availability_key,
            {**leader, "home_nation": force.home_nation, "mobility": MOBILITY[Mobility(force.mobility)]},
            (*stream, "availability"),
            context=context,
        )
        availability: ForceAvailability = run.outcome.outcome
        force.availability = availability.value
        if availability is ForceAvailability.DOES_NOT_ARRIVE:
            force.arrival_status = ArrivalStatus.WILL_NOT_ARRIVE
        elif availability in (ForceAvailability.AT_START, ForceAvailability.DEPLOYED_30_INCHES):
            force.arrival_status = ArrivalStatus.ARRIVED
            force.arrival_attempts += 1
        runs.append(
            (
                run,
                {
                    "availability": force.availability,
                    "arrival_status": force.arrival_status,
                    "arrival_attempts": force.arrival_attempts,
                },
            )
        )

    first = first_arrival_segment(ForceAvailability(force.availability)) if force.availability else 1
    arrival_key = procedure_key(campaign, CampaignStep.ARRIVAL)
    if force.arrival_status == ArrivalStatus.ROLLING and first is not None and segment.order + 1 >= first:
        if arrival_key is None:
            force.arrival_status = ArrivalStatus.ARRIVED  # no arrival chart in this profile: due means here
            force.arrival_attempts += 1
        else:
            run = procedure_run(
                campaign,
                arrival_key,
                {**leader, "segments_since_first_attempt": force.arrival_attempts},
                (*stream, "arrival"),
                context=context,
            )
            force.arrival_attempts += 1
            if run.outcome.succeeded:
                force.arrival_status = ArrivalStatus.ARRIVED
            runs.append(
                (run, {"arrival_status": force.arrival_status, "arrival_attempts": force.arrival_attempts})
            )
    deployment_key = procedure_key(campaign, CampaignStep.DEPLOYMENT)
    if force.arrival_status == ArrivalStatus.ARRIVED and deployment_key:
        run = procedure_run(
            campaign,
            deployment_key,
            {**leader, "mobility": MOBILITY[Mobility(force.mobility)], "home_nation": force.home_nation},
            (*stream, "deployment"),
            context=context,
        )
        force.deployment_zone = run.outcome.zone.value
        runs.append((run, {"deployment_zone": force.deployment_zone}))
    return runs, {}


def _reserve_wait(
    campaign: models.Campaign,
    force: models.Force,
    segment: models.DaySegmentRecord,
    stream: tuple[Any, ...],
    context: RollContext,
) -> tuple[RunsAndChanges, dict[str, Any]]:
    """A Malta-style reserve: its delay (two average dice) once, then each segment's turns count down.

    It enters where its side scheduled it: no availability, arrival or deployment chart (C-09).
    """
    runs: RunsAndChanges = []
    if force.arrival_turns_left is None:
        run = procedure_run(
            campaign, RESERVE_DELAY, {"unit": force.name}, (*stream, "reserve_delay"), context=context
        )
        force.arrival_turns_left = run.outcome.outcome
        runs.append((run, {"arrival_turns_left": force.arrival_turns_left}))
    countdown = reserve_countdown(force.arrival_turns_left, segment.turns or 0)
    force.arrival_turns_left = countdown.turns_left
    force.arrival_attempts += 1
    if countdown.enters_on_turn is not None:
        force.arrival_status = ArrivalStatus.ARRIVED
    return runs, {"turns_left": countdown.turns_left, "enters_on_turn": countdown.enters_on_turn}


def arrivals_finish(operation: models.Operation) -> list[int]:
    """Report and record the rolls; the version shown before this commit, whose polled statuses
    it outdates."""
    operation_reports_write(operation, {"arrivals": []})
    # Every member reads it: which forces arrived each side learns from its own report.
    segment = f", {operation.segment.segment}" if operation.segment else ""
    event_record(
        operation.campaign,
        EventVerb.ARRIVALS_RESOLVED,
        operation,
        f"Arrival rolls of day {operation.day.number}{segment} resolved",
        SYSTEM_ACTOR,
    )
    return [version_shown(operation.campaign)]  # as the operation was read, as this transaction began


# Each force's arrival rolls commit as they are made.
operation_kind_register(
    OperationKind.ARRIVALS,
    OperationProcedure(step=arrivals_step, commits_alone=lambda step, part: True, finish=arrivals_finish),
)
