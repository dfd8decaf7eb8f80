"""Background operations that must happen exactly once.

A start creates the :class:`~campaign.models.Operation` (a unique constraint
allows one per night or per segment) and enqueues its task when the
transaction commits.  A run applies the operation's steps one transaction at a
time, each marking itself done in the same transaction, under a row lock on
the operation: a duplicate delivery waits, then finds the step done; a run
killed halfway is redelivered and continues where the last commit left it.
Every delivery counts as an attempt; past ``MAX_ATTEMPTS`` the operation is
marked failed with the last error, so a crashing task cannot loop for ever.

While it runs, ``report`` keeps each done step's part under the step's name,
appended in SQL so a step never re-sends the parts before it (the night's
replacement lines run to thousands); the end merges them, in step order, into
the one report the finish and the API read.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import orjson
from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from campaign import models
from campaign.choices import EventVerb, OperationKind, OperationStatus
from campaign.services.audit import SYSTEM, event_record
from campaign.services.errors import NotFoundError

MAX_ATTEMPTS = 5

StepFunction = Callable[[models.Operation, str], dict[str, Any]]


def _registry() -> dict[str, tuple[Callable[[models.Operation], dict[str, Any]], StepFunction]]:
    """kind → (finish, step) functions; imported late, they import this module."""
    from campaign.services import arrivals, night

    return {
        OperationKind.NIGHT_PHASE: (night.night_phase_finish, night.night_phase_step),
        OperationKind.ARRIVALS: (arrivals.arrivals_finish, arrivals.arrivals_step),
    }


def operation_get(operation_id: int) -> models.Operation:
    operation = models.Operation.objects.filter(pk=operation_id).first()
    if operation is None:
        raise NotFoundError(f"operation {operation_id} does not exist", field="operation")
    return operation


def merge_report(report: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge a step's report into the operation's: dicts merge, lists extend, counts add."""
    merged = dict(report)
    for key, value in part.items():
        old = merged.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            merged[key] = merge_report(old, value)
        elif isinstance(old, list) and isinstance(value, list):
            merged[key] = [*old, *value]
        elif isinstance(old, int) and isinstance(value, int) and not isinstance(value, bool):
            merged[key] = old + value
        else:
            merged[key] = value
    return merged


def _report_assembled(operation: models.Operation) -> dict[str, Any]:
    """The parts of the steps done so far, merged in step order."""
    report: dict[str, Any] = {}
    for step in operation.steps:
        if step in operation.report:
            report = merge_report(report, operation.report[step])
    return report


def _locked() -> QuerySet[models.Operation]:
    """Operations locked against a concurrent delivery (their own rows only), with what their
    steps and finish read: the campaign, day and segment."""
    locked = models.Operation.objects.select_for_update(of=("self",))
    return locked.select_related("campaign", "day", "segment")


@transaction.atomic
def _attempt_begin(operation_id: int) -> models.Operation | None:
    """Count this delivery; None when there is nothing (more) to do. The operation comes with
    what its steps read (the campaign, day and segment), loaded once as no step changes it,
    and without its report: steps never read the parts before them."""
    operation = _locked().defer("report").get(pk=operation_id)
    if operation.status in (OperationStatus.DONE, OperationStatus.FAILED):
        return None
    operation.attempts += 1
    if operation.attempts > MAX_ATTEMPTS:
        _fail(operation, operation.error or f"gave up after {MAX_ATTEMPTS} attempts (the worker kept dying)")
        return None
    operation.status = OperationStatus.RUNNING
    operation.started_at = operation.started_at or timezone.now()
    operation.save(update_fields=["attempts", "status", "started_at"])
    return operation


def _campaign_version_bump(campaign_id: int) -> None:
    """A committed step changes what clients see: the version keys their caches (force status)."""
    models.Campaign.objects.filter(pk=campaign_id).update(version=F("version") + 1)


def _fail(operation: models.Operation, reason: str) -> None:
    operation.status = OperationStatus.FAILED
    operation.error = reason
    operation.finished_at = timezone.now()
    operation.report = _report_assembled(operation)
    operation.save(update_fields=["status", "error", "finished_at", "attempts", "report"])
    event_record(
        operation.campaign,
        EventVerb.OPERATION_FAILED,
        operation,
        f"{operation.get_kind_display()} for day {operation.day.number} failed: {reason}",
        SYSTEM,
    )


@transaction.atomic
def operation_record_error(operation_id: int, reason: str) -> models.Operation:
    """Keep the last error; mark the operation failed when no attempt is left."""
    operation = models.Operation.objects.select_for_update().get(pk=operation_id)
    if operation.status in (OperationStatus.DONE, OperationStatus.FAILED):
        return operation
    operation.error = reason
    if operation.attempts >= MAX_ATTEMPTS:
        _fail(operation, reason)
    else:
        operation.save(update_fields=["error"])
    return operation


def _step_record(operation: models.Operation, step: str, part: dict[str, Any]) -> None:
    """Mark ``step`` done with its part of the report, and bump the campaign's version, in one
    statement: the report is appended to in SQL, so a step never re-sends the parts before it
    (the night's replacement lines run to thousands)."""
    operations = connection.ops.quote_name(models.Operation._meta.db_table)
    campaigns = connection.ops.quote_name(models.Campaign._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH bumped AS (UPDATE {campaigns} SET version = version + 1 WHERE id = %s) "
            f"UPDATE {operations} SET report = report || %s::jsonb, "
            "completed_steps = completed_steps || %s::jsonb WHERE id = %s",
            [
                operation.campaign_id,
                orjson.dumps({step: part}, option=orjson.OPT_NON_STR_KEYS).decode(),
                orjson.dumps([step]).decode(),
                operation.pk,
            ],
        )


def operation_run(operation_id: int) -> models.Operation:
    """Apply every step not yet done, each in its own transaction, then finish."""
    operation = _attempt_begin(operation_id)
    if operation is None:
        return operation_get(operation_id)
    finish, step_function = _registry()[operation.kind]
    for step in operation.steps:
        with transaction.atomic():
            done = _locked().filter(pk=operation_id).values_list("completed_steps", flat=True).get()
            if step in done:
                continue
            _step_record(operation, step, step_function(operation, step))
        # Crash drills: a pause between committed steps leaves room to kill a worker.
        time.sleep(settings.OPERATION_STEP_PAUSE)
    with transaction.atomic():
        operation = _locked().get(pk=operation_id)
        if operation.status == OperationStatus.RUNNING:
            operation.report = _report_assembled(operation)
            finish(operation)
            operation.status = OperationStatus.DONE
            operation.error = ""
            operation.finished_at = timezone.now()
            operation.save(update_fields=["status", "error", "finished_at", "report"])
            _campaign_version_bump(operation.campaign_id)
    return operation
