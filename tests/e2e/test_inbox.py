"""Issue 17's notifications in the web app: the Axis player is told of the battle the umpire
assigned them and, once the worker has run the night, that its report is ready; the header's
bell counts them, the inbox lists them with their pages, opening one and marking the other
read empties the bell. Every step is screenshotted at 1280 and 390 px, and every page checked
for sideways scrolling and by axe-core."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import ViewportSize, expect

from campaign import models
from campaign.choices import NotificationKind
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.night import night_phase_start
from tests.conftest import WorkerProcess
from tests.e2e.conftest import PHONE, Tab, sign_in
from tests.e2e.demo import SECTOR, malta_day_one
from tests.e2e.quality import assert_page_quality

# The demo names reference equipment, which an earlier transactional test's flush removed.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

DESKTOP = ViewportSize(width=1280, height=900)
PHONE_SIZE = ViewportSize(width=PHONE["width"], height=PHONE["height"])
NIGHT_TIMEOUT = 120.0


def step(tab: Tab, name: str) -> None:
    """The page checked and screenshotted on a desktop, then on a phone."""
    page = tab.page
    page.wait_for_load_state("networkidle")
    for size, suffix in ((DESKTOP, "1280"), (PHONE_SIZE, "390")):
        page.set_viewport_size(size)
        assert_page_quality(page)
        tab.shot(f"{name}-{suffix}")
    page.set_viewport_size(DESKTOP)


def night_reported(campaign: models.Campaign) -> None:
    """Day 1's battle reported and its night run by the worker, which then tells the members."""
    umpire = Actor(user=get_user_model().objects.get(username="umpire"), request_id="e2e-inbox")
    battle = models.Battle.objects.get(campaign=campaign)
    battle_report(campaign.pk, umpire, battle.pk, {"battalions": [{"code": "G1"}, {"code": "W1"}]})
    night_phase_start(campaign.pk, umpire)
    deadline = time.monotonic() + NIGHT_TIMEOUT
    told = models.Notification.objects.filter(campaign=campaign, kind=NotificationKind.NIGHT_REPORT_READY)
    while not told.filter(recipient__username="axis").exists():
        assert time.monotonic() < deadline, "the worker did not tell the members of the night report"
        time.sleep(0.5)


def test_a_player_reads_and_marks_their_notifications(live_server, celery_worker: WorkerProcess, tab: Tab):
    campaign = malta_day_one(battle=True)
    night_reported(campaign)
    page = tab.page
    bell = page.get_by_role("banner").get_by_role("link", name="Inbox", exact=False)

    sign_in(tab, live_server.url, "axis")
    expect(bell).to_have_accessible_name("Inbox 2 unread")
    step(tab, "bell")

    bell.click()
    expect(page.get_by_role("heading", name="Inbox")).to_be_visible()
    battle_note = page.locator("li.notification", has_text=f"Battle at {SECTOR} on day 1")
    night_note = page.locator("li.notification", has_text="Night report, day 1")
    expect(battle_note).to_contain_text("Battle assigned to you")
    expect(battle_note).to_contain_text("Your battalions: G1.")
    expect(battle_note).not_to_contain_text("W1")  # the Allied battalion is the fog of war's
    expect(night_note).to_contain_text("Night report ready")
    expect(night_note).to_contain_text("Axis — night of day 1")
    expect(night_note).not_to_contain_text("Allied — night of day 1")
    step(tab, "inbox")

    # Opening one leads to its page and marks it read.
    battle_note.get_by_role("link", name=f"Battle at {SECTOR} on day 1").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(SECTOR)
    expect(bell).to_have_accessible_name("Inbox 1 unread")
    step(tab, "battle-opened")

    bell.click()
    night_note.get_by_role("button", name="Mark read: Night report, day 1").click()
    expect(page.get_by_role("button", name="Mark read", exact=False)).to_have_count(0)
    expect(bell).to_have_accessible_name("Inbox")
    step(tab, "all-read")
    assert not models.Notification.objects.filter(recipient__username="axis", read_at__isnull=True).exists()

    night_note.get_by_role("link", name="Night report, day 1").click()
    expect(page).to_have_url(f"{live_server.url}/campaigns/{campaign.slug}/night")
    step(tab, "night-report")
