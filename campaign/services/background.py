"""One lifecycle for background work: operations, webhook deliveries and notification e-mails.

Every piece of background work is a row first (the outbox), committed with the write that
asks for it; its task is sent when that transaction commits (``broker.tasks_send_on_commit``).
From there each kind follows the same life, whose parts live here:

- **Lease.** A run, or a send, holds the row for ``WORK_LEASE_SECONDS`` (``lease_end``); a run
  that commits renews it. A row whose lease ran out, or whose due attempt is a lease overdue,
  has lost its task (the worker was killed, the broker was down at the commit).
- **Resend.** The sweeper (``campaign.services.sweep``, on beat) sends those rows again
  (``rows_resend``), skipping rows a live run has locked, and renews their lease so the next
  sweep leaves them to this send. A second send is harmless: each kind's run is guarded by its
  row's state under its row lock.
- **Attempts and the retry policy.** A kind that counts its attempts on the row counts each
  one as it starts; after a failed one the next is due ``retry_delay(attempts)`` later (the
  same doubling backoff for every kind: ``WORK_BACKOFF_SECONDS`` times 2 to the attempts made,
  ``attempt_due``, and in SQL ``next_attempt_due``), and after ``WORK_MAX_ATTEMPTS`` attempts it gives up
  (``gave_up``) and the row shows failed with the last error. Celery does not count: a task
  retries while its row says the work is still to do.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import F, Func, Q, QuerySet, Value
from django.db.models.functions import Coalesce, Greatest, Power
from django.utils import timezone

from campaign.services.broker import tasks_send

logger = logging.getLogger(__name__)


def lease_end(now: datetime | None = None, extra_seconds: float = 0) -> datetime:
    """When a lease taken ``now`` runs out (``extra_seconds`` later: a retry's wait)."""
    return (now or timezone.now()) + timedelta(seconds=settings.WORK_LEASE_SECONDS + extra_seconds)


def lease_cutoff(now: datetime) -> datetime:
    """A row last taken (or created) before this moment holds a lease no more."""
    return now - timedelta(seconds=settings.WORK_LEASE_SECONDS)


def retry_delay(attempts: int) -> float:
    """Seconds from the last of ``attempts`` failed attempts to the next: doubling with each."""
    return float(settings.WORK_BACKOFF_SECONDS * 2**attempts)


def gave_up(attempts: int) -> bool:
    """Whether work that failed ``attempts`` times is given up (marked failed)."""
    return attempts >= settings.WORK_MAX_ATTEMPTS


def attempt_due(
    attempts: int, last_attempt_at: datetime | None, now: datetime, not_before: datetime | None = None
) -> bool:
    """Whether the next attempt of work that failed ``attempts`` times, the last at
    ``last_attempt_at`` (None: never tried), is due ``now``; never before ``not_before`` (a
    receiver that asked to wait)."""
    if not_before is not None and now < not_before:
        return False
    return last_attempt_at is None or now >= last_attempt_at + timedelta(seconds=retry_delay(attempts))


def next_attempt_at(attempts: int, now: datetime, wait_seconds: float = 0) -> datetime:
    """When the next attempt of work that just failed its ``attempts``-th time is due: the
    backoff's delay, or ``wait_seconds`` when the other end asked for longer (Retry-After)."""
    return now + timedelta(seconds=max(retry_delay(attempts), wait_seconds))


def next_attempt_due(
    attempts: str, last_attempt_at: str, created_at: str, not_before: str | None = None
) -> Coalesce | Greatest:
    """``attempt_due`` in SQL, over a row's fields: when its next attempt is due (its creation
    when none was made), never before the ``not_before`` field (NULL: no such wait)."""
    backoff = Value(settings.WORK_BACKOFF_SECONDS) * Power(Value(2), F(attempts))
    delay = Func(
        backoff, template="make_interval(secs => %(expressions)s)", output_field=models.DurationField()
    )
    due = Coalesce(F(last_attempt_at) + delay, F(created_at), output_field=models.DateTimeField())
    # PostgreSQL's GREATEST ignores NULLs.
    return Greatest(due, F(not_before), output_field=models.DateTimeField()) if not_before else due


def rows_resend(
    rows: QuerySet[Any], stale: Q, task_name: str, renew: dict[str, object] | None = None
) -> list[int]:
    """The sweeper's part for one kind: send ``task_name`` again for each of ``rows`` that is
    ``stale`` (its task lost), after writing ``renew`` (a new lease) on them in the same
    transaction as the sweep's lock; rows a run holds locked are skipped (that run is alive).
    The ids sent."""
    with transaction.atomic():
        ids = list(
            rows.select_for_update(skip_locked=True).filter(stale).order_by("pk").values_list("pk", flat=True)
        )
        if ids and renew:
            rows.model.objects.filter(pk__in=ids).update(**renew)
    if ids:
        logger.warning("sending lost %s again: %s", task_name, ", ".join(map(str, ids)))
    return tasks_send(task_name, ids)
