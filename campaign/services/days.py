"""Dawn and the day's segments."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Q

from campaign import models
from campaign.access import PUBLIC
from campaign.choices import ArrivalStatus, CampaignStatus, DayStatus, EventVerb, StandStatus, StandType
from campaign.services.airborne import airborne_drops_land
from campaign.services.arrivals import arrivals_start
from campaign.services.audit import Actor, RollContext, event_record
from campaign.services.campaigns import campaign_lock, campaign_require_status, campaign_save
from campaign.services.errors import ConflictError, DomainError
from campaign.services.rules import campaign_profile, club_settings, procedure_key, procedure_run
from rules_engine.nineteen43.common import AirCoverPriority
from rules_engine.profiles import CampaignStep
from rules_engine.vocab import DaySegment, LeaderRating, SupplySituation, Weather, label_of

# The simulator's segments in the order a day plays them; the midnight-to-dawn
# segment belongs to the night phase, not to the day.
DAY_SEGMENTS: tuple[DaySegment, ...] = tuple(s for s in DaySegment if s is not DaySegment.NIGHT_SEGMENT)

# Dawn weather as the Panzer Korps simulator's conditions (rules notes C-01).
WEATHER_CONDITIONS = {Weather.DRIZZLE: ("rain",), Weather.FOG: ("fog",)}


@dataclass(frozen=True)
class DeploymentOrder:
    """A battalion leaving reserve at dawn, and the range to the nearest enemy."""

    battalion: str
    range_inches: float
    friendly_intervening: bool = False


def _best_leader(forces: Sequence[models.Force]) -> LeaderRating:
    # A is the best rating and H the worst, so the best sorts first.
    ratings = sorted((LeaderRating(f.leader_rating) for f in forces), key=lambda rating: rating.value)
    return ratings[0] if ratings else LeaderRating.D


def _forces_on_table(campaign: models.Campaign) -> dict[int, list[models.Force]]:
    by_side: dict[int, list[models.Force]] = {side.pk: [] for side in campaign.sides.all()}
    present = (ArrivalStatus.ON_TABLE, ArrivalStatus.ARRIVED)
    for force in campaign.forces.filter(arrival_status__in=present):
        by_side[force.side_id].append(force)
    return by_side


def date_text(date: datetime.date) -> str:
    """A campaign date as people write it: 11 July 1942."""
    return f"{date.day} {date:%B %Y}"


def _segment_message(segment: DaySegment, record: models.DaySegmentRecord, initiative: models.Side) -> str:
    # The timeline shows the day beside the message, so the message does not repeat it.
    turns = f"{record.turns} turns" if record.turns is not None else "no turns rolled"
    wind = " from the ".join(part for part in (record.wind_velocity, record.wind_direction) if part)
    return f"{label_of(segment)} begins: {turns}, initiative to {initiative.name}" + (
        f", {wind}" if wind else ""
    )


def _segment_open(
    campaign: models.Campaign, day: models.CampaignDay, segment: DaySegment, order: int, actor: Actor
) -> models.DaySegmentRecord:
    """Roll initiative, wind and turns for ``segment`` as the profile says."""
    record = models.DaySegmentRecord.objects.create(day=day, segment=segment.value, order=order)
    context = RollContext(day=day, segment=record, owner=PUBLIC)  # both sides see them at the table
    stream = ("day", day.number, "segment", segment.name.lower())
    sides = list(campaign.sides.order_by("pk"))
    forces = _forces_on_table(campaign)
    rolls: list[models.RollRecord] = []

    initiative_key = procedure_key(campaign, CampaignStep.INITIATIVE)
    initiative_side = sides[0]
    if initiative_key:
        run = procedure_run(
            campaign,
            initiative_key,
            {
                "first_leader": _best_leader(forces[sides[0].pk]),
                "second_leader": _best_leader(forces[sides[1].pk]),
                "first_name": sides[0].name,
                "second_name": sides[1].name,
            },
            (*stream, "initiative"),
        )
        winner = run.outcome.winner_name
        initiative_side = next((s for s in sides if s.name == winner), sides[0])
        record.initiative_side = initiative_side
        rolls += run.records(campaign, actor, context, {"initiative_side": initiative_side.name})

    wind_key = procedure_key(campaign, CampaignStep.WIND)
    if wind_key:
        previous = models.DaySegmentRecord.objects.filter(day__campaign=campaign).exclude(pk=record.pk).last()
        values: dict[str, Any] = {"season": campaign.season, "segment": segment}
        if previous and previous.wind_direction:
            values["previous_direction"] = previous.wind_direction
        run = procedure_run(campaign, wind_key, values, (*stream, "wind"))
        wind = run.outcome
        record.wind_velocity = wind.velocity.value
        record.wind_direction = (
            wind.direction.value if wind.direction else (previous.wind_direction if previous else "")
        )
        rolls += run.records(
            campaign,
            actor,
            context,
            {"wind_velocity": record.wind_velocity, "wind_direction": record.wind_direction},
        )

    turns_key = procedure_key(campaign, CampaignStep.SEGMENT_TURNS)
    if turns_key:
        weather = Weather(day.weather) if day.weather else None
        enemy = next(s for s in sides if s.pk != initiative_side.pk)
        derived = {
            "conditions": WEATHER_CONDITIONS.get(weather, ()) if weather else (),
            "battle_day": day.number,
            **_simulator_inputs(campaign, segment, initiative_side, enemy, forces[initiative_side.pk]),
        }
        # A club setting for one of these inputs pins it: the service derives only the others.
        pinned = club_settings(campaign, turns_key)
        run = procedure_run(
            campaign,
            turns_key,
            {
                "segment": segment,
                "co_ratings": tuple(LeaderRating(f.leader_rating) for f in forces[initiative_side.pk]),
                **{name: value for name, value in derived.items() if name not in pinned},
            },
            (*stream, "turns"),
        )
        record.turns = run.outcome.turns
        rolls += run.records(campaign, actor, context, {"turns": record.turns})

    record.save()
    models.RollRecord.objects.bulk_create(rolls)
    campaign.current_segment = segment.value
    _arrivals_due(campaign, day, actor)
    arrivals_start(campaign, record, actor)
    event_record(
        campaign,
        EventVerb.SEGMENT_ADVANCED,
        record,
        _segment_message(segment, record, initiative_side),
        actor,
        after={
            "segment": segment.value,
            "turns": record.turns,
            "initiative": initiative_side.name,
            "wind_velocity": record.wind_velocity,
            "wind_direction": record.wind_direction,
        },
    )
    return record


# Rated A-C, a commander may force the early-morning start (003 § Segment simulator).
FORCING_RATINGS = (LeaderRating.A, LeaderRating.B, LeaderRating.C)
# Best first, as 1943 § 3 lists air cover priorities.
AIR_PRIORITY_ORDER = tuple(p.value for p in AirCoverPriority)


def _simulator_inputs(
    campaign: models.Campaign,
    segment: DaySegment,
    side: models.Side,
    enemy: models.Side,
    forces: Sequence[models.Force],
) -> dict[str, Any]:
    """What the segment simulator's modifiers ask of the side that rolls (rules notes C-15)."""
    lowest = campaign_profile(campaign).quality_scale
    low_grades = lowest.reservist_or_worse if lowest else frozenset()
    rows = (
        models.Battalion.objects.filter(battlegroup__force__in=forces, in_reserve=False)
        .values("quality", "supply_situation")
        .annotate(
            battalion_count=Count("pk", distinct=True),
            stand_count=Count("stands", filter=~Q(stands__status=StandStatus.DESTROYED)),
        )
        .order_by()
    )
    battalions = stands = isolated = low_stands = 0
    for row in rows:
        battalions += row["battalion_count"]
        stands += row["stand_count"]
        isolated += row["battalion_count"] if row["supply_situation"] == SupplySituation.ISOLATED.value else 0
        low_stands += row["stand_count"] if row["quality"] in low_grades else 0
    best = _best_leader(forces) if forces else None
    return {
        "air_superiority": AIR_PRIORITY_ORDER.index(side.air_cover_priority)
        < AIR_PRIORITY_ORDER.index(enemy.air_cover_priority),
        "out_of_supply": battalions > 0 and isolated * 2 > battalions,
        "reservist_or_worse_percent": round(100 * low_stands / stands) if stands else 0,
        "forcing_commander": best
        if segment is DaySegment.EARLY_MORNING and best in FORCING_RATINGS
        else None,
    }


def _arrivals_due(campaign: models.Campaign, day: models.CampaignDay, actor: Actor) -> list[models.Force]:
    """Scheduled forces due by this day start rolling for arrival this segment."""
    due = list(campaign.forces.filter(arrival_status=ArrivalStatus.SCHEDULED, arrival_day__lte=day.number))
    for force in due:
        event_record(
            campaign,
            EventVerb.ARRIVAL_DUE,
            force,
            f"{force.name} is due: arrival rolls begin",
            actor,
            before={"arrival_status": force.arrival_status},
            after={"arrival_status": ArrivalStatus.ROLLING},
        )
    models.Force.objects.filter(pk__in=[f.pk for f in due]).update(arrival_status=ArrivalStatus.ROLLING)
    return due


def _tallies_record(campaign: models.Campaign, day: models.CampaignDay) -> None:
    """Each side's strength and stocks as ``day`` dawns: one aggregate query, one insert."""
    sides = list(campaign.sides.order_by("pk"))
    strength: dict[int, dict[str, dict[str, int]]] = {side.pk: {} for side in sides}
    for row in (
        models.Stand.objects.filter(campaign=campaign)
        .values("battalion__side_id", "stand_type", "status")
        .annotate(count=Count("id"))
        .order_by()
    ):
        # Every status of a present stand type, zeros included, as the charts read it.
        counts = strength[row["battalion__side_id"]].setdefault(
            row["stand_type"], dict.fromkeys(StandStatus.values, 0)
        )
        counts[row["status"]] = row["count"]
    models.SideDayTally.objects.bulk_create(
        models.SideDayTally(
            side=side,
            day=day,
            strength=strength[side.pk],
            activation_points=side.activation_points,
            barrage_rounds=side.barrage_rounds,
        )
        for side in sides
    )


def _deploy(campaign: models.Campaign, orders: Sequence[DeploymentOrder], actor: Actor) -> None:
    for index, order in enumerate(orders):
        battalion = campaign.battalions.filter(code=order.battalion).first()
        field = f"deployments[{index}]"
        if battalion is None:
            raise DomainError(
                f"battalion {order.battalion} is not in this campaign", field=f"{field}.battalion"
            )
        if not battalion.in_reserve:
            raise DomainError(f"battalion {battalion.code} is not in reserve", field=f"{field}.battalion")
        run = procedure_run(
            campaign,
            "gb.deployment_casualties",
            {"range_inches": order.range_inches, "friendly_intervening": order.friendly_intervening},
            (),
            field_prefix=f"{field}.",
        )
        casualties = run.outcome.casualties
        # Casualties fall on the battalion's first intact stands by label, HQ last.
        intact = sorted(
            battalion.stands.filter(status=StandStatus.OK),
            key=lambda s: (s.stand_type == StandType.HQ, s.label),
        )
        destroyed = intact[: casualties.destroyed]
        suppressed = intact[casualties.destroyed : casualties.destroyed + casualties.suppressed]
        models.Stand.objects.filter(pk__in=[s.pk for s in destroyed]).update(status=StandStatus.DESTROYED)
        models.Stand.objects.filter(pk__in=[s.pk for s in suppressed]).update(status=StandStatus.SUPPRESSED)
        battalion.in_reserve = False
        battalion.save(update_fields=["in_reserve"])
        event_record(
            campaign,
            EventVerb.FORCE_DEPLOYED,
            battalion,
            f'{battalion.code} deployed from reserve at {order.range_inches:g}" [{run.outcome.cell}]: '
            f"{casualties.text()}",
            actor,
            before={"in_reserve": True},
            after={
                "in_reserve": False,
                "destroyed": [s.label for s in destroyed],
                "suppressed": [s.label for s in suppressed],
                "retreat_inches": casualties.retreat_inches,
            },
        )


@transaction.atomic
def day_dawn(
    campaign_id: int,
    actor: Actor,
    deployments: Sequence[DeploymentOrder] = (),
    expected_version: int | None = None,
) -> models.CampaignDay:
    """Open the next campaign day: weather, reserves deployed, the first segment."""
    campaign = campaign_lock(campaign_id, expected_version)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    previous = campaign.days.order_by("-number").first()
    if previous is not None and previous.status != DayStatus.DONE:
        raise ConflictError(
            f"day {previous.number} is not over yet: it is {previous.get_status_display().lower()}; "
            "its night phase must finish first",
            field="day",
            code="day_not_over",
        )
    number = (previous.number if previous else 0) + 1
    day = models.CampaignDay.objects.create(
        campaign=campaign, number=number, date=campaign.start_date + datetime.timedelta(days=number - 1)
    )
    campaign.current_day = number

    weather_key = procedure_key(campaign, CampaignStep.WEATHER)
    if weather_key:
        run = procedure_run(campaign, weather_key, {}, ("day", number, "weather"))
        day.weather = run.outcome.outcome.value
        models.RollRecord.objects.bulk_create(
            run.records(campaign, actor, RollContext(day=day, owner=PUBLIC), {"weather": day.weather})
        )
    _deploy(campaign, deployments, actor)
    airborne_drops_land(campaign, day, actor)
    event_record(
        campaign,
        EventVerb.DAY_DAWNED,
        day,
        f"Dawn on {date_text(day.date)}"
        + (f": the weather is {Weather(day.weather).label.lower()}" if day.weather else ""),
        actor,
        after={"day": number, "date": day.date.isoformat(), "weather": day.weather},
    )
    if procedure_key(campaign, CampaignStep.SEGMENT_TURNS):
        _segment_open(campaign, day, DAY_SEGMENTS[0], 0, actor)
    _tallies_record(campaign, day)
    day.status = DayStatus.DAY
    day.save(update_fields=["weather", "status"])
    campaign_save(campaign, "current_day", "current_segment")
    return day


@transaction.atomic
def segment_advance(
    campaign_id: int, actor: Actor, expected_version: int | None = None, *, day_number: int | None = None
) -> models.DaySegmentRecord:
    """Close the current segment and open the next one of the day (``day_number``, when given)."""
    campaign = campaign_lock(campaign_id, expected_version)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = campaign.days.order_by("-number").first()
    if day is None or day.status != DayStatus.DAY:
        raise ConflictError("no campaign day is under way; dawn a day first", field="day", code="no_day")
    if day_number is not None and day_number != day.number:
        raise ConflictError(
            f"day {day_number} is not under way; day {day.number} is", field="day", code="not_current_day"
        )
    if not procedure_key(campaign, CampaignStep.SEGMENT_TURNS):
        raise ConflictError(
            f"the {campaign.profile} profile plays the day without segments",
            field="profile",
            code="no_segments",
        )
    last = day.segments.order_by("-order").first()
    order = last.order + 1 if last else 0
    if order >= len(DAY_SEGMENTS):
        raise ConflictError(
            f"day {day.number} has played its last segment; the night phase comes next",
            field="segment",
            code="day_over",
        )
    record = _segment_open(campaign, day, DAY_SEGMENTS[order], order, actor)
    campaign_save(campaign, "current_segment")
    return record


@transaction.atomic
def segment_arrivals_start(campaign_id: int, actor: Actor) -> models.Operation:
    """Arrival rolls in the current segment for forces that fell due after it opened."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = campaign.days.filter(number=campaign.current_day, status=DayStatus.DAY).first()
    segment = day.segments.filter(segment=campaign.current_segment).first() if day is not None else None
    if day is None or segment is None:
        raise ConflictError("arrival rolls need a day segment under way", field="segment", code="no_segment")
    _arrivals_due(campaign, day, actor)
    operation = arrivals_start(campaign, segment, actor)
    if operation is None:
        raise ConflictError(
            f"no force is due to roll for arrival in {segment}", field="kind", code="no_arrivals_due"
        )
    campaign_save(campaign)
    return operation
