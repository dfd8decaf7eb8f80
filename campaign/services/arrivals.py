"""Arrival rolls for scheduled forces, one operation per day segment.

Per force, per the profile: force availability (once), then from its first
arrival segment the arrival chart (+5 per segment since the first attempt)
and, on arrival, the deployment chart for its entry zone.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from campaign import models
from campaign.choices import ArrivalStatus, EventVerb, Mobility, OperationKind
from campaign.services.audit import Actor, RollContext, event_record
from campaign.services.errors import ConflictError
from campaign.services.rules import procedure_key, procedure_run
from rules_engine.panzer_korps.arrival import ForceAvailability, first_arrival_segment
from rules_engine.panzer_korps.common import Mobility as ForceMobility
from rules_engine.profiles import CampaignStep

SYSTEM_ACTOR = Actor(request_id="arrival-rolls")
MOBILITY = {
    Mobility.FOOT: ForceMobility.MIXED,
    Mobility.MOTORISED: ForceMobility.MOTORIZED,
    Mobility.MECHANISED: ForceMobility.MECHANIZED,
}


def arrivals_start(
    campaign: models.Campaign, segment: models.DaySegmentRecord, actor: Actor
) -> models.Operation | None:
    """Inside the caller's transaction: the arrival operation of ``segment``, enqueued on commit."""
    from campaign.tasks import operation_run_task

    forces = list(campaign.forces.filter(arrival_status=ArrivalStatus.ROLLING).order_by("pk"))
    if not forces:
        return None
    try:
        with transaction.atomic():
            operation = models.Operation.objects.create(
                campaign=campaign,
                kind=OperationKind.ARRIVALS,
                day=segment.day,
                segment=segment,
                steps=[f"force:{f.pk}" for f in forces],
                created_by_id=actor.user_id,
            )
    except IntegrityError:
        raise ConflictError(
            f"arrival rolls for {segment} have already been started", field="segment", code="arrivals_exist"
        ) from None
    event_record(
        campaign,
        EventVerb.ARRIVALS_STARTED,
        operation,
        f"Arrival rolls for {', '.join(f.name for f in forces)} ({segment.segment})",
        actor,
    )
    transaction.on_commit(lambda: operation_run_task.delay(operation.pk))
    return operation


def arrivals_step(operation: models.Operation, step: str) -> dict[str, Any]:
    campaign = operation.campaign
    segment = operation.segment
    assert segment is not None
    force = models.Force.objects.select_for_update().get(pk=int(step.split(":")[1]))
    if force.arrival_status != ArrivalStatus.ROLLING:
        return {}
    context = RollContext(day=operation.day, segment=segment, force=force)
    stream = ("day", operation.day.number, "segment", segment.segment, "arrival", force.pk)
    rolls: list[models.RollRecord] = []
    lines: list[str] = []
    leader = {"leader_rating": force.leader_rating, "force_name": force.name}

    availability_key = procedure_key(campaign, CampaignStep.FORCE_AVAILABILITY)
    if availability_key and not force.availability:
        run = procedure_run(
            campaign,
            availability_key,
            {**leader, "home_nation": force.home_nation, "mobility": MOBILITY[Mobility(force.mobility)]},
            (*stream, "availability"),
        )
        availability: ForceAvailability = run.outcome.outcome
        force.availability = availability.value
        if availability is ForceAvailability.DOES_NOT_ARRIVE:
            force.arrival_status = ArrivalStatus.WILL_NOT_ARRIVE
        elif availability in (ForceAvailability.AT_START, ForceAvailability.DEPLOYED_30_INCHES):
            force.arrival_status = ArrivalStatus.ARRIVED
        rolls += run.records(
            campaign,
            SYSTEM_ACTOR,
            context,
            {"availability": force.availability, "arrival_status": force.arrival_status},
        )
        lines += [r.line() for r in run.outcome.roll_results()]

    first = first_arrival_segment(ForceAvailability(force.availability)) if force.availability else 1
    arrival_key = procedure_key(campaign, CampaignStep.ARRIVAL)
    if force.arrival_status == ArrivalStatus.ROLLING and first is not None and segment.order + 1 >= first:
        if arrival_key is None:
            force.arrival_status = ArrivalStatus.ARRIVED  # no arrival chart in this profile: due means here
        else:
            run = procedure_run(
                campaign,
                arrival_key,
                {**leader, "segments_since_first_attempt": force.arrival_attempts},
                (*stream, "arrival"),
            )
            force.arrival_attempts += 1
            arrived = bool(run.outcome.succeeded)
            if arrived:
                force.arrival_status = ArrivalStatus.ARRIVED
            rolls += run.records(campaign, SYSTEM_ACTOR, context, {"arrival_status": force.arrival_status})
            lines += [r.line() for r in run.outcome.roll_results()]
    deployment_key = procedure_key(campaign, CampaignStep.DEPLOYMENT)
    if force.arrival_status == ArrivalStatus.ARRIVED and deployment_key:
        run = procedure_run(
            campaign,
            deployment_key,
            {**leader, "mobility": MOBILITY[Mobility(force.mobility)], "home_nation": force.home_nation},
            (*stream, "deployment"),
        )
        force.arrival_zone = run.outcome.zone.value
        rolls += run.records(campaign, SYSTEM_ACTOR, context, {"arrival_zone": force.arrival_zone})
        lines += [r.line() for r in run.outcome.roll_results()]
    force.save(update_fields=["availability", "arrival_status", "arrival_attempts", "arrival_zone"])
    models.RollRecord.objects.bulk_create(rolls)
    return {
        "sides": {
            str(force.side_id): {
                "arrivals": [
                    {
                        "force": force.name,
                        "arrival_status": force.arrival_status,
                        "zone": force.arrival_zone,
                        "lines": lines,
                    }
                ]
            }
        }
    }


def arrivals_finish(operation: models.Operation) -> dict[str, Any]:
    sides = operation.report.get("sides", {})
    models.NightReport.objects.bulk_create(
        models.NightReport(
            operation=operation,
            side=side,
            day=operation.day,
            body={
                "day": operation.day.number,
                "segment": operation.segment.segment if operation.segment else "",
                "side": side.name,
                **sides.get(str(side.pk), {"arrivals": []}),
            },
        )
        for side in operation.campaign.sides.order_by("pk")
    )
    arrived = [
        a["force"]
        for part in sides.values()
        for a in part.get("arrivals", [])
        if a["arrival_status"] == ArrivalStatus.ARRIVED
    ]
    event_record(
        operation.campaign,
        EventVerb.ARRIVALS_RESOLVED,
        operation,
        f"Arrival rolls resolved: {', '.join(arrived) or 'no force arrived'}",
        SYSTEM_ACTOR,
        after=sides,
    )
    return {}
