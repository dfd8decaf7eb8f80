"""Reads.  Views, serializers, admin, tasks and commands read through here; what a reader
may see of them is :mod:`campaign.access`'s to say."""

from __future__ import annotations

import contextlib
import datetime
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

import redis
from django.conf import settings
from django.contrib.postgres.aggregates import ArrayAgg
from django.db import connection, transaction
from django.db.models import BigIntegerField, Count, F, OuterRef, Prefetch, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from campaign import access as access_rules
from campaign import map_layout, models
from campaign.access import CampaignAccess
from campaign.choices import (
    ArrivalStatus,
    BattleStatus,
    CampaignStatus,
    DayStatus,
    MemberRole,
    OperationKind,
    OperationStatus,
    SideOrderStatus,
    StandStatus,
    TodoKind,
)
from campaign.report_drafts import Comparison, drafted_fields, drafts_compare
from campaign.supply_lines import Ground, SideLines, side_lines
from config.celery_app import app as celery_app
from rules_engine import fairness
from rules_engine.profiles import CampaignStep, get_profile
from rules_engine.vocab import PLAYED_DAY_SEGMENTS, DaySegment, SupplySituation, counted, label_of


@dataclass(frozen=True)
class ComponentHealth:
    ok: bool
    detail: str


def _database_health() -> ComponentHealth:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure is the answer, not an error
        return ComponentHealth(False, f"{type(exc).__name__}: {exc}")
    return ComponentHealth(True, connection.vendor)


def _redis_health() -> ComponentHealth:
    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
        client.ping()
    except Exception as exc:
        return ComponentHealth(False, f"{type(exc).__name__}: {exc}")
    return ComponentHealth(True, "pong")


def _worker_health() -> ComponentHealth:
    try:
        replies = celery_app.control.ping(timeout=settings.HEALTH_WORKER_PING_TIMEOUT)
    except Exception as exc:
        return ComponentHealth(False, f"{type(exc).__name__}: {exc}")
    if not replies:
        return ComponentHealth(False, "no worker answered a ping")
    return ComponentHealth(
        True, f"{len(replies)} worker(s): " + ", ".join(sorted(k for r in replies for k in r))
    )


def service_health() -> dict[str, ComponentHealth]:
    """Database, Redis and Celery worker liveness, each checked for real."""
    health = {"database": _database_health(), "redis": _redis_health()}
    # Without a broker a worker ping would only wait out its timeout.
    health["worker"] = _worker_health() if health["redis"].ok else ComponentHealth(False, "no broker")
    return health


def _club_moment(campaign: models.Campaign, date: datetime.date) -> datetime.datetime:
    """The club's night time on ``date`` in the club's time zone (``TIME_ZONE``), in UTC.

    A wall time the spring change skips reads as the hour after it, and one the
    autumn change repeats as its first occurrence (zoneinfo's ``fold=0``).
    """
    assert campaign.night_time is not None
    local = datetime.datetime.combine(date, campaign.night_time, tzinfo=timezone.get_default_timezone())
    return local.astimezone(datetime.UTC)


def _club_date(moment: datetime.datetime) -> datetime.date:
    return moment.astimezone(timezone.get_default_timezone()).date()


def club_schedule_last(campaign: models.Campaign, now: datetime.datetime) -> datetime.datetime | None:
    """The latest scheduled night-phase moment at or before ``now``; None without a schedule."""
    if campaign.night_weekday is None or campaign.night_time is None:
        return None
    today = _club_date(now)
    date = today - datetime.timedelta(days=(today.weekday() - campaign.night_weekday) % 7)
    moment = _club_moment(campaign, date)
    return moment if moment <= now else _club_moment(campaign, date - datetime.timedelta(days=7))


def club_schedule_next(
    campaign: models.Campaign, day_dawned_at: datetime.datetime | None, now: datetime.datetime
) -> datetime.datetime | None:
    """The scheduled moment the club schedule acts on next (:mod:`campaign.services.schedule`).

    The first moment after the day under way dawned (``day_dawned_at``) and after
    the last moment the schedule acted on. With no day under way, the first after
    ``now``: the next day dawns no earlier. None without a schedule or once the
    campaign is finished.
    """
    if campaign.night_weekday is None or campaign.night_time is None:
        return None
    if campaign.status == CampaignStatus.FINISHED:
        return None
    acted_for = campaign.night_schedule_acted_for
    since = max(day_dawned_at or now, acted_for) if acted_for else day_dawned_at or now
    first = _club_date(since)
    date = first + datetime.timedelta(days=(campaign.night_weekday - first.weekday()) % 7)
    moment = _club_moment(campaign, date)
    return moment if moment > since else _club_moment(campaign, date + datetime.timedelta(days=7))


def side_orders_day(campaign: models.Campaign) -> int:
    """The campaign day a side's new orders are for: the day under way until its night phase
    starts, else the next one (its night and dawn are the coming ones)."""
    day = campaign.days.filter(number=campaign.current_day).only("status").first()
    if day is not None and day.status in (DayStatus.DAWN, DayStatus.DAY):
        return campaign.current_day
    return campaign.current_day + 1


def side_orders_deadline(campaign: models.Campaign, day_number: int) -> datetime.datetime | None:
    """When a side's orders for campaign day ``day_number`` close (rules notes C-19): the night
    phase that follows the club night the club plays that day (:func:`club_night_orders_deadline`),
    else, once the day is under way, the weekly schedule's first night-phase moment after its
    dawn; less the club's lead time (``Campaign.orders_lead_hours``). None when the schedule sets
    no moment: orders then close when the night phase starts."""
    night = campaign.club_nights.filter(campaign_day=day_number).first()
    if night is not None:
        return club_night_orders_deadline(campaign, night.play_date)
    day = campaign.days.filter(number=day_number).only("dawned_at").first()
    if day is None or day.dawned_at is None:
        return None
    moment = club_schedule_next(campaign, day.dawned_at, day.dawned_at)
    return moment - datetime.timedelta(hours=campaign.orders_lead_hours) if moment is not None else None


def club_night_orders_deadline(campaign: models.Campaign, play_date: datetime.date) -> datetime.datetime:
    """When orders for the campaign day played on ``play_date`` close: the weekly night phase's
    first moment on or after that date (the night that follows the club night: a club playing on
    Tuesdays with its night phase on Wednesday mornings closes orders on the Wednesday), or the
    start of that date without a weekly schedule; less the club's lead time."""
    lead = datetime.timedelta(hours=campaign.orders_lead_hours)
    if campaign.night_weekday is not None and campaign.night_time is not None:
        date = play_date + datetime.timedelta(days=(campaign.night_weekday - play_date.weekday()) % 7)
        return _club_moment(campaign, date) - lead
    start = datetime.datetime.combine(play_date, datetime.time(0), tzinfo=timezone.get_default_timezone())
    return start.astimezone(datetime.UTC) - lead


def deadline_text(moment: datetime.datetime) -> str:
    """A deadline as the club reads it: its own time zone, named."""
    local = moment.astimezone(timezone.get_default_timezone())
    return f"{local:%A %d %B %Y, %H:%M} {local.tzname()}"


def memberships_of(user_id: int | None) -> QuerySet[models.Membership]:
    """A user's memberships with their campaigns, by campaign name; none for nobody (None)."""
    if user_id is None:
        return models.Membership.objects.none()
    return (
        models.Membership.objects.filter(user_id=user_id)
        .select_related("campaign")
        .order_by("campaign__name")
    )


def key_session(api_key: models.CampaignAPIKey) -> dict[str, Any]:
    """What ``session/`` tells a key's holder: the key (never its secret), and the one campaign it
    reads listed as a membership would be, in the role the key reads as."""
    role = access_rules.api_key_role(api_key)
    side = api_key.side if api_key.side_id is not None else None
    # Unsaved: the membership the key acts as, in the shape the session lists memberships in.
    acts_as = models.Membership(campaign=api_key.campaign, role=role, side=side)
    return {
        "authenticated": True,
        "username": None,
        "campaigns": [acts_as],
        "api_key": {
            "name": api_key.name,
            "prefix": api_key.prefix,
            "campaign": api_key.campaign.slug,
            "role": role,
            "side": api_key.side_id,
            "side_name": side.name if side is not None else None,
            "can_write": api_key.can_write,
        },
    }


def oob_tree(campaign_id: int, side_id: int | None = None) -> list[models.Force]:
    """Forces with battlegroups, battalions and stands: four queries whatever the size."""
    forces = models.Force.objects.filter(campaign_id=campaign_id).select_related(
        "side", "sector", "fup_sector"
    )
    if side_id is not None:
        forces = forces.filter(side_id=side_id)
    return list(
        forces.prefetch_related(
            Prefetch("battlegroups", queryset=models.Battlegroup.objects.order_by("name")),
            Prefetch(
                "battlegroups__battalions",
                queryset=models.Battalion.objects.select_related("sector").order_by("code"),
            ),
            Prefetch(
                "battlegroups__battalions__stands",
                queryset=models.Stand.objects.select_related("equipment").order_by("label"),
            ),
        )
    )


# What force status shows of each battalion: plain rows, as a division has a hundred.
BATTALION_STATUS_FIELDS = (
    "id",
    "side_id",
    "code",
    "name",
    "in_reserve",
    "activation",
    "supply_situation",
    "fuel_state",
    "ammo_low_markers",
)


@dataclass(frozen=True)
class BattalionStatus:
    battalion: dict[str, Any]  # BATTALION_STATUS_FIELDS
    stands: dict[str, int]  # status → count
    battle: dict[str, Any] | None  # id, sector, sector_name and status of its open battle today


@dataclass(frozen=True)
class ForceStatus:
    force: models.Force
    strength: dict[str, dict[str, int]]  # stand type → status → count, of every battalion
    battalions: list[BattalionStatus]
    night_in_progress: bool  # the state shown is the state before the night under way


def night_in_progress(campaign: models.Campaign) -> bool:
    """Whether a night phase is under way: until its last commit, reads show the state before it."""
    return campaign.night_version is not None


def version_shown(campaign: models.Campaign) -> int:
    """The version whose state reads show: during a night, the one it started at."""
    return campaign.night_version or campaign.version


@dataclass(frozen=True)
class NightBefore:
    """A night's :class:`~campaign.models.NightSnapshot`: puts back what the night under way has
    written so far, on model instances and on ``.values()`` rows."""

    values: dict[str, dict[str, list[Any]]]

    def _before(self, name: str, pk: Any) -> dict[str, Any]:
        values = self.values.get(name, {}).get(str(pk))
        return {} if values is None else dict(zip(models.NightSnapshot.FIELDS[name], values, strict=True))

    def restore(self, instance: Any) -> None:
        for field, value in self._before(instance._meta.model_name, instance.pk).items():
            setattr(instance, field, value)

    def restore_row(self, name: str, row: dict[str, Any]) -> None:
        row.update((field, value) for field, value in self._before(name, row["id"]).items() if field in row)

    def stands_of(self, battalion_ids: set[int]) -> dict[int, dict[str, Any]]:
        """The stands that were in these battalions, with their fields as they were."""
        battalion = models.NightSnapshot.FIELDS["stand"].index("battalion_id")
        return {
            int(pk): self._before("stand", pk)
            for pk, values in self.values.get("stand", {}).items()
            if values[battalion] in battalion_ids
        }


def night_before(campaign_id: int, *names: str) -> NightBefore | None:
    """The state before the campaign's night under way, if one is (its snapshot goes with its
    last commit): of the models ``names`` (default: all). Read it in the same
    :func:`one_moment` as what it restores."""
    snapshots = models.NightSnapshot.objects.filter(operation__campaign_id=campaign_id)
    if not names:
        values = snapshots.values_list("values", flat=True).first()
        return None if values is None else NightBefore(values)
    parts = snapshots.values_list(*(f"values__{name}" for name in names)).first()
    return None if parts is None else NightBefore(dict(zip(names, parts, strict=True)))


@contextlib.contextmanager
def one_moment() -> Iterator[None]:
    """The queries inside see the database as of one moment (a REPEATABLE READ transaction), so a
    read of several queries never shows part of a series of commits, such as a night's. Inside
    a transaction already (a write, a test), that transaction's view stands."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def night_restore_tree(campaign_id: int, forces: list[models.Force]) -> bool:
    """Show forces with their battlegroups, battalions and stands (as :func:`oob_tree` prefetches
    them) as they were before the night under way, if one is (whether one is): a stand the night
    moved goes back to its battalion (when the tree holds it)."""
    before = night_before(campaign_id)
    if before is None:
        return False
    battalions: dict[int, models.Battalion] = {}
    stands: list[models.Stand] = []
    for force in forces:
        before.restore(force)
        for battlegroup in force.battlegroups.all():
            for battalion in battlegroup.battalions.all():
                before.restore(battalion)
                battalions[battalion.pk] = battalion
                stands += battalion.stands.all()
    moved: dict[int, list[models.Stand]] = defaultdict(list)
    for stand in stands:
        was_in = stand.battalion_id
        before.restore(stand)
        if stand.battalion_id != was_in:
            moved[was_in].append(stand)
            if stand.battalion_id in battalions:
                stand.battalion = battalions[stand.battalion_id]
                moved[stand.battalion_id].append(stand)
    for battalion_id, changed in moved.items():
        battalion = battalions[battalion_id]
        prefetched = battalion.stands.all()
        kept = [s for s in prefetched if s.battalion_id == battalion_id]
        arrived = [s for s in changed if s.battalion_id == battalion_id]
        prefetched._result_cache = sorted([*kept, *arrived], key=lambda s: s.label)
    return True


def force_status(force_id: int, battalions: QuerySet[models.Battalion] | None = None) -> ForceStatus:
    """A force's strength and the state of its battalions among ``battalions`` (default: all),
    in four queries whatever the size, counted in SQL; during a night, as it was before it.
    Read within :func:`one_moment`, with whatever else the response shows."""
    force = models.Force.objects.select_related("side", "campaign").get(pk=force_id)
    before = night_before(force.campaign_id) if night_in_progress(force.campaign) else None
    if before is not None:
        for instance in (force, force.side, force.campaign):
            before.restore(instance)
    strength: dict[str, dict[str, int]] = {}
    none = dict.fromkeys(StandStatus.values, 0)  # an enum's values are rebuilt on every access
    stands: dict[int, dict[str, int]] = {}
    for battalion_id, stand_type, status, count in (
        _stand_counts(force_id) if before is None else _stand_counts_before(force_id, before)
    ):
        by_status = strength.setdefault(stand_type, {})
        by_status[status] = by_status.get(status, 0) + count
        stands.setdefault(battalion_id, dict(none))[status] += count
    battles: dict[int, dict[str, Any]] = {}
    for battalion_id, battle_id, sector_id, sector_name, status in (
        models.Battle.battalions.through.objects.filter(
            battalion__battlegroup__force_id=force_id,
            battle__day__campaign_id=force.campaign_id,
            battle__day__number=force.campaign.current_day,
        )
        .exclude(battle__status=BattleStatus.CLOSED)
        .order_by("battle__sector__name", "battle_id")
        .values_list(
            "battalion_id", "battle__public_id", "battle__sector_id", "battle__sector__name", "battle__status"
        )
    ):
        battles.setdefault(
            battalion_id, {"id": battle_id, "sector": sector_id, "sector_name": sector_name, "status": status}
        )
    rows = list(
        (battalions if battalions is not None else models.Battalion.objects.all())
        .filter(battlegroup__force_id=force_id)
        .order_by("code")
        .values(*BATTALION_STATUS_FIELDS)
    )
    if before is not None:
        for row in rows:
            before.restore_row("battalion", row)
    return ForceStatus(
        force=force,
        strength=strength,
        battalions=[
            BattalionStatus(
                battalion=row, stands=stands.get(row["id"]) or dict(none), battle=battles.get(row["id"])
            )
            for row in rows
        ],
        night_in_progress=before is not None,
    )


def _stand_counts(force_id: int) -> QuerySet[Any, tuple[int, str, str, int]]:
    """(battalion, stand type, status, count) of the force's stands."""
    return (
        models.Stand.objects.filter(battalion__battlegroup__force_id=force_id)
        .values_list("battalion_id", "stand_type", "status")
        .annotate(count=Count("id"))
        .order_by()
    )


def _stand_counts_before(force_id: int, before: NightBefore) -> list[tuple[int, str, str, int]]:
    """(battalion, stand type, status, count) of the stands the force had before the night."""
    battalion_ids = set(
        models.Battalion.objects.filter(battlegroup__force_id=force_id).values_list("pk", flat=True)
    )
    was = before.stands_of(battalion_ids)
    counts: Counter[tuple[int, str, str]] = Counter()
    for pk, stand_type in models.Stand.objects.filter(pk__in=was).values_list("pk", "stand_type"):
        counts[was[pk]["battalion_id"], stand_type, was[pk]["status"]] += 1
    return [(*key, count) for key, count in counts.items()]


# Reads scoped to what the caller may see (campaign.access) ------------------------------
# Every API list and detail starts from one of these querysets, so a hidden row is never
# fetched: detail lookups 404 on it and lists leave it out.


def campaign_summaries(caller: int | models.CampaignAPIKey) -> QuerySet[models.Campaign]:
    """A user's campaigns (by user id), or an API key's one campaign, with today's weather,
    the segment's wind and turns, the dawn of a day under way, and the caller's role."""
    today = models.CampaignDay.objects.filter(campaign=OuterRef("pk"), number=OuterRef("current_day"))
    segment_now = models.DaySegmentRecord.objects.filter(
        day__campaign=OuterRef("pk"), day__number=OuterRef("current_day"), segment=OuterRef("current_segment")
    )
    if isinstance(caller, models.CampaignAPIKey):
        campaigns = models.Campaign.objects.filter(pk=caller.campaign_id)
        role: Subquery | Value = Value(access_rules.api_key_role(caller).value)
        side_id: Subquery | Value = Value(caller.side_id, output_field=BigIntegerField())
    else:
        mine = models.Membership.objects.filter(campaign=OuterRef("pk"), user_id=caller)
        campaigns = models.Campaign.objects.filter(memberships__user_id=caller)
        role, side_id = Subquery(mine.values("role")[:1]), Subquery(mine.values("side_id")[:1])
    club_nights_ahead = models.ClubNight.objects.filter(
        campaign=OuterRef("pk"), play_date__gte=timezone.localdate()
    ).order_by("play_date")
    # The turns of the day played in the segments before the one under way (turns count on
    # through the day's segments: rules_engine's day-end roll cuts them by the day's turn).
    segment_order = models.DaySegmentRecord.objects.filter(
        day=OuterRef("day"), segment=OuterRef(OuterRef("current_segment"))
    ).values("order")[:1]
    earlier_turns = (
        models.DaySegmentRecord.objects.filter(
            day__campaign=OuterRef("pk"),
            day__number=OuterRef("current_day"),
            order__lt=Subquery(segment_order),
        )
        .values("day")
        .annotate(total=Sum("turns"))
        .values("total")[:1]
    )
    return (
        campaigns.annotate(
            weather=Subquery(today.values("weather")[:1]),
            day_status=Subquery(today.values("status")[:1]),
            day_under_way_dawned_at=Subquery(today.filter(status=DayStatus.DAY).values("dawned_at")[:1]),
            turns=Subquery(segment_now.values("turns")[:1]),
            turns_before=Coalesce(Subquery(earlier_turns), 0),
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


def member_campaign(user_id: int, campaign_slug: str) -> models.Campaign | None:
    """The campaign with the user's ``member_role`` and ``member_side_id``, if they are a member.

    Every request of a user under a campaign asks this: in SQL, as the ORM would take
    longer to build the query than PostgreSQL takes to answer it."""
    campaigns = connection.ops.quote_name(models.Campaign._meta.db_table)
    memberships = connection.ops.quote_name(models.Membership._meta.db_table)
    query = (
        f"SELECT c.*, m.role AS member_role, m.side_id AS member_side_id FROM {campaigns} c "
        f"JOIN {memberships} m ON m.campaign_id = c.id WHERE c.slug = %s AND m.user_id = %s"
    )  # table names come from the models; every value is a parameter
    return next(iter(models.Campaign.objects.raw(query, [campaign_slug, user_id])), None)


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


def oob(access: CampaignAccess) -> list[models.Force]:
    """The order of battle as the caller may see it, in a constant number of queries."""
    side_id = access.player_side_id
    if access.is_umpire:
        return oob_tree(access.campaign.pk)
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
            Prefetch(
                "battlegroups__battalions",
                queryset=enemy_battalions.select_related("sector").order_by("code"),
            ),
            Prefetch(
                "battlegroups__battalions__stands",
                queryset=stands(access).exclude(battalion__side_id=side_id).order_by("label"),
            ),
        )
    )
    return [*oob_tree(access.campaign.pk, side_id), *enemy]


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


@dataclass(frozen=True)
class MapDocument:
    """One side's view of the campaign map (the umpire's: everything), read in one moment."""

    sectors: list[models.Sector]
    links: list[models.SectorLink]
    forces: list[models.Force]  # those whose C Ops the reader sees on the map, or off it when their own
    battalions: list[models.Battalion]
    battles: list[models.Battle]
    supply: dict[str, Any]  # supply_map_part's, from these rows
    labels: list[map_layout.Label]  # where each sector's name stands (the ground's, not fogged)


def map_document(access: CampaignAccess) -> MapDocument:
    """The map as ``access`` sees it, in a constant number of queries whatever its size."""
    with one_moment():
        sectors = list(
            models.Sector.objects.filter(campaign=access.campaign)
            .prefetch_related(
                Prefetch("supply_source_for", queryset=models.Side.objects.only("id").order_by("pk"))
            )
            .order_by("pk")
        )
        links = list(models.SectorLink.objects.filter(campaign=access.campaign).order_by("a_id", "b_id"))
        seen = list(battalions(access))
        return MapDocument(
            sectors=sectors,
            links=links,
            forces=list(forces(access).filter(access_rules.force_place_seen(access))),
            battalions=seen,
            battles=list(
                models.Battle.objects.filter(campaign=access.campaign)
                .filter(access_rules.battles_readable(access))
                .order_by("pk")
            ),
            supply=supply_map_part(access, sectors, links, seen),
            labels=map_layout.place_labels(
                sectors,
                map_layout.map_points(sectors)[1],
                [
                    *models.Side.objects.filter(campaign=access.campaign).values_list("name", flat=True),
                    map_layout.CONTESTED_NOTE,
                ],
            ),
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


@dataclass(frozen=True)
class DaySeed:
    day: int
    seed: str


@dataclass(frozen=True)
class AudienceSeeds:
    """One audience's chain (rules notes C-22): its commitment, public from the start, and the
    revealed day seeds the reader holds (none when they are not of its audience)."""

    audience: str
    commitment: str
    seeds: list[DaySeed]

    @property
    def seed(self) -> str:
        """The one day's seed, in a day's document."""
        return self.seeds[0].seed if self.seeds else ""


def _audience_seeds(access: CampaignAccess, days: Sequence[int]) -> list[AudienceSeeds]:
    """Every audience but the public (whose seeds are stored on the days): the seeds of ``days``
    for those the reader is of; the commitment of every one."""
    campaign = access.campaign
    held = set(access_rules.dice_audiences_held(access))
    chains = []
    for audience in access_rules.dice_audiences(side.name for side in access.sides.values()):
        if audience == fairness.PUBLIC_AUDIENCE:
            continue
        seeds: list[DaySeed] = []
        if audience in held and days:
            revealed = fairness.revealed_seeds(
                campaign.rng_seed, campaign.dice_chain_length, max(days), audience
            )
            seeds = [DaySeed(day, revealed[day - 1]) for day in days]
        # Fixed with the master seed: the same from the campaign's start, whoever asks.
        commitment = fairness.commitment(campaign.rng_seed, campaign.dice_chain_length, audience)
        chains.append(AudienceSeeds(audience, commitment, seeds))
    return chains


@dataclass(frozen=True)
class DiceSummary:
    """The campaign's dice commitments and the day seeds revealed so far: the public's to every
    member, each other audience's to its readers."""

    campaign: models.Campaign
    days: list[models.CampaignDay]
    audiences: list[AudienceSeeds]
    algorithm: ClassVar[str] = fairness.ALGORITHM

    @property
    def rolling_day(self) -> int:
        return self.campaign.dice_revealed_through + 1


def dice_summary(access: CampaignAccess) -> DiceSummary:
    revealed = list(
        models.CampaignDay.objects.filter(campaign=access.campaign)
        .exclude(dice_seed="")
        .only("number", "dice_seed")
        .order_by("number")
    )
    return DiceSummary(access.campaign, revealed, _audience_seeds(access, [day.number for day in revealed]))


@dataclass(frozen=True)
class DayDice:
    """A revealed day's verification document: its public seed, the seeds of the other audiences
    the reader is of, and the rolls it rolled that the reader may read (campaign.access), in the
    order they were rolled."""

    campaign: models.Campaign
    day: models.CampaignDay
    audiences: list[AudienceSeeds]
    rolls: list[models.RollRecord]
    algorithm: ClassVar[str] = fairness.ALGORITHM


def day_dice(access: CampaignAccess, day: models.CampaignDay) -> DayDice | None:
    """None while the day's seed is not revealed."""
    if not day.dice_seed:
        return None
    rolled = rolls(access).filter(dice_day=day.number).select_related(None).select_related("override_of")
    held = [chain for chain in _audience_seeds(access, [day.number]) if chain.seeds]
    return DayDice(access.campaign, day, held, list(rolled.order_by("id")))


def roll_procedures(access: CampaignAccess) -> list[str]:
    """The procedures of the rolls the reader may read (what the roll log filters by)."""
    readable = models.RollRecord.objects.filter(campaign=access.campaign).filter(
        access_rules.rolls_readable(access)
    )
    return list(readable.order_by("procedure").values_list("procedure", flat=True).distinct())


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


def api_keys(access: CampaignAccess) -> QuerySet[models.CampaignAPIKey]:
    """The campaign's API keys, for its umpires."""
    queryset = models.CampaignAPIKey.objects.filter(campaign=access.campaign)
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


def webhook_deliveries(subscription: models.WebhookSubscription) -> QuerySet[models.WebhookDelivery]:
    """A subscription's delivery log, newest first."""
    # With its subscription: whether it may be sent again depends on it being switched on.
    return models.WebhookDelivery.objects.filter(subscription=subscription).select_related(
        "event", "subscription"
    )


# Supply lines ------------------------------------------------------------------


CUT_OFF = (SupplySituation.ISOLATED, SupplySituation.SEPARATED)


@dataclass(frozen=True)
class SupplyForce:
    id: int
    name: str
    side_id: int
    sector_id: int | None  # its C Ops; None: off the map
    public_id: uuid.UUID  # what the API names it by


@dataclass(frozen=True)
class SupplyBattalion:
    id: int
    code: str
    side_id: int
    force_id: int
    sector_id: int
    situation: str  # as it stands (confirmed, or applied by the last night)
    public_id: uuid.UUID  # what the API names it by


@dataclass(frozen=True)
class SupplyMap:
    """What supply lines are traced from, read in five queries whatever the campaign's size."""

    ground: Ground
    side_ids: tuple[int, ...]
    forces: dict[int, SupplyForce]
    battalions: list[SupplyBattalion]  # on the map (reserves and battalions not yet placed are off it)

    @cached_property
    def lines(self) -> dict[int, SideLines]:
        return side_lines(self.ground, self.side_ids)


def supply_map(campaign_id: int) -> SupplyMap:
    owners = dict(models.Sector.objects.filter(campaign_id=campaign_id).values_list("pk", "owner_id"))
    links = tuple(models.SectorLink.objects.filter(campaign_id=campaign_id).values_list("a_id", "b_id"))
    listed: dict[int, set[int]] = defaultdict(set)
    sources = models.Sector.supply_source_for.through.objects.filter(sector__campaign_id=campaign_id)
    for sector_id, side_id in sources.values_list("sector_id", "side_id"):
        listed[side_id].add(sector_id)
    forces = {
        pk: SupplyForce(pk, name, side_id, sector_id, public_id)
        for pk, name, side_id, sector_id, public_id in models.Force.objects.filter(campaign_id=campaign_id)
        .order_by("pk")
        .values_list("pk", "name", "side_id", "sector_id", "public_id")
    }
    battalions = [
        SupplyBattalion(*row)
        for row in models.Battalion.objects.filter(
            campaign_id=campaign_id, sector__isnull=False, in_reserve=False
        )
        .order_by("code")
        .values_list(
            "pk", "code", "side_id", "battlegroup__force_id", "sector_id", "supply_situation", "public_id"
        )
    ]
    return SupplyMap(
        ground=Ground(owners, links, {side: frozenset(s) for side, s in listed.items()}),
        side_ids=tuple(sorted({force.side_id for force in forces.values()} | listed.keys())),
        forces=forces,
        battalions=battalions,
    )


def supply_map_part(
    access: CampaignAccess,
    sectors: Sequence[models.Sector],
    links: Sequence[models.SectorLink],
    battalions: Iterable[models.Battalion],
) -> dict[str, Any]:
    """The map document's supply, from the rows it read (no query of its own): every side's
    sources of supply (its listed sectors it holds: who holds a sector is public), the reader's
    own lines (umpires: every side's), and the battalions whose supply the reader sees (its own
    side's: never an enemy's) that are cut off, as their situation stands (confirmed by the
    umpire or applied by the last night).

    ``sectors`` come with their ``supply_source_for`` prefetched; ``battalions`` are the reader's."""
    listed: dict[int, set[int]] = defaultdict(set)
    for sector in sectors:
        for side in sector.supply_source_for.all():
            listed[side.pk].add(sector.pk)
    ground = Ground(
        {sector.pk: sector.owner_id for sector in sectors},
        tuple((link.a_id, link.b_id) for link in links),
        {side: frozenset(keys) for side, keys in listed.items()},
    )
    side_ids = sorted(access.sides)
    drawn = side_lines(
        ground, side_ids if access.is_umpire else [s for s in side_ids if s == access.player_side_id]
    )
    situations: dict[str, list[uuid.UUID]] = {s.value: [] for s in CUT_OFF}
    for battalion in battalions:
        shown = access_rules.battalion_fields_shown(access, battalion.side_id)
        if (
            (shown is None or "supply_situation" in shown)
            and battalion.sector_id is not None
            and not battalion.in_reserve
            and battalion.supply_situation in situations
        ):
            situations[battalion.supply_situation].append(battalion.public_id)
    return {
        "sides": [
            {
                "side": side_id,
                "sources": sorted(ground.sources(side_id)),
                "lines": [list(step) for step in drawn[side_id].lines()] if side_id in drawn else [],
            }
            for side_id in side_ids
        ],
        "isolated": sorted(situations[SupplySituation.ISOLATED.value], key=str),
        "separated": sorted(situations[SupplySituation.SEPARATED.value], key=str),
    }


def members(access: CampaignAccess) -> QuerySet[models.Membership]:
    """The campaign's members, for its umpires: umpires first, then players by side, then observers."""
    if not access.is_umpire:
        return models.Membership.objects.none()
    return (
        models.Membership.objects.filter(campaign=access.campaign)
        .select_related("user", "side")
        .order_by("role", "side__name", "user__username")
    )


def invitations(access: CampaignAccess) -> QuerySet[models.Invitation]:
    """The campaign's invitation links (never their tokens), newest first, for its umpires."""
    if not access.is_umpire:
        return models.Invitation.objects.none()
    return models.Invitation.objects.filter(campaign=access.campaign).select_related(
        "side", "created_by", "accepted_by"
    )


def invitation_by_token(token: str) -> models.Invitation | None:
    """The invitation a link's token opens, with its campaign and side."""
    return (
        models.Invitation.objects.filter(token_hash=models.Invitation.token_hash_of(token))
        .select_related("campaign", "side")
        .first()
    )


def notifications(user_id: int) -> QuerySet[models.Notification]:
    """A person's inbox across their campaigns, newest first, each with its campaign."""
    return (
        models.Notification.objects.filter(access_rules.notifications_readable(user_id))
        .select_related("campaign")
        .order_by("-id")
    )


def notifications_unread(user_id: int, campaign_slug: str | None = None) -> int:
    unread = notifications(user_id).filter(read_at__isnull=True)
    if campaign_slug is not None:
        unread = unread.filter(campaign__slug=campaign_slug)
    return unread.count()


def member_campaign_id(user_id: int, campaign_slug: str) -> int | None:
    """The id of the campaign of ``campaign_slug`` when the person is its member."""
    return (
        models.Membership.objects.filter(user_id=user_id, campaign__slug=campaign_slug)
        .values_list("campaign_id", flat=True)
        .first()
    )


def membership_of(user_id: int, campaign_id: int) -> models.Membership | None:
    return models.Membership.objects.filter(user_id=user_id, campaign_id=campaign_id).first()


@dataclass(frozen=True)
class ClubSchedule:
    campaign: models.Campaign
    club_nights: list[models.ClubNight]
    next_night_phase: datetime.datetime | None


def club_schedule(campaign: models.Campaign, now: datetime.datetime) -> ClubSchedule:
    """The club's schedule: the weekly night phase, the club nights by campaign day, and the
    moment the schedule acts on next (:func:`club_schedule_next`)."""
    dawned_at = (
        models.CampaignDay.objects.filter(
            campaign=campaign, number=campaign.current_day, status=DayStatus.DAY
        )
        .values_list("dawned_at", flat=True)
        .first()
    )
    return ClubSchedule(
        campaign=campaign,
        club_nights=list(campaign.club_nights.order_by("campaign_day")),
        next_night_phase=club_schedule_next(campaign, dawned_at, now),
    )


def calendar_feed(token: str) -> ClubSchedule | None:
    """The schedule a member's calendar secret opens (None for an unknown one): their campaign's
    weekly night phase and club nights, nothing else of the campaign or the member."""
    membership = models.Membership.objects.filter(calendar_token=token).select_related("campaign").first()
    if membership is None:
        return None
    campaign = membership.campaign
    return ClubSchedule(
        campaign=campaign,
        club_nights=list(campaign.club_nights.order_by("campaign_day")),
        next_night_phase=None,
    )


# Rolls set columns of these rows (campaign.services.overrides' targets): the coded ones' choices.
def _roll_column_choices() -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for model in (models.CampaignDay, models.DaySegmentRecord, models.Battalion, models.Force):
        for field in model._meta.concrete_fields:
            if field.choices and field.name not in found:
                found[field.name] = {str(code): str(label) for code, label in field.flatchoices}
    return found


ROLL_COLUMN_CHOICES = _roll_column_choices()


# Rolls name a side they set (a segment's initiative) by the side's name.
ROLL_SIDE_COLUMNS = frozenset(
    field.name
    for model in (models.CampaignDay, models.DaySegmentRecord, models.Battalion, models.Force)
    for field in model._meta.concrete_fields
    if field.is_relation and field.related_model is models.Side
)


def roll_change_choices(
    changes: Mapping[str, Any] | None, side_names: Iterable[str]
) -> dict[str, dict[str, str]]:
    """Each coded value a roll set, with every code it may take and its label, and each side it
    named with the campaign's ``side_names``: an override offers words to choose, never codes."""
    sides = {name: name for name in side_names}
    return {
        name: sides if name in ROLL_SIDE_COLUMNS else ROLL_COLUMN_CHOICES[name]
        for name in (changes or {})
        if name in ROLL_COLUMN_CHOICES or name in ROLL_SIDE_COLUMNS
    }


# Battle drafts (rules notes C-20) ------------------------------------------------


def battle_draftable(battle: models.Battle) -> dict[int, dict[str, tuple[str, ...]]]:
    """What each side of the battle may draft of each of its battalions, by side id and code
    (``report_drafts.drafted_fields``): an enemy's stands only where its fog shows them."""
    owners = dict(battle.battalions.values_list("code", "side_id"))
    draftable = {}
    for side_id in (battle.attacker_id, battle.defender_id):
        reader = CampaignAccess(battle.campaign, MemberRole.PLAYER, side_id)
        seen = set(
            battle.battalions.filter(
                access_rules.battalions_readable(reader, strengths_only=True)
            ).values_list("code", flat=True)
        )
        draftable[side_id] = {
            code: drafted_fields(owner, side_id, code in seen) for code, owner in owners.items()
        }
    return draftable


@dataclass(frozen=True)
class OwnDraft:
    """A player's side's draft of a battle (None: not filed), whether the other side filed one,
    and the fields the side may draft of each battalion, by code (``report_drafts.drafted_fields``;
    only the battalions it may draft something of)."""

    battle: models.Battle
    side_id: int
    draft: models.BattleDraft | None
    opponent_filed: bool
    fields: dict[str, tuple[str, ...]]


def battle_draft_own(access: CampaignAccess, battle: models.Battle) -> OwnDraft | None:
    """The reader's side's draft of ``battle`` (a battle the reader sees), or None when the reader
    drafts none of it (``campaign.access.battle_draft_reader_side``)."""
    side_id = access_rules.battle_draft_reader_side(access, battle)
    if side_id is None:
        return None
    drafts = {d.side_id: d for d in battle.drafts.select_related("author").order_by("side_id")}
    # Never an enemy battalion it may draft nothing of: the fog may hide its very code.
    fields = {code: drafted for code, drafted in battle_draftable(battle)[side_id].items() if drafted}
    return OwnDraft(battle, side_id, drafts.get(side_id), any(s != side_id for s in drafts), fields)


@dataclass(frozen=True)
class DraftComparison:
    """Both drafts of a battle and their items compared, for the umpire; ``stands_now``: the
    order of battle's state of each stand the drafts name, by (battalion code, label)."""

    battle: models.Battle
    drafts: list[models.BattleDraft]
    comparison: Comparison
    stands_now: dict[tuple[str, str], str]


def battle_draft_comparison(access: CampaignAccess, battle: models.Battle) -> DraftComparison | None:
    """The battle's drafts compared (umpires; None for anybody else)."""
    if not access_rules.battle_drafts_compared_by(access):
        return None
    drafts = list(battle.drafts.select_related("author", "side").order_by("side_id"))
    comparison = drafts_compare(
        {d.side_id: d.report for d in drafts},
        [battle.attacker_id, battle.defender_id],
        battle_draftable(battle),
    )
    named = {(i.battalion, i.stand) for i in comparison.items if i.kind == "stand"}
    codes = {code for code, _ in named}
    stands_now = {
        (code, label): status
        for code, label, status in models.Stand.objects.filter(
            battalion__battles=battle, battalion__code__in=codes
        ).values_list("battalion__code", "label", "status")
        if (code, label) in named
    }
    return DraftComparison(battle, drafts, comparison, stands_now)


# Victory: the scenario's conditions and where each side stands against them ------------------


@dataclass(frozen=True)
class SectorHeld:
    id: int
    name: str
    owner_id: int | None  # None: contested
    held: bool  # by the condition's side


@dataclass(frozen=True)
class ConditionStanding:
    """One of the scenario's victory conditions and how its side stands against it now. Sectors,
    their owners and victory points are public (rules notes C-17): every member reads it all."""

    side_id: int
    side_name: str
    result: str
    sectors: list[SectorHeld]
    victory_points: int | None  # the threshold; None: none
    points_held: int
    by_day: int | None
    day: int  # the day it is read on: tonight's night checks it

    @property
    def expired(self) -> bool:
        return self.by_day is not None and self.day > self.by_day

    @property
    def met(self) -> bool:
        enough = self.victory_points is None or self.points_held >= self.victory_points
        return not self.expired and all(sector.held for sector in self.sectors) and enough

    @property
    def standing(self) -> str:
        """Where the side stands, in words."""
        parts = []
        if self.sectors:
            held = [s.name for s in self.sectors if s.held]
            missing = [s.name for s in self.sectors if not s.held]
            parts.append(
                f"holds {len(held)} of {len(self.sectors)} sectors"
                + (f" ({', '.join(held)})" if held else "")
                + (f"; not {', '.join(missing)}" if missing else "")
            )
        if self.victory_points is not None:
            point_word = "victory point" if self.victory_points == 1 else "victory points"
            parts.append(f"holds {self.points_held} of {self.victory_points} {point_word}")
        if self.by_day is not None:
            parts.append(f"by day {self.by_day}" + (": too late" if self.expired else ""))
        text = f"{self.side_name} " + "; ".join(parts)
        if self.met:
            text += ". Met as the map stands: tonight's night phase would end the campaign"
        return text + "."


@dataclass(frozen=True)
class SideStanding:
    side_id: int
    name: str
    sectors_held: int
    victory_points: int


@dataclass(frozen=True)
class VictoryStanding:
    campaign: models.Campaign
    conditions: list[ConditionStanding]
    sides: list[SideStanding]
    end: Mapping[str, Any] | None  # the pack's: {day, side, result}

    @property
    def end_text(self) -> str | None:
        """What happens when no condition is met, in words; None without an end."""
        if not self.end:
            return None
        side = self.end.get("side")
        outcome = f"{side} wins" if side else "drawn"
        result = self.end.get("result") or outcome
        return (
            f"If no condition is met by then, the night of day {self.end['day']} ends the campaign: "
            f"{result} ({outcome})."
        )

    @property
    def summary(self) -> str:
        campaign = self.campaign
        if campaign.status == CampaignStatus.FINISHED:
            names = {side.side_id: side.name for side in self.sides}
            heading = f"{names[campaign.winner_id]} victory" if campaign.winner_id in names else "Drawn"
            return f"The campaign ended on day {campaign.finished_day}. {heading}: {campaign.result}"
        if not self.conditions and not self.end:
            return "The scenario sets no victory conditions: the umpire decides how the campaign ends."
        met = [condition for condition in self.conditions if condition.met]
        if met:
            return f"{met[0].side_name} meets a victory condition as the map stands: {met[0].result}."
        return "No victory condition is met as the map stands: the campaign goes on."


def victory_standing(campaign: models.Campaign, day_number: int | None = None) -> VictoryStanding:
    """The scenario's victory conditions (``Campaign.victory``) read against who holds what now (or
    at the night of ``day_number``): two queries, the sides and the sectors. The night's victory
    step (:func:`campaign.services.victory.victory_check`) reads the same."""
    victory: Mapping[str, Any] = campaign.victory or {}
    day = campaign.current_day if day_number is None else day_number
    sides = list(campaign.sides.order_by("pk").values_list("pk", "name"))
    by_name = {name: pk for pk, name in sides}
    sectors = list(campaign.sectors.values_list("pk", "key", "name", "owner_id", "victory_points"))
    by_key = {key: (pk, name, owner) for pk, key, name, owner, _ in sectors}
    points: dict[int, int] = defaultdict(int)
    held: dict[int, int] = defaultdict(int)
    for _, _, _, owner, value in sectors:
        if owner is not None:
            points[owner] += value
            held[owner] += 1
    conditions = []
    for condition in victory.get("conditions") or ():
        side_id = by_name[condition["side"]]
        wanted = [by_key[key] for key in condition.get("sectors") or ()]
        conditions.append(
            ConditionStanding(
                side_id=side_id,
                side_name=condition["side"],
                result=condition.get("result") or f"{condition['side']} victory",
                sectors=[SectorHeld(pk, name, owner, owner == side_id) for pk, name, owner in wanted],
                victory_points=condition.get("victory_points"),
                points_held=points[side_id],
                by_day=condition.get("by_day"),
                day=day,
            )
        )
    return VictoryStanding(
        campaign=campaign,
        conditions=conditions,
        sides=[SideStanding(pk, name, held[pk], points[pk]) for pk, name in sides],
        end=victory.get("end"),
    )


# The umpire's to-do: what waits for them now ------------------------------------------------


@dataclass(frozen=True)
class TodoItem:
    kind: TodoKind
    text: str  # in words
    link: str  # the web app's page where it is done, from the site's root
    count: int = 1


def umpire_todo(campaign: models.Campaign, now: datetime.datetime) -> list[TodoItem]:
    """What waits for the umpire now, in the order of ``TodoKind``: orders submitted, battles with
    drafts filed (both sides, or one), the day's supply unconfirmed, segments left, arrival rolls
    running, the night phase due. A fixed number of queries, whatever the campaign's size."""
    base = f"/campaigns/{campaign.slug}"
    items: list[TodoItem] = []
    submitted = models.SideOrder.objects.filter(campaign=campaign, status=SideOrderStatus.SUBMITTED).count()
    if submitted:
        words = "order waits" if submitted == 1 else "orders wait"
        items.append(
            TodoItem(
                TodoKind.ORDERS_SUBMITTED,
                f"{submitted} {words} for your approval",
                f"{base}/orders",
                submitted,
            )
        )
    sides = dict(campaign.sides.values_list("pk", "name"))
    battles = (
        models.Battle.objects.filter(campaign=campaign, report__isnull=True, drafts__isnull=False)
        .select_related("sector", "day")
        .annotate(filed=ArrayAgg("drafts__side_id", distinct=True))
        .order_by("day__number", "pk")
    )
    for battle in battles:
        where = f"the battle at {battle.sector.name} (day {battle.day.number})"
        link = f"{base}/battles/{battle.public_id}"
        if len(battle.filed) >= 2:
            items.append(
                TodoItem(
                    TodoKind.DRAFTS_FILED,
                    f"Both sides filed their drafts of {where}: reconcile and confirm the report",
                    link,
                )
            )
        else:
            filed = battle.filed[0]
            awaited = battle.defender_id if filed == battle.attacker_id else battle.attacker_id
            items.append(
                TodoItem(
                    TodoKind.DRAFT_AWAITED,
                    f"{sides[filed]} filed its draft of {where}; {sides[awaited]}'s is awaited",
                    link,
                )
            )
    day = campaign.days.filter(number=campaign.current_day).first()
    if (
        day is None
        or day.status not in (DayStatus.DAWN, DayStatus.DAY)
        or campaign.status != CampaignStatus.ACTIVE
    ):
        return items
    traced = models.Sector.supply_source_for.through.objects.filter(sector__campaign=campaign).exists()
    if traced and day.supply_confirmed_at is None:
        items.append(
            TodoItem(
                TodoKind.SUPPLY_UNCONFIRMED, f"Supply of day {day.number} is not confirmed", f"{base}/night"
            )
        )
    left: list[DaySegment] = []
    if (
        get_profile(campaign.profile).procedure_for(CampaignStep.SEGMENT_TURNS)
        and day.ended_after_turn is None
    ):
        played = day.segments.count()
        left = list(PLAYED_DAY_SEGMENTS[played:])
    if left:
        words = "segment" if len(left) == 1 else "segments"
        items.append(
            TodoItem(
                TodoKind.SEGMENTS_LEFT,
                f"{len(left)} {words} of day {day.number} left to play: next the {label_of(left[0]).lower()}",
                f"{base}/day",
                len(left),
            )
        )
    rolling = models.Operation.objects.filter(
        campaign=campaign,
        kind=OperationKind.ARRIVALS,
        status__in=[OperationStatus.PENDING, OperationStatus.RUNNING],
    ).count()
    if rolling:
        items.append(
            TodoItem(
                TodoKind.ARRIVALS_ROLLING,
                "Reinforcements are rolling for arrival: wait for their reports",
                f"{base}/day",
                rolling,
            )
        )
    scheduled = club_schedule_next(campaign, day.dawned_at, now) if day.status == DayStatus.DAY else None
    if day.status == DayStatus.DAY and (not left or (scheduled is not None and scheduled <= now)):
        unreported = models.Battle.objects.filter(day=day, report__isnull=True).count()
        text = f"The night phase of day {day.number} is due"
        if scheduled is not None:
            text += f" (the club's schedule: {deadline_text(scheduled)})"
        if unreported:
            text += f"; {counted(unreported, 'battle')} still to report first"
        items.append(TodoItem(TodoKind.NIGHT_DUE, text, f"{base}/night"))
    return items
