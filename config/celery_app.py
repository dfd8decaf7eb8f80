"""The Celery application.  Configuration comes from Django settings (CELERY_*)."""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("campaign_service", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


def worker_warm_up() -> None:
    """Load what a worker process would otherwise load during its first task, so that the first
    night costs no more than the next: the URLconf and the reverse table webhook links are made
    from, every rule system's procedures with their input shapes, and the connections to
    PostgreSQL and Redis (a service that is down is left to the first task to report)."""
    from django.core.cache import cache
    from django.db import DatabaseError, connection
    from django.urls import get_resolver, reverse
    from redis import RedisError

    from rules_engine import catalog, inputs

    get_resolver().url_patterns  # noqa: B018  (imports every view module)
    reverse("api:campaign-detail", args=["warm-up"])  # fills the reverse table of every route
    inputs.input_readers_prepare(p.input_type for p in catalog.procedures() if p.input_type is not None)
    try:
        connection.ensure_connection()
        cache.has_key("worker-warm-up")
    except (DatabaseError, RedisError) as exc:
        logger.warning("worker warm-up could not reach a service: %s", exc)


@worker_process_init.connect
def _worker_process_warm_up(**kwargs: Any) -> None:
    worker_warm_up()
