"""First-load benchmark (`make bench`): the web app's dashboard opened on a club's phone,
against a static page of the same size from the same server.

The demo campaign in the middle of day 1, its Axis player signed in, a browser with an
empty cache: Debian's Chromium (as tests/e2e drive it) with the network of a slow phone
(DevTools' throttling: :data:`RTT_MS` a request, :data:`DOWN_KBPS` down, :data:`UP_KBPS`
up) and its CPU :data:`CPU_SLOWDOWN` times slower. Gunicorn serves the service as production
does: the build collected by the manifest storage, compressed copies sent to a browser that
accepts them, index.html from the view.

- **Dashboard**: from the navigation's start until the dashboard stands complete (its
  heading shown and no loading state left: the code fetched and run, the API read).
- **Floor**: from the navigation's start until the load event of a static page, served by
  whitenoise from the same collected files, that weighs on the wire what the dashboard's load
  did (HTML, stylesheet, scripts and API answers together): the dashboard's own markup and
  stylesheet with incompressible filler in place of the code and the data.

Loads alternate between the two, :data:`LOADS` of each in fresh browser contexts; medians.
"""

from __future__ import annotations

import base64
import gzip
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import django

from tests.benchmarks.isolation import own_services

django.setup()

from django.conf import settings  # noqa: E402
from django.test import Client  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from whitenoise.compress import Compressor  # type: ignore[import-untyped]  # noqa: E402

from devstack import frontend_build  # noqa: E402
from devstack.launcher import BIN  # noqa: E402
from tests.benchmarks.figures import Figure, load_average, report  # noqa: E402
from tests.benchmarks.force_status import gunicorn  # noqa: E402
from tests.conftest import worker_database_url  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE_SIZE  # noqa: E402
from tests.e2e.demo import malta_day_one  # noqa: E402

RTT_MS = 150
DOWN_KBPS = 1600
UP_KBPS = 750
CPU_SLOWDOWN = 4
LOADS = 5
PLAYER = "axis"
FLOOR_NAME = "first-load-floor.html"
# The dashboard is complete: the campaign's name heads it and no part of it is still loading.
DASHBOARD_COMPLETE = """name => document.querySelector('main h1')?.textContent === name
    && !document.querySelector('.loading') && performance.now()"""
FLOOR_LOADED = "() => performance.getEntriesByType('navigation')[0].loadEventEnd || false"
SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>|<link\b[^>]*modulepreload[^>]*>", re.DOTALL)


class Load:
    """One page load in a fresh context on the slow phone: its milliseconds and its bytes on
    the wire (headers included)."""

    def __init__(self, browser: Browser, url: str, session: str | None) -> None:
        context = browser.new_context(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
        if session:
            name = settings.SESSION_COOKIE_NAME
            context.add_cookies([{"name": name, "value": session, "domain": "127.0.0.1", "path": "/"}])
        self.context = context
        self.page: Page = context.new_page()
        self.wire_bytes: dict[str, int] = {}
        urls: dict[str, str] = {}
        cdp = context.new_cdp_session(self.page)
        cdp.on(
            "Network.requestWillBeSent",
            lambda event: urls.update({event["requestId"]: event["request"]["url"]}),
        )
        cdp.on(
            "Network.loadingFinished",
            lambda event: self.wire_bytes.update(
                {urls.get(event["requestId"], event["requestId"]): int(event["encodedDataLength"])}
            ),
        )
        cdp.send("Network.enable")
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": RTT_MS,
                "downloadThroughput": DOWN_KBPS * 1000 / 8,
                "uploadThroughput": UP_KBPS * 1000 / 8,
            },
        )
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        self.url = url

    def until(self, done: str, arg: str | None = None) -> float:
        """Milliseconds from the navigation's start until ``done`` (a JavaScript function of
        ``arg``) returns a number; then until the network is idle, every byte counted."""
        self.page.goto(self.url, wait_until="commit")
        waited = self.page.wait_for_function(done, arg=arg, polling="raf", timeout=120_000)
        milliseconds = float(waited.json_value())
        self.page.wait_for_load_state("networkidle")
        return milliseconds

    @property
    def total_bytes(self) -> int:
        return sum(self.wire_bytes.values())


def timed(load: Load, done: str, arg: str | None = None) -> float:
    try:
        return load.until(done, arg)
    finally:
        load.context.close()


def collect_static(root: Path, env: dict[str, str]) -> None:
    """The build and every app's static files, collected as production collects them."""
    frontend_build.build()
    subprocess.run(
        [str(BIN / "python"), "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=frontend_build.ROOT,
        env=env,
        check=True,
    )


def floor_page(markup: str, wire_bytes: int) -> bytes:
    """The dashboard's markup without its scripts, padded with incompressible filler until
    its gzip weighs ``wire_bytes`` (brotli packs such filler no better)."""
    page = SCRIPT.sub("", markup)
    head, tail = page.split("</body>", 1)
    filler = base64.b64encode(os.urandom(wire_bytes)).decode()
    low, high = 0, len(filler)
    while low < high:  # the longest filler whose page stays within wire_bytes gzipped
        middle = (low + high + 1) // 2
        candidate = f"{head}<!-- {filler[:middle]} --></body>{tail}".encode()
        if len(gzip.compress(candidate, 9)) <= wire_bytes:
            low = middle
        else:
            high = middle - 1
    return f"{head}<!-- {filler[:low]} --></body>{tail}".encode()


def write_floor(root: Path, content: bytes) -> None:
    path = root / FLOOR_NAME
    path.write_bytes(content)
    for _ in Compressor(quiet=True).compress(str(path)):  # its gzip and brotli copies
        pass


@contextmanager
def chromium() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def measure() -> dict[str, Any]:
    campaign = malta_day_one()
    client = Client(HTTP_HOST="localhost")
    client.force_login(campaign.memberships.get(user__username=PLAYER).user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        env = {
            **os.environ,
            "DATABASE_URL": worker_database_url(),
            "DJANGO_SETTINGS_MODULE": "tests.benchmarks.served_build",
            "BENCH_STATIC_ROOT": str(root),
        }
        collect_static(root, env)
        with chromium() as browser:
            # What the dashboard weighs on the wire, and its markup: the floor is made of them.
            with gunicorn("config.wsgi:application", env) as port:
                dashboard_url = f"http://127.0.0.1:{port}/campaigns/{campaign.slug}"
                first = Load(browser, dashboard_url, session)
                try:
                    first.until(DASHBOARD_COMPLETE, campaign.name)
                    markup = first.page.content()
                finally:
                    first.context.close()
            # The floor loads the same stylesheet: its own page makes up the rest.
            stylesheets = sum(size for url, size in first.wire_bytes.items() if url.endswith(".css"))
            write_floor(root, floor_page(markup, first.total_bytes - stylesheets))
            load = load_average()
            dashboard: list[Load] = []
            floor: list[Load] = []
            dashboard_ms: list[float] = []
            floor_ms: list[float] = []
            with gunicorn("config.wsgi:application", env) as port:
                dashboard_url = f"http://127.0.0.1:{port}/campaigns/{campaign.slug}"
                floor_url = f"http://127.0.0.1:{port}/static/{FLOOR_NAME}"
                for _ in range(LOADS):
                    dashboard.append(Load(browser, dashboard_url, session))
                    dashboard_ms.append(timed(dashboard[-1], DASHBOARD_COMPLETE, campaign.name))
                    floor.append(Load(browser, floor_url, None))
                    floor_ms.append(timed(floor[-1], FLOOR_LOADED))
            load = max(load, load_average())
    scripts = {url: size for url, size in dashboard[-1].wire_bytes.items() if url.endswith(".js")}
    return {
        "network": {"rtt_ms": RTT_MS, "down_kbps": DOWN_KBPS, "up_kbps": UP_KBPS},
        "cpu_slowdown": CPU_SLOWDOWN,
        "loads": LOADS,
        "load_average": load,
        "dashboard_ms": [round(ms, 1) for ms in dashboard_ms],
        "floor_ms": [round(ms, 1) for ms in floor_ms],
        "dashboard_wire_bytes": statistics.median(each.total_bytes for each in dashboard),
        "floor_wire_bytes": statistics.median(each.total_bytes for each in floor),
        "dashboard_requests": len(dashboard[-1].wire_bytes),
        "script_wire_bytes": sum(scripts.values()),
        "wire_bytes_by_url": dashboard[-1].wire_bytes,
    }


def main() -> int:
    if not CHROMIUM.exists():
        print(f"first_load: skipped, {CHROMIUM} is missing (Debian's chromium package)")
        return 1
    with own_services("first_load"):
        details = measure()
    kilobytes = details["dashboard_wire_bytes"] / 1024
    scripts = details["script_wire_bytes"] / 1024
    figures = [
        Figure(
            "dashboard's first load on a slow phone",
            statistics.median(details["dashboard_ms"]),
            statistics.median(details["floor_ms"]),
            "ms",
            at_most=2.0,
            load_average=details["load_average"],
            note=(
                f"floor: a static page of the same {kilobytes:,.0f} KB on the wire; {RTT_MS} ms RTT, "
                f"{DOWN_KBPS / 1000:g} Mbps, CPU ×{CPU_SLOWDOWN}; "
                f"{scripts:,.0f} KB of scripts in {details['dashboard_requests']} requests"
            ),
        )
    ]
    report("first_load", figures, details)
    return 0


if __name__ == "__main__":
    sys.exit(main())
