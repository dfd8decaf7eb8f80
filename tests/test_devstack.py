"""`make run` (``python -m devstack run``) on its embedded PostgreSQL and Redis: every stop
signal stops everything it started, and players on the club's network reach it by the machine's
address."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from devstack.launcher import free_port, port_open
from devstack.network import lan_addresses
from tests.processes import alive, tree
from tests.tiers import needs

ROOT = Path(__file__).resolve().parent.parent
STOP_SECONDS = 10  # the acceptance: nothing the launcher started remains after 10 s
# Migrating and loading the demo on a fresh embedded server, on a busy two-core machine.
START_SECONDS = 300

pytestmark = [
    pytest.mark.timeout(START_SECONDS + 120),
    pytest.mark.skipif(
        not (ROOT / "frontend" / "dist" / "index.html").exists(),
        reason="the web app is not built (frontend/dist): `make test` builds it",
    ),
]


@dataclass
class Launcher:
    process: subprocess.Popen[bytes]
    port: int
    data: Path
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def postmaster_pid(self) -> int:
        return int((self.data / "postgres" / "postmaster.pid").read_text().split()[0])

    def started(self) -> set[tuple[int, str]]:
        """What the launcher started: its children (in their own sessions) and the embedded
        PostgreSQL server, which pg_ctl detached from it."""
        return tree([self.process.pid, self.postmaster_pid()])

    def get(self, url: str, host: str | None = None) -> int:
        request = urllib.request.Request(url, headers={"Host": host} if host else {})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return error.code


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One data directory for the module: the second launch reuses the migrated database."""
    return tmp_path_factory.mktemp("devstack")


@pytest.fixture
@needs("process")
def launcher(data_dir: Path) -> Iterator[Launcher]:
    """``make run`` on embedded servers in a temporary directory, healthy; killed if a test fails."""
    port = free_port()
    hidden = {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "ALLOWED_HOSTS", "PORT"}
    env = {k: v for k, v in os.environ.items() if k not in hidden}
    env |= {"DEVSTACK_DATA_DIR": str(data_dir), "PORT": str(port)}
    log = data_dir / f"launcher-{port}.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "devstack", "run"], cwd=ROOT, env=env, stdout=output, stderr=output
        )
    running = Launcher(process, port, data_dir, log)
    started: set[tuple[int, str]] = set()
    try:
        deadline = time.monotonic() + START_SECONDS
        while "Press Ctrl-C to stop." not in running.output():
            assert process.poll() is None, f"the launcher exited:\n{running.output()}"
            assert time.monotonic() < deadline, f"not running after {START_SECONDS} s:\n{running.output()}"
            time.sleep(0.5)
        started = running.started()
        yield running
    finally:
        for pid, _ in alive(started | tree([process.pid])):  # only after a failure
            with contextlib.suppress(ProcessLookupError):  # gone since alive() looked
                os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
        process.wait()


def assert_stops_everything(launcher: Launcher, signum: signal.Signals) -> None:
    started = launcher.started()
    names = {Path(f"/proc/{pid}/comm").read_text().strip() for pid, _ in started}
    assert {"python", "postgres", "redis-server"} <= names | {"python3"}, names
    assert len(started) >= 9, started  # launcher, web, two workers and their pools, beat, Redis, PostgreSQL's

    sent = time.monotonic()
    launcher.process.send_signal(signum)
    while alive(started) and time.monotonic() - sent < STOP_SECONDS:
        time.sleep(0.2)
    launcher.process.wait(timeout=1)

    remaining = {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid, _ in alive(started)}
    assert not remaining, f"still running {STOP_SECONDS} s after {signum.name}: {remaining}"
    assert not port_open("127.0.0.1", launcher.port)
    assert not (launcher.data / "postgres" / "postmaster.pid").exists()  # a clean shutdown
    assert f"Stopped by {signum.name}." in launcher.output()


def test_sigterm_stops_the_servers_the_worker_beat_and_the_embedded_databases(launcher):
    assert launcher.get(f"http://127.0.0.1:{launcher.port}/healthz") == 200
    assert_stops_everything(launcher, signal.SIGTERM)


def test_players_on_the_club_network_reach_it_and_sighup_stops_everything(launcher):
    addresses = lan_addresses()
    for host in [socket.gethostname(), *addresses]:
        status = launcher.get(f"http://127.0.0.1:{launcher.port}/healthz", host=f"{host}:{launcher.port}")
        assert status == 200, host
    if addresses:  # over the network interface itself, as a player's phone connects
        assert launcher.get(f"http://{addresses[0]}:{launcher.port}/healthz") == 200
        assert f"http://{addresses[0]}:{launcher.port}/" in launcher.output()
    assert "umpire / umpire, axis / axis, allied / allied" in launcher.output()

    assert_stops_everything(launcher, signal.SIGHUP)  # the terminal that ran `make run` closed
