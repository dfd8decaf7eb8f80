"""Reads.  Views, serializers, admin, tasks and commands read through here."""

from __future__ import annotations

from dataclasses import dataclass

import redis
from django.conf import settings
from django.db import connection

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
