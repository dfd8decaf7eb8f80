"""What one benchmark run owns, and only that: a database and Redis keys of its own.

The database is named from ``DATABASE_URL``'s with a suffix unique to the run
(``<name>_bench_<label>_<run id>``), created, migrated and dropped here. Redis is
the configured database (``REDIS_URL``): the run's cache entries and its Celery
queue (where the night phase's task waits, as no worker listens to it) carry the
run id in their names, so the run deletes every key holding its id and never
flushes a database. Ctrl-C, SIGTERM and SIGHUP unwind through the same cleanup.

Import this module before ``django.setup()``: the cache prefix goes to the
settings through the environment, which the gunicorn processes of the
force-status benchmark inherit.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

# A caller may name the run (tests/test_bench.py watches for its database and nobody else's).
RUN_ID = os.environ.get("BENCH_RUN_ID") or uuid.uuid4().hex[:12]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ["CACHE_KEY_PREFIX"] = os.environ["CELERY_QUEUE"] = f"bench-{RUN_ID}"
# PostgreSQL cuts longer names, which could then be another run's.
MAX_NAME = 63


def database_name(configured: str, label: str) -> str:
    suffix = f"_bench_{label}_{RUN_ID}"
    return configured[: MAX_NAME - len(suffix)] + suffix


@contextmanager
def own_services(label: str) -> Iterator[str]:
    """The run's database, migrated and made Django's connection, and its Celery queue; the
    database's name. On the way out (a stop signal included) both are gone, with every Redis
    key of the run."""
    from django.core.management import call_command
    from django.db import connection, connections

    from devstack.launcher import cleaning_up, raise_on_stop_signals

    raise_on_stop_signals()
    name = database_name(connection.settings_dict["NAME"], label)
    try:
        _maintenance(connection.settings_dict, [f"CREATE DATABASE {connection.ops.quote_name(name)}"])
        connection.close()
        connection.settings_dict["NAME"] = name
        call_command("migrate", verbosity=0, interactive=False)
        yield name
    finally:
        cleaning_up()
        connections.close_all()
        # IF EXISTS: a stop may come before the CREATE; the name is this run's alone.
        drop = f"DROP DATABASE IF EXISTS {connection.ops.quote_name(name)} WITH (FORCE)"
        _maintenance(connection.settings_dict, [drop])
        redis_keys_delete(RUN_ID)


def _maintenance(database: dict[str, Any], statements: Sequence[str]) -> None:
    """Statements run outside a transaction on the server's ``postgres`` database."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    params = {key.lower(): database[key] for key in ("HOST", "PORT", "USER", "PASSWORD") if database[key]}
    with psycopg.connect(make_conninfo(dbname="postgres", **params), autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement.encode())


def redis_client() -> Any:
    """The configured Redis database (``REDIS_URL``)."""
    import redis
    from django.conf import settings

    return redis.Redis.from_url(settings.REDIS_URL)


def redis_keys_delete(run_id: str) -> int:
    """Delete the keys whose names hold ``run_id`` (the cache's and the queue's); how many."""
    client = redis_client()
    deleted = 0
    keys = list(client.scan_iter(match=f"*{run_id}*", count=1000))
    for start in range(0, len(keys), 1000):
        deleted += client.delete(*keys[start : start + 1000])
    return deleted
