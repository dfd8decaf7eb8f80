"""``/healthz``: whether the database, Redis and a worker answer, asked of each directly (no
model is read, so no selector).  This module is their only reader."""

from __future__ import annotations

from dataclasses import dataclass

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

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


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 "ok" when database, Redis and at least one worker answer. 200 "degraded" when only
    Redis is down: the API still answers from the database (cache and sessions), only the
    background operations wait for the broker, and a 503 would have a load balancer or
    compose take a web process that still serves out of rotation. 503 "unavailable" when the
    database is down, or when no worker answers although the broker does."""
    components = service_health()
    if all(c.ok for c in components.values()):
        status = "ok"
    elif components["database"].ok and not components["redis"].ok:
        status = "degraded"  # the worker cannot answer without its broker: not a fault of its own
    else:
        status = "unavailable"
    body = {
        "status": status,
        "components": {name: {"ok": c.ok, "detail": c.detail} for name, c in components.items()},
    }
    return JsonResponse(body, status=503 if status == "unavailable" else 200)
