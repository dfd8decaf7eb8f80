"""Django's Redis cache, with one redis-py client per connection pool instead of one per call,
and Redis failures answered as misses.

Django builds a new ``redis.Redis`` for every cache operation, and redis-py fills a
table of some 170 response callbacks in each: that costs more than the round trip of
a small GET, and every API request makes one or two (its session, a cached force
status). A redis-py client holds no connection of its own (it borrows one from the
pool per command), so one client per pool is safe to share between threads, and
its pool reconnects after a fork.

Everything cached is also in the database (force status is recomputed, sessions are
``cached_db``), so a Redis that is down costs speed, not answers: a failed read is a
miss and a failed write is dropped. After a failure the cache stops asking Redis for
``retry_after`` seconds, so requests meanwhile do not each wait for a connection.
A write that failed may have left an older value in Redis (a session logged out while
Redis was down would come back with it), so its key is deleted first thing once Redis
answers again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis import ConnectionPool, Redis, RedisError

logger = logging.getLogger(__name__)

T = TypeVar("T")


class _Outage:
    """What a process knows of its Redis being down. Shared by the process's threads (Django
    builds a cache client per thread), so a key one thread failed to write is deleted before
    another thread reads it. Other processes learn only from their own failures: one may serve
    such a key until this process has met Redis again (its next cache operation)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_until = 0.0  # time.monotonic() before which Redis is not asked
        self.stale: set[Any] = set()  # keys whose write failed: deleted once Redis answers


_outages: dict[tuple[str, ...], _Outage] = {}
_outages_lock = threading.Lock()


class SharedClientRedisCacheClient(RedisCacheClient):
    def __init__(self, servers: list[str], *, retry_after: float = 5.0, **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[ConnectionPool, Redis] = {}
        self._retry_after = retry_after
        with _outages_lock:
            self._outage = _outages.setdefault(tuple(servers), _Outage())

    def get_client(self, key: Any = None, *, write: bool = False) -> Redis:
        # Django's own pool choice (and pools), which its stubs leave out.
        pool: ConnectionPool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(pool)
        if client is None:
            client = self._clients[pool] = Redis(connection_pool=pool)
        return client

    @property
    def is_down(self) -> bool:
        """Whether Redis failed within the last ``retry_after`` seconds."""
        return time.monotonic() < self._outage.down_until

    def _guarded(self, operation: Callable[[], T], fallback: T, written: Iterable[Any] = ()) -> T:
        """``operation()``, or ``fallback`` when Redis fails (or failed a moment ago); the keys a
        failed write touched are remembered as stale."""
        if not self.is_down:
            try:
                self._forget_stale()
                return operation()
            except RedisError as exc:
                self._outage.down_until = time.monotonic() + self._retry_after
                logger.warning(
                    "Redis cache unavailable (%s: %s); reading from the database for %.0f s",
                    type(exc).__name__,
                    exc,
                    self._retry_after,
                )
        with self._outage.lock:
            self._outage.stale.update(written)
        return fallback

    def _forget_stale(self) -> None:
        outage = self._outage
        if not outage.stale:
            return
        with outage.lock:  # held over the DEL: no other thread reads a stale key meanwhile
            if outage.stale:
                self.get_client(write=True).delete(*outage.stale)
                logger.info(
                    "Redis cache back; deleted %d key(s) written while it was down", len(outage.stale)
                )
                outage.stale.clear()

    def add(self, key: Any, value: Any, timeout: Any) -> bool:
        return self._guarded(lambda: RedisCacheClient.add(self, key, value, timeout), False, [key])

    def get(self, key: Any, default: Any) -> Any:
        return self._guarded(lambda: RedisCacheClient.get(self, key, default), default)

    def set(self, key: Any, value: Any, timeout: Any) -> None:
        self._guarded(lambda: RedisCacheClient.set(self, key, value, timeout), None, [key])

    def touch(self, key: Any, timeout: Any) -> bool:
        return self._guarded(lambda: RedisCacheClient.touch(self, key, timeout), False, [key])

    def delete(self, key: Any) -> bool:
        return self._guarded(lambda: RedisCacheClient.delete(self, key), False, [key])

    def get_many(self, keys: Iterable[Any]) -> dict[Any, Any]:
        return self._guarded(lambda: RedisCacheClient.get_many(self, keys), {})

    def has_key(self, key: Any) -> bool:
        return self._guarded(lambda: RedisCacheClient.has_key(self, key), False)

    def set_many(self, data: Mapping[Any, Any], timeout: Any) -> None:
        self._guarded(lambda: RedisCacheClient.set_many(self, data, timeout), None, data)

    def delete_many(self, keys: Iterable[Any]) -> None:
        keys = list(keys)
        self._guarded(lambda: RedisCacheClient.delete_many(self, keys), None, keys)

    # incr (a count that cannot be rebuilt from the database) and clear keep raising.

    def call(self, operation: Callable[[Redis], T], fallback: T, written: Iterable[Any] = ()) -> T:
        """``operation(client)`` on the raw redis-py client (scripts, hashes: entries the cache's
        pickled values cannot be), guarded as the cache's own operations are; ``written``: the
        full keys it writes."""
        return self._guarded(lambda: operation(self.get_client(write=True)), fallback, written)


class SharedClientRedisCache(RedisCache):
    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient
