"""Night-phase benchmark (`make bench`): the night against raw-SQL floors measured in the same run.

Sizes: ``BENCH_STANDS`` (stands, comma-separated; default 2,000, 20,000 and 200,000), each
measured on ``BENCH_REPEATS`` fresh campaigns (default 5, 3 and 1 by size) whose medians are
reported. Each campaign is at nightfall after a day that destroyed a third of its stands and
suppressed another third.

- **Night vs floor**: the floor is, on the same rows right after the night, what the database
  must do for the same effect, in raw SQL: the operation's bookkeeping (its delivery counted,
  as many transactions as the night committed, each locking the operation and renewing it,
  the report appended and written, the campaign locked and its version bumped, the day
  closed, the snapshot deleted, each side's night report and the event inserted), what every
  night does whatever the day was (the sides' barrage rounds replenished, the battalions set
  inactive), plus one set-based UPDATE of every stand the night works on and a COPY of as many
  roll rows.
- **Statements**: the night's statement count (transaction control aside) at every size.
- **Scaling**: time at ×10 stands against ×10.
- **Memory**: tracemalloc's peak during a night (an extra campaign, untimed), per stand.
- **Map snapshots**: the bytes the map replay keeps of that campaign (at each dawn and after
  each night, for every audience), per stand and day, against 1 KB (issue 32).
- **Empty night**: on that campaign's next days, with nothing destroyed or suppressed,
  against the same floor (no stand to update, no roll); the median of five at every size.
- **Fresh worker**: a Celery worker started for it runs two nights of the smallest size one
  after the other, of two campaigns with the same order of battle and dice (the same work);
  the first (imports, connections, caches) against the second, each timed
  by the operation's own ``started_at``/``finished_at``; medians over three such workers.

Autovacuum is off in the bench database, its statistics are refreshed once a campaign is
built, and no garbage is pending when a measurement starts, so the background work set off
by building a campaign lands in no measurement.
"""

from __future__ import annotations

import gc
import itertools
import os
import statistics
import sys
import time
import tracemalloc
from dataclasses import dataclass
from typing import Any

import django

from tests.benchmarks.isolation import own_services

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.db.models import NOT_PROVIDED, Count, F, Sum  # noqa: E402
from django.db.models.functions import Length  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from campaign import models  # noqa: E402
from campaign.choices import (  # noqa: E402
    ActivationState,
    CampaignStatus,
    DayStatus,
    EventVerb,
    OperationStatus,
    StandStatus,
)
from campaign.scenarios.generator import synthetic_pack  # noqa: E402
from campaign.services.audit import Actor, roll_records_write  # noqa: E402
from campaign.services.days import day_dawn  # noqa: E402
from campaign.services.night import night_phase_start  # noqa: E402
from campaign.services.operations import operation_run  # noqa: E402
from campaign.services.scenario import scenario_import  # noqa: E402
from devstack.launcher import BIN, start_group, stop_groups  # noqa: E402
from tests.benchmarks.figures import Figure, load_average, report  # noqa: E402
from tests.benchmarks.isolation import RUN_ID, redis_client, redis_keys_delete  # noqa: E402
from tests.conftest import worker_database_url  # noqa: E402

SIZES = [int(size) for size in os.environ.get("BENCH_STANDS", "2000,20000,200000").split(",")]
BENCH = Actor(request_id="bench")
WORKER_SECONDS = 600.0  # the fresh worker's two nights, on a busy machine
FRESH_WORKERS = 3
BYTES_PER_STAND = 1024
# Empty nights a size, whatever its repeats: one costs the same at every size (what it measures),
# and the median of one was a draw (0.9 and 3.5 times the floor at 200,000 stands in two runs).
EMPTY_NIGHTS = 5
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK")


def repeats(stands: int) -> int:
    default = 5 if stands <= 2_000 else 3 if stands <= 20_000 else 1
    return int(os.environ.get("BENCH_REPEATS") or default)


def table(model: type[Any]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def campaign_at_nightfall(
    stands: int, slug: str, empty: bool = False, seed: str | None = None
) -> models.Campaign:
    """A campaign of ``stands`` at its first nightfall; campaigns of one ``seed`` (the slug by
    default) have the same order of battle and dice, so their nights do the same work."""
    campaign = scenario_import(synthetic_pack(stands, seed=seed or slug), BENCH, slug=slug)
    models.Campaign.objects.filter(pk=campaign.pk).update(status=CampaignStatus.ACTIVE)
    day_dawn(campaign.pk, BENCH)
    if not empty:
        ids = list(models.Stand.objects.filter(campaign=campaign).order_by("pk").values_list("pk", flat=True))
        models.Stand.objects.filter(pk__in=ids[0::3]).update(status=StandStatus.DESTROYED)
        models.Stand.objects.filter(pk__in=ids[1::3]).update(status=StandStatus.SUPPRESSED)
    analyze()
    return campaign


def analyze() -> None:
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # what autovacuum would have done by nightfall


def autovacuum_off() -> None:
    """A vacuum set off by building a campaign would land in one measurement, not the other."""
    with connection.cursor() as cursor:
        for name in connection.introspection.table_names(cursor):
            cursor.execute(f"ALTER TABLE {connection.ops.quote_name(name)} SET (autovacuum_enabled = false)")


@dataclass(frozen=True)
class Night:
    seconds: float
    statements: int
    commits: int
    rolls: int
    floor_seconds: float
    load_average: float


class Floor:
    """The raw-SQL floor of one night, measured right after it on the same rows: its rows are
    put back as they were before the finish (snapshot, reports) so the floor writes them again."""

    def __init__(self, operation: models.Operation) -> None:
        """Before the night: keep its snapshot (the finish deletes it)."""
        self.operation = operation
        self.worked_on = list(
            operation.campaign.stands.filter(
                status__in=[StandStatus.SUPPRESSED, StandStatus.DESTROYED]
            ).values_list("pk", flat=True)
        )
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS floor_snapshot")
            cursor.execute(
                f"CREATE TEMP TABLE floor_snapshot AS SELECT * FROM {table(models.NightSnapshot)} "
                "WHERE operation_id = %s",
                [operation.pk],
            )

    def measure(self, rolls: int, commits: int) -> float:
        operation = self.operation
        template = (
            models.RollRecord.objects.filter(campaign_id=operation.campaign_id)
            .filter(procedure="gb.night_replacements")
            .values()
            .first()
        )
        event = models.Event.objects.get(verb=EventVerb.NIGHT_PHASE_DONE, object_id=operation.pk)
        # A copy of the night's event, as the night inserts one: the database gives its keys.
        event_columns = ", ".join(
            f.column
            for f in models.Event._meta.concrete_fields
            if not f.primary_key and f.db_default is NOT_PROVIDED
        )
        sides = list(operation.campaign.sides.values_list("pk", flat=True))
        operations, campaigns = table(models.Operation), table(models.Campaign)
        days = table(models.CampaignDay)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT report::text FROM {operations} WHERE id = %s", [operation.pk])
            (report_text,) = cursor.fetchone()
            cursor.execute(f"INSERT INTO {table(models.NightSnapshot)} SELECT * FROM floor_snapshot")
            cursor.execute("DROP TABLE IF EXISTS floor_reports")
            cursor.execute(
                f"CREATE TEMP TABLE floor_reports AS SELECT * FROM {table(models.NightReport)} "
                "WHERE operation_id = %s",
                [operation.pk],
            )
            cursor.execute(f"DELETE FROM {table(models.NightReport)} WHERE operation_id = %s", [operation.pk])
        gc.collect()
        start = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {operations} SET attempts = attempts + 1, lease_expires_at = now() "
                "WHERE id = %s RETURNING kind, steps, attempts",
                [operation.pk],
            )
            for number in range(commits):
                with transaction.atomic():
                    cursor.execute(
                        f"SELECT o.*, c.*, d.* FROM {operations} o "
                        f"JOIN {campaigns} c ON c.id = o.campaign_id JOIN {days} d ON d.id = o.day_id "
                        "WHERE o.id = %s FOR UPDATE OF o",
                        [operation.pk],
                    )
                    if number == 0:
                        cursor.execute(
                            f"UPDATE {table(models.Stand)} SET status = %s WHERE id = ANY(%s)",
                            [StandStatus.OK, self.worked_on],
                        )
                        self._every_night(cursor)
                        # The same COPY the night writes with, of one row repeated: no rules, no dice.
                        roll_records_write([template] * rolls if template else [])
                    if number == commits - 1:
                        self._finish(cursor, report_text, sides, event.pk, event_columns)
                    else:
                        cursor.execute(
                            f"WITH bumped AS (UPDATE {campaigns} SET version = version + 1 WHERE id = %s) "
                            f"UPDATE {operations} SET report = report || %s::jsonb, lease_expires_at = now() "
                            "WHERE id = %s",
                            [operation.campaign_id, report_text if number == 0 else "{}", operation.pk],
                        )
        return time.perf_counter() - start

    def _every_night(self, cursor: Any) -> None:
        """What every night does whatever the day was: each side's barrage rounds replenished,
        and the battalions still active set inactive (none, when nothing moved)."""
        cursor.execute(
            f"UPDATE {table(models.Side)} SET barrage_rounds = barrage_rounds + barrage_rounds_per_day, "
            "barrage_templates_in_use = 0 WHERE campaign_id = %s",
            [self.operation.campaign_id],
        )
        cursor.execute(
            f"UPDATE {table(models.Battalion)} SET activation = %s "
            "WHERE campaign_id = %s AND activation <> %s",
            [ActivationState.INACTIVE, self.operation.campaign_id, ActivationState.INACTIVE],
        )

    def _finish(
        self, cursor: Any, report_text: str, sides: list[int], event_id: int, event_columns: str
    ) -> None:
        operation = self.operation
        campaigns = table(models.Campaign)
        cursor.execute(f"SELECT * FROM {campaigns} WHERE id = %s FOR UPDATE", [operation.campaign_id])
        for side in sides:
            cursor.execute(
                f"INSERT INTO {table(models.NightReport)} SELECT * FROM floor_reports WHERE side_id = %s",
                [side],
            )
        cursor.execute(
            f"UPDATE {table(models.CampaignDay)} SET status = %s WHERE id = %s",
            [DayStatus.DONE, operation.day_id],
        )
        cursor.execute(
            f"UPDATE {campaigns} SET current_segment = '', night_version = NULL, version = version + 1 "
            "WHERE id = %s",
            [operation.campaign_id],
        )
        cursor.execute(f"DELETE FROM {table(models.NightSnapshot)} WHERE operation_id = %s", [operation.pk])
        cursor.execute(
            f"INSERT INTO {table(models.Event)} ({event_columns}) "
            f"SELECT {event_columns} FROM {table(models.Event)} WHERE id = %s",
            [event_id],
        )
        cursor.execute(
            f"WITH bumped AS (UPDATE {campaigns} SET version = version + 1 WHERE id = %s) "
            f"UPDATE {table(models.Operation)} SET status = %s, finished_at = now(), report = %s::jsonb, "
            "completed_steps = steps WHERE id = %s",
            [operation.campaign_id, OperationStatus.DONE, report_text, operation.pk],
        )


def night(campaign: models.Campaign) -> Night:
    """One night phase, timed with its statements, then its floor."""
    operation = night_phase_start(campaign.pk, BENCH)  # its task waits in the run's own queue
    floor = Floor(operation)
    rolls_before = campaign.rolls.count()
    gc.collect()
    load = load_average()
    start = time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        operation_run(operation.pk)
    seconds = time.perf_counter() - start
    commits = sum(1 for query in queries if query["sql"] == "COMMIT")
    statements = sum(1 for query in queries if query["sql"] not in TRANSACTION_CONTROL)
    rolls = campaign.rolls.count() - rolls_before
    return Night(seconds, statements, commits, rolls, floor.measure(rolls, commits), load)


def traced_peak_bytes(campaign: models.Campaign) -> int:
    """tracemalloc's peak of Python allocations during one night phase (untimed: tracing is slow)."""
    operation = night_phase_start(campaign.pk, BENCH)
    gc.collect()
    tracemalloc.start()
    try:
        operation_run(operation.pk)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def empty_night(campaign: models.Campaign) -> Night:
    """The campaign's next night, with every stand in order: nothing destroyed or suppressed."""
    models.Stand.objects.filter(campaign=campaign).update(status=StandStatus.OK)
    day_dawn(campaign.pk, BENCH)
    analyze()
    return night(campaign)


def map_snapshot_bytes_per_stand_day(campaign: models.Campaign) -> float:
    """The replay's snapshots kept of the campaign (at each dawn and after each night, for every
    audience), in bytes per stand and day."""
    kept = models.MapSnapshot.objects.filter(campaign=campaign).aggregate(
        total=Sum(Length("state")), days=Count("day_number", distinct=True)
    )
    total: int = kept["total"] or 0
    days: int = max(kept["days"], 1)
    return total / (campaign.stands.count() * days)


def size_figures(stands: int) -> tuple[list[Figure], dict[str, Any]]:
    runs = [night(campaign_at_nightfall(stands, f"bench-{stands}-{n}")) for n in range(repeats(stands))]
    seconds = statistics.median(run.seconds for run in runs)
    floor_seconds = statistics.median(run.floor_seconds for run in runs)
    load = max(run.load_average for run in runs)
    traced = campaign_at_nightfall(stands, f"bench-{stands}-traced")
    peak = traced_peak_bytes(traced)
    memory_load = load_average()
    # Each dawn keeps the map of the night before, then its own; a median, like the nights'.
    empties = [empty_night(traced) for _ in range(EMPTY_NIGHTS)]
    empty_seconds = statistics.median(run.seconds for run in empties)
    empty_floor_seconds = statistics.median(run.floor_seconds for run in empties)
    snapshot_bytes = map_snapshot_bytes_per_stand_day(traced)
    figures = [
        Figure(f"night, {stands:,} stands", seconds, floor_seconds, "s", at_most=2.0, load_average=load),
        Figure(
            f"night memory, {stands:,} stands",
            peak / stands,
            BYTES_PER_STAND,
            "B/stand",
            at_most=1.0,
            load_average=memory_load,
            note="tracemalloc peak",
        ),
        Figure(
            f"map snapshots, {stands:,} stands",
            snapshot_bytes,
            BYTES_PER_STAND,
            "B/stand/day",
            at_most=1.0,
            load_average=memory_load,
            note="dawn and night, every audience",
        ),
        Figure(
            f"empty night, {stands:,} stands",
            empty_seconds,
            empty_floor_seconds,
            "s",
            at_most=3.0,
            load_average=max(run.load_average for run in empties),
        ),
    ]
    details = {
        "stands": stands,
        "repeats": len(runs),
        "runs": [run.__dict__ for run in runs],
        "statements": max(run.statements for run in runs),
        "commits": max(run.commits for run in runs),
        "roll_rows": runs[0].rolls,
        "traced_peak_bytes": peak,
        "map_snapshot_bytes_per_stand_day": snapshot_bytes,
        "empty_nights": [run.__dict__ for run in empties],
    }
    return figures, details


def fresh_worker_nights(stands: int, attempt: int) -> tuple[float, float]:
    """Two nights run by a Celery worker started for them: the first's seconds and the second's.
    The two campaigns share a seed, so both nights do the same work: only the worker's first
    steps differ, and that the second finds the day's seeds in the worker's cache."""
    seed = f"bench-worker-{attempt}"
    campaigns = [campaign_at_nightfall(stands, f"{seed}-{n}", seed=seed) for n in (1, 2)]
    client = redis_client()
    redis_keys_delete(os.environ["CELERY_QUEUE"])  # the run's queue, for these two nights alone
    bindings = set(client.scan_iter(match="_kombu.binding*"))
    operations = [night_phase_start(campaign.pk, BENCH).pk for campaign in campaigns]
    command = [str(BIN / "celery"), "--quiet", "-A", "config", "worker", "-l", "WARNING", "--concurrency=1"]
    worker = start_group(
        [*command, "--without-gossip", "--without-mingle", "-n", f"bench-{RUN_ID}@%h"],
        {**os.environ, "DATABASE_URL": worker_database_url()},
    )
    try:
        deadline = time.monotonic() + WORKER_SECONDS
        ran = models.Operation.objects.filter(pk__in=operations)
        while ran.filter(status=OperationStatus.DONE).count() < 2:
            failed = ran.filter(error__gt="").values_list("error", flat=True)
            if worker.poll() is not None or time.monotonic() > deadline or failed:
                raise RuntimeError(f"the Celery worker did not run the two nights: {list(failed)}")
            time.sleep(0.5)
    finally:
        stop_groups([worker])
        # Kombu's bindings and their deadlines the worker declared (the run's queue's go with its keys).
        created = set(client.scan_iter(match="_kombu.binding*")) - bindings
        if created:
            client.delete(*created)
    took = models.Operation.objects.filter(pk__in=operations).order_by("pk")
    first, second = (
        duration.total_seconds()
        for duration in took.annotate(took=F("finished_at") - F("started_at")).values_list("took", flat=True)
    )
    return first, second


def fresh_worker(stands: int) -> Figure:
    """The first night of a fresh worker against its second: medians over
    :data:`FRESH_WORKERS` workers, as one worker's pair moved by a tenth between runs."""
    load = load_average()
    pairs = [fresh_worker_nights(stands, attempt) for attempt in range(FRESH_WORKERS)]
    return Figure(
        f"fresh worker's first night, {stands:,} stands",
        statistics.median(first for first, _ in pairs),
        statistics.median(second for _, second in pairs),
        "s",
        at_most=1.1,  # issue 34's target
        load_average=max(load, load_average()),
        note=f"floor: its second night; {FRESH_WORKERS} workers",
    )


def main() -> int:
    sizes = sorted(SIZES)
    with own_services("night"):
        autovacuum_off()
        figures = [fresh_worker(sizes[0])]
        details: list[dict[str, Any]] = []
        for stands in sizes:
            size, detail = size_figures(stands)
            figures += size
            details.append(detail)
    statements = [detail["statements"] for detail in details]
    figures.append(
        Figure(
            "night statements, largest / smallest size",
            max(statements),
            min(statements),
            "statements",
            at_most=1.0,
            load_average=load_average(),
            note=", ".join(f"{d['stands']:,}: {d['statements']}" for d in details),
        )
    )
    by_size = {detail["stands"]: detail for detail in details}
    for small, large in itertools.pairwise(sizes):
        grows = large / small
        figures.append(
            Figure(
                f"night time, {large:,} / {small:,} stands",
                _median_seconds(by_size[large]) / _median_seconds(by_size[small]),
                grows,
                "×",
                at_most=1.1,
                load_average=load_average(),
                note=f"target: time ×{grows:g} stands ≤ ×{grows * 1.1:g}",
            )
        )
    report("night_phase", figures, {"sizes": details})
    return 0


def _median_seconds(detail: dict[str, Any]) -> float:
    return float(statistics.median(run["seconds"] for run in detail["runs"]))


if __name__ == "__main__":
    sys.exit(main())
