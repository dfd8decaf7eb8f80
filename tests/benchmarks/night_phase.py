"""Night-phase benchmark (`make bench`): wall time, queries and memory against a floor.

For synthetic campaigns of 2,000 and 20,000 stands, after a day that destroyed
a third of the stands and suppressed another third, it times the night phase
and, in the same run on the same rows, a floor: one set-based SQL UPDATE of
the stands the night works on (every suppressed and destroyed one) plus a bulk
insert of as many roll rows as the night wrote, committed as the night's writes
are (the deferred foreign-key checks run at commit).  Each size is measured on
``REPEATS`` fresh campaigns and the medians are reported, as a shared machine's
noise is of the order of the small size's time.  Autovacuum is off in the bench
database, its statistics are refreshed once a campaign is built, and no garbage
is pending when either measurement starts, so the background work set off by
building a campaign lands in neither.  It prints
JSON with the ratios.  Not a test: the numbers are reported, never asserted.
"""

from __future__ import annotations

import gc
import json
import resource
import statistics
import sys
import time
from typing import Any

import django

from tests.benchmarks.isolation import own_services

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from campaign import models  # noqa: E402
from campaign.choices import CampaignStatus, StandStatus  # noqa: E402
from campaign.scenarios.generator import synthetic_pack  # noqa: E402
from campaign.services.audit import Actor, roll_records_write  # noqa: E402
from campaign.services.days import day_dawn  # noqa: E402
from campaign.services.night import night_phase_start  # noqa: E402
from campaign.services.operations import operation_run  # noqa: E402
from campaign.services.scenario import scenario_import  # noqa: E402

REPEATS = {2_000: 5, 20_000: 3}  # fresh campaigns per size: the small one is cheap to build
BENCH = Actor(request_id="bench")


def campaign_at_nightfall(stands: int, slug: str) -> models.Campaign:
    campaign = scenario_import(synthetic_pack(stands, seed=slug), BENCH, slug=slug)
    models.Campaign.objects.filter(pk=campaign.pk).update(status=CampaignStatus.ACTIVE)
    day_dawn(campaign.pk, BENCH)
    ids = list(models.Stand.objects.filter(campaign=campaign).order_by("pk").values_list("pk", flat=True))
    models.Stand.objects.filter(pk__in=ids[0::3]).update(status=StandStatus.DESTROYED)
    models.Stand.objects.filter(pk__in=ids[1::3]).update(status=StandStatus.SUPPRESSED)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # what autovacuum would have done by nightfall
    return campaign


def autovacuum_off() -> None:
    """A vacuum set off by building a campaign would land in one measurement, not the other."""
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"ALTER TABLE {connection.ops.quote_name(table)} SET (autovacuum_enabled = false)")


def floor(campaign: models.Campaign, stand_ids: list[int], rolls: int) -> float:
    """The least the database must do for the same effect, committed like the night phase's
    writes (its rows stay: the bench database is dropped at the end)."""
    template = (
        models.RollRecord.objects.filter(campaign=campaign, procedure="gb.night_replacements")
        .values()
        .first()
    )
    assert template is not None
    gc.collect()
    start = time.perf_counter()
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE campaign_stand SET status = 'ok' WHERE id = ANY(%s)",
                [stand_ids],
            )
        # The same COPY the night phase writes with, of one row repeated: no rules, no dice.
        roll_records_write([template] * rolls)
    return time.perf_counter() - start


def night(stands: int, repeat: int) -> tuple[float, int, int, float]:
    """One night phase on a fresh campaign: seconds, queries, roll rows, and its floor's seconds."""
    campaign = campaign_at_nightfall(stands, f"bench-{stands}-{repeat}")
    worked_on = list(
        campaign.stands.filter(status__in=[StandStatus.SUPPRESSED, StandStatus.DESTROYED]).values_list(
            "pk", flat=True
        )
    )
    operation = night_phase_start(campaign.pk, BENCH)  # its task waits in the run's own queue
    rolls_before = campaign.rolls.count()
    gc.collect()
    start = time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        operation_run(operation.pk)
    elapsed = time.perf_counter() - start
    rolls = campaign.rolls.count() - rolls_before
    return elapsed, len(queries), rolls, floor(campaign, worked_on, rolls)


def measure(stands: int) -> dict[str, Any]:
    runs = [night(stands, repeat) for repeat in range(REPEATS[stands])]
    elapsed = statistics.median(run[0] for run in runs)
    floor_seconds = statistics.median(run[3] for run in runs)
    return {
        "stands": stands,
        "night_phase_seconds": round(elapsed, 4),
        "queries": max(run[1] for run in runs),
        "roll_rows": runs[0][2],
        # Peak resident memory of this process so far (kB on Linux): it only grows, so
        # the larger campaign's figure includes the smaller one's.
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "floor_seconds": round(floor_seconds, 4),
        "ratio_to_floor": round(elapsed / floor_seconds, 2),
        "repeats": REPEATS[stands],
    }


def main() -> int:
    with own_services("night"):
        autovacuum_off()
        results = [measure(size) for size in REPEATS]
    small, large = results
    report = {
        "night_phase": results,
        "scaling_time_10x_stands": round(large["night_phase_seconds"] / small["night_phase_seconds"], 2),
        "targets": {
            "ratio_to_floor_at_most_2": all(r["ratio_to_floor"] <= 2.0 for r in results),
            "same_query_count": small["queries"] == large["queries"],
            "time_10x_stands_at_most_11x": large["night_phase_seconds"] <= 11 * small["night_phase_seconds"],
        },
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
