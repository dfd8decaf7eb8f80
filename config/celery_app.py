"""The Celery application.  Configuration comes from Django settings (CELERY_*)."""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import celeryd_init, task_postrun, task_prerun, worker_init, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("campaign_service", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


def worker_warm_up() -> None:
    """Load what a worker process would otherwise load during its first task, so that the first
    night costs no more than the next: the URLconf and the reverse table webhook links are made
    from, every rule system's procedures with their input shapes, the connections to PostgreSQL
    and Redis (a service that is down is left to the first task to report), and what the first
    task sent on commit would set up: the models' field caches, the task registry bound to the
    app, the task sender, the (disabled) result
    backend, which Celery finds through the installed packages' entry points, and a producer with
    its broker connection and queues declared; and, in PostgreSQL, the descriptors of every table
    its backend would load at the first statement on each. Profiled, these were twice a small
    night's CPU in a fresh process (issue 34)."""
    from django.apps import apps
    from django.core.cache import cache
    from django.db import DatabaseError, connection
    from django.urls import get_resolver, reverse
    from kombu.exceptions import OperationalError
    from kombu.utils.uuid import uuid
    from redis import RedisError

    from rules_engine import catalog, inputs

    get_resolver().url_patterns  # noqa: B018  (imports every view module)
    reverse("api:campaign-detail", args=["warm-up"])  # fills the reverse table of every route
    inputs.input_readers_prepare(p.input_type for p in catalog.procedures() if p.input_type is not None)
    for model in apps.get_models():
        str(model._base_manager.all().query)  # the models' field caches, filled as a query compiles
    app.finalize()
    app.backend  # noqa: B018
    app.amqp.send_task_message  # noqa: B018  (the sender, built at its first use)
    uuid()  # a sent task's id: the first costs milliseconds
    try:
        with connection.cursor() as cursor:  # psycopg's array dumper compiles its patterns once
            cursor.execute("SELECT %s::text[]", [["worker-warm-up"]])
            # The connection's PostgreSQL backend loads each table's and index's descriptors at
            # its first statement on them: a plan per table loads them now (11 ms, a tenth of a
            # small night).
            for model in apps.get_models(include_auto_created=True):
                cursor.execute(f"EXPLAIN SELECT * FROM {connection.ops.quote_name(model._meta.db_table)}")
        cache.has_key("worker-warm-up")
        with app.producer_or_acquire() as producer:
            for queue in app.amqp.queues.values():
                producer.maybe_declare(queue)
    except (DatabaseError, RedisError, OperationalError) as exc:
        logger.warning("worker warm-up could not reach a service: %s", exc)


def _worker_process_warm_up(**kwargs: Any) -> None:
    worker_warm_up()


@celeryd_init.connect
def _nights_leave_the_web_its_cores(conf: Any, options: dict[str, Any], **kwargs: Any) -> None:
    """A worker on the nights' queue started without ``--concurrency`` (nor the setting
    ``CELERY_WORKER_CONCURRENCY``) runs as many pool processes as
    :func:`config.settings.queues.night_processes` says for the machine, not Celery's one a core:
    ``make run`` and Compose start theirs so. Any other worker keeps Celery's default."""
    from django.conf import settings

    from config.settings.queues import night_processes

    if options.get("concurrency") is None and settings.CELERY_QUEUE_NAMES["operations"] in (
        options.get("queues") or ()
    ):
        conf.worker_concurrency = night_processes()


@worker_init.connect
def _pool_processes_warmed_up(**kwargs: Any) -> None:
    """Each pool process is warmed up as it starts, after Celery's Django fixup has closed what
    the process inherited. The fixup connects its handler of a pool process's start from its own
    handler of the worker's start (this signal), and that handler closes every database
    connection and cache client the process holds: connected at import, before it, the warm-up's
    were closed, and the first task opened new ones (a new PostgreSQL backend, every table's
    descriptors to load again: issue 34)."""
    worker_process_init.connect(_worker_process_warm_up, dispatch_uid="worker-warm-up")


@task_prerun.connect
@task_postrun.connect
def _connections_kept_as_a_request_keeps_them(sender: Any = None, **kwargs: Any) -> None:
    """Around a task, the database connections are kept or dropped as Django does around a
    request (``CONN_MAX_AGE``, the health check, a connection left broken), not closed around
    every task as Celery's Django fixup does unless told to reuse them (``CELERY_DB_REUSE_MAX``):
    a new PostgreSQL backend for every task cost its fork and the catalog reads of every table
    the task touched (issue 34). An eager task runs inside its caller's transaction: left alone."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
