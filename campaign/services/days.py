"""Dawn and the day's segments."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Max, Q

from campaign import models
from campaign.access import PRESENT, PUBLIC
from campaign.choices import (
    ArrivalStatus,
    CampaignStatus,
    DayStatus,
    EventVerb,
    MapMoment,
    SideOrderKind,
    SideOrderStatus,
    StandStatus,
    StandType,
)
from campaign.services.activation import DIVISION_POOLS
from campaign.services.airborne import airborne_drops_land
from campaign.services.arrivals import arrivals_start
from campaign.services.audit import Actor, RollContext, event_record
from campaign.services.campaigns import (
    campaign_lock,
    campaign_require_status,
    campaign_save,
    campaign_status_refusal,
)
from campaign.services.errors import ConflictError, DomainError
from campaign.services.map_snapshots import map_snapshot_after_night_ensure, map_snapshot_take
from campaign.services.rules import (
    campaign_profile,
    club_settings,
    optional_rule_on,
    procedure_key,
    procedure_run,
)
from rules_engine.great_battles.dawn import DEPLOYMENT_RULE, DeploymentCasualties
from rules_engine.nineteen43.common import AirCoverPriority
from rules_engine.panzer_korps.wind import wind_words
from rules_engine.profiles import CampaignStep
from rules_engine.vocab import (
    PLAYED_DAY_SEGMENTS,
    DaySegment,
    LeaderRating,
    SupplySituation,
    Weather,
    label_of,
)

# The simulator's segments in the order a day plays them; the midnight-to-dawn
# segment belongs to the night phase, not to the day.

# Dawn weather as the Panzer Korps simulator's conditions (rules notes C-01).
WEATHER_CONDITIONS = {Weather.DRIZZLE: ("rain",), Weather.FOG: ("fog",)}


# The longest range a deployment is read at, the dawn's and a deploy order's alike.
RANGE_MAX_INCHES = 1000.0


def deployment_range_check(range_inches: Any, field: str) -> None:
    """A deployment's range to the nearest enemy: a number of inches from 0 to RANGE_MAX_INCHES."""
    if (
        isinstance(range_inches, bool)
        or not isinstance(range_inches, int | float)
        or not 0 <= range_inches <= RANGE_MAX_INCHES
    ):
        raise DomainError(f"the range is a distance in inches from 0 to {RANGE_MAX_INCHES:,.0f}", field=field)


@dataclass(frozen=True)
class DeploymentOrder:
    """A battalion leaving reserve at dawn, and the range to the nearest enemy."""

    battalion: str
    range_inches: float
    friendly_intervening: bool = False
    # The public id of the side's approved sealed order it comes from, if any (rules notes C-19).
    side_order: uuid.UUID | None = None


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
    wind = wind_words(record.wind_velocity, record.wind_direction)
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
            context=context,
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
        run = procedure_run(campaign, wind_key, values, (*stream, "wind"), context=context)
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
            context=context,
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


# A stand in action: not destroyed, of a battalion on the table (not in reserve, its force arrived).
IN_ACTION = Q(
    status__in=[StandStatus.OK, StandStatus.SUPPRESSED],
    battalion__in_reserve=False,
    battalion__battlegroup__force__arrival_status__in=PRESENT,
)


def _tallies_record(campaign: models.Campaign, day: models.CampaignDay) -> None:
    """Each side's strength and stocks as ``day`` dawns: one aggregate query, one insert.
    A stand type's counts are by status, every stand's, and ``in_action``: those on the table."""
    sides = list(campaign.sides.order_by("pk"))
    strength: dict[int, dict[str, dict[str, int]]] = {side.pk: {} for side in sides}
    for row in (
        models.Stand.objects.filter(campaign=campaign)
        .values("battalion__side_id", "stand_type", "status")
        .annotate(count=Count("id"), in_action=Count("id", filter=IN_ACTION))
        .order_by()
    ):
        # Every status of a present stand type, zeros included, as the charts read it.
        counts = strength[row["battalion__side_id"]].setdefault(
            row["stand_type"], {**dict.fromkeys(StandStatus.values, 0), "in_action": 0}
        )
        counts[row["status"]] = row["count"]
        counts["in_action"] += row["in_action"]
    divisions: dict[int, dict[str, int]] = {side.pk: {} for side in sides}
    if optional_rule_on(campaign, DIVISION_POOLS):  # the charts follow each division's pool
        for side_id, name, points in campaign.forces.order_by("pk").values_list(
            "side_id", "name", "activation_points"
        ):
            divisions[side_id][name] = points
    models.SideDayTally.objects.bulk_create(
        models.SideDayTally(
            side=side,
            day=day,
            strength=strength[side.pk],
            activation_points=side.activation_points,
            division_activation_points=divisions[side.pk],
            barrage_rounds=side.barrage_rounds,
        )
        for side in sides
    )


@dataclass(frozen=True)
class DeploymentPlan:
    """What deploying one battalion does: the chart's cell and casualties, and the stands they hit.

    Chart 2 is read, not rolled (``gb.deployment_casualties``), so the plan a preview shows is
    exactly what the dawn applies to the same orders on the same stands (rules notes C-16)."""

    battalion: models.Battalion
    order: DeploymentOrder
    cell: str
    casualties: DeploymentCasualties
    destroyed: tuple[models.Stand, ...]
    suppressed: tuple[models.Stand, ...]

    def text(self) -> str:
        return (
            f'{self.battalion.code} deployed from reserve at {self.order.range_inches:g}" [{self.cell}]: '
            + (self.casualties.text())
        )


def _deployment_plans(campaign: models.Campaign, orders: Sequence[DeploymentOrder]) -> list[DeploymentPlan]:
    """Each order checked (a battalion of the campaign, in reserve, named once) and read on the
    deployment chart; nothing written."""
    plans: list[DeploymentPlan] = []
    for index, order in enumerate(orders):
        battalion = campaign.battalions.filter(code=order.battalion).first()
        field = f"deployments[{index}]"
        ordered = f"order {order.side_order}: " if order.side_order is not None else ""
        if battalion is None:
            raise DomainError(
                f"{ordered}battalion {order.battalion} is not in this campaign", field=f"{field}.battalion"
            )
        if not battalion.in_reserve:
            raise DomainError(
                f"{ordered}battalion {battalion.code} is not in reserve", field=f"{field}.battalion"
            )
        deployment_range_check(order.range_inches, f"{field}.range_inches")
        twice = next((plan for plan in plans if plan.battalion.pk == battalion.pk), None)
        if twice is not None:
            by = (
                f" (order {twice.order.side_order} of its side deploys it)"
                if twice.order.side_order is not None
                else ""
            )
            raise DomainError(
                f"{ordered}battalion {battalion.code} is named twice{by}", field=f"{field}.battalion"
            )
        run = procedure_run(
            campaign,
            "gb.deployment_casualties",
            {"range_inches": order.range_inches, "friendly_intervening": order.friendly_intervening},
            (),
            field_prefix=f"{field}.",
        )
        casualties: DeploymentCasualties = run.outcome.casualties
        # Casualties fall on the battalion's first intact stands by label, HQ last.
        intact = sorted(
            battalion.stands.filter(status=StandStatus.OK),
            key=lambda s: (s.stand_type == StandType.HQ, s.label),
        )
        plans.append(
            DeploymentPlan(
                battalion=battalion,
                order=order,
                cell=run.outcome.cell,
                casualties=casualties,
                destroyed=tuple(intact[: casualties.destroyed]),
                suppressed=tuple(intact[casualties.destroyed : casualties.destroyed + casualties.suppressed]),
            )
        )
    return plans


def ordered_deployments(campaign: models.Campaign, day_number: int) -> list[DeploymentOrder]:
    """The sides' approved sealed deploy orders for the night and dawn of day ``day_number``
    (rules notes C-19): the dawn after it carries them out with the umpire's own deployments."""
    orders = models.SideOrder.objects.filter(
        campaign=campaign, day_number=day_number, kind=SideOrderKind.DEPLOY, status=SideOrderStatus.APPROVED
    ).order_by("pk")
    return [
        DeploymentOrder(
            battalion=order.payload["battalion_code"],
            range_inches=order.payload["range_inches"],
            friendly_intervening=order.payload.get("friendly_intervening", False),
            side_order=order.public_id,
        )
        for order in orders
    ]


def deployment_plans_check(campaign: models.Campaign, orders: Sequence[DeploymentOrder]) -> None:
    """Refused as the dawn would refuse ``orders`` (nothing written): the sealed orders' approval."""
    _deployment_plans(campaign, orders)


def _deploy(campaign: models.Campaign, orders: Sequence[DeploymentOrder], actor: Actor) -> None:
    plans = _deployment_plans(campaign, orders)
    models.SideOrder.objects.filter(
        public_id__in=[plan.order.side_order for plan in plans if plan.order.side_order is not None]
    ).update(status=SideOrderStatus.APPLIED)
    for plan in plans:
        battalion = plan.battalion
        models.Stand.objects.filter(pk__in=[s.pk for s in plan.destroyed]).update(
            status=StandStatus.DESTROYED
        )
        models.Stand.objects.filter(pk__in=[s.pk for s in plan.suppressed]).update(
            status=StandStatus.SUPPRESSED
        )
        battalion.in_reserve = False
        # Out of reserve onto the map: where its force's C Ops stands, unless it stands somewhere.
        if battalion.sector_id is None:
            battalion.sector_id = battalion.battlegroup.force.sector_id
        # "Reserve" supply means off the table: on it, it is in supply until the night traces its line.
        if battalion.supply_situation == SupplySituation.RESERVE.value:
            battalion.supply_situation = SupplySituation.OK.value
        battalion.save(update_fields=["in_reserve", "sector", "supply_situation"])
        event_record(
            campaign,
            EventVerb.FORCE_DEPLOYED,
            battalion,
            plan.text(),
            actor,
            before={"in_reserve": True},
            after={
                "in_reserve": False,
                "destroyed": [s.label for s in plan.destroyed],
                "suppressed": [s.label for s in plan.suppressed],
                "retreat_inches": plan.casualties.retreat_inches,
            },
        )


def dawn_refusal(campaign: models.Campaign) -> ConflictError | None:
    """Why the next day may not dawn now, or None (the umpire's ``dawn`` action): the campaign is
    active and the day before, if any, is through its night phase."""
    refusal = campaign_status_refusal(campaign, CampaignStatus.ACTIVE)
    previous = campaign.days.order_by("-number").first()
    if refusal is None and previous is not None and previous.status != DayStatus.DONE:
        refusal = ConflictError(
            f"day {previous.number} is not over yet: it is {previous.get_status_display().lower()}; "
            "its night phase must finish first",
            field="day",
            code="day_not_over",
        )
    return refusal


def _next_day_number(campaign: models.Campaign) -> int:
    """The number of the day that dawns next, once the day before is through its night phase."""
    refusal = dawn_refusal(campaign)
    if refusal is not None:
        raise refusal
    return (campaign.days.aggregate(last=Max("number"))["last"] or 0) + 1


@dataclass(frozen=True)
class DawnPreview:
    day: int
    rule: str
    deployments: list[DeploymentPlan]


def dawn_preview(campaign_id: int, deployments: Sequence[DeploymentOrder] = ()) -> DawnPreview:
    """What dawning now with ``deployments`` (and the sides' approved deploy orders) would do to
    them, refused as the dawn would be;
    writes nothing and rolls nothing (the weather and the segment's rolls are the dawn's own)."""
    campaign = models.Campaign.objects.get(pk=campaign_id)
    number = _next_day_number(campaign)
    return DawnPreview(
        day=number,
        rule=DEPLOYMENT_RULE.text(),
        deployments=_deployment_plans(campaign, [*deployments, *ordered_deployments(campaign, number - 1)]),
    )


@transaction.atomic
def day_dawn(
    campaign_id: int,
    actor: Actor,
    deployments: Sequence[DeploymentOrder] = (),
    expected_version: int | None = None,
) -> models.CampaignDay:
    """Open the next campaign day: weather, reserves deployed (``deployments`` and the sides'
    approved deploy orders for it), the first segment."""
    campaign = campaign_lock(campaign_id, expected_version)
    map_snapshot_after_night_ensure(campaign)  # the night's map, unless its task took it already
    number = _next_day_number(campaign)
    day = models.CampaignDay.objects.create(
        campaign=campaign, number=number, date=campaign.start_date + datetime.timedelta(days=number - 1)
    )
    campaign.current_day = number

    weather_key = procedure_key(campaign, CampaignStep.WEATHER)
    if weather_key:
        context = RollContext(day=day, owner=PUBLIC)
        run = procedure_run(campaign, weather_key, {}, ("day", number, "weather"), context=context)
        day.weather = run.outcome.outcome.value
        models.RollRecord.objects.bulk_create(run.records(campaign, actor, context, {"weather": day.weather}))
    _deploy(campaign, [*deployments, *ordered_deployments(campaign, number - 1)], actor)
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
        _segment_open(campaign, day, PLAYED_DAY_SEGMENTS[0], 0, actor)
    _tallies_record(campaign, day)
    day.status = DayStatus.DAY
    day.save(update_fields=["weather", "status"])
    campaign_save(campaign, "current_day", "current_segment")
    map_snapshot_take(campaign, number, MapMoment.DAWN)  # the map of this dawn, for its replay
    return day


def _segments_opened(day: models.CampaignDay) -> int:
    """How many of the day's segments have opened: the order the next one opens at."""
    last = day.segments.order_by("-order").first()
    return last.order + 1 if last else 0


def segment_advance_refusal(campaign: models.Campaign, day_number: int | None = None) -> ConflictError | None:
    """Why the next segment of the day (``day_number``, when given) may not open now, or None (the
    umpire's ``open_next_segment`` action): a day under way, in a profile that plays segments, not
    ended by the day-end roll, with a segment left to play."""
    refusal = campaign_status_refusal(campaign, CampaignStatus.ACTIVE)
    if refusal is not None:
        return refusal
    day = campaign.days.order_by("-number").first()
    if day is None or day.status != DayStatus.DAY:
        return ConflictError("no campaign day is under way; dawn a day first", field="day", code="no_day")
    if day_number is not None and day_number != day.number:
        return ConflictError(
            f"day {day_number} is not under way; day {day.number} is", field="day", code="not_current_day"
        )
    if not procedure_key(campaign, CampaignStep.SEGMENT_TURNS):
        return ConflictError(
            f"the {campaign.profile} profile plays the day without segments",
            field="profile",
            code="no_segments",
        )
    if day.ended_after_turn is not None:
        return ConflictError(
            f"the day-end roll ended day {day.number} after Allied turn {day.ended_after_turn}; "
            "the night phase comes next",
            field="segment",
            code="day_over",
        )
    if _segments_opened(day) >= len(PLAYED_DAY_SEGMENTS):
        return ConflictError(
            f"day {day.number} has played its last segment; the night phase comes next",
            field="segment",
            code="day_over",
        )
    return None


@transaction.atomic
def segment_advance(
    campaign_id: int, actor: Actor, expected_version: int | None = None, *, day_number: int | None = None
) -> models.DaySegmentRecord:
    """Close the current segment and open the next one of the day (``day_number``, when given)."""
    campaign = campaign_lock(campaign_id, expected_version)
    refusal = segment_advance_refusal(campaign, day_number)
    if refusal is not None:
        raise refusal
    day = campaign.days.latest("number")
    order = _segments_opened(day)
    record = _segment_open(campaign, day, PLAYED_DAY_SEGMENTS[order], order, actor)
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
