"""Celery tasks: ids in, one service call, safe to run twice."""

from __future__ import annotations

from celery import Task, shared_task
from django.utils import timezone

from campaign.choices import DeliveryStatus, NotificationEmail, OperationStatus
from campaign.services.background import retry_delay
from campaign.services.night import NIGHT_PHASE_FOLLOW_UP_TASK, night_phase_follow_up
from campaign.services.notifications import NOTIFICATION_MAIL_TASK, notification_mail, reminders_run
from campaign.services.operations import OPERATION_RUN_TASK, operation_record_error, operation_run
from campaign.services.schedule import club_schedule_run
from campaign.services.sweep import work_sweep
from campaign.services.sync import change_records_prune
from campaign.services.webhooks import WEBHOOK_DELIVER_TASK, webhook_deliver

# Background tasks retry while their row says the work is still to do: attempts are counted on
# the row, and the backoff and giving up are the one policy of campaign.services.background.


@shared_task(name=OPERATION_RUN_TASK, bind=True, max_retries=None, acks_late=True, reject_on_worker_lost=True)
def operation_run_task(self: Task[[int], None], operation_id: int) -> None:
    """Run a night phase or arrival rolls; the service skips what is already done."""
    try:
        operation_run(operation_id)
    except Exception as exc:
        # Keep the reason on the operation (failed once attempts run out); retry with backoff.
        recorded = operation_record_error(operation_id, f"{type(exc).__name__}: {exc}")
        if recorded.status == OperationStatus.FAILED:
            return
        raise self.retry(exc=exc, countdown=retry_delay(recorded.attempts)) from exc


@shared_task(name=NIGHT_PHASE_FOLLOW_UP_TASK, acks_late=True)
def night_phase_follow_up_task(operation_id: int) -> None:
    """Tell the members their night reports are ready and keep the night's map (each once)."""
    night_phase_follow_up(operation_id)


@shared_task(name=NOTIFICATION_MAIL_TASK, bind=True, max_retries=None, acks_late=True)
def notification_mail_task(self: Task[[int], None], notification_id: int) -> None:
    """One attempt at e-mailing a notification; retried with exponential backoff while pending."""
    notification = notification_mail(notification_id)
    if notification is not None and notification.email == NotificationEmail.PENDING:
        raise self.retry(countdown=retry_delay(notification.email_attempts))


@shared_task(acks_late=True)
def club_schedule_task() -> list[str]:
    """Beat calls this every few minutes; it acts only when a club's time has come."""
    return club_schedule_run(timezone.now())


@shared_task(acks_late=True)
def notification_reminders_task() -> dict[str, int]:
    """Beat calls this every few minutes: each reminder source tells whom it is time to tell."""
    return reminders_run(timezone.now())


@shared_task(acks_late=True)
def work_sweep_task() -> dict[str, list[int]]:
    """Beat calls this every few seconds: it sends again the work whose task was lost."""
    return work_sweep(timezone.now())


@shared_task(acks_late=True)
def change_records_prune_task() -> int:
    """Beat calls this every hour: change records no changes cursor will read are deleted."""
    return change_records_prune(timezone.now())


@shared_task(
    name=WEBHOOK_DELIVER_TASK, bind=True, max_retries=None, acks_late=True, reject_on_worker_lost=True
)
def webhook_deliver_task(self: Task[[int], None], delivery_id: int) -> None:
    """One attempt at a webhook delivery; retried with exponential backoff while it is pending."""
    delivery = webhook_deliver(delivery_id)
    if delivery is not None and delivery.status == DeliveryStatus.PENDING:
        countdown = retry_delay(delivery.attempts)
        if delivery.next_attempt_at is not None:  # a receiver that asked to wait longer (429)
            countdown = max(countdown, (delivery.next_attempt_at - timezone.now()).total_seconds())
        raise self.retry(countdown=countdown)
