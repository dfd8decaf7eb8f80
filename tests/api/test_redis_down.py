"""Redis down: reads come from the database and answer as before; /healthz says "degraded".

Each test runs a Redis server of its own (never the shared one, whose index other tests and
the Celery broker use), points the cache and sessions at it, and stops or pauses it itself.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import redis
from django.conf import settings
from django.test import Client, override_settings
from rest_framework.test import APIClient

from campaign import models
from tests.api.world import Role, World, build_world
from tests.tiers import needs

pytestmark = pytest.mark.django_db

RETRY_AFTER = 0.2  # seconds the cache leaves a failed Redis alone (5 in production)


@dataclass
class PrivateRedis:
    process: subprocess.Popen[bytes]
    url: str

    def ping(self) -> bool:
        try:
            return bool(redis.Redis.from_url(self.url, socket_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGCONT)  # a paused server cannot act on its SIGTERM
            self.process.terminate()
            self.process.wait(timeout=10)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
@needs("process")
def private_redis() -> Iterator[PrivateRedis]:
    """A throwaway Redis server; the cache, sessions and /healthz point at it for the test."""
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    server = PrivateRedis(process, f"redis://127.0.0.1:{port}/0")
    deadline = time.monotonic() + 10
    while not server.ping():
        assert time.monotonic() < deadline, "the private Redis server did not start"
        time.sleep(0.05)
    cache: dict[str, Any] = settings.CACHES["default"]
    caches = {
        "default": {
            **cache,
            "LOCATION": server.url,
            "OPTIONS": {**cache["OPTIONS"], "retry_after": RETRY_AFTER},
        }
    }
    try:
        with override_settings(CACHES=caches, REDIS_URL=server.url):  # resets the cache handlers
            yield server
    finally:
        server.stop()


def status_url(world: World, side: models.Side) -> str:
    return world.url("force-force-status", pk=models.Force.objects.get(side=side).public_id)


def reads(client: APIClient, world: World) -> dict[str, Any]:
    """The force status (cached in Redis while it is up) and other session-authenticated reads."""
    answers = {}
    for url in (status_url(world, world.axis), world.url("campaign-oob"), world.url("campaign-detail")):
        response = client.get(url)
        assert response.status_code == 200, (url, response.content)
        answers[url] = (response.content, response.get("ETag"))
    return answers


def test_with_redis_stopped_reads_answer_from_the_database_as_before(
    private_redis: PrivateRedis, client: Client
) -> None:
    world = build_world()
    player = world.client(Role.AXIS_PLAYER)  # its session is in the private Redis
    before = reads(player, world)
    etag = player.get(status_url(world, world.axis))["ETag"]

    private_redis.stop()

    assert reads(player, world) == before  # the session read from the database
    assert player.get(status_url(world, world.axis), headers={"If-None-Match": etag}).status_code == 304
    newcomer = APIClient()
    logged_in = newcomer.post(
        "/api/v1/session/", {"username": world.users[Role.AXIS_PLAYER].username, "password": "password"}
    )
    assert logged_in.status_code == 200, logged_in.content
    assert reads(newcomer, world) == before  # a session begun while Redis is down
    health = client.get("/healthz")
    assert health.status_code == 200
    body = health.json()
    assert body["status"] == "degraded"
    assert body["components"]["redis"]["ok"] is False
    assert "ConnectionError" in body["components"]["redis"]["detail"]
    assert body["components"]["worker"] == {"ok": False, "detail": "no broker"}
    assert body["components"]["database"]["ok"] is True


def test_a_logout_while_redis_hangs_stays_a_logout_once_it_answers_again(private_redis: PrivateRedis) -> None:
    world = build_world()
    player = world.client(Role.AXIS_PLAYER)
    url = status_url(world, world.axis)
    assert player.get(url).status_code == 200
    cookie = player.cookies[settings.SESSION_COOKIE_NAME].value

    os.kill(private_redis.process.pid, signal.SIGSTOP)  # hangs: commands time out
    try:
        assert player.get(url).status_code == 200
        assert player.delete("/api/v1/session/").status_code == 204  # deleted from the database only
    finally:
        os.kill(private_redis.process.pid, signal.SIGCONT)
    time.sleep(RETRY_AFTER * 2)  # the cache asks Redis again

    # Redis still holds the session as it was cached before the logout.
    stale = APIClient()
    stale.cookies[settings.SESSION_COOKIE_NAME] = cookie
    assert stale.get(url).status_code == 401
