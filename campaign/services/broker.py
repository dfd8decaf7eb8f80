"""Sending tasks after the commit, without making a broker outage the caller's error.

Work is committed as rows first (an operation, a webhook delivery); its task is sent when the
transaction commits. If the broker cannot be reached then, the write has still happened and
the row stays pending: the sweeper (``campaign.services.sweep``, on beat) sends it again once
the broker is back. So the request that wrote it answers as it would have (202: the work will
run), never 500 after the commit.

A task is sent by its name, which the service that owns the work declares and the tasks
module registers the task under: the tasks module imports the services, never the reverse.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from celery import current_app
from django.db import transaction
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


def tasks_send(task_name: str, object_ids: Sequence[int]) -> list[int]:
    """Send the task ``task_name`` once for each id, stopping at the first the broker refuses
    (each refusal takes the client's retries, well under a second); the ids sent."""
    task = current_app.signature(task_name)
    sent: list[int] = []
    for object_id in object_ids:
        try:
            task.delay(object_id)
        except OperationalError as exc:
            logger.warning(
                "broker unreachable, %s not sent for %s (the sweeper will send it): %s",
                task_name,
                ", ".join(map(str, object_ids[len(sent) :])),
                exc,
            )
            break
        sent.append(object_id)
    return sent


def tasks_send_on_commit(task_name: str, object_ids: Sequence[int]) -> None:
    """Send the task ``task_name`` for each id once the current transaction commits (never if
    it rolls back)."""
    ids = list(object_ids)
    transaction.on_commit(lambda: tasks_send(task_name, ids))
