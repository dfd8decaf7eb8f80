"""Rows built once per test module and shared by its tests, as ``setUpTestData`` shares them in a
Django TestCase class: built in a transaction kept open to the module's end, each test in a
savepoint of it (pytest-django's ``db``), so what one test writes is rolled back before the next.

A module says what to build by defining ``module_rows_build`` (a module-scoped fixture returning
the builder) and reads them through ``shared_rows``. A module's transactional tests run before
the transaction opens (tests/conftest.py orders them).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from django.core.cache import cache
from django.db import transaction
from pytest_django import DjangoDbBlocker

from campaign.polls import KEY_PREFIX

# Keys a SCAN step looks at: the database also holds every session the suite signed in (they
# expire in weeks), and at SCAN's default of 10 each test paid hundreds of round trips for them.
SCAN_STEP = 10_000


def cache_keys_delete(redis_client: redis.Redis, pattern: str) -> None:
    """The cache's keys matching ``pattern``, deleted by key: ``cache.clear()`` would flush the
    Celery queues sharing the Redis database."""
    keys = list(redis_client.scan_iter(match=cache.make_key(pattern), count=SCAN_STEP))
    if keys:
        redis_client.delete(*keys)


def cache_entries_delete(redis_client: redis.Redis) -> None:
    """The cached force statuses, published versions and key grants: ids and versions repeat from
    test to test, so no entry may outlive its test."""
    cache_keys_delete(redis_client, KEY_PREFIX + "*")


@pytest.fixture(scope="module")
def module_rows(
    module_rows_build: Callable[[], Any], django_db_setup: None, django_db_blocker: DjangoDbBlocker
) -> Iterator[Any]:
    """What ``module_rows_build`` builds, once for the module, rolled back at its end."""
    with django_db_blocker.unblock():
        module_transaction = transaction.atomic()
        module_transaction.__enter__()
        built = module_rows_build()
    yield built
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        module_transaction.__exit__(None, None, None)


@pytest.fixture
def shared_rows(module_rows: Any, db: None, redis_client: redis.Redis) -> Any:
    """The module's rows, the test's own: behind its savepoint, the objects deep-copied so that
    no change a test makes to them reaches the next test, no cache entry left from the last."""
    cache_entries_delete(redis_client)
    return copy.deepcopy(module_rows)
