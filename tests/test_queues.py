"""Each kind of work on its own Celery queue, and a worker started without -Q consumes them all."""

from __future__ import annotations

import pytest
from django.conf import settings

from config.celery_app import app
from config.settings.queues import queue_names

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("task", "kind"),
    [
        ("campaign.tasks.operation_run_task", "operations"),
        ("campaign.tasks.webhook_deliver_task", "webhooks"),
        ("campaign.tasks.night_reports_notify_task", "mail"),
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
