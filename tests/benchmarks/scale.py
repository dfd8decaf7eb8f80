"""Scale benchmark (`make bench-scale`): a burst of nights on N workers while clients poll.

K campaigns of mixed sizes, each at the end of a day with losses and with a side's API key.
Open-loop pollers (each sends at a fixed rate, whatever the answers' delays, and counts a
delay from when the request was due) poll the campaigns' force statuses through gunicorn with
the keys, sending back the ETag they got. After an idle spell every night is started at once
(their tasks queue on the operations queue, consumed by N worker processes) and the pollers
go on until the last night's follow-up (its map) is done.

Reported: nights per minute and each night's completion time (p50, p99) from the burst's
start; when the follow-ups were done; poll delays (p50, p99) idle, during the burst and during
the follow-ups; CPU milliseconds per night (the workers' processes, during the burst and with
the follow-ups) and per poll (gunicorn's, idle); SQL statements of a warm poll (in
process); WAL bytes per night (the server's WAL position: on a shared server, other
databases' writes count too). The floor: the same campaigns' nights as the least SQL that
has their effect (every suppressed and destroyed stand set back, as many roll rows as
destroyed stands written; rolled back), on a process a core at once, whatever N: the
machine's, so that runs with different worker counts compare by their ratios. Targets:
burst throughput at least half the floor's; poll p99 during the burst at most twice the idle
p99.

Every figure carries the machine's load average when it was taken. The two targets are
printed as a table, and everything is written as JSON to ``bench-results/<UTC time>-scale.json``
(:mod:`tests.benchmarks.figures`). Sizes are options (``--help``); the
defaults run in a few minutes. Not a test: the numbers are reported, never asserted.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import django

from tests.benchmarks.isolation import RUN_ID, own_services

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.db.models import NOT_PROVIDED  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from campaign import models  # noqa: E402
from campaign.choices import MapMoment, OperationStatus, StandStatus  # noqa: E402
from campaign.services.api_keys import api_key_create  # noqa: E402
from campaign.services.audit import Actor  # noqa: E402
from campaign.services.night import night_phase_start  # noqa: E402
from config.celery_app import app  # noqa: E402
from config.settings.queues import messages_queues, night_processes, night_queues  # noqa: E402
from devstack.launcher import BIN, NIGHT_WORKER_NICE, start_group, stop_groups  # noqa: E402
from tests.benchmarks.figures import Figure, report  # noqa: E402
from tests.benchmarks.force_status import GUNICORN_WORKERS, _default_signals, gunicorn  # noqa: E402
from tests.campaign.night_setup import campaign_after_day_one  # noqa: E402
from tests.conftest import worker_database_url  # noqa: E402
from tests.processes import tree  # noqa: E402

BENCH = Actor(request_id="bench-scale")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
WORKER_STOP_SECONDS = 30.0


# Sizes a preset stands for; options given with it win. "federation": the clubs of a federation on
# one machine, one evening's nights started in one burst, its web polled all the while.
PRESETS: dict[str, dict[str, Any]] = {
    "federation": {
        "campaigns": 300,
        "sizes": "3,10,30",
        "workers": night_processes(),
        "pollers": 4,
        "poll_rate": 10.0,
        "idle_seconds": 10.0,
        "timeout": 1800.0,
    },
}


def options(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="make bench-scale ARGS=...", description=__doc__.split("\n")[0])
    parser.add_argument("--preset", choices=sorted(PRESETS), help="a set-up's sizes (options win)")
    parser.add_argument("--campaigns", type=int, default=6, help="K campaigns (default 6)")
    parser.add_argument(
        "--sizes", default="3,10,30", help="battalions a side, cycled over the campaigns (default 3,10,30)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=night_processes(),
        help="N worker processes (default %(default)s: as make run and Compose run nights on this machine)",
    )
    parser.add_argument(
        "--messages-concurrency",
        type=int,
        default=os.cpu_count() or 1,
        help="the messages worker's pool processes (default a core each, as make run and Compose start it)",
    )
    parser.add_argument("--pollers", type=int, default=2, help="poller processes (default 2)")
    parser.add_argument(
        "--poll-rate", type=float, default=10.0, help="polls a second per poller (default 10)"
    )
    # 300 idle polls at the default rates: with 100, the idle p99 the burst's is divided by was
    # the slowest two polls, and moved between runs by twice (issue 34).
    parser.add_argument(
        "--idle-seconds", type=float, default=15.0, help="polling before the burst (default 15)"
    )
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="longest wait for the nights (default 600)"
    )
    parser.add_argument(
        "--nice",
        type=int,
        default=NIGHT_WORKER_NICE[-1],
        help=f"the workers' niceness, as make run starts them (default {NIGHT_WORKER_NICE[-1]})",
    )
    preset = parser.parse_known_args(argv)[0].preset
    if preset:
        parser.set_defaults(**PRESETS[preset])
    return parser.parse_args(argv)


def load() -> list[float]:
    """The machine's load average (1, 5, 15 minutes), taken with each figure."""
    return [round(value, 2) for value in os.getloadavg()]


def figure(**values: Any) -> dict[str, Any]:
    return {**values, "load_average": load()}


def percentile(values: Sequence[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def milliseconds(values: Sequence[float]) -> dict[str, Any]:
    p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
    return figure(
        count=len(values),
        p50_ms=None if p50 is None else round(p50 * 1000, 1),
        p99_ms=None if p99 is None else round(p99 * 1000, 1),
    )


def cpu_seconds(roots: Sequence[int]) -> float:
    """CPU time (user and system) of the processes under ``roots`` that are alive now."""
    total = 0
    for pid, _ in tree(list(roots)):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


def wal_position() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')")
        return int(cursor.fetchone()[0])


# The campaigns -------------------------------------------------------------------------------


def campaigns(count: int, sizes: Sequence[int]) -> list[dict[str, Any]]:
    """``count`` campaigns at nightfall, sizes cycled, each with an Allied API key: what a poller
    needs of each (its status URL and key) and the floor's figures."""
    built = []
    for number in range(count):
        size = sizes[number % len(sizes)]
        campaign = campaign_after_day_one(battalions_per_side=size, seed=f"scale-{number}")
        allied = campaign.sides.get(name="Allied")
        _, key = api_key_create(campaign.pk, BENCH, name="bench poller", side_id=allied.pk)
        force = models.Force.objects.get(side=allied)
        url = reverse(
            "api:force-force-status", kwargs={"campaign_slug": campaign.slug, "pk": force.public_id}
        )
        built.append(
            {
                "id": campaign.pk,
                "battalions_a_side": size,
                "url": url,
                "key": key,
                "destroyed": campaign.stands.filter(status=StandStatus.DESTROYED).count(),
            }
        )
    return built


def _floor_night(campaign: dict[str, Any]) -> None:
    """The least SQL with a night's effect on ``campaign``, rolled back (the nights run after)."""
    columns = ", ".join(
        connection.ops.quote_name(field.column)
        for field in models.RollRecord._meta.concrete_fields
        if not field.primary_key and field.db_default is NOT_PROVIDED  # the database gives its keys
    )
    with connection.cursor() as cursor:
        cursor.execute("BEGIN")
        cursor.execute(
            "UPDATE campaign_stand SET status = 'ok' "
            "WHERE campaign_id = %s AND status IN ('suppressed', 'destroyed')",
            [campaign["id"]],
        )
        cursor.execute(
            f"INSERT INTO campaign_rollrecord ({columns}) SELECT {columns} FROM campaign_rollrecord, "
            "generate_series(1, %s) "
            "WHERE id = (SELECT min(id) FROM campaign_rollrecord WHERE campaign_id = %s)",
            [campaign["destroyed"], campaign["id"]],
        )
        cursor.execute("ROLLBACK")
    connection.close()


def floor(built: list[dict[str, Any]], concurrency: int) -> dict[str, Any]:
    connections.close_all()  # forked below: no shared socket
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(concurrency, initializer=_default_signals) as pool:
        pool.map(_floor_night, built, chunksize=1)
    seconds = time.perf_counter() - start
    return figure(
        concurrency=concurrency,
        seconds=round(seconds, 3),
        nights_per_minute=round(len(built) * 60 / seconds, 1),
    )


# The workers and the pollers -----------------------------------------------------------------


@contextmanager
def workers(count: int, niceness: int, messages_concurrency: int) -> Iterator[tuple[list[int], list[int]]]:
    """``count`` worker processes on the nights' queues (one pool process each) at ``niceness``:
    the nights, then what follows each (its map and reports' notice); and a messages worker on
    every other queue (at niceness 0, as Compose and ``make run`` start it: the deliveries and
    e-mails), ``messages_concurrency`` pool processes; the night workers' pids and the messages
    worker's."""
    env = {**os.environ, "DATABASE_URL": worker_database_url()}
    command = [str(BIN / "celery"), "-A", "config", "worker", "-l", "WARNING"]
    command += ["--without-gossip", "--without-mingle"]
    started = [
        start_group(
            [
                "nice",
                "-n",
                str(niceness),
                *command,
                "--concurrency",
                "1",
                "-Q",
                night_queues(settings.CELERY_TASK_DEFAULT_QUEUE),
                "-n",
                f"scale-{RUN_ID}-{n}@%h",
            ],
            env,
        )
        for n in range(count)
    ]
    others = messages_queues(settings.CELERY_TASK_DEFAULT_QUEUE)
    messages = [*command, "--concurrency", str(messages_concurrency), "-Q", others]
    started.append(start_group([*messages, "-n", f"scale-{RUN_ID}-messages@%h"], env))
    try:
        deadline = time.monotonic() + 120
        while len(app.control.ping(timeout=1.0) or []) < len(started):
            if time.monotonic() > deadline or any(p.poll() is not None for p in started):
                raise RuntimeError("the workers did not start")
        pids = [process.pid for process in started]
        yield pids[:count], pids[count:]
    finally:
        stop_groups(started, grace=WORKER_STOP_SECONDS)


def _poll(
    port: int, targets: list[tuple[str, str]], rate: float, ready: Any, stop: Any, results: Any
) -> None:
    """Open loop: request ``n`` is due at start + n / rate and its delay counts from then."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    ready.put(os.getpid())
    etags: dict[str, str] = {}
    polls: list[tuple[float, float, int]] = []  # (when due, delay, status)
    start = time.monotonic()
    n = 0
    while not stop.is_set():
        due = start + n / rate
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        url, key = targets[n % len(targets)]
        headers = {"Accept": "application/json", "Authorization": f"Api-Key {key}"}
        if url in etags:
            headers["If-None-Match"] = etags[url]
        conn.request("GET", url, headers=headers)
        response = conn.getresponse()
        response.read()
        if response.status == 200:
            etags[url] = response.getheader("ETag") or ""
        polls.append((due, time.monotonic() - due, response.status))
        n += 1
    conn.close()
    results.put(polls)


def http_warm_up(port: int, built: list[dict[str, Any]], rounds: int) -> None:
    """Requests until gunicorn's processes have loaded the application and each key's grant and
    status are cached: the idle figures are of warm polls."""
    for _ in range(rounds):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        for campaign in built:
            conn.request("GET", campaign["url"], headers={"Authorization": f"Api-Key {campaign['key']}"})
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"GET {campaign['url']} answered {response.status}")
        conn.close()


@contextmanager
def pollers(port: int, built: list[dict[str, Any]], count: int, rate: float) -> Iterator[list[Any]]:
    """``count`` poller processes, each over every campaign's status in turn; on the way out,
    every poll they made. Spawned, not forked: a fork would inherit this process's broker
    connection, which Celery's after-fork cleanup then closes from the child."""
    context = multiprocessing.get_context("spawn")
    ready, stop, results = context.Queue(), context.Event(), context.Queue()
    targets = [(campaign["url"], campaign["key"]) for campaign in built]
    connections.close_all()
    processes = [
        context.Process(
            target=_poll, args=(port, targets[n:] + targets[:n], rate, ready, stop, results), daemon=True
        )
        for n in range(count)
    ]
    for process in processes:
        process.start()
    for _ in processes:
        ready.get(timeout=120)  # every poller polling before the idle figures start
    polls: list[Any] = []
    try:
        yield polls
    finally:
        stop.set()
        for _ in processes:
            polls += results.get(timeout=120)
        for process in processes:
            process.join(timeout=10)


# The run ----------------------------------------------------------------------------------------


def warm_poll_statements(campaign: dict[str, Any]) -> int:
    client = Client(HTTP_HOST="localhost", HTTP_AUTHORIZATION=f"Api-Key {campaign['key']}")
    client.get(campaign["url"])
    with CaptureQueriesContext(connection) as queries:
        client.get(campaign["url"])
    return len(queries)


def burst(built: list[dict[str, Any]], timeout: float) -> tuple[float, float, list[float]]:
    """Start every night at once; when the burst started and ended (monotonic) and each
    night's completion time from its start, in seconds."""
    started_at, wall = time.monotonic(), datetime.now(UTC)
    operations = [night_phase_start(campaign["id"], BENCH).pk for campaign in built]
    deadline = started_at + timeout
    while True:
        finished = [
            at
            for at in models.Operation.objects.filter(
                pk__in=operations, status=OperationStatus.DONE
            ).values_list("finished_at", flat=True)
            if at is not None
        ]
        if len(finished) == len(operations):
            return started_at, time.monotonic(), [(at - wall).total_seconds() for at in finished]
        if time.monotonic() > deadline:
            raise RuntimeError(f"{len(operations) - len(finished)} nights not done in {timeout} s")
        time.sleep(0.2)


def follow_ups_done(built: list[dict[str, Any]], timeout: float) -> float:
    """When (monotonic) the last night's follow-up had kept its map: the night workers take the
    follow-ups once no night waits, so they run after the burst."""
    deadline = time.monotonic() + timeout
    ids = [campaign["id"] for campaign in built]
    while models.MapSnapshot.objects.filter(campaign_id__in=ids, moment=MapMoment.NIGHT).count() < len(ids):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the nights' follow-ups not done in {timeout} s")
        time.sleep(0.2)
    return time.monotonic()


def run(args: argparse.Namespace) -> dict[str, Any]:
    sizes = [int(size) for size in args.sizes.split(",")]
    with own_services("scale"):
        built = campaigns(args.campaigns, sizes)
        statements = warm_poll_statements(built[0])
        floor_figures = floor(built, os.cpu_count() or 1)
        env = {**os.environ, "DATABASE_URL": worker_database_url()}
        with (
            gunicorn("config.wsgi:application", env) as port,
            workers(args.workers, args.nice, args.messages_concurrency) as (worker_pids, messages_pids),
        ):
            web_pids = [pid for pid, _ in tree([os.getpid()]) if _is_gunicorn(pid)]
            http_warm_up(port, built, rounds=4 * GUNICORN_WORKERS)
            with pollers(port, built, args.pollers, args.poll_rate) as polls:
                idle_start, web_cpu = time.monotonic(), cpu_seconds(web_pids)
                time.sleep(args.idle_seconds)
                idle_end, web_cpu = time.monotonic(), cpu_seconds(web_pids) - web_cpu
                worker_cpu, messages_cpu, wal = (
                    cpu_seconds(worker_pids),
                    cpu_seconds(messages_pids),
                    wal_position(),
                )
                start, end, completions = burst(built, args.timeout)
                burst_cpu, wal = cpu_seconds(worker_pids) - worker_cpu, wal_position() - wal
                followed = follow_ups_done(built, args.timeout)
                worker_cpu = cpu_seconds(worker_pids) - worker_cpu
                messages_cpu = cpu_seconds(messages_pids) - messages_cpu
        idle = [delay for due, delay, _ in polls if idle_start <= due < idle_end]
        during = [delay for due, delay, _ in polls if start <= due < end]
        # A new body (a status changed since the poller's ETag) against a 304: which holds the p99.
        during_by_answer = {
            answer: milliseconds(
                [delay for due, delay, status in polls if start <= due < end and status == code]
            )
            for answer, code in (("new_body", 200), ("not_modified", 304))
        }
        following = [delay for due, delay, _ in polls if end <= due < followed]
        failed = sorted({status for _, _, status in polls if status not in (200, 304)})
        # When a poll waited over a second, and what it answered: what holds the p99.
        slow, slow_after = (
            [
                (round(due - start, 2), round(delay, 2), status)
                for due, delay, status in polls
                if since <= due < until and delay > 1
            ]
            for since, until in ((start, end), (end, followed))
        )
    nights = len(built)
    seconds = end - start
    due_count = int(seconds * args.pollers * args.poll_rate)  # sent or not
    throughput = nights * 60 / seconds
    poll_idle, poll_burst = milliseconds(idle), milliseconds(during)
    return {
        "run_id": RUN_ID,
        "options": vars(args),
        "campaigns": [
            {"battalions_a_side": c["battalions_a_side"], "destroyed": c["destroyed"]} for c in built
        ],
        "nights": figure(
            count=nights,
            workers=args.workers,
            niceness=args.nice,
            seconds=round(seconds, 3),
            nights_per_minute=round(throughput, 1),
            cpu_ms_per_night=round(burst_cpu * 1000 / nights, 1),
            # With what follows each night (its map and reports' notice), run after the burst.
            cpu_ms_per_night_followed=round(worker_cpu * 1000 / nights, 1),
            follow_ups_done_s=round(followed - start, 3),
            # E-mailing its reports' notices (the statuses are rendered in the night's commits).
            messages_cpu_ms_per_night=round(messages_cpu * 1000 / nights, 1),
            wal_bytes_per_night=wal // nights,
        ),
        "night_completion": milliseconds(completions),
        "floor": floor_figures,
        "polls": {
            "pollers": args.pollers,
            "rate_per_poller": args.poll_rate,
            "idle": poll_idle,
            "during_burst": poll_burst,
            "during_burst_by_answer": during_by_answer,
            "during_follow_ups": milliseconds(following),
            "cpu_ms_per_poll_idle": figure(value=round(web_cpu * 1000 / max(len(idle), 1), 2)),
            "statements_per_warm_poll": figure(value=statements),
            "failed_statuses": failed,
            "slow_during_burst": {"due_s_delay_s_status": slow[:50], "count": len(slow), "due": due_count},
            "slow_during_follow_ups": {"due_s_delay_s_status": slow_after[:50], "count": len(slow_after)},
        },
    }


def _is_gunicorn(pid: int) -> bool:
    try:
        return "gunicorn" in Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return False


def main(argv: Sequence[str]) -> int:
    details = run(options(argv))
    nights, floor_figures = details["nights"], details["floor"]
    idle, during = details["polls"]["idle"], details["polls"]["during_burst"]
    figures = [
        Figure(
            "nights a minute, all started at once",
            nights["nights_per_minute"],
            floor_figures["nights_per_minute"],
            "nights/min",
            at_least=0.5,
            load_average=nights["load_average"][0],
        ),
        Figure(
            "poll p99 during the burst, against idle",
            during["p99_ms"] or 0.0,
            idle["p99_ms"] or 0.0,
            "ms",
            at_most=2.0,
            load_average=during["load_average"][0],
            note="" if during["p99_ms"] else "no poll was due during the burst",
        ),
    ]
    report("scale", figures, details)
    measured(details)
    return 0


def measured(details: dict[str, Any]) -> None:
    """The figures the issue asks for that have no floor of their own, after the targets."""
    nights, completion, polls = details["nights"], details["night_completion"], details["polls"]
    rows = [
        (
            "nights a minute",
            f"{nights['nights_per_minute']:,} ({nights['count']} nights; processes: {nights['workers']})",
        ),
        ("night completion p50 / p99", f"{completion['p50_ms']} ms / {completion['p99_ms']} ms"),
        ("poll p50 / p99, idle", f"{polls['idle']['p50_ms']} ms / {polls['idle']['p99_ms']} ms"),
        (
            "poll p50 / p99, during the burst",
            f"{polls['during_burst']['p50_ms']} ms / {polls['during_burst']['p99_ms']} ms",
        ),
        *(
            (
                f"  of which {label}",
                f"{delays['p50_ms']} ms / {delays['p99_ms']} ms ({delays['count']} polls)"
                if delays["count"]
                else "no poll",
            )
            for answer, label in (("new_body", "a new body (200)"), ("not_modified", "not modified (304)"))
            for delays in [polls["during_burst_by_answer"][answer]]
        ),
        (
            "poll p50 / p99, during the follow-ups",
            f"{polls['during_follow_ups']['p50_ms']} ms / {polls['during_follow_ups']['p99_ms']} ms",
        ),
        ("follow-ups (maps, notices) done", f"{nights['follow_ups_done_s']} s after the burst's start"),
        ("CPU a night (workers, during the burst)", f"{nights['cpu_ms_per_night']} ms"),
        ("CPU a night with its follow-up (workers)", f"{nights['cpu_ms_per_night_followed']} ms"),
        ("CPU a night (messages worker: e-mails)", f"{nights['messages_cpu_ms_per_night']} ms"),
        ("CPU a poll (gunicorn, idle)", f"{polls['cpu_ms_per_poll_idle']['value']} ms"),
        ("statements a warm poll", f"{polls['statements_per_warm_poll']['value']}"),
        ("WAL a night", f"{nights['wal_bytes_per_night']:,} bytes"),
    ]
    width = max(len(name) for name, _ in rows)
    print("\nmeasured (no target of their own)")
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
