"""Issue 30's victory in the web app, in Debian's Chromium against a live server: the dashboard
shows the scenario's victory conditions and where each side stands against them (the same for
each player and the umpire: sectors and owners are public), a condition met as the map stands,
and the campaign's end once a night finished it. Checked (axe-core, no sideways scrolling) and
screenshotted at 1280 and 390 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaign import models
from campaign.choices import CampaignStatus
from tests.e2e.conftest import PHONE_SIZE, Tab, sign_in, step
from tests.e2e.demo import malta_day_one

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

FALLS = "Malta falls: the Axis holds Valletta and the Grand Harbour"


def dashboard(tab: Tab, base_url: str, campaign: models.Campaign, username: str) -> None:
    sign_in(tab, base_url, username)
    tab.page.get_by_role("link", name=campaign.name).click()
    expect(tab.page.get_by_role("heading", name="Victory")).to_be_visible()


def test_players_and_the_umpire_read_the_victory_standing_and_the_end(
    live_server, tab: Tab, phones: dict[str, Tab]
) -> None:
    campaign = malta_day_one(battle=False)
    axis = campaign.sides.get(is_axis=True)
    campaign.sectors.filter(key="grand-harbour").update(owner=axis)

    player = phones["allied"]
    dashboard(player, live_server.url, campaign, "allied")
    page = player.page
    falls = page.get_by_role("listitem", name="Victory condition 1")
    expect(falls).to_contain_text(FALLS)
    expect(falls).to_contain_text("Axis holds 1 of 2 sectors (Grand Harbour); not Valletta.")
    expect(page.get_by_text("the night of day 6 ends the campaign")).to_be_visible()
    expect(page.get_by_text("No victory condition is met as the map stands")).to_be_visible()
    step(player, "victory-standing", PHONE_SIZE)

    # Valletta falls too: met as the map stands, the umpire reads what tonight's night would do.
    campaign.sectors.filter(key="valletta").update(owner=axis)
    dashboard(tab, live_server.url, campaign, "umpire")
    umpire_view = tab.page.get_by_role("listitem", name="Victory condition 1")
    expect(umpire_view).to_contain_text(
        "Met as the map stands: tonight's night phase would end the campaign."
    )
    expect(
        tab.page.get_by_text(f"Axis meets a victory condition as the map stands: {FALLS}.")
    ).to_be_visible()
    step(tab, "victory-met")

    # A night ended it: everybody reads the result.
    models.Campaign.objects.filter(pk=campaign.pk).update(
        status=CampaignStatus.FINISHED, winner=axis, result=FALLS, finished_day=1
    )
    page.reload()
    expect(page.get_by_text(f"The campaign ended on day 1. Axis victory: {FALLS}")).to_be_visible()
    step(player, "campaign-ended", PHONE_SIZE)
