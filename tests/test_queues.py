"""Each kind of work on its own Celery queue, and a worker started without -Q consumes them all."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from kombu import Consumer, Queue

from config.celery_app import app
from config.settings.queues import messages_queues, night_queues, queue_names

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
