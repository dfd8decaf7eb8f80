"""API test fixtures."""

from __future__ import annotations

import pytest
import redis
from django.core.cache import cache

from campaign.polls import KEY_PREFIX


@pytest.fixture(autouse=True)
def force_status_cache_cleared(redis_client: redis.Redis) -> None:
    """Each test database reuses ids and versions, so no cached force status, published version or
    API key grant may outlive its test.
    Deleted by key: ``cache.clear()`` would flush the Celery queues sharing the Redis database."""
    pattern = cache.make_key(KEY_PREFIX + "*")
    for key in redis_client.scan_iter(match=pattern):
        redis_client.delete(key)
