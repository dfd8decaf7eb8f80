"""Shared fixtures: real PostgreSQL and Redis from the environment, and a real
Celery worker process for the tests that need one."""

from __future__ import annotations

import importlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.conf import settings
from pytest_django import DjangoDbBlocker
from pytest_django.plugin import blocking_manager_key

pytest.register_assert_rewrite("tests.tiers")  # imported below, before pytest loads it as a plugin
pytest_plugins = ("tests.tiers", "tests.shared_rows")

from tests.tiers import is_slow_tier, needs  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _database_url(database: dict[str, object]) -> str:
    host = str(database.get("HOST") or "")
    host = quote(host, safe="") if host.startswith("/") else host
    port = f":{database['PORT']}" if database.get("PORT") else ""
    return f"postgres://{database.get('USER') or ''}@{host}{port}/{database['NAME']}"


class WorkerProcess:
    """A ``celery worker`` child process against the test database and broker; with ``beat``,
    Celery beat runs inside it (its schedule file in a directory of its own).

    A worker started by a test of its own (a kill or outage drill, other settings) must be alone
    on the queues: starting one stops the run's shared worker (:class:`SharedWorker`) first,
    unless its queues are named from a default queue of its own (``CELERY_QUEUE`` in
    ``settings_env``)."""

    running: set[WorkerProcess] = set()  # the ones not stopped, for :meth:`all_idle_wait`

    def __init__(
        self,
        database_url: str,
        settings_env: Mapping[str, str] | None = None,
        concurrency: int | None = 1,
        beat: bool = False,
        shared: bool = False,
        queues: str | None = None,
    ) -> None:
        own_queues = (settings_env or {}).get("CELERY_QUEUE", settings.CELERY_TASK_DEFAULT_QUEUE)
        if not shared and own_queues == settings.CELERY_TASK_DEFAULT_QUEUE:
            SHARED_WORKER.stop()
        self.name = f"test-{os.getpid()}-{time.monotonic_ns()}@{socket.gethostname()}"
        self.beat_directory = tempfile.mkdtemp(prefix="celerybeat-") if beat else None
        beat_options = ["--beat", "--schedule", f"{self.beat_directory}/schedule"] if beat else []
        # None: as make run and Compose start their workers, with no --concurrency.
        options = [*beat_options, *(["--concurrency", str(concurrency)] if concurrency else [])]
        options += ["-Q", queues] if queues else []
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            **(settings_env or {}),
        }
        self.on_run_broker = env.get("REDIS_URL", settings.REDIS_URL) == settings.REDIS_URL
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-l",
                "WARNING",
                "--pool",
                "prefork",
                "--without-gossip",
                "--without-mingle",
                "-n",
                self.name,
                *options,
            ],
            env=env,
            cwd=ROOT,
            start_new_session=True,
        )
        WorkerProcess.running.add(self)

    def wait_ready(self, timeout: float = 60) -> None:
        from config.celery_app import app

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"celery worker exited with {self.process.returncode}")
            if app.control.ping(destination=[self.name], timeout=0.5):
                return
        raise RuntimeError("celery worker did not answer a ping in time")

    @classmethod
    def all_idle_wait(cls) -> None:
        """The run's broker emptied (its tasks were sent for rows a flush takes away), then every
        worker on it idle (:meth:`idle_wait`). A worker on a test's private broker (an outage
        drill) is that test's to stop."""
        on_run_broker = [worker for worker in cls.running if worker.on_run_broker]
        if not on_run_broker:
            return
        broker = redis.Redis.from_url(settings.REDIS_URL)
        queues = list(settings.CELERY_QUEUE_NAMES.values())
        for _ in range(3):  # a task that ran meanwhile may have sent another
            broker.delete(*queues)
            for worker in on_run_broker:
                worker.idle_wait()
            if not broker.exists(*queues):
                return

    def idle_wait(self, timeout: float = 30) -> None:
        """Returns once the worker runs and holds no task; a task it keeps for later (a countdown)
        is revoked, and a worker still busy after ``timeout`` is stopped. A TRUNCATE while a task
        writes can deadlock with it, and the deadlock may fail a transactional test's flush (its
        rows left to the next test)."""
        from config.celery_app import app

        deadline = time.monotonic() + timeout
        inspect = app.control.inspect(destination=[self.name], timeout=1.0)
        while self.process.poll() is None:
            scheduled = (inspect.scheduled() or {}).get(self.name) or []
            if scheduled:
                app.control.revoke([task["request"]["id"] for task in scheduled], destination=[self.name])
            running = (inspect.active() or {}).get(self.name) or []
            if not running and not (inspect.reserved() or {}).get(self.name):
                return
            if time.monotonic() > deadline:
                self.stop()
                return
            time.sleep(0.05)

    def stop(self) -> None:
        WorkerProcess.running.discard(self)
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        if self.beat_directory:
            shutil.rmtree(self.beat_directory, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_client() -> redis.Redis:
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.ping()  # a missing Redis fails here, loudly: never a skip
    return client


def worker_database_url() -> str:
    """The URL of the test database, for worker processes."""
    from django.db import connection

    return _database_url(connection.settings_dict)


@dataclass(frozen=True)
class StockSchema:
    """What ``manage.py spectacular --validate --fail-on-warn`` made and said, as an operator
    types it (no --generator-class)."""

    command: subprocess.CompletedProcess[str]
    document: Path


@pytest.fixture(scope="session")
@needs("process")
def stock_schema(tmp_path_factory: pytest.TempPathFactory) -> StockSchema:
    """Generated once per test process for the tests that compare with it (the served schema,
    the web app's client)."""
    document = tmp_path_factory.mktemp("stock-schema") / "openapi.json"
    command = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "spectacular",
            "--validate",
            "--fail-on-warn",
            "--format",
            "openapi-json",
            "--file",
            str(document),
        ],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"},
        capture_output=True,
        text=True,
        check=False,
    )
    return StockSchema(command, document)


class SharedWorker:
    """The test run's Celery worker (one per pytest-xdist worker): started by the first test that
    needs it, kept for the next ones, stopped when a test starts a worker of its own."""

    def __init__(self) -> None:
        self.worker: WorkerProcess | None = None

    def running(self) -> WorkerProcess:
        if self.worker is None or self.worker.process.poll() is not None:
            self.worker = WorkerProcess(worker_database_url(), shared=True)
            self.worker.wait_ready()
        return self.worker

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.stop()
            self.worker = None


SHARED_WORKER = SharedWorker()


@pytest.fixture(scope="session")
def shared_worker(django_db_setup: None) -> Iterator[SharedWorker]:
    """Stopped before the test database is dropped (its connections would hold it)."""
    yield SHARED_WORKER
    SHARED_WORKER.stop()


@pytest.fixture
@needs("worker")
def celery_worker(shared_worker: SharedWorker, redis_client: redis.Redis) -> WorkerProcess:
    """The run's worker process on the test database, its queues emptied of what an earlier test
    left (a task sent for rows that test's rollback or flush took away)."""
    redis_client.delete(*settings.CELERY_QUEUE_NAMES.values())
    return shared_worker.running()


def _equipment_reference_load() -> None:
    from django.apps import apps

    from campaign.models import Equipment

    if not Equipment.objects.exists():
        migration = importlib.import_module("campaign.migrations.0002_equipment_reference_data")
        migration.equipment_load(apps, None)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> None:
    """The test database, with its reference rows even when kept (``--reuse-db``) from a run whose
    last transactional test flushed them."""
    with django_db_blocker.unblock():
        _equipment_reference_load()


@pytest.fixture
def equipment_reference(db: None) -> None:
    """A transactional test's own database starts flushed by the one before: the reference rows
    back (tests/e2e, and the tests that flush it themselves)."""
    _equipment_reference_load()


@pytest.fixture(autouse=True)
def _workers_idle_before_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """No worker process writes while a transactional test's database is flushed: after the
    test's other fixtures (its browser, its server's last requests) and before the flush, the
    queued tasks go (sent for rows the flush takes away) and the running ones end, including
    those of a worker the test did not ask for (the shared one, kept from an earlier test, takes
    what this test's server sent)."""
    if not _transactional(request.node):
        yield
        return
    request.getfixturevalue("transactional_db")  # set up first, so flushed after this waits
    yield
    WorkerProcess.all_idle_wait()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """A transactional test's flush takes the reference rows the migrations wrote: they come back
    at once, so that no later test depends on running before it (pytest-xdist orders tests as
    it pleases)."""
    try:
        return (yield)
    finally:
        # With no next test, the session's teardown has dropped the test database already.
        if _transactional(item) and nextitem is not None:
            with item.config.stash[blocking_manager_key].unblock():
                _equipment_reference_load()


def _transactional(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    return bool(
        (marker and marker.kwargs.get("transaction"))
        or "transactional_db" in fixtures
        or "live_server" in fixtures
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules with a browser, worker, process or fuzz test first: the long ones start early and
    the many short ones fill the end of a parallel run. In each module, the tests on a
    transactional database first: a module's shared rows (tests/shared_rows.py) keep a
    transaction open from their first test to the module's end."""
    modules: dict[str, tuple[bool, int]] = {}
    for index, item in enumerate(items):
        module = item.nodeid.split("::", 1)[0]
        slow, first = modules.get(module, (False, index))
        modules[module] = (slow or is_slow_tier(item), first)
    items.sort(
        key=lambda item: (
            not modules[item.nodeid.split("::", 1)[0]][0],
            modules[item.nodeid.split("::", 1)[0]][1],
            not _transactional(item),
        )
    )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI a skipped test is a missing service or tool: fail, never skip."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if os.environ.get("CI") == "true" and skipped and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
