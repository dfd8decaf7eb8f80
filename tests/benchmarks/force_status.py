"""Force-status benchmark (`make bench`): one division of 1,000 stands, against floors.

Over HTTP, as third-party apps poll it: requests/s of the endpoint with a read-only API key
of the side (``Authorization: Api-Key``; warm: an unchanged force) under gunicorn on
loopback, against a plain Django view (:mod:`tests.benchmarks.plain_view`) returning the
same bytes through the same middleware in the same gunicorn set-up (one process, the
median of three short rounds, each measuring both in turn), both driven by ``wrk``
(Debian's package; ``make bench`` installs it as ``.ci/run`` installs Chromium). Without
wrk, a multi-process Python client drives them, and the report says so. The generator is
shown not to be the bottleneck: it drives a bare WSGI app returning the same bytes
(:mod:`tests.benchmarks.bare_wsgi`) at least twice as fast as the plain view. A logged-in
player's session is measured too, for comparison (both see the side's view: the same bytes).

In process: the endpoint through Django's test client (middleware, session, DRF, fog of
war, ETag), cold (response cache cleared before each request) and warm, against one raw
psycopg query of the force's stands with their battalions plus orjson of the payload.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import django
import orjson

from tests.benchmarks.isolation import own_services

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from campaign import models  # noqa: E402
from campaign.choices import MemberRole, StandType  # noqa: E402
from campaign.services.api_keys import api_key_create  # noqa: E402
from campaign.services.audit import Actor  # noqa: E402
from campaign.services.battle_reports import battle_report  # noqa: E402
from campaign.services.battles import battle_create  # noqa: E402
from campaign.services.days import day_dawn  # noqa: E402
from campaign.services.night import night_phase_start  # noqa: E402
from campaign.services.operations import operation_run  # noqa: E402
from devstack.launcher import BIN, STOP_SIGNALS, free_port, port_open, start_group, stop_groups  # noqa: E402
from tests.benchmarks.figures import Figure, load_average, report  # noqa: E402
from tests.campaign.factories import campaign_with_sides  # noqa: E402
from tests.conftest import worker_database_url  # noqa: E402

BATTALIONS = 100
STANDS_PER_BATTALION = 10  # 1,000 stands in the division
# Calls per in-process figure (BENCH_ITERATIONS): tests/test_bench.py, which stops the run once
# gunicorn serves, asks for a few, since its figures are never read.
ITERATIONS = int(os.environ.get("BENCH_ITERATIONS") or 300)
HTTP_SECONDS = 5.0
# The API-key poll and the plain view are measured in turn, both served all along, in short rounds,
# and the round with the median ratio is reported: a pair measured close together drifts less
# than two measurements a minute apart.
HTTP_ROUNDS = 3
HTTP_ROUND_SECONDS = 2.0
# bench-scale's web, a process a core (its two pollers' connections may both land on one, as below).
GUNICORN_WORKERS = 2
# The requests/s figures are one process's (a core's): with two, which process accepts wrk's
# connections is a race one of them often wins whole, and the rate halved in about half the runs
# (the plain view: about 1,000 or 2,200 requests a second in turn; one process: 900 to 1,200).
HTTP_WORKERS = 1
WRK_THREADS = 1
WRK_CONNECTIONS = 4  # twice the process's threads: each always has a request waiting
GUNICORN_STOP_SECONDS = 15.0  # its graceful stop of the workers, before they are killed
BENCH = Actor(request_id="bench")
# The rows the status is computed from: every stand of the force, with its battalion.
FLOOR_SQL = """
SELECT b.id, b.code, b.name, b.in_reserve, b.activation, b.supply_situation, b.fuel_state,
       b.ammo_low_markers, s.stand_type, s.status
FROM campaign_stand s
JOIN campaign_battalion b ON b.id = s.battalion_id
JOIN campaign_battlegroup g ON g.id = b.battlegroup_id
WHERE g.force_id = %s
"""


def division() -> tuple[models.Force, Any]:
    """The Axis division on day 2, after a battle and a night, and a player of its side."""
    campaign = campaign_with_sides(battalions_per_side=BATTALIONS, stands_per_battalion=STANDS_PER_BATTALION)
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    stands = models.Stand.objects.filter(campaign=campaign)
    stands.filter(label__in=["3", "4"]).update(stand_type=StandType.SMG)
    stands.filter(label="5").update(stand_type=StandType.HEAVY_WEAPONS)
    stands.filter(label="6").update(stand_type=StandType.AT_GUN)
    codes = sorted(axis.battalions.values_list("code", flat=True))
    day_dawn(campaign.pk, BENCH)
    fought = codes[: BATTALIONS // 3]
    battle = battle_create(
        campaign.pk,
        BENCH,
        sector_name="Ta' Qali",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=[*fought, "L1"],
    )
    battle_report(
        battle.campaign_id,
        BENCH,
        battle.pk,
        {"battalions": [{"code": code, "destroyed": ["2"], "suppressed": ["3"]} for code in fought]},
    )
    operation_run(night_phase_start(campaign.pk, BENCH).pk)
    day_dawn(campaign.pk, BENCH)
    battle_create(
        campaign.pk,
        BENCH,
        sector_name="Mdina",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=[*codes[-10:], "L2"],
    )
    player = get_user_model().objects.create_user(username="bench-axis")
    models.Membership.objects.create(user=player, campaign=campaign, role=MemberRole.PLAYER, side=axis)
    return models.Force.objects.get(side=axis), player


def per_call(calls: int, work: Callable[[], object]) -> float:
    """Mean seconds per call, after a few warm-up calls."""
    for _ in range(5):
        work()
    start = time.perf_counter()
    for _ in range(calls):
        work()
    return (time.perf_counter() - start) / calls


def in_process(url: str, client: Client, force: models.Force) -> dict[str, Any]:
    response = client.get(url)
    assert response.status_code == 200, response.content
    payload = json.loads(response.content)
    connection.ensure_connection()
    raw = connection.connection  # the psycopg connection under Django's

    def floor() -> None:
        raw.execute(FLOOR_SQL, [force.pk]).fetchall()
        orjson.dumps(payload)

    def cold() -> None:
        cache.version += 1  # every entry missed, the session's too, as after a flush of the cache
        client.get(url)

    cold_seconds = per_call(ITERATIONS, cold)
    warm_seconds = per_call(ITERATIONS, lambda: client.get(url))
    floor_seconds = per_call(ITERATIONS, floor)
    return {
        "stands": raw.execute(FLOOR_SQL, [force.pk]).rowcount,
        "battalions": len(payload["battalions"]),
        "response_bytes": len(response.content),
        "floor_ms": round(floor_seconds * 1000, 3),
        "cold": _against(cold_seconds, floor_seconds),
        "warm": _against(warm_seconds, floor_seconds),
    }


def _against(endpoint_seconds: float, floor_seconds: float) -> dict[str, float]:
    return {
        "endpoint_ms": round(endpoint_seconds * 1000, 3),
        "ratio_to_floor": round(endpoint_seconds / floor_seconds, 2),
    }


@contextmanager
def gunicorn(app: str, env: dict[str, str], workers: int = GUNICORN_WORKERS) -> Iterator[int]:
    """``app`` served by gunicorn (``workers`` processes) on a free loopback port, stopped afterwards."""
    port = free_port()
    command = [
        str(BIN / "gunicorn"),
        app,
        f"--bind=127.0.0.1:{port}",
        f"--workers={workers}",
        "--worker-class=gthread",  # keeps connections alive, as the client expects
        "--threads=2",
        "--log-level=warning",
        # The app is loaded before the port opens, so the workers answer at once: on a busy
        # machine, workers each booting Django took 20 s, all of it in the measurement.
        "--preload",
    ]
    process = start_group(command, env)
    try:
        deadline = time.monotonic() + 30
        while not port_open("127.0.0.1", port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start {app}")
            time.sleep(0.1)
        yield port
    finally:
        stop_groups([process], grace=GUNICORN_STOP_SECONDS)


WRK = shutil.which("wrk")
WRK_RATE = re.compile(rb"^Requests/sec:\s+([\d.]+)", re.MULTILINE)
WRK_FAILURES = re.compile(rb"^\s*(Non-2xx or 3xx responses|Socket errors):.*$", re.MULTILINE)


def requests_per_second(
    port: int, path: str, headers: dict[str, str], seconds: float = HTTP_SECONDS
) -> float:
    """Polling requests/s of ``path`` over ``seconds`` after a second's warm-up: wrk's, else the
    Python clients'."""
    if WRK is None:
        return _python_clients(port, path, headers, seconds)
    url = f"http://127.0.0.1:{port}{path}"
    options = [f"--threads={WRK_THREADS}", f"--connections={WRK_CONNECTIONS}"]
    options += [f"--header={name}: {value}" for name, value in headers.items()]
    subprocess.run([WRK, *options, "--duration=1s", url], check=True, capture_output=True)
    output = subprocess.run(
        [WRK, *options, f"--duration={seconds:g}s", url], check=True, capture_output=True
    ).stdout
    failures = WRK_FAILURES.search(output)
    rate = WRK_RATE.search(output)
    if failures or rate is None or not float(rate.group(1)):
        raise RuntimeError(f"wrk GET {path}: {output.decode()}")
    return float(rate.group(1))


def _client_loop(port: int, path: str, headers: dict[str, str], seconds: float) -> int:
    """One keep-alive connection requesting ``path`` for ``seconds``: how many 200s it got."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    done = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"GET {path} answered {response.status}")
        done += 1
    conn.close()
    return done


def _default_signals() -> None:
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)


def _python_clients(port: int, path: str, headers: dict[str, str], seconds: float) -> float:
    # The clients die of a stop signal; the benchmark's own process cleans up.
    with multiprocessing.get_context("fork").Pool(WRK_CONNECTIONS, initializer=_default_signals) as pool:
        pool.starmap(_client_loop, [(port, path, headers, 1.0)] * WRK_CONNECTIONS)  # warm-up
        done = pool.starmap(_client_loop, [(port, path, headers, seconds)] * WRK_CONNECTIONS)
    return sum(done) / seconds


def over_http(url: str, client: Client, api_key: str) -> dict[str, Any]:
    accept = {"Accept": "application/json"}
    key_headers = {**accept, "Authorization": f"Api-Key {api_key}"}
    response = Client(HTTP_HOST="localhost").get(url, headers=key_headers)
    assert response.status_code == 200, response.content
    assert client.get(url).content == response.content  # the player's session sees the same
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    session_headers = {**accept, "Cookie": f"{settings.SESSION_COOKIE_NAME}={session}"}
    env = {**os.environ, "DATABASE_URL": worker_database_url()}
    connections.close_all()  # the client processes are forked: they must not share this socket
    with tempfile.TemporaryDirectory() as directory:
        body = Path(directory) / "force-status.json"
        body.write_bytes(response.content)
        same_bytes = {**env, "BENCH_BODY_FILE": str(body), "BENCH_CONTENT_TYPE": response["Content-Type"]}
        load = load_average()
        plain_env = {**same_bytes, "DJANGO_SETTINGS_MODULE": "tests.benchmarks.plain_view"}
        with (
            gunicorn("config.wsgi:application", env, HTTP_WORKERS) as port,
            gunicorn("config.wsgi:application", plain_env, HTTP_WORKERS) as plain_port,
        ):
            session_rps = requests_per_second(port, url, session_headers)
            rounds = [
                (
                    requests_per_second(port, url, key_headers, HTTP_ROUND_SECONDS),
                    requests_per_second(plain_port, url, key_headers, HTTP_ROUND_SECONDS),
                )
                for _ in range(HTTP_ROUNDS)
            ]
        key_rps, plain_rps = sorted(rounds, key=lambda pair: pair[0] / pair[1])[HTTP_ROUNDS // 2]
        with gunicorn("tests.benchmarks.bare_wsgi:application", same_bytes, HTTP_WORKERS) as port:
            bare_rps = requests_per_second(port, url, key_headers)
    return {
        "load_generator": f"wrk ({WRK_THREADS} threads, {WRK_CONNECTIONS} connections)"
        if WRK
        else f"{WRK_CONNECTIONS} Python http.client processes (wrk not found: make bench installs it)",
        "gunicorn_workers": HTTP_WORKERS,
        "response_bytes": len(response.content),
        "load_average": load,
        "api_key_requests_per_second": round(key_rps, 1),
        "session_requests_per_second": round(session_rps, 1),
        "plain_view_requests_per_second": round(plain_rps, 1),
        "api_key_and_plain_view_rounds": [[round(key, 1), round(plain, 1)] for key, plain in rounds],
        "bare_wsgi_requests_per_second": round(bare_rps, 1),
    }


def main() -> int:
    with own_services("force_status"):
        force, player = division()
        _, api_key = api_key_create(force.campaign_id, BENCH, name="bench poller", side_id=force.side_id)
        client = Client(HTTP_HOST="localhost")  # in ALLOWED_HOSTS, as "testserver" is not
        client.force_login(player)
        url = reverse(
            "api:force-force-status", kwargs={"campaign_slug": force.campaign.slug, "pk": force.public_id}
        )
        process_load = load_average()
        process = in_process(url, client, force)
        http = over_http(url, client, api_key)
    generator = "wrk" if WRK else "Python clients: wrk not found"
    figures = [
        Figure(
            "API-key poll, requests/s",
            http["api_key_requests_per_second"],
            http["plain_view_requests_per_second"],
            "req/s",
            at_least=0.5,
            load_average=http["load_average"],
            note=f"floor: a plain Django view, same bytes and middleware; {generator}",
        ),
        Figure(
            "load generator headroom, requests/s",
            http["bare_wsgi_requests_per_second"],
            http["plain_view_requests_per_second"],
            "req/s",
            at_least=2.0,
            load_average=http["load_average"],
            note="a bare WSGI app against the plain view: the generator is not the bottleneck",
        ),
        Figure(
            "in-process warm poll",
            process["warm"]["endpoint_ms"],
            process["floor_ms"],
            "ms",
            at_most=2.0,
            load_average=process_load,
            note="floor: the raw query and orjson of the payload",
        ),
    ]
    report("force_status", figures, {"in_process": process, "http": http})
    return 0


if __name__ == "__main__":
    sys.exit(main())
