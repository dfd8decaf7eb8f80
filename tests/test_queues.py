"""Each kind of work on its own Celery queue, and a worker started without -Q consumes them all."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from django.conf import settings
from kombu import Consumer, Queue

from config.celery_app import app
from config.settings.queues import messages_queues, night_processes, night_queues, queue_names
from tests.conftest import WorkerProcess, worker_database_url
from tests.tiers import needs

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("task", "kind"),
    [
        ("campaign.tasks.operation_run_task", "operations"),
        ("campaign.tasks.webhook_deliver_task", "webhooks"),
        ("campaign.tasks.night_phase_follow_up_task", "after_night"),
        ("campaign.tasks.notification_mail_task", "mail"),
        ("campaign.tasks.work_sweep_task", "default"),
        ("campaign.tasks.change_records_prune_task", "default"),
        ("campaign.tasks.notification_reminders_task", "default"),
        ("campaign.tasks.club_schedule_task", "default"),
    ],
)
def test_each_kind_of_work_is_sent_to_its_queue(task: str, kind: str) -> None:
    route = app.amqp.router.route({}, task, (), {})

    assert route["queue"].name == queue_names(settings.CELERY_TASK_DEFAULT_QUEUE)[kind]


def test_the_test_worker_consumes_every_queue(celery_worker) -> None:
    consumed = app.control.inspect(timeout=5).active_queues()

    assert consumed, "no worker answered"
    every = set(queue_names(settings.CELERY_TASK_DEFAULT_QUEUE).values())
    for queues in consumed.values():
        assert {queue["name"] for queue in queues} == every


@pytest.fixture
@needs("worker")
def workers_as_make_run_starts_them(redis_client) -> Iterator[dict[str, WorkerProcess]]:
    """A night worker and a messages worker on their queues with no ``--concurrency``, as make run
    and Compose start them; the queues are their own, so the run's shared worker goes on."""
    default = f"sizes-{uuid.uuid4().hex}"
    own = {"CELERY_QUEUE": default}
    started = {
        "nights": WorkerProcess(worker_database_url(), own, concurrency=None, queues=night_queues(default)),
        "messages": WorkerProcess(
            worker_database_url(), own, concurrency=None, queues=messages_queues(default)
        ),
    }
    try:
        for worker in started.values():
            worker.wait_ready()
        yield started
    finally:
        for worker in started.values():
            worker.stop()
        redis_client.delete(
            *queue_names(default).values(), *redis_client.scan_iter(f"_kombu.binding*{default}*")
        )


def test_a_night_worker_runs_a_night_for_every_two_cores_and_the_messages_worker_one_process_a_core(
    workers_as_make_run_starts_them,
) -> None:
    names = {kind: worker.name for kind, worker in workers_as_make_run_starts_them.items()}
    stats = app.control.inspect(destination=list(names.values()), timeout=5).stats() or {}
    processes = {kind: stats[name]["pool"]["max-concurrency"] for kind, name in names.items()}

    cores = os.cpu_count() or 1
    assert processes == {"nights": night_processes(cores), "messages": cores}
    assert [night_processes(machine) for machine in (1, 2, 3, 4, 16)] == [1, 1, 1, 2, 8]


@pytest.mark.parametrize("worker_queues", [messages_queues, night_queues], ids=["messages", "nights"])
def test_a_worker_takes_its_first_queue_before_messages_sent_earlier_to_its_last(
    redis_client, worker_queues
) -> None:
    """Through the broker as a worker consumes its queues: two messages wait on its last queue
    (the messages worker's default queue; the night workers' follow-ups), then two arrive on its
    first (deliveries; nights). In the priority order both of the first come out first
    (round robin would take one of each in turn)."""
    names = worker_queues(f"order-{uuid.uuid4().hex}").split(",")  # queues no worker consumes
    first, last = names[0], names[-1]
    received: list[str] = []
    try:
        with app.connection_for_write() as connection:
            producer = connection.Producer()
            for queue in (last, last, first, first):
                producer.publish({"queue": queue}, routing_key=queue, declare=[Queue(queue)])

            def take(body: dict[str, str], message) -> None:
                received.append(body["queue"])
                message.ack()

            with Consumer(connection, [Queue(name) for name in names], callbacks=[take]):
                while len(received) < 4:
                    connection.drain_events(timeout=5)
    finally:
        redis_client.delete(*names, *(f"_kombu.binding.{name}" for name in names))

    assert received == [first, first, last, last]
