"""The timeline in a real browser (issue 32): the demo's day 1 played (a battle at Gudja won by the
Axis, the night phase), then the umpire writes the day's journal and filters the timeline, and the
Axis player reads the journal and their own night report, never the Allied one; at 1280 and 390 px."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from campaign import models
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from tests.conftest import SHARED_WORKER
from tests.e2e.conftest import Tab, sign_in, step
from tests.e2e.demo import gudja_battle, malta_day_one

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

JOURNAL = "Rain over Gudja; the Axis took the village by nightfall."


def day_one_played() -> models.Campaign:
    """The demo through day 1's night phase, a battle at Gudja won by the Axis."""
    # The night's tasks (its e-mails, the map after it) are left unsent: no worker shares the rows.
    SHARED_WORKER.stop()
    campaign = malta_day_one(battle=False)
    actor = Actor(user=get_user_model().objects.get(username="umpire"), request_id="e2e-timeline")
    axis = campaign.sides.get(is_axis=True)
    battle = gudja_battle(campaign, actor)
    battle_report(
        campaign.pk,
        actor,
        battle.pk,
        {"battalions": [{"code": "G1"}, {"code": "W1", "destroyed": ["A Coy"]}], "winner": axis.pk},
    )
    operation_run(night_phase_start(campaign.pk, actor).pk)
    return campaign


def open_timeline(tab: Tab, base_url: str, username: str, campaign: models.Campaign) -> None:
    sign_in(tab, base_url, username)
    tab.page.get_by_role("link", name=campaign.name).click()
    tab.page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Timeline").click()
    expect(tab.page.get_by_role("heading", name="Day 1")).to_be_visible()


def test_the_umpire_writes_the_journal_and_a_player_reads_it_within_their_fog(live_server, tab: Tab):
    campaign = day_one_played()
    page = tab.page
    day = page.get_by_role("article", name="Day 1")
    entries = day.get_by_role("list", name="What happened on day 1")

    open_timeline(tab, live_server.url, "umpire", campaign)
    expect(entries).to_contain_text("Axis: night of day 1 reported")
    expect(entries).to_contain_text("Allied: night of day 1 reported")
    expect(entries).to_contain_text("won by Axis")
    step(tab, "umpire-timeline")

    form = day.get_by_role("form", name="Write the day's journal, day 1")
    form.get_by_label("Write the day's journal").fill("x" * 2001)
    form.get_by_role("button", name="Save the journal").click()
    expect(form.get_by_role("alert")).to_contain_text("Keep the journal to 2000 characters.")
    form.get_by_label("Write the day's journal").fill(JOURNAL)
    form.get_by_role("button", name="Save the journal").click()
    expect(day.get_by_role("blockquote")).to_have_text(JOURNAL)
    step(tab, "umpire-journal")

    page.get_by_label("Kind of entry", exact=True).select_option(label="Battles")
    expect(page).to_have_url(f"{live_server.url}/campaigns/{campaign.slug}/timeline?kind=battle")
    expect(entries).not_to_contain_text("night of day 1 reported")
    expect(entries).to_contain_text("Local attack at Gudja")
    for tag in entries.locator(".tag").all():
        expect(tag).to_have_text("Battles")
    step(tab, "umpire-battles")
    entries.get_by_role("link", name="The battle").click()
    expect(page).to_have_url(
        f"{live_server.url}/campaigns/{campaign.slug}/battles/{campaign.battles.get().public_id}"
    )

    page.get_by_role("banner").get_by_role("button", name="Sign out").click()
    open_timeline(tab, live_server.url, "axis", campaign)
    expect(day.get_by_role("blockquote")).to_have_text(JOURNAL)
    expect(day.get_by_role("form")).to_have_count(0)  # the journal is the umpire's to write
    expect(entries).to_contain_text("Axis: night of day 1 reported")
    expect(entries).not_to_contain_text("Allied:")
    step(tab, "axis-timeline")
    page.get_by_label("Side", exact=True).select_option(label="Allied")
    expect(entries.get_by_role("listitem")).not_to_have_count(0)
    expect(entries).not_to_contain_text("Allied: night")
    step(tab, "axis-allied-side")
