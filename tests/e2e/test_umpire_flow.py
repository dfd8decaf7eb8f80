"""The umpire's club night in a real browser: sign in, report a battle, run the
night phase on a real worker and read the replacements in the night report."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from campaign import models
from campaign.choices import BattleStatus, OperationStatus, StandStatus
from tests.conftest import WorkerProcess, worker_database_url
from tests.e2e.conftest import Tab, sign_in
from tests.e2e.demo import SECTOR, malta_day_one
from tests.tiers import needs

# The demo names reference equipment, which an earlier transactional test's flush removed.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]


@pytest.fixture(scope="module")
@needs("worker")
def slow_worker(django_db_setup: None, redis_client) -> Iterator[WorkerProcess]:
    """A worker that pauses between steps, so the progress bar has steps to show."""
    worker = WorkerProcess(worker_database_url(), {"OPERATION_STEP_PAUSE": "0.3"})
    try:
        worker.wait_ready()
        yield worker
    finally:
        worker.stop()


def test_the_umpire_reports_a_battle_and_runs_the_night_phase(live_server, slow_worker, tab: Tab):
    campaign = malta_day_one()
    page = tab.page

    sign_in(tab, live_server.url, "umpire")
    page.get_by_role("link", name=campaign.name).click()
    expect(page.get_by_role("heading", name=campaign.name)).to_be_visible()
    expect(page.get_by_text("Next club night")).to_be_visible()
    # Words, never codes: the timeline says the day once, the segment by its label.
    start = campaign.start_date
    timeline = page.locator("ol.timeline")
    expect(timeline).to_contain_text(f"Day 1 Dawn on {start.day} {start:%B %Y}")
    expect(timeline).to_contain_text("Morning begins:")
    expect(timeline).not_to_contain_text("Day 1 Day 1")
    tab.shot("dashboard")

    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Battles").click()
    page.get_by_role("link", name=SECTOR).click()
    expect(page.get_by_role("heading", name="1943 set-up")).to_be_visible()
    expect(page.locator(".setup dt").first).to_be_visible()  # the set-up rolls' results
    tab.shot("battle")

    g1 = page.get_by_role("group", name="Battalion G1")
    g1.get_by_label("1. Kp").select_option("destroyed")
    g1.get_by_label("Barrage rounds fired").fill("-1")
    page.get_by_role("button", name="Submit report").click()
    rounds = g1.get_by_label("Barrage rounds fired")
    expect(rounds).to_have_attribute("aria-invalid", "true")
    expect(rounds).to_have_accessible_description("Ensure this value is greater than or equal to 0.")
    tab.shot("report-field-error")
    assert (
        models.Battle.objects.get(sector__name=SECTOR).status == BattleStatus.SET_UP
    )  # nothing half-written

    rounds.fill("")
    g1.get_by_label("Activation points spent").fill("1")
    page.get_by_role("button", name="Submit report").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Reported")
    expect(page.get_by_role("listitem").filter(has_text="G1: destroyed 1. Kp")).to_contain_text(
        "activation points 1"
    )
    expect(page.get_by_role("form", name="Battle report")).to_have_count(0)  # reported: no second report
    tab.shot("reported")
    assert models.Battle.objects.get(sector__name=SECTOR).status == BattleStatus.REPORTED
    destroyed = models.Stand.objects.get(battalion__campaign=campaign, battalion__code="G1", label="1. Kp")
    assert destroyed.status == StandStatus.DESTROYED

    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Night phase").click()
    page.get_by_role("button", name="Start the night phase of day 1…").click()
    confirm = page.get_by_role("alertdialog", name="Start the night phase of day 1?")
    expect(confirm).to_contain_text("cannot be undone")
    confirm.get_by_role("button", name="Start the night phase of day 1").click()
    progress = page.get_by_role("progressbar")
    expect(progress).to_be_visible()
    tab.shot("night-started")
    expect(progress).to_have_accessible_name("Night phase of day 1: done", timeout=120_000)
    operation = models.Operation.objects.get(campaign=campaign, kind="night_phase")
    assert operation.status == OperationStatus.DONE
    expect(progress).to_have_attribute("value", str(len(operation.steps)))

    axis_report = page.get_by_role("article", name="Night report of Axis, day 1")
    expect(axis_report).to_be_visible()
    replacement = models.RollRecord.objects.filter(
        campaign=campaign, procedure="gb.night_replacements", battalion__code="G1"
    ).first()
    assert replacement is not None
    expect(axis_report.get_by_text(replacement.line, exact=True)).to_be_visible()
    body = models.NightReport.objects.get(operation=operation, side__is_axis=True).body
    expect(axis_report).to_contain_text(
        f"{body['replacements_returned']} of {body['replacements_due']} destroyed stands returned"
    )
    tab.shot("night-report")
