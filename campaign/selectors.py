"""Reads.  Views, serializers, admin, tasks and commands read through here."""

from __future__ import annotations

from dataclasses import dataclass

import redis
from django.conf import settings
from django.db import connection
from django.db.models import Count, Prefetch, Q

from campaign import models
from campaign.choices import BattleStatus, StandStatus
from config.celery_app import app as celery_app


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


def oob_tree(campaign_id: int, side_id: int | None = None) -> list[models.Force]:
    """Forces with battlegroups, battalions and stands: four queries whatever the size."""
    forces = models.Force.objects.filter(campaign_id=campaign_id).select_related("side")
    if side_id is not None:
        forces = forces.filter(side_id=side_id)
    return list(
        forces.prefetch_related(
            Prefetch("battlegroups", queryset=models.Battlegroup.objects.order_by("name")),
            Prefetch("battlegroups__battalions", queryset=models.Battalion.objects.order_by("code")),
            Prefetch(
                "battlegroups__battalions__stands",
                queryset=models.Stand.objects.select_related("equipment").order_by("label"),
            ),
        )
    )


@dataclass(frozen=True)
class BattalionStatus:
    battalion: models.Battalion
    stands: dict[str, int]  # status → count
    battle: models.Battle | None


@dataclass(frozen=True)
class ForceStatus:
    force: models.Force
    strength: dict[str, dict[str, int]]  # stand type → status → count
    battalions: list[BattalionStatus]


def force_status(force_id: int) -> ForceStatus:
    """A force's strength and each battalion's state, in a constant number of queries."""
    force = models.Force.objects.select_related("side", "campaign").get(pk=force_id)
    strength: dict[str, dict[str, int]] = {}
    for row in (
        models.Stand.objects.filter(battalion__battlegroup__force=force)
        .values("stand_type", "status")
        .annotate(count=Count("id"))
        .order_by("stand_type", "status")
    ):
        strength.setdefault(row["stand_type"], {})[row["status"]] = row["count"]
    battalions = (
        models.Battalion.objects.filter(battlegroup__force=force)
        .annotate(
            ok=Count("stands", filter=Q(stands__status=StandStatus.OK), distinct=True),
            suppressed=Count("stands", filter=Q(stands__status=StandStatus.SUPPRESSED), distinct=True),
            destroyed=Count("stands", filter=Q(stands__status=StandStatus.DESTROYED), distinct=True),
        )
        .prefetch_related(
            Prefetch(
                "battles",
                queryset=models.Battle.objects.filter(
                    day__campaign_id=force.campaign_id, day__number=force.campaign.current_day
                ).exclude(status=BattleStatus.CLOSED),
                to_attr="battles_today",
            )
        )
        .order_by("code")
    )
    return ForceStatus(
        force=force,
        strength=strength,
        battalions=[
            BattalionStatus(
                battalion=b,
                stands={"ok": b.ok, "suppressed": b.suppressed, "destroyed": b.destroyed},
                battle=(b.battles_today[0] if b.battles_today else None),
            )
            for b in battalions
        ],
    )
