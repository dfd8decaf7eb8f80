"""Django's Redis cache, with one redis-py client per connection pool instead of one per call.

Django builds a new ``redis.Redis`` for every cache operation, and redis-py fills a
table of some 170 response callbacks in each: that costs more than the round trip of
a small GET, and every API request makes one or two (its session, a cached force
status). A redis-py client holds no connection of its own (it borrows one from the
pool per command), so one client per pool is safe to share between threads, and
its pool reconnects after a fork.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis import ConnectionPool, Redis


class SharedClientRedisCacheClient(RedisCacheClient):
    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[ConnectionPool, Redis] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Redis:
        # Django's own pool choice (and pools), which its stubs leave out.
        pool: ConnectionPool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(pool)
        if client is None:
            client = self._clients[pool] = Redis(connection_pool=pool)
        return client


class SharedClientRedisCache(RedisCache):
    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient
