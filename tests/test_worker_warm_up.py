"""A worker process loads, before its first task, what that task would otherwise load; a web
process, before its first request, the API contract's table."""

from __future__ import annotations

import datetime
import importlib
import sys
import time
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.urls import clear_url_caches, get_resolver

from api import contract
from campaign import models
from config.celery_app import app, worker_warm_up
from rules_engine import inputs
from tests.conftest import WorkerProcess, worker_database_url
from tests.tiers import needs

pytestmark = pytest.mark.django_db  # it connects to the database


def test_the_warm_up_loads_what_a_first_task_would() -> None:
    clear_url_caches()
    inputs._shape.cache_clear()
    app._after_fork()  # type: ignore[attr-defined]  # as a pool process starts: no producer, no broker connection
    models.Battalion._meta._expire_cache()  # type: ignore[attr-defined]

    worker_warm_up()

    resolver = get_resolver()
    assert "url_patterns" in resolver.__dict__  # the URLconf and every view module imported
    assert resolver.__dict__["_populated"]  # the reverse table webhook links are made from
    assert inputs._shape.cache_info().currsize > 0  # the rules' input shapes
    assert "concrete_fields" in models.Battalion._meta.__dict__  # the models' field caches
    assert app.finalized  # type: ignore[attr-defined]
    assert "send_task_message" in app.amqp.__dict__  # the sender a task sent on commit uses
    with app.producer_or_acquire() as producer:  # the pool's producer, already connected
        assert producer.connection.connected


@pytest.fixture
@needs("worker")
def started_worker(redis_client: redis.Redis) -> Iterator[WorkerProcess]:
    """A worker of its own, just started (and answering), on an empty queue."""
    redis_client.delete(*settings.CELERY_QUEUE_NAMES.values(), "unacked", "unacked_index")
    worker = WorkerProcess(worker_database_url())
    try:
        worker.wait_ready()
        yield worker
    finally:
        worker.stop()


@pytest.fixture
def clock() -> datetime.datetime:
    """PostgreSQL's time now (not the test transaction's start)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT clock_timestamp()")
        now: datetime.datetime = cursor.fetchone()[0]
    return now


def test_a_pool_process_keeps_the_database_connection_its_warm_up_opened(clock, started_worker) -> None:
    """Warmed up after Celery's Django fixup closed what the process inherited, not before: the
    first task runs on the warmed PostgreSQL backend, not on a new one."""
    time.sleep(1)  # the pool process has started; a connection closed after its warm-up is gone
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND backend_start > %s",
            [clock],
        )
        opened_since = cursor.fetchone()[0]

    assert opened_since == 1  # the one pool process's, kept open


def test_a_web_process_builds_the_api_contract_as_it_loads_the_wsgi_application(monkeypatch) -> None:
    """Not in its first request (about a second of the OpenAPI document's generation)."""
    monkeypatch.setattr(contract, "_declared", None)
    monkeypatch.delitem(sys.modules, "config.wsgi", raising=False)

    importlib.import_module("config.wsgi")

    assert contract._declared  # every operation's query parameters, read
