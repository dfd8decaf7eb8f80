"""Browser tests: Debian's Chromium driven by Python Playwright against a live
server (pytest-django's ``live_server``) and a real Celery worker.

Never a downloaded browser: without /usr/bin/chromium (or without a built web
app) these tests skip, and under CI=true a skip fails the run."""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, Request, Response, ViewportSize, expect, sync_playwright

from tests.e2e.quality import assert_page_quality
from tests.tiers import needs

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# How long an assertion waits for the page to reach what it expects (Playwright's default is
# 5 s): a page that never gets there still fails, one slowed by a loaded CI machine passes.
expect.set_options(timeout=15_000)

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = ViewportSize(width=1280, height=900)
PHONE_SIZE = ViewportSize(width=PHONE["width"], height=PHONE["height"])


@pytest.fixture(scope="session")
def built_web_app() -> None:
    if not settings.STATICFILES_DIRS:
        pytest.skip("the web app is not built (frontend/dist): `make test` builds it")


@pytest.fixture(scope="package")
@needs("browser")
def chromium(built_web_app: None) -> Iterator[Browser]:
    """One Chromium for the browser tests run one after the other (pytest tears it down when
    the process moves to another package); each test has a context of its own (no cookie,
    storage or cache of another test's).

    Playwright's sync API keeps an event loop running in this thread while it is open, which
    Django would take for an async context: the ORM calls meanwhile (the tests' own, and
    pytest-django's set-up and flush) are allowed, since they are synchronous."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is missing: apt-get install -y --no-install-recommends chromium")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield browser
            browser.close()


@pytest.fixture
def browser(chromium: Browser, transactional_db: None) -> Browser:
    """Chromium for a test on a live server's (transactional) database."""
    return chromium


@dataclass
class Tab:
    """A browser page, the API responses it received, and numbered screenshots of one test."""

    page: Page
    name: str
    api_bodies: list[tuple[str, Any]] = field(default_factory=list)
    shots: int = 0
    # Every API request: "METHOD path -> status" once answered, for a failure's diagnosis.
    api_requests: dict[Request, str] = field(default_factory=dict)

    def shot(self, step: str) -> Path:
        self.shots += 1
        path = ARTIFACTS / f"{self.name}-{self.shots:02d}-{step}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def record(self, response: Response) -> None:
        self.answered(response.request, str(response.status))
        if "/api/" in response.url and "json" in response.headers.get("content-type", ""):
            self.api_bodies.append((response.url, json.loads(response.body())))

    def sent(self, request: Request) -> None:
        if "/api/" in request.url:
            self.api_requests[request] = (
                f"{request.method} {request.url.partition('/api/')[2]} -> no answer yet"
            )

    def answered(self, request: Request, outcome: str) -> None:
        if request in self.api_requests:
            self.api_requests[request] = self.api_requests[request].replace("no answer yet", outcome)

    def failed(self, request: Request) -> None:
        self.answered(request, f"failed: {request.failure}")

    def diagnosis(self) -> str:
        """What a failed test's page showed and asked: its address, its text, its last API
        requests (a CI log keeps no screenshot)."""
        try:
            text = self.page.locator("body").inner_text(timeout=2_000)
        except Exception as error:  # a page too broken to read says why
            text = f"(unreadable: {error})"
        requests = "\n".join(list(self.api_requests.values())[-15:])
        return (
            f"at {self.page.url}\n--- its text ---\n{text[:2_000]}\n--- its last API requests ---\n"
            + requests
        )


def open_tab(browser: Browser, request: pytest.FixtureRequest, **context: Any) -> Iterator[Tab]:
    ARTIFACTS.mkdir(exist_ok=True)
    browser_context = browser.new_context(**context)
    page = browser_context.new_page()
    page.set_default_timeout(30_000)
    tab = Tab(page, re.sub(r"\W+", "-", request.node.name).strip("-"))
    page.on("response", tab.record)
    page.on("request", tab.sent)
    page.on("requestfailed", tab.failed)
    request.node.stash.setdefault(TABS_KEY, []).append(tab)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield tab
    finally:
        browser_context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


TABS_KEY = pytest.StashKey[list[Tab]]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed browser test's report says what each of its tabs showed and asked."""
    report = yield
    if report.when == "call" and report.failed:
        for tab in item.stash.get(TABS_KEY, []):
            report.sections.append((f"browser tab {tab.name}", tab.diagnosis()))
    return report


@pytest.fixture
def tab(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Tab]:
    yield from open_tab(browser, request, viewport={"width": 1280, "height": 900})


@pytest.fixture
def phone_tab(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Tab]:
    yield from open_tab(browser, request, viewport=PHONE, is_mobile=True, has_touch=True)


def sign_in(tab: Tab, base_url: str, username: str) -> None:
    """Through the sign-in page, as a person would (the demo's passwords equal the names)."""
    tab.page.goto(f"{base_url}/")
    tab.page.get_by_label("Username").fill(username)
    tab.page.get_by_label("Password").fill(username)
    tab.shot("sign-in")
    tab.page.get_by_role("button", name="Sign in").click()
    tab.page.get_by_role("heading", name="Your campaigns").wait_for()


@pytest.fixture
def phones(browser: Browser, request: pytest.FixtureRequest) -> Iterator[dict[str, Tab]]:
    """Each player (Axis and Allied) in a phone-sized window of their own."""
    opened = {
        side: open_tab(browser, request, viewport=PHONE, is_mobile=True, has_touch=True)
        for side in ("axis", "allied")
    }
    tabs = {side: next(generator) for side, generator in opened.items()}
    for side, tab in tabs.items():
        tab.name += f"-{side}"
    yield tabs
    for generator in opened.values():
        next(generator, None)


def step(tab: Tab, name: str, first: ViewportSize = DESKTOP) -> None:
    """The page checked and screenshotted at both widths, ending at ``first``'s."""
    page = tab.page
    page.wait_for_load_state("networkidle")
    sizes = [(DESKTOP, "1280"), (PHONE_SIZE, "390")]
    for size, suffix in sizes if first == DESKTOP else reversed(sizes):
        page.set_viewport_size(size)
        # Two frames: the page's resize observers (a chart's container) have drawn it at the new width.
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        assert_page_quality(page)
        tab.shot(f"{name}-{suffix}")
    page.set_viewport_size(first)
