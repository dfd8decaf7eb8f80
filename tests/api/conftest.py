"""API test fixtures: the world (tests/api/world.py) built once per module, and no cache entry
outliving its test."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
import redis
from django.core.cache import cache
from django.db import transaction
from pytest_django import DjangoDbBlocker

from campaign.polls import KEY_PREFIX
from tests.api.world import World, build_world


@pytest.fixture(scope="module")
def module_world(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[World]:
    """``build_world()`` once per module, in a transaction rolled back at the module's end: each
    test runs in a savepoint of it (pytest-django's ``db``), as ``setUpTestData`` does for a
    TestCase class. A module's tests on a transactional database run before it opens
    (tests/conftest.py orders them)."""
    with django_db_blocker.unblock():
        module_transaction = transaction.atomic()
        module_transaction.__enter__()
        world = build_world()
    yield world
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        module_transaction.__exit__(None, None, None)


@pytest.fixture
def world(module_world: World, db: None) -> World:
    """The module's world, the test's own: its rows behind the test's savepoint, its objects
    copied so that no change a test makes to them reaches the next test."""
    return copy.deepcopy(module_world)


@pytest.fixture(autouse=True)
def force_status_cache_cleared(redis_client: redis.Redis) -> None:
    """Each test database reuses ids and versions, so no cached force status, published version or
    API key grant may outlive its test.
    Deleted by key: ``cache.clear()`` would flush the Celery queues sharing the Redis database."""
    pattern = cache.make_key(KEY_PREFIX + "*")
    for key in redis_client.scan_iter(match=pattern):
        redis_client.delete(key)
