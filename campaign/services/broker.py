"""Sending tasks after the commit, without making a broker outage the caller's error.

Work is committed as rows first (an operation, a webhook delivery); its task is sent when the
transaction commits. If the broker cannot be reached then, the write has still happened and
the row stays pending: the sweeper (``campaign.services.sweep``, on beat) sends it again once
the broker is back. So the request that wrote it answers as it would have (202: the work will
run), never 500 after the commit.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from celery import Task
from django.db import transaction
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


def tasks_send(task: Task[[int], None], object_ids: Sequence[int]) -> list[int]:
    """Send ``task`` once for each id, stopping at the first the broker refuses (each refusal
    takes the client's retries, well under a second); the ids sent."""
    sent: list[int] = []
    for object_id in object_ids:
        try:
            task.delay(object_id)
        except OperationalError as exc:
            logger.warning(
                "broker unreachable, %s not sent for %s (the sweeper will send it): %s",
                task.name,
                ", ".join(map(str, object_ids[len(sent) :])),
                exc,
            )
            break
        sent.append(object_id)
    return sent


def tasks_send_on_commit(task: Task[[int], None], object_ids: Sequence[int]) -> None:
    """Send ``task`` for each id once the current transaction commits (never if it rolls back)."""
    ids = list(object_ids)
    transaction.on_commit(lambda: tasks_send(task, ids))
