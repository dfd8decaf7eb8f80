"""Where a side's activation points come from, in the web app (issue 30): on the Forces page the
umpire rolls a division's C Ops action points at the quality they give it and saves them as the
division's activation points, through the form the force's actions offer, at 1280 and 390 px.
A player's Forces page offers no such form."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from campaign import models
from campaign.services.day_rules import COPS_ACTION_POINTS
from tests.e2e.conftest import PHONE, Tab, open_tab, sign_in, step
from tests.e2e.demo import malta_day_one
from tests.e2e.quality import DICE_TEXT

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

FORCE = "Eastern Infantry Command"


@pytest.fixture(params=["desktop", "phone"])
def width_tab(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Tab]:
    if request.param == "phone":
        yield from open_tab(browser, request, viewport=PHONE, is_mobile=True, has_touch=True)
    else:
        yield from open_tab(browser, request, viewport={"width": 1280, "height": 900})


def forces_page(tab: Tab, base_url: str, campaign: models.Campaign, username: str) -> None:
    sign_in(tab, base_url, username)
    tab.page.get_by_role("link", name=campaign.name).click()
    tab.page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Forces", exact=True).click()
    expect(tab.page.get_by_role("heading", name="Order of battle")).to_be_visible()


def test_the_umpire_rolls_a_c_ops_action_points_and_saves_them(live_server, width_tab: Tab) -> None:
    campaign = malta_day_one(battle=False)
    force = campaign.forces.get(name=FORCE)
    page = width_tab.page
    forces_page(width_tab, live_server.url, campaign, "umpire")

    form = page.get_by_role("form", name=f"C Ops action points of {FORCE}")
    expect(form).to_contain_text("C Ops' action points")  # why: the API's sentence on the points
    roll = form.get_by_role("button", name="Roll the C Ops' action points")
    expect(roll).to_be_disabled()  # no quality given yet
    form.get_by_label("Quality of its C Ops").select_option("Average")
    expect(form.get_by_label("Save them as the division's activation points")).to_be_checked()
    roll.click()
    record = form.locator("details.roll")
    expect(record).to_be_visible()
    expect(record.get_by_text(DICE_TEXT).first).to_be_visible()  # opened on its dice
    rolled = models.RollRecord.objects.get(campaign=campaign, procedure=COPS_ACTION_POINTS, force=force)
    # Saved as the paying pool's activation points (none to save when it rolled no action).
    assert "activation_points" in rolled.changes or rolled.changes["action_points"] == 0
    step(width_tab, "cops-action-points")

    # Once a division a turn: the same turn again is refused, in words, naming the turn.
    roll.click()
    refused = re.compile(f"^{FORCE}'s C Ops has rolled for")
    expect(form.get_by_label("Turn")).to_have_accessible_description(refused)


def test_a_player_is_offered_no_c_ops_roll(live_server, width_tab: Tab) -> None:
    campaign = malta_day_one(battle=False)
    forces_page(width_tab, live_server.url, campaign, "allied")
    expect(width_tab.page.get_by_role("heading", name=FORCE)).to_be_visible()
    expect(width_tab.page.get_by_role("button", name="Roll the C Ops' action points")).to_have_count(0)
