"""The one lifecycle of background work (campaign/services/background.py): the retry policy's
figures, the same due time in SQL as in Python, giving up, and a lease a concurrent sweep
cannot take twice."""

from __future__ import annotations

import datetime
import threading
import time

import pytest
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from campaign import models
from campaign.choices import EventVerb, NotificationEmail, NotificationKind, OperationStatus
from campaign.services.background import (
    attempt_due,
    gave_up,
    lease_cutoff,
    next_attempt_due,
    retry_delay,
    rows_resend,
)
from campaign.services.night import night_phase_start
from campaign.services.notifications import NOTIFICATION_MAIL_TASK
from campaign.services.operations import operation_record_error
from campaign.services.webhook_subscriptions import webhook_subscribe
from tests.campaign.factories import UserFactory, campaign_with_sides
from tests.campaign.night_setup import ACTOR, campaign_after_day_one


def test_the_wait_doubles_with_each_failed_attempt_and_the_work_is_given_up_after_the_last(settings):
    settings.WORK_BACKOFF_SECONDS, settings.WORK_MAX_ATTEMPTS = 30, 6

    assert [retry_delay(attempts) for attempts in range(1, 6)] == [60, 120, 240, 480, 960]
    assert [gave_up(attempts) for attempts in (0, 1, 5, 6, 7)] == [False, False, False, True, True]


@pytest.mark.django_db
def test_the_sweeper_reads_the_same_due_time_in_sql_as_a_run_in_python(settings):
    settings.WORK_BACKOFF_SECONDS = 10
    campaign = campaign_with_sides()
    subscription = webhook_subscribe(
        campaign.pk, ACTOR, url="https://example.org/hook", events=[EventVerb.DAY_DAWNED], secret="s" * 16
    )
    attempted = timezone.now()
    tried, untried = (
        models.WebhookDelivery.objects.create(
            subscription=subscription, payload={}, attempts=attempts, last_attempt_at=last
        )
        for attempts, last in ((3, attempted), (0, None))
    )

    due = dict(
        models.WebhookDelivery.objects.annotate(
            due=next_attempt_due("attempts", "last_attempt_at", "created_at")
        ).values_list("pk", "due")
    )

    assert due[tried.pk] == attempted + datetime.timedelta(seconds=retry_delay(3)) != attempted
    assert due[untried.pk] == untried.created_at
    moment = datetime.timedelta(microseconds=1)
    assert not attempt_due(3, attempted, due[tried.pk] - moment)
    assert attempt_due(3, attempted, due[tried.pk])
    assert attempt_due(0, None, untried.created_at - moment)  # never tried: due at once


@pytest.mark.django_db
def test_a_failing_operation_holds_its_lease_for_the_retry_then_fails_with_the_last_error(settings):
    settings.WORK_BACKOFF_SECONDS, settings.WORK_MAX_ATTEMPTS = 100, 2
    campaign = campaign_after_day_one(seed="background")
    operation = night_phase_start(campaign.pk, ACTOR)
    models.Operation.objects.filter(pk=operation.pk).update(attempts=1, status=OperationStatus.RUNNING)
    before = timezone.now()

    held = operation_record_error(operation.pk, "OSError: the first")

    assert (held.status, held.error) == (OperationStatus.RUNNING, "OSError: the first")
    assert held.lease_expires_at > before + datetime.timedelta(seconds=retry_delay(1))
    models.Operation.objects.filter(pk=operation.pk).update(attempts=2)
    failed = operation_record_error(operation.pk, "OSError: the last")
    assert (failed.status, failed.error) == (OperationStatus.FAILED, "OSError: the last")
    assert campaign.events.filter(verb=EventVerb.OPERATION_FAILED).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_send_a_stale_row_once_and_its_lease_holds_after(settings):
    campaign = campaign_with_sides()
    user = UserFactory(username="lease-member", email="lease@example.org")
    # Made as notification_send leaves it, but with no e-mail task queued: the test process's
    # shared worker could send it before the sweeps look (CI saw the first sweep find nothing).
    note = models.Notification.objects.create(
        recipient=user, campaign=campaign, kind=NotificationKind.ORDERS_DUE, title="Orders due", link="/"
    )
    assert note.email == NotificationEmail.PENDING
    later = timezone.now() + datetime.timedelta(seconds=settings.WORK_LEASE_SECONDS + 1)

    def sweep() -> list[int]:
        pending = models.Notification.objects.filter(email=NotificationEmail.PENDING)
        stale = Q(email_tried_at__lt=lease_cutoff(later)) | Q(
            email_tried_at__isnull=True, created_at__lt=lease_cutoff(later)
        )
        return rows_resend(pending, stale, NOTIFICATION_MAIL_TASK, renew={"email_tried_at": later})

    swept, release = threading.Event(), threading.Event()
    first: list[int] = []

    def first_sweep() -> None:
        try:
            with transaction.atomic():  # holds the rows' locks until released
                first.extend(sweep())
                swept.set()
                release.wait(10)
        finally:
            connection.close()  # the thread's own connection

    thread = threading.Thread(target=first_sweep)
    thread.start()
    try:
        assert swept.wait(10)
        started = time.monotonic()
        assert sweep() == []  # the first sweep holds the row: skipped, not waited for
        assert time.monotonic() - started < 5
    finally:
        release.set()
        thread.join()

    assert first == [note.pk]
    assert sweep() == []  # the first sweep's lease, now committed, keeps it
