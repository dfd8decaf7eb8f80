"""Reads scoped to what the caller may see.

Every API list and detail starts from one of these querysets, so a hidden row
is never fetched: detail lookups 404 on it and lists leave it out. Fields of
visible enemy rows are masked by the serializers (:mod:`api.serializers`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import or_

from django.db.models import BigIntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery, Value
from django.utils import timezone

from api.models import CampaignAPIKey
from api.permissions import CampaignAccess, api_key_role
from campaign import models, selectors
from campaign.access import events_readable, rolls_readable
from campaign.choices import ArrivalStatus, DayStatus, MemberRole, OperationKind

# Enemy forces are seen only once they are on the table: never in reserve or on their way.
PRESENT = (ArrivalStatus.ON_TABLE, ArrivalStatus.ARRIVED)
NOTHING = Q(pk__in=[])


def campaign_summaries(caller: int | CampaignAPIKey) -> QuerySet[models.Campaign]:
    """A user's campaigns (by user id), or an API key's one campaign, with today's weather,
    the segment's wind and turns, the dawn of a day under way, and the caller's role."""
    today = models.CampaignDay.objects.filter(campaign=OuterRef("pk"), number=OuterRef("current_day"))
    segment_now = models.DaySegmentRecord.objects.filter(
        day__campaign=OuterRef("pk"), day__number=OuterRef("current_day"), segment=OuterRef("current_segment")
    )
    if isinstance(caller, CampaignAPIKey):
        campaigns = models.Campaign.objects.filter(pk=caller.campaign_id)
        role: Subquery | Value = Value(api_key_role(caller).value)
        side_id: Subquery | Value = Value(caller.side_id, output_field=BigIntegerField())
    else:
        mine = models.Membership.objects.filter(campaign=OuterRef("pk"), user_id=caller)
        campaigns = models.Campaign.objects.filter(memberships__user_id=caller)
        role, side_id = Subquery(mine.values("role")[:1]), Subquery(mine.values("side_id")[:1])
    club_nights_ahead = models.ClubNight.objects.filter(
        campaign=OuterRef("pk"), play_date__gte=timezone.localdate()
    ).order_by("play_date")
    return (
        campaigns.annotate(
            weather=Subquery(today.values("weather")[:1]),
            day_status=Subquery(today.values("status")[:1]),
            day_under_way_dawned_at=Subquery(today.filter(status=DayStatus.DAY).values("dawned_at")[:1]),
            turns=Subquery(segment_now.values("turns")[:1]),
            wind_direction=Subquery(segment_now.values("wind_direction")[:1]),
            wind_velocity=Subquery(segment_now.values("wind_velocity")[:1]),
            initiative_side_id=Subquery(segment_now.values("initiative_side_id")[:1]),
            my_role=role,
            my_side_id=side_id,
            next_club_night=Subquery(club_nights_ahead.values("play_date")[:1]),
        )
        .prefetch_related(Prefetch("sides", queryset=models.Side.objects.order_by("pk")))
        .order_by("name")
    )


def summary_access(campaign: models.Campaign) -> CampaignAccess:
    """The access a row of :func:`campaign_summaries` was annotated with."""
    return CampaignAccess(
        campaign=campaign,
        role=MemberRole(getattr(campaign, "my_role")),  # noqa: B009  (an annotation)
        side_id=getattr(campaign, "my_side_id"),  # noqa: B009
    )


def sides(access: CampaignAccess) -> QuerySet[models.Side]:
    return models.Side.objects.filter(campaign=access.campaign).order_by("pk")


def days(access: CampaignAccess) -> QuerySet[models.CampaignDay]:
    """Days and their segments: weather, wind, turns and initiative are public."""
    return (
        models.CampaignDay.objects.filter(campaign=access.campaign)
        .prefetch_related(Prefetch("segments", queryset=models.DaySegmentRecord.objects.order_by("order")))
        .order_by("number")
    )


def _enemy_battalions(access: CampaignAccess, prefix: str = "", *, strengths_only: bool = False) -> Q:
    """Enemy battalions a player may see: identified, on the table, not in reserve."""
    identified = [
        Q(**{f"{prefix}side_id": side_id, f"{prefix}code__in": sorted(fog.identified_units)})
        for side_id, fog in access.enemy_fogs.items()
        if fog.identified_units and (fog.strengths or not strengths_only)
    ]
    if not identified:
        return NOTHING
    return reduce(or_, identified) & Q(
        **{f"{prefix}in_reserve": False, f"{prefix}battlegroup__force__arrival_status__in": PRESENT}
    )


def _battalion_rows(access: CampaignAccess, prefix: str = "", *, strengths_only: bool = False) -> Q:
    if access.is_umpire:
        return Q()
    if access.player_side_id is None:
        return NOTHING
    return Q(**{f"{prefix}side_id": access.player_side_id}) | _enemy_battalions(
        access, prefix, strengths_only=strengths_only
    )


def battalions(access: CampaignAccess) -> QuerySet[models.Battalion]:
    return (
        models.Battalion.objects.filter(campaign=access.campaign)
        .filter(_battalion_rows(access))
        .order_by("code")
    )


def stands(access: CampaignAccess) -> QuerySet[models.Stand]:
    """Stands of own battalions, and of identified enemy ones whose side reveals strengths."""
    return (
        models.Stand.objects.filter(campaign=access.campaign)
        .filter(_battalion_rows(access, "battalion__", strengths_only=True))
        .select_related("battalion", "equipment")
        .order_by("battalion__code", "label")
    )


def forces(access: CampaignAccess) -> QuerySet[models.Force]:
    """Own forces in full; an enemy force once one of its battalions is identified."""
    queryset = models.Force.objects.filter(campaign=access.campaign).order_by("side_id", "name")
    side_id = access.player_side_id
    if access.is_umpire:
        return queryset
    if side_id is None:
        return queryset.none()
    seen = models.Battalion.objects.filter(campaign=access.campaign).filter(_enemy_battalions(access))
    return queryset.filter(Q(side_id=side_id) | Q(pk__in=seen.values("battlegroup__force_id")))


def oob(access: CampaignAccess) -> list[models.Force]:
    """The order of battle as the caller may see it, in a constant number of queries."""
    side_id = access.player_side_id
    if access.is_umpire:
        return selectors.oob_tree(access.campaign.pk)
    if side_id is None:
        return []
    enemy_battalions = battalions(access).exclude(side_id=side_id)
    enemy = (
        forces(access)
        .exclude(side_id=side_id)
        .prefetch_related(
            Prefetch(
                "battlegroups",
                queryset=models.Battlegroup.objects.filter(
                    pk__in=enemy_battalions.values("battlegroup_id")
                ).order_by("name"),
            ),
            Prefetch("battlegroups__battalions", queryset=enemy_battalions.order_by("code")),
            Prefetch(
                "battlegroups__battalions__stands",
                queryset=stands(access).exclude(battalion__side_id=side_id).order_by("label"),
            ),
        )
    )
    return [*selectors.oob_tree(access.campaign.pk, side_id), *enemy]


def battles(access: CampaignAccess) -> QuerySet[models.Battle]:
    """Umpires see every battle, players the battles their side fights; with the battalions they may see."""
    queryset = models.Battle.objects.filter(campaign=access.campaign)
    side_id = access.player_side_id
    if not access.is_umpire:
        if side_id is None:
            return queryset.none()
        queryset = queryset.filter(Q(attacker_id=side_id) | Q(defender_id=side_id))
    return (
        queryset.select_related("day")
        .prefetch_related(
            Prefetch(
                "battalions",
                queryset=battalions(access).only("id", "code", "side_id", "battlegroup_id"),
                to_attr="visible_battalions",
            ),
            Prefetch("feeds", queryset=models.Battle.objects.only("id")),
        )
        .order_by("day__number", "sector", "pk")
    )


def rolls(access: CampaignAccess) -> QuerySet[models.RollRecord]:
    """Umpires: the whole roll log. Others: public rolls, players also their side's (campaign.access)."""
    return (
        models.RollRecord.objects.filter(campaign=access.campaign)
        .filter(rolls_readable(access.reader))
        .select_related("day", "segment", "battalion", "actor")
    )


def events(access: CampaignAccess) -> QuerySet[models.Event]:
    """Umpires: the whole timeline. Others: public entries, players also their side's (campaign.access)."""
    return (
        models.Event.objects.filter(campaign=access.campaign)
        .filter(events_readable(access.reader))
        .select_related("actor")
    )


def operations(access: CampaignAccess) -> QuerySet[models.Operation]:
    """Night phases for every member (their report is the umpire's); arrival rolls for umpires."""
    queryset = models.Operation.objects.filter(campaign=access.campaign)
    if not access.is_umpire:
        queryset = queryset.filter(kind=OperationKind.NIGHT_PHASE)
    return queryset.select_related("day", "segment").order_by("-pk")


def _reports() -> QuerySet[models.NightReport]:
    """Reports with what their kind and title read: the operation (without its large report)
    and its segment."""
    return models.NightReport.objects.select_related("day", "operation__segment").defer("operation__report")


def night_reports(access: CampaignAccess) -> QuerySet[models.NightReport]:
    """Night and arrival reports (each under its kind); a player's are their side's."""
    queryset = _reports().filter(operation__campaign=access.campaign)
    side_id = access.player_side_id
    if not access.is_umpire:
        queryset = queryset.filter(side_id=side_id) if side_id is not None else queryset.none()
    return queryset.order_by("-day__number", "-operation_id", "side_id")


def latest_night_report(side_id: int) -> models.NightReport | None:
    """The side's report of its latest night phase (not of a later arrival roll)."""
    return (
        _reports()
        .filter(side_id=side_id, operation__kind=OperationKind.NIGHT_PHASE)
        .order_by("-day__number", "-pk")
        .first()
    )


def activation_spends(access: CampaignAccess, side_id: int) -> QuerySet[models.ActivationSpend]:
    """A side's spends, for those who see its pool: its players and the umpires."""
    queryset = models.ActivationSpend.objects.filter(side_id=side_id, side__campaign=access.campaign)
    if not access.sees_in_full(side_id):
        return queryset.none()
    return (
        queryset.select_related("day")
        .prefetch_related(Prefetch("battalions", queryset=models.Battalion.objects.only("id", "code")))
        .order_by("-day__number", "-turn", "-pk")
    )


def reinforcements(access: CampaignAccess) -> QuerySet[models.Force]:
    """Forces off the table or on their way: a player's own side's only, never the enemy's reserves."""
    queryset = models.Force.objects.filter(campaign=access.campaign).exclude(
        arrival_status=ArrivalStatus.ON_TABLE
    )
    if not access.is_umpire:
        side_id = access.player_side_id
        queryset = queryset.filter(side_id=side_id) if side_id is not None else queryset.none()
    return queryset.order_by("arrival_day", "side_id", "name")


@dataclass(frozen=True)
class DayTallies:
    day: models.CampaignDay
    tallies: list[models.SideDayTally]


@dataclass(frozen=True)
class Statistics:
    sides: list[models.Side]
    days: list[DayTallies]


def statistics(access: CampaignAccess) -> Statistics:
    """Every side's dawn tallies, day by day, in one query; the serializer masks what is hidden."""
    tallies = (
        models.SideDayTally.objects.filter(day__campaign=access.campaign)
        .select_related("day")
        .order_by("day__number", "side_id")
    )
    days: list[DayTallies] = []
    for tally in tallies:
        if not days or days[-1].day.pk != tally.day_id:
            days.append(DayTallies(tally.day, []))
        days[-1].tallies.append(tally)
    return Statistics(sides=[access.sides[pk] for pk in sorted(access.sides)], days=days)


def api_keys(access: CampaignAccess) -> QuerySet[CampaignAPIKey]:
    """The campaign's API keys, for its umpires."""
    queryset = CampaignAPIKey.objects.filter(campaign=access.campaign)
    if not access.is_umpire:
        return queryset.none()
    return queryset.select_related("side", "created_by").order_by("-created", "prefix")


def equipment() -> QuerySet[models.Equipment]:
    return models.Equipment.objects.order_by("nation", "name", "pk")


def webhooks(access: CampaignAccess) -> QuerySet[models.WebhookSubscription]:
    """Umpires only: where the campaign's events go is theirs to know."""
    if not access.is_umpire:
        return models.WebhookSubscription.objects.none()
    return models.WebhookSubscription.objects.filter(campaign=access.campaign).select_related("created_by")


def webhook_deliveries(subscription: models.WebhookSubscription) -> QuerySet[models.WebhookDelivery]:
    """A subscription's delivery log, newest first."""
    return models.WebhookDelivery.objects.filter(subscription=subscription).select_related("event")
