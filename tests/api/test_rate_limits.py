"""Rate limits per kind of caller (api/rate_limits.py, issue 33): counted in Redis in one round
trip, told on every response in the IETF draft's headers, 429 with Retry-After when over."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from api.rate_limits import KEY_PREFIX
from api.schema import RATE_LIMIT_HEADERS
from campaign.models import CampaignAPIKey, Force
from campaign.services.api_keys import api_key_create
from campaign.services.audit import Actor
from tests.api.world import Role, World, api_key_client
from tests.redis_monitor import redis_commands
from tests.shared_rows import cache_keys_delete

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_limits(redis_client: redis.Redis, settings: Any) -> None:
    """No counts of earlier tests; a small budget for each kind, each a different size."""
    cache_keys_delete(redis_client, f"{KEY_PREFIX}:*")
    settings.API_RATE_LIMITS = {
        "read_key": "3/minute",
        "write_key": "4/minute",
        "session": "5/minute",
        "anonymous": "2/minute",
    }


def write_key(world: World) -> str:
    _, secret = api_key_create(
        world.campaign.pk, Actor(user=world.users[Role.UMPIRE], request_id="t"), name="bot", can_write=True
    )
    return secret


def limits(response: Any) -> tuple[int, int, int]:
    return (
        int(response["RateLimit-Limit"]),
        int(response["RateLimit-Remaining"]),
        int(response["RateLimit-Reset"]),
    )


def test_a_read_key_is_told_its_budget_on_every_answer_and_refused_past_it(world):
    client = api_key_client(world.keys[Role.ALLIED_KEY])
    url = world.url("force-list")

    answers = [client.get(url) for _ in range(3)]
    refused = client.get(url)

    assert [a.status_code for a in answers] == [200, 200, 200]
    assert [limits(a)[:2] for a in answers] == [(3, 2), (3, 1), (3, 0)]
    assert all(1 <= limits(a)[2] <= 60 for a in answers)
    assert answers[0]["RateLimit-Policy"] == "3;w=60"
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert refused.json()["error"]["message"].startswith(
        "Too many requests from a read-only API key: 3 per 60 seconds."
    )
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert limits(refused)[:2] == (3, 0)


def test_a_warm_poll_counts_against_its_key_and_a_wrong_secret_spends_none_of_it(world, redis_client):
    """A warm poll is counted in the script that reads its grant, once its whole key matched:
    the next answers count down as any request's, and a caller who knows the key's prefix but
    not its secret spends nothing of the key's budget (it is counted by its own address)."""
    key = world.keys[Role.ALLIED_KEY]
    url = world.url("force-force-status", pk=Force.objects.get(side=world.allied).public_id)
    prefix, _, secret = key.partition(".")
    wrong_secret = api_key_client(f"{prefix}.{'y' if secret[0] == 'x' else 'x'}{secret[1:]}")
    client = api_key_client(key)

    cold = client.get(url)  # from the database: stores the key's grant
    with CaptureQueriesContext(connection) as queries:
        warm = client.get(url)
    guessed = [wrong_secret.get(url) for _ in range(2)]
    last = client.get(url)
    with redis_commands(redis_client) as refusing:
        refused = client.get(url)

    assert queries.captured_queries == []  # answered from its grant
    assert [a.status_code for a in (cold, warm, last)] == [200, 200, 200]
    assert [limits(a)[:2] for a in (cold, warm, last)] == [(3, 2), (3, 1), (3, 0)]
    assert [a.status_code for a in guessed] == [401, 401]
    assert [limits(a)[:2] for a in guessed] == [(2, 1), (2, 0)]  # the address's budget
    # Over its limit, the poll goes on to the view for its 429, counted once on the way.
    assert refused.status_code == 429
    assert refused.wsgi_request.resolver_match is not None
    assert refusing.sent_names == ["EVALSHA"]
    assert limits(refused)[:2] == (3, 0)


def test_each_kind_of_caller_has_its_own_budget(world):
    reader = api_key_client(world.keys[Role.ALLIED_KEY])
    writer = api_key_client(write_key(world))
    person = world.client(Role.AXIS_PLAYER)
    anybody = APIClient()
    url = world.url("force-list")

    for _ in range(3):
        reader.get(url)

    assert reader.get(url).status_code == 429
    assert limits(writer.get(url))[:2] == (4, 3)
    assert limits(person.get(url))[:2] == (5, 4)
    vocabulary = reverse("api:vocabulary")
    assert [anybody.get(vocabulary).status_code for _ in range(3)] == [200, 200, 429]
    # Another address is another anonymous caller.
    assert APIClient(REMOTE_ADDR="203.0.113.9").get(vocabulary).status_code == 200


def test_refused_and_bad_requests_count_and_carry_the_headers_too(world):
    client = api_key_client(world.keys[Role.ALLIED_KEY])

    bad = client.get(world.url("force-list"), {"colour": "red"})
    hidden = client.get(world.url("webhook-list"))  # no key reads webhooks
    wrong_key = api_key_client("nothing.atall").get(world.url("force-list"))

    assert bad.status_code == 400
    assert limits(bad)[:2] == (3, 2)
    assert hidden.status_code in (403, 404)
    assert limits(hidden)[:2] == (3, 1)
    assert wrong_key.status_code == 401
    assert limits(wrong_key)[:2] == (2, 1)


def test_a_throttled_request_costs_one_redis_command_and_no_view_work(world, redis_client):
    client = api_key_client(world.keys[Role.ALLIED_KEY])
    url = world.url("force-list")
    for _ in range(3):
        client.get(url)
    client.get(url)  # over: the key's grant and the like are warm from here

    with CaptureQueriesContext(connection) as queries, redis_commands(redis_client) as commands:
        refused = client.get(url)

    assert refused.status_code == 429
    assert commands.sent_names == ["EVALSHA"]  # the count, in one round trip
    assert [c.split(" ", 1)[0].upper() for c in commands.scripted] == ["INCR"]
    # Authenticating the key (its lookup and last use) is all the database sees: no list read.
    assert not any("campaign_force" in q["sql"] for q in queries.captured_queries)


def test_the_document_declares_the_headers_and_429_on_every_operation(client):
    document = client.get(reverse("api:schema"), {"format": "json"}).json()
    operations = [op for ops in document["paths"].values() for op in ops.values()]

    for operation in operations:
        responses = operation["responses"]
        assert "429" in responses, operation["operationId"]
        assert set(responses["429"]["headers"]) >= {"Retry-After", *RATE_LIMIT_HEADERS}
        for code, response in responses.items():
            assert set(RATE_LIMIT_HEADERS) <= set(response.get("headers", {})), (
                operation["operationId"],
                code,
            )


def test_limits_come_from_settings(world, settings):
    settings.API_RATE_LIMITS = {**settings.API_RATE_LIMITS, "read_key": "1/hour"}
    client = api_key_client(world.keys[Role.ALLIED_KEY])

    first, second = client.get(world.url("force-list")), client.get(world.url("force-list"))

    assert (first.status_code, second.status_code) == (200, 429)
    assert first["RateLimit-Policy"] == "1;w=3600"
    assert CampaignAPIKey.objects.filter(campaign=world.campaign).exists()


def test_the_calendar_feed_and_the_health_check_are_exempt_and_carry_no_headers(world, settings):
    """Outside the API's operations (docs/api.md, Rate limits): a calendar app polls its secret
    feed, a load balancer the health check, and neither is counted, however often they ask."""
    settings.HEALTH_WORKER_PING_TIMEOUT = 0.01  # no worker here: its answer is not the point
    membership = world.campaign.memberships.get(user=world.users[Role.ALLIED_PLAYER])
    feed = reverse("api:calendar-feed", kwargs={"token": membership.calendar_token})
    anybody = APIClient()

    answers = [anybody.get(path) for path in (feed, "/healthz") for _ in range(3)]  # over 2/minute

    assert [answer.status_code for answer in answers[:3]] == [200, 200, 200]
    assert 429 not in [answer.status_code for answer in answers]
    assert [name for answer in answers for name in RATE_LIMIT_HEADERS if name in answer] == []
    assert "RateLimit-Limit" in anybody.get(world.url("campaign-detail"))
