"""Issue 31's acceptance for dice rolled at the table, in Debian's Chromium against a live server:
the club lets players roll a battle's set-up proximity at the table; the Allied player rolls it,
enters the face on the battle's page, the roll log shows it as a table roll, and once the night
reveals the day `python -m rules_engine verify` reports it as entered, not replayed."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect
from rest_framework.test import APIClient

from campaign import models
from campaign.choices import BattleStatus
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.corrections import object_correct
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from rules_engine.verify import verify
from tests.e2e.conftest import Tab, step
from tests.e2e.demo import gudja_battle, malta_day_one
from tests.e2e.quality import assert_page_quality
from tests.e2e.test_battle_drafts import open_battle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]


def test_a_player_rolls_the_set_up_at_the_table_and_the_roll_log_and_verify_say_so(
    live_server, tab: Tab, django_capture_on_commit_callbacks
) -> None:
    campaign = malta_day_one(battle=False)
    umpire = Actor(user=get_user_model().objects.get(username="umpire"), request_id="e2e-table")
    object_correct(campaign, umpire, changes={"table_dice": ({}, {"n43.setup_proximity": "players"})})
    battle = gudja_battle(campaign, umpire)
    page = tab.page

    open_battle(tab, live_server.url, campaign, "allied")
    form = page.get_by_role("form", name="Battle set-up")
    proximity = form.get_by_role("group", name="Set-up proximity · both sides")
    proximity.get_by_label("Faces rolled at the table").fill("9")  # no 9 on a d6: refused, named
    form.get_by_role("button", name="Roll the set-up").click()
    expect(proximity.get_by_label("Faces rolled at the table")).to_have_attribute("aria-invalid", "true")
    expect(proximity).to_contain_text("is not on a d6")
    assert not battle.rolls.exists()

    proximity.get_by_label("Faces rolled at the table").fill("4")
    form.get_by_role("button", name="Roll the set-up").click()
    expect(page.get_by_role("form", name="Battle set-up")).to_have_count(0)
    battle.refresh_from_db()
    assert battle.status == BattleStatus.SET_UP
    step(tab, "set-up rolled at the table")

    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Roll log").click()
    entered = page.get_by_role("listitem").filter(has_text="Set-up proximity")
    expect(entered).to_contain_text("rolled at the table by allied")
    entered.locator("summary").click()
    expect(entered.get_by_role("definition").filter(has_text="d6 [4] = 4")).to_be_visible()
    assert_page_quality(page)
    step(tab, "roll log")

    # The battle reported, the night reveals day 1; the Allied player's document lists the roll
    # as entered.
    battle_report(campaign.pk, umpire, battle.pk, {"battalions": [{"code": "G1", "destroyed": []}]})
    with django_capture_on_commit_callbacks(execute=False):
        night = night_phase_start(campaign.pk, umpire)
    with django_capture_on_commit_callbacks(execute=False):
        operation_run(night.pk)
    client = APIClient()
    client.force_login(get_user_model().objects.get(username="allied"))
    report = verify(client.get(f"/api/v1/campaigns/{campaign.slug}/days/1/dice/").json())
    assert report.ok, report.mismatches
    roll = models.RollRecord.objects.get(battle=battle, at_table=True)
    assert report.entered == [
        f"roll {roll.public_id} (n43.setup_proximity, stream {roll.stream}): rolled at the table by "
        "allied, its faces entered, not replayable from a seed"
    ]
