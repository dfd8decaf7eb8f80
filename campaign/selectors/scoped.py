"""A campaign's rows as one reader may see them: each a queryset scoped by :mod:`campaign.access`.

Every API list and detail starts from one of these querysets, so a hidden row is never
fetched: detail lookups 404 on it and lists leave it out.
"""

from __future__ import annotations

import uuid

from django.db.models import F, Prefetch, QuerySet

from campaign import access as access_rules
from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import (
    ArrivalStatus,
    MemberRole,
    OperationKind,
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


def battalions(access: CampaignAccess) -> QuerySet[models.Battalion]:
    return (
        models.Battalion.objects.filter(campaign=access.campaign)
        .filter(access_rules.battalions_readable(access))
        .order_by("code")
    )


def stands(access: CampaignAccess) -> QuerySet[models.Stand]:
    """Stands of own battalions, and of identified enemy ones whose side reveals strengths."""
    return (
        models.Stand.objects.filter(campaign=access.campaign)
        .filter(access_rules.battalions_readable(access, "battalion__", strengths_only=True))
        .select_related("battalion", "equipment")
        .order_by("battalion__code", "label")
    )


def forces(access: CampaignAccess) -> QuerySet[models.Force]:
    """Own forces in full; an enemy force once one of its battalions is seen, or its C Ops in
    contact; annotated with whether the reader sees where it stands."""
    return (
        models.Force.objects.filter(campaign=access.campaign)
        .filter(access_rules.forces_readable(access))
        .annotate(**access_rules.force_sectors_seen(access))
        .select_related("sector", "fup_sector")
        .order_by("side_id", "name")
    )


def force_key(access: CampaignAccess, public_id: uuid.UUID) -> int | None:
    """The number of the force the reader sees named ``public_id`` (None: no such force)."""
    found: int | None = forces(access).filter(public_id=public_id).values_list("pk", flat=True).first()
    return found


def battle_battalions(access: CampaignAccess, battle: models.Battle) -> QuerySet[models.Battalion]:
    """A battle's battalions the reader sees, with the stands it sees of them."""
    return (
        battalions(access)
        .filter(battles=battle)
        .select_related("battlegroup__force")
        .prefetch_related(Prefetch("stands", queryset=stands(access).order_by("label")))
        .order_by("side_id", "code")
    )


def dawn_tally(side_id: int, day: models.CampaignDay) -> models.SideDayTally | None:
    """A side's pools and strength as ``day`` dawned (none before it dawned)."""
    return models.SideDayTally.objects.filter(side_id=side_id, day=day).first()


def sectors(access: CampaignAccess) -> QuerySet[models.Sector]:
    """Every sector of the campaign (the ground and its owners are public), with the forces,
    battalions and battles on it the reader sees."""
    return (
        models.Sector.objects.filter(campaign=access.campaign)
        .select_related("owner")
        .prefetch_related(
            Prefetch("supply_source_for", queryset=models.Side.objects.only("id").order_by("pk")),
            Prefetch(
                "forces",
                queryset=forces(access).filter(access_rules.force_place_seen(access)).select_related("side"),
                to_attr="visible_forces",
            ),
            Prefetch(
                "battalions",
                queryset=models.Battalion.objects.filter(access_rules.battalions_readable(access))
                .select_related("side")
                .order_by("code"),
                to_attr="visible_battalions",
            ),
            Prefetch(
                "battles",
                queryset=models.Battle.objects.filter(access_rules.battles_readable(access))
                .select_related("day")
                .order_by("day__number", "pk"),
                to_attr="visible_battles",
            ),
        )
        .order_by("name")
    )


def battles(access: CampaignAccess) -> QuerySet[models.Battle]:
    """Umpires see every battle, players the battles their side fights; with the battalions they may see."""
    return (
        models.Battle.objects.filter(campaign=access.campaign)
        .filter(access_rules.battles_readable(access))
        .annotate(strengths_hidden=access_rules.battle_strengths_hidden(access, "pk"))
        .select_related("day", "sector")
        # The battles it continues and feeds, named by their public ids.
        .annotate(continues_public_id=F("continues__public_id"))
        .prefetch_related(
            Prefetch(
                "battalions",
                queryset=battalions(access).only("id", "code", "side_id", "battlegroup_id"),
                to_attr="visible_battalions",
            ),
            Prefetch("feeds", queryset=models.Battle.objects.only("id", "public_id")),
        )
        .order_by("day__number", "sector__name", "pk")
    )


def rolls(access: CampaignAccess) -> QuerySet[models.RollRecord]:
    """Umpires: the whole roll log. Others: public rolls, players also their side's (campaign.access)."""
    return (
        models.RollRecord.objects.filter(campaign=access.campaign)
        .filter(access_rules.rolls_readable(access))
        .annotate(strengths_hidden=access_rules.battle_strengths_hidden(access))
        .select_related("day", "segment", "battle", "force", "battalion", "actor", "override_of")
    )


def events(access: CampaignAccess) -> QuerySet[models.Event]:
    """Umpires: the whole timeline. Others: public entries, players also their side's (campaign.access)."""
    return (
        models.Event.objects.filter(campaign=access.campaign)
        .filter(access_rules.events_readable(access))
        .select_related("actor")
    )


def operations(access: CampaignAccess) -> QuerySet[models.Operation]:
    """Night phases for every member (their report is the umpire's); arrival rolls for umpires."""
    queryset = models.Operation.objects.filter(campaign=access.campaign)
    return (
        queryset.filter(access_rules.operations_readable(access))
        .select_related("day", "segment")
        .order_by("-pk")
    )


def _reports() -> QuerySet[models.NightReport]:
    """Reports with what their kind and title read: the operation (without its large report)
    and its segment."""
    return models.NightReport.objects.select_related("day", "operation__segment").defer("operation__report")


def night_reports(access: CampaignAccess) -> QuerySet[models.NightReport]:
    """Night and arrival reports (each under its kind); a player's are their side's."""
    queryset = _reports().filter(operation__campaign=access.campaign)
    return queryset.filter(access_rules.own_side_rows(access)).order_by(
        "-day__number", "-operation_id", "side_id"
    )


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


def artillery_orders(access: CampaignAccess, side_id: int) -> QuerySet[models.ArtilleryOrder]:
    """A side's artillery plan, for those who see it in full: its players and the umpires."""
    queryset = models.ArtilleryOrder.objects.filter(side_id=side_id, side__campaign=access.campaign)
    if not access.sees_in_full(side_id):
        return queryset.none()
    return queryset.select_related("day").order_by("-day__number", "template")


def reinforcements(access: CampaignAccess) -> QuerySet[models.Force]:
    """Forces off the table or on their way: a player's own side's only, never the enemy's reserves."""
    queryset = models.Force.objects.filter(campaign=access.campaign).exclude(
        arrival_status=ArrivalStatus.ON_TABLE
    )
    return queryset.filter(access_rules.own_side_rows(access)).order_by("arrival_day", "side_id", "name")


def equipment() -> QuerySet[models.Equipment]:
    return models.Equipment.objects.order_by("nation", "name", "pk")


def night_orders(access: CampaignAccess) -> QuerySet[models.NightOrder]:
    """Umpires only: the orders they queued for the night phases, newest day first."""
    if not access.is_umpire:
        return models.NightOrder.objects.none()
    return (
        models.NightOrder.objects.filter(campaign=access.campaign)
        .select_related("day", "battalion", "stand", "target_battalion")
        .order_by("-day__number", "pk")
    )


def side_orders(access: CampaignAccess) -> QuerySet[models.SideOrder]:
    """A side's sealed orders as the reader may see them (``access.side_orders_readable``),
    newest day first."""
    return (
        models.SideOrder.objects.filter(campaign=access.campaign)
        .filter(access_rules.side_orders_readable(access))
        .select_related("side", "created_by", "decided_by", "night_order")
        .order_by("-day_number", "pk")
    )
