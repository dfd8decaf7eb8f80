"""Celery's queues, one per kind of work, so that no kind waits behind another: a burst of
night phases (long) never delays webhook deliveries or e-mails, nor beat's housekeeping (the
sweeper, the clubs' schedules), which stays on the default queue.

Named from the default queue (``CELERY_QUEUE``), so that two services sharing one Redis
database keep apart (the benchmarks do). Plain Python: the settings and the launcher
(``devstack``) both read it.
"""

from __future__ import annotations

KINDS = ("default", "statuses", "operations", "webhooks", "mail")
# What the messages worker (every queue but the nights') takes first, with the broker's
# "priority" queue order: the force statuses a night made cold, which polls are waiting for,
# before the deliveries, e-mails, maps and housekeeping that nobody watches (issue 34).
MESSAGES_FIRST_FIRST = ("statuses", "webhooks", "mail", "default")


def queue_names(default: str) -> dict[str, str]:
    """Each kind's queue: the default one, then ``<default>.<kind>``."""
    return {kind: default if kind == "default" else f"{default}.{kind}" for kind in KINDS}


def messages_queues(default: str) -> str:
    """The messages worker's ``-Q``: its queues, the one it takes first first."""
    names = queue_names(default)
    return ",".join(names[kind] for kind in MESSAGES_FIRST_FIRST)
