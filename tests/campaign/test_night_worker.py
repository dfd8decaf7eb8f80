"""The night phase on real Celery worker processes: exactly once, whatever happens.

Each test starts its own worker (the module-scoped shared worker is not used
here), kills it as the scenario says, and compares the outcome with an
uninterrupted in-process run of an identical campaign with the same seed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import connection

from campaign import models
from campaign.choices import MapMoment, OperationStatus
from campaign.services.errors import ConflictError
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from tests.campaign.night_setup import ACTOR, campaign_after_day_one, state_of
from tests.conftest import WorkerProcess, worker_database_url
from tests.tiers import needs

pytestmark = pytest.mark.django_db(transaction=True)

# A killed worker's unacknowledged task comes back from the broker only after the visibility
# timeout; an hour, as in production: the lease and the sweeper must resume the night instead.
# The lease outlasts the drills' pause between commits.
LEASE = {"CELERY_VISIBILITY_TIMEOUT": "3600", "WORK_LEASE_SECONDS": "4", "WORK_SWEEP_INTERVAL": "1"}
RESUMED_WITHIN = 60  # seconds from a worker being available to the night done


@pytest.fixture
@needs("worker")
def workers(redis_client) -> Iterator[list[WorkerProcess]]:
    """Workers started by a test, all stopped at its end; the queue starts empty."""
    redis_client.delete(*settings.CELERY_QUEUE_NAMES.values(), "unacked", "unacked_index")
    started: list[WorkerProcess] = []
    yield started
    for worker in started:
        worker.stop()


def start_worker(workers: list[WorkerProcess], beat: bool = False, **settings_env: str) -> WorkerProcess:
    worker = WorkerProcess(worker_database_url(), settings_env, beat=beat)
    workers.append(worker)
    worker.wait_ready()
    return worker


def wait_for(predicate, timeout: float = 90, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def operation_of(campaign: models.Campaign) -> models.Operation:
    return models.Operation.objects.get(campaign=campaign, kind="night_phase")


def reference_state() -> dict[str, object]:
    """An identical campaign's night run in process without interruption."""
    reference = campaign_after_day_one(seed="drill")
    operation = night_phase_start(reference.pk, ACTOR)  # its enqueue finds no worker running yet
    operation_run(operation.pk)
    return state_of(reference)


def pool_children(worker: WorkerProcess) -> list[int]:
    output = subprocess.run(["pgrep", "-P", str(worker.process.pid)], capture_output=True, text=True)
    return [int(pid) for pid in output.stdout.split()]


def running(pid: int) -> bool:
    """Whether the process runs (a zombie waiting for its new parent to reap it does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_night_phase_runs_on_a_worker_and_reports(workers):
    campaign = campaign_after_day_one(seed="plain")
    start_worker(workers)

    night_phase_start(campaign.pk, ACTOR)

    wait_for(lambda: operation_of(campaign).status == OperationStatus.DONE, what="the night phase")
    operation = operation_of(campaign)
    assert operation.attempts == 1
    assert models.NightReport.objects.filter(operation=operation).count() == 2


def other_backends() -> set[tuple[int, object]]:
    """The database's connections other than this test's: (backend pid, when it started)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_start FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return set(cursor.fetchall())


def test_a_worker_keeps_its_database_connection_from_one_task_to_the_next(workers):
    """Celery's Django fixup would close it around every task: each would pay a new backend."""
    first, second = (campaign_after_day_one(seed=f"connection-{n}") for n in (1, 2))
    start_worker(workers)
    kept = []
    for campaign in (first, second):
        night_phase_start(campaign.pk, ACTOR)
        mapped = models.MapSnapshot.objects.filter(campaign=campaign, moment=MapMoment.NIGHT)
        wait_for(mapped.exists, what="the night and its follow-up")  # its tasks all done
        kept.append(other_backends())

    assert kept[0], "the worker kept no connection once its tasks were done"
    assert kept[1] == kept[0]


def test_killing_the_pool_child_midway_still_gives_the_uninterrupted_result(workers, redis_client):
    expected = reference_state()
    campaign = campaign_after_day_one(seed="drill")
    worker = start_worker(workers, OPERATION_STEP_PAUSE="1.5")

    night_phase_start(campaign.pk, ACTOR)
    wait_for(lambda: len(operation_of(campaign).completed_steps) >= 2, what="the first commit")
    assert operation_of(campaign).status == OperationStatus.RUNNING
    for child in pool_children(worker):
        os.kill(child, signal.SIGKILL)

    wait_for(lambda: operation_of(campaign).status == OperationStatus.DONE, what="the rerun to finish")
    operation = operation_of(campaign)
    assert operation.attempts == 2
    assert state_of(campaign) == expected
    destroyed_rolls = campaign.rolls.filter(procedure="gb.night_replacements")
    assert destroyed_rolls.count() == len({r.result["subject"] for r in destroyed_rolls})  # each stand once


def test_killing_the_main_worker_process_midway_resumes_at_once_with_the_uninterrupted_result(workers):
    expected = reference_state()
    campaign = campaign_after_day_one(seed="drill")
    worker = start_worker(workers, OPERATION_STEP_PAUSE="1.5", **LEASE)

    night_phase_start(campaign.pk, ACTOR)
    wait_for(lambda: len(operation_of(campaign).completed_steps) >= 2, what="the first commit")
    children = pool_children(worker)
    os.kill(worker.process.pid, signal.SIGKILL)  # the main process; its pool dies with it
    worker.process.wait()
    wait_for(lambda: not any(map(running, children)), what="the pool to die")
    killed = operation_of(campaign)
    assert killed.status == OperationStatus.RUNNING
    assert len(killed.completed_steps) < len(killed.steps)

    start_worker(workers, beat=True, **LEASE)  # at once; beat sweeps every second

    wait_for(
        lambda: operation_of(campaign).status == OperationStatus.DONE,
        timeout=RESUMED_WITHIN,
        what="the sweeper to resume the night and the worker to finish it",
    )
    assert operation_of(campaign).attempts == killed.attempts + 1
    assert state_of(campaign) == expected


def test_two_umpires_starting_together_get_one_run_and_one_report(workers):
    campaign = campaign_after_day_one(seed="race")
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def press() -> None:
        barrier.wait()
        try:
            night_phase_start(campaign.pk, ACTOR)
            outcomes.append("started")
        except ConflictError as refused:
            outcomes.append(refused.code)
        finally:
            connection.close()  # the thread's own connection

    threads = [threading.Thread(target=press) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    start_worker(workers)

    assert sorted(outcomes) == ["night_phase_exists", "started"]
    wait_for(lambda: operation_of(campaign).status == OperationStatus.DONE, what="the single run")
    assert models.Operation.objects.filter(campaign=campaign).count() == 1
    assert models.NightReport.objects.filter(day__campaign=campaign).count() == 2


def test_a_task_that_always_fails_stops_and_shows_failed_with_the_reason(workers):
    campaign = campaign_after_day_one(seed="broken")
    # A supply quality the replacement table does not have: every attempt fails at that step.
    models.Side.objects.filter(campaign=campaign, name="Axis").update(supply_quality="Bogus")
    start_worker(workers)

    night_phase_start(campaign.pk, ACTOR)

    wait_for(lambda: operation_of(campaign).status == OperationStatus.FAILED, what="the operation to fail")
    operation = operation_of(campaign)
    assert operation.attempts == settings.WORK_MAX_ATTEMPTS
    assert "supply_quality" in operation.error
    assert "Bogus" in operation.error
    assert operation.completed_steps == []  # the flip commits with the replacements, which fail
    assert campaign.events.filter(verb="operation.failed").count() == 1
