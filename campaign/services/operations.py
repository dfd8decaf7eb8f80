"""Background operations that must happen exactly once.

A start creates the :class:`~campaign.models.Operation` (a unique constraint
allows one per night or per segment) and enqueues its task when the
transaction commits.  A run applies the operation's steps a transaction at a
time, each transaction marking its steps done, under a row lock on the
operation: a duplicate delivery waits, then finds the steps done; a run killed
halfway is redelivered and continues where the last commit left it.  A step
whose work grows with the campaign (rolling for every battalion or force)
commits when it is done; quick set-based steps commit with the step after
them, and the last transaction also finishes the operation.  Every delivery
counts as an attempt; once attempts run out (``background.gave_up``) the operation is
marked failed with the last error, so a crashing task cannot loop for ever.

The row is the outbox, with the lifecycle of all background work (``background``): a run
holds a lease on the operation, taken as the delivery is counted and renewed by each commit
(in the statement that commits); a step in progress holds the row lock. ``operations_resend``
(the sweeper, on beat) sends again an unfinished operation nobody holds whose lease ran out:
its worker was killed, or the broker was down when the start sent it, or its retry was lost.
The broker's own redelivery of an unacknowledged task waits the visibility timeout (an hour).

While it runs, ``report`` keeps each committed step's part under the step's
name, appended in SQL so a transaction never re-sends the parts before it (the
night's replacement lines run to thousands); the finish merges them, in step
order, into the one report the API reads.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from campaign import models
from campaign.choices import EventVerb, OperationKind, OperationStatus
from campaign.polls import statuses_rendered, version_publish
from campaign.services.audit import SYSTEM, Actor, event_record
from campaign.services.background import gave_up, lease_cutoff, lease_end, retry_delay, rows_resend
from campaign.services.broker import tasks_send_on_commit
from campaign.services.errors import ConflictError, NotFoundError

UNFINISHED = (OperationStatus.PENDING, OperationStatus.RUNNING)


def operation_running(operation: models.Operation) -> bool:
    """Whether ``operation`` is still waiting for a worker or running: its outcome is to come."""
    return operation.status in UNFINISHED


def operation_failed(operation: models.Operation) -> bool:
    """Whether ``operation`` gave up: what it had done is rolled back, its error says why."""
    return operation.status == OperationStatus.FAILED


# The task that runs an operation, sent by name: the tasks module imports the services.
OPERATION_RUN_TASK = "campaign.tasks.operation_run_task"

StepFunction = Callable[[models.Operation, str], dict[str, Any]]


@dataclass(frozen=True)
class OperationProcedure:
    """How one kind of operation is applied: a step at a time, then the finish."""

    step: StepFunction
    # Whether a step's transaction ends with it, given the part of the report it made: a step
    # that rolled commits, so a crash after it never rolls again; one that rolled nothing has
    # nothing to lose and goes on in the same transaction.
    commits_alone: Callable[[str, dict[str, Any]], bool]
    # The last writes; returns the versions shown before them whose polled statuses the commit
    # outdates: rendered for it once the operation is marked done, its last write
    # (``polls.statuses_rendered``), so that their next polls find them warm.
    finish: Callable[[models.Operation], list[int]]


# Each kind registers itself where it is defined (``operation_kind_register``); the app's
# ``ready`` imports those modules, so a worker knows every kind before it runs one.
PROCEDURES: dict[str, OperationProcedure] = {}


def operation_kind_register(kind: OperationKind, procedure: OperationProcedure) -> None:
    if kind in PROCEDURES:
        raise ValueError(f"operation kind {kind!r} registered twice")
    PROCEDURES[kind] = procedure


def operation_start(
    campaign: models.Campaign,
    kind: OperationKind,
    actor: Actor,
    *,
    day: models.CampaignDay,
    segment: models.DaySegmentRecord | None = None,
    steps: list[str],
    started: tuple[EventVerb, str],
    duplicate: ConflictError,
) -> models.Operation:
    """Inside the caller's transaction: create the operation (``duplicate`` refuses a second
    one of its night or segment), record ``started`` (its verb and message), and send its task
    when the transaction commits (the sweeper sends it again if the broker is down then)."""
    try:
        with transaction.atomic():
            operation = models.Operation.objects.create(
                campaign=campaign,
                kind=kind,
                day=day,
                segment=segment,
                steps=steps,
                created_by_id=actor.user_id,
            )
    except IntegrityError:  # a concurrent start won the race after the caller's checks
        raise duplicate from None
    verb, message = started
    event_record(campaign, verb, operation, message, actor)
    tasks_send_on_commit(OPERATION_RUN_TASK, [operation.pk])
    return operation


def operation_reports_write(operation: models.Operation, empty_side: Mapping[str, Any]) -> list[int]:
    """Each side's report: the day (and segment), the side's name, then the side's part of the
    operation's report over ``empty_side`` (what a side the steps found nothing of reads); the
    reports' ids. One statement whatever the number of sides, each large part sent once, as
    JSON (``bulk_create`` would send every body as an element of a text array, escaped
    character by character)."""
    heading: dict[str, Any] = {"day": operation.day.number}
    if operation.segment is not None:
        heading["segment"] = operation.segment.segment
    reports = connection.ops.quote_name(models.NightReport._meta.db_table)
    sides = connection.ops.quote_name(models.Side._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {reports} (operation_id, side_id, day_id, body, created_at) "
            "SELECT %s, side.id, %s, %s::jsonb || jsonb_build_object('side', side.name) || %s::jsonb "
            "|| COALESCE(%s::jsonb -> side.id::text, '{}'::jsonb), %s "
            f"FROM {sides} AS side WHERE side.campaign_id = %s ORDER BY side.id RETURNING id",
            [
                operation.pk,
                operation.day_id,
                _json(heading),
                _json(empty_side),
                _json(operation.report.get("sides", {})),
                timezone.now(),
                operation.campaign_id,
            ],
        )
        return [row[0] for row in cursor.fetchall()]


def operations_resend(now: datetime) -> list[int]:
    """The sweeper: send again each unfinished operation whose lease ran out (or that never
    started within a lease of its creation), renewing its lease so that the next sweep leaves
    it to this send. Rows a run has locked are skipped: that run is alive."""
    never_taken = Q(lease_expires_at__isnull=True, created_at__lt=lease_cutoff(now))
    lease_over = Q(lease_expires_at__lt=now) | never_taken
    return rows_resend(
        models.Operation.objects.filter(status__in=UNFINISHED),
        lease_over,
        OPERATION_RUN_TASK,
        renew={"lease_expires_at": lease_end(now)},
    )


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


def _report_assembled(steps: list[str], parts: dict[str, Any]) -> dict[str, Any]:
    """The parts of the steps done so far, merged in step order."""
    report: dict[str, Any] = {}
    for step in steps:
        if step in parts:
            report = merge_report(report, parts[step])
    return report


def _locked() -> QuerySet[models.Operation]:
    """Operations locked against a concurrent delivery (their own rows only), with what their
    steps and finish read (the campaign, day and segment), and without their report: a step
    never reads the parts before it."""
    locked = models.Operation.objects.select_for_update(of=("self",))
    return locked.select_related("campaign", "day", "segment").defer("report")


def _attempt_count(operation_id: int) -> tuple[str, list[str], int] | None:
    """Count this delivery and take the lease, in one statement: the operation's kind, steps
    and attempts so far, or None when it is over."""
    operations = connection.ops.quote_name(models.Operation._meta.db_table)
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {operations} SET attempts = attempts + 1, status = %s, "
            "started_at = COALESCE(started_at, %s), lease_expires_at = %s "
            "WHERE id = %s AND status IN (%s, %s) RETURNING kind, steps, attempts",
            [
                OperationStatus.RUNNING,
                now,
                lease_end(now),
                operation_id,
                OperationStatus.PENDING,
                OperationStatus.RUNNING,
            ],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    kind, steps, attempts = row
    return kind, orjson.loads(steps), attempts


def _fail(operation: models.Operation, reason: str) -> None:
    operation.status = OperationStatus.FAILED
    operation.error = reason
    operation.finished_at = timezone.now()
    operation.report = _report_assembled(operation.steps, operation.report)
    operation.save(update_fields=["status", "error", "finished_at", "attempts", "report"])
    event_record(
        operation.campaign,
        EventVerb.OPERATION_FAILED,
        operation,
        f"{operation.get_kind_display()} for day {operation.day.number} failed: {reason}",
        SYSTEM,
    )


@transaction.atomic
def _give_up(operation_id: int) -> models.Operation:
    operation = _locked().get(pk=operation_id)
    if operation.status == OperationStatus.RUNNING:
        reason = f"gave up after {settings.WORK_MAX_ATTEMPTS} attempts (the worker kept dying)"
        _fail(operation, operation.error or reason)
    return operation


@transaction.atomic
def operation_record_error(operation_id: int, reason: str) -> models.Operation:
    """Keep the last error; mark the operation failed when no attempt is left, else hold the
    lease until the retry due ``background.retry_delay`` later has had its time (the sweeper
    leaves the operation to it)."""
    operation = models.Operation.objects.select_for_update().get(pk=operation_id)
    if operation.status in (OperationStatus.DONE, OperationStatus.FAILED):
        return operation
    operation.error = reason
    if gave_up(operation.attempts):
        _fail(operation, reason)
    else:
        operation.lease_expires_at = lease_end(extra_seconds=retry_delay(operation.attempts))
        operation.save(update_fields=["error", "lease_expires_at"])
    return operation


def _operation_update(operation: models.Operation, assignments: str, params: list[Any]) -> None:
    """Update the operation and bump its campaign's version in one statement: a commit changes
    what clients see, and the version keys their caches (force status), published for polls."""
    operations = connection.ops.quote_name(models.Operation._meta.db_table)
    campaigns = connection.ops.quote_name(models.Campaign._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH bumped AS (UPDATE {campaigns} SET version = version + 1 WHERE id = %s "
            "RETURNING COALESCE(night_version, version) AS shown), "
            f"updated AS (UPDATE {operations} SET {assignments} WHERE id = %s) SELECT shown FROM bumped",
            [operation.campaign_id, *params, operation.pk],
        )
        (shown,) = cursor.fetchone()
    version_publish(operation.campaign_id, shown)


def _json(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _steps_record(operation: models.Operation, parts: dict[str, Any]) -> None:
    """Mark the steps of ``parts`` done with their parts of the report, appended in SQL, so a
    transaction never re-sends the parts before it (the night's replacement lines run to
    thousands), and renew the lease."""
    _operation_update(
        operation,
        "report = report || %s::jsonb, completed_steps = completed_steps || %s::jsonb, lease_expires_at = %s",
        [_json(parts), _json(list(parts)), lease_end()],
    )


def _finish(operation: models.Operation, procedure: OperationProcedure, parts: dict[str, Any]) -> None:
    """Merge the report (reading the parts an earlier delivery committed, if any), finish, and
    mark every step and the operation done."""
    earlier = operation.report if any(step not in parts for step in operation.steps) else {}
    operation.report = _report_assembled(operation.steps, {**earlier, **parts})
    with statuses_rendered(operation.campaign_id) as outdated:
        outdated += procedure.finish(operation)
        operation.status = OperationStatus.DONE
        operation.error = ""
        operation.finished_at = timezone.now()
        operation.completed_steps = list(operation.steps)
        _operation_update(
            operation,
            "status = %s, error = '', finished_at = %s, report = %s::jsonb, completed_steps = steps",
            [operation.status, operation.finished_at, _json(operation.report)],
        )


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Steps build thousands of short-lived objects (rolls, rows) that reference counting frees;
    a cyclic collection meanwhile would walk the whole heap for nothing (up to a tenth of a
    second in a large process), at a random point."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def operation_run(operation_id: int) -> models.Operation:
    """Count this delivery, then apply the steps not yet done, a transaction at a time; the
    last transaction also finishes."""
    counted = _attempt_count(operation_id)
    if counted is None:
        return operation_get(operation_id)
    kind, steps, attempts = counted
    if gave_up(attempts - 1):  # the attempts before this delivery ran out (killed each time)
        return _give_up(operation_id)
    procedure = PROCEDURES[kind]
    parts: dict[str, Any] = {}
    operation: models.Operation | None = None
    finished = False
    while not finished:
        with transaction.atomic():
            operation = _locked().get(pk=operation_id)
            if operation.status != OperationStatus.RUNNING:
                break  # a concurrent delivery finished it, or it failed
            to_apply = [step for step in steps if step not in operation.completed_steps and step not in parts]
            applied: dict[str, Any] = {}
            with _collector_paused():
                for step in to_apply:
                    applied[step] = procedure.step(operation, step)
                    if step != to_apply[-1] and procedure.commits_alone(step, applied[step]):
                        break
            parts.update(applied)
            finished = len(applied) == len(to_apply)
            if finished:
                _finish(operation, procedure, parts)
            else:
                _steps_record(operation, applied)
        if not finished:
            # Crash drills: a pause after a commit leaves room to kill a worker (the commit
            # renewed the lease).
            time.sleep(settings.OPERATION_STEP_PAUSE)
    assert operation is not None  # the loop ran at least once
    return operation
