"""Celery's queues, one per kind of work, so that no kind waits behind another: a burst of
night phases (long) never delays webhook deliveries or e-mails, nor beat's housekeeping (the
sweeper, the clubs' schedules), which stays on the default queue.

Named from the default queue (``CELERY_QUEUE``), so that two services sharing one Redis
database keep apart (the benchmarks do). Plain Python: the settings and the launcher
(``devstack``) both read it.
"""

from __future__ import annotations

import os

# Every kind of work, in the order a worker consuming several takes them (the broker's queue
# order is "priority"): the deliveries and e-mails people wait for; the nights; what follows
# each night (its reports' notice, then its map: the heaviest work after a night, taken by the
# night workers once no night waits, so that a burst of nights finishes first); beat's
# housekeeping.
KINDS = ("webhooks", "mail", "operations", "after_night", "default")
NIGHT_KINDS = ("operations", "after_night")


def night_processes(cores: int | None = None) -> int:
    """How many nights a worker runs at once on a machine of ``cores`` (this one's by default)
    it shares with PostgreSQL and the web: one for every two cores, one at least. A night's
    worker process and its PostgreSQL backend take turns, so each night running keeps about a
    core busy; with a night a core, a burst took every core, each night cost more CPU, and the
    polls waited behind them (docs/scaling.md, issue 34)."""
    return max(1, (cores or os.cpu_count() or 1) // 2)


def queue_names(default: str) -> dict[str, str]:
    """Each kind's queue: the default one, then ``<default>.<kind>``."""
    return {kind: default if kind == "default" else f"{default}.{kind}" for kind in KINDS}


def night_queues(default: str) -> str:
    """The night workers' ``-Q``: the nights, then what follows them, in the order they take them."""
    return ",".join(name for kind, name in queue_names(default).items() if kind in NIGHT_KINDS)


def messages_queues(default: str) -> str:
    """The messages worker's ``-Q``: every queue but the night workers', in the order it takes them."""
    return ",".join(name for kind, name in queue_names(default).items() if kind not in NIGHT_KINDS)
