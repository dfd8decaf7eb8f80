"""The harness's promise (tests/conftest.py): no worker process writes while a transactional
test's database is flushed. A TRUNCATE beside a task's writes deadlocked once in CI: the flush
failed, its rows stayed, and the next tests on that process failed on them."""

from __future__ import annotations

import time

import pytest
import redis
from django.conf import settings

from campaign import models
from campaign.choices import OperationStatus
from campaign.services.night import night_phase_start
from tests.api.test_night_in_progress import night_ready, paused_worker  # noqa: F401 (a fixture)
from tests.api.world import ACTOR, build_world
from tests.conftest import WorkerProcess

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_wait_before_a_flush_lets_a_running_night_finish_and_empties_the_queues(
    paused_worker: WorkerProcess,  # noqa: F811
    redis_client: redis.Redis,
) -> None:
    world = build_world()
    night_ready(world)
    operation = night_phase_start(world.campaign.pk, ACTOR)
    deadline = time.monotonic() + 60
    while not models.Operation.objects.values_list("completed_steps", flat=True).get(pk=operation.pk):
        assert time.monotonic() < deadline, "the worker did not start the night"
        time.sleep(0.05)  # until the worker pauses between two of the night's commits

    WorkerProcess.all_idle_wait()

    assert models.Operation.objects.get(pk=operation.pk).status == OperationStatus.DONE
    assert not redis_client.exists(*settings.CELERY_QUEUE_NAMES.values())
    assert paused_worker.process.poll() is None  # waited for, not stopped
