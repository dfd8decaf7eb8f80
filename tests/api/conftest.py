"""API test fixtures."""

from __future__ import annotations

import pytest
import redis
from django.core.cache import cache

from campaign.selectors import FORCE_STATUS_CACHE_KEY


@pytest.fixture(autouse=True)
def force_status_cache_cleared(redis_client: redis.Redis) -> None:
    """Each test database reuses ids and versions, so no cached force status may outlive its test.
    Deleted by key: ``cache.clear()`` would flush the Celery queues sharing the Redis database."""
    pattern = cache.make_key(FORCE_STATUS_CACHE_KEY.partition("{")[0] + "*")
    for key in redis_client.scan_iter(match=pattern):
        redis_client.delete(key)
