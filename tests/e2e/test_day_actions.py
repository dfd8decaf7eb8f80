"""The day's buttons are the campaign's actions, in a real browser at desk and phone width: the
umpire opens every segment of a day and "Open the next segment" goes with the last one; a day page
left open sees a night run elsewhere finish and offers the dawn, without a reload."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, expect

from campaign import models
from campaign.services.audit import Actor
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from rules_engine.vocab import PLAYED_DAY_SEGMENTS, label_of
from tests.e2e.conftest import DESKTOP, PHONE, open_tab, sign_in
from tests.e2e.demo import malta_day_one

# The demo names reference equipment, which an earlier transactional test's flush removed.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

WIDTHS: dict[str, dict[str, Any]] = {
    "1280": {"viewport": DESKTOP},
    "390": {"viewport": PHONE, "is_mobile": True, "has_touch": True},
}
# The summary is asked again every 20 s (frontend/src/api/campaign.ts): a night finished elsewhere
# shows within one interval. The test moves the page's clock past it rather than wait 20 s.
POLL_INTERVAL_PASSED = "00:21"


@pytest.mark.parametrize("width", list(WIDTHS))
def test_after_the_last_segment_none_is_offered(live_server, browser: Browser, request, width):
    campaign = malta_day_one(battle=False)
    opened = models.DaySegmentRecord.objects.filter(day__campaign=campaign, day__number=1).count()
    tabs = open_tab(browser, request, **WIDTHS[width])
    tab = next(tabs)
    page = tab.page

    sign_in(tab, live_server.url, "umpire")
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/day")
    advance = page.get_by_role("button", name="Open the next segment")
    for segment in PLAYED_DAY_SEGMENTS[opened:]:
        # The button moves down as what is above it comes (the day's table, its rolls): a click
        # while it moves lands elsewhere (seen once at 390 px), so everything has come first.
        expect(page.locator(".loading")).to_have_count(0)
        expect(advance).to_be_visible()
        advance.click()
        label = label_of(segment)
        expect(page.get_by_role("table", name="Segments")).to_contain_text(label)
        expect(page.get_by_text(f"· {label}:").first).to_be_visible()  # its rolls, listed
    tab.shot(f"last-segment-{width}")

    # The last segment is open: the night comes next, and no page offers another segment.
    expect(advance).to_have_count(0)
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Dashboard").click()
    expect(page.get_by_role("heading", name="Umpire")).to_be_visible()
    expect(page.get_by_role("button", name="Open the next segment")).to_have_count(0)
    tab.shot(f"dashboard-after-the-last-segment-{width}")
    assert models.DaySegmentRecord.objects.filter(day__campaign=campaign, day__number=1).count() == len(
        PLAYED_DAY_SEGMENTS
    )
    next(tabs, None)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_day_page_left_open_sees_the_night_end(live_server, browser: Browser, request, width):
    campaign = malta_day_one(battle=False)
    tabs = open_tab(browser, request, **WIDTHS[width])
    tab = next(tabs)
    page = tab.page
    page.clock.install()
    sign_in(tab, live_server.url, "umpire")
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/day")
    expect(page.get_by_role("heading", name="Day 1: under way")).to_be_visible()
    expect(page.get_by_role("button", name="Open the next segment")).to_be_visible()
    tab.shot(f"day-under-way-{width}")

    # The night runs from elsewhere (another umpire's tab, the club's schedule), here through the
    # services and to its end while the page stays as it is.
    umpire = Actor(user=get_user_model().objects.get(username="umpire"), request_id="e2e-elsewhere")
    operation_run(night_phase_start(campaign.pk, umpire).pk)

    page.clock.fast_forward(POLL_INTERVAL_PASSED)
    expect(page.get_by_role("heading", name="Dawn of day 2")).to_be_visible()
    expect(page.get_by_role("heading", name="Day 1: over")).to_be_visible()
    expect(page.get_by_role("button", name="Open the next segment")).to_have_count(0)
    tab.shot(f"night-seen-{width}")
    next(tabs, None)
