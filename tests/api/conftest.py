"""API test fixtures: the world (tests/api/world.py) built once per module, and no cache entry
outliving its test."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import redis

from tests.api.world import World, build_world
from tests.shared_rows import cache_entries_delete


@pytest.fixture(scope="module")
def module_rows_build() -> Callable[[], World]:
    return build_world


@pytest.fixture
def world(shared_rows: World) -> World:
    return shared_rows


@pytest.fixture(autouse=True)
def force_status_cache_cleared(redis_client: redis.Redis) -> None:
    cache_entries_delete(redis_client)
