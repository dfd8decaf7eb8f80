"""Every page of the web app, for the umpire and for a player, at 1280 and at 390 px:
no sideways scrolling and no serious or critical axe-core violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaign import models
from tests.e2e.conftest import Tab, sign_in
from tests.e2e.demo import malta_day_one
from tests.e2e.quality import assert_accessible, assert_no_horizontal_scroll, assert_page_quality

# The demo names reference equipment, which an earlier transactional test's flush removed.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

CAMPAIGN_PAGES = ["Dashboard", "Map", "Forces", "Battles", "Night phase", "Roll log", "Charts"]


def visit_every_page(tab: Tab, base_url: str, username: str) -> None:
    campaign = models.Campaign.objects.get()
    battle = models.Battle.objects.get(campaign=campaign)
    page = tab.page
    page.goto(f"{base_url}/login")
    page.get_by_label("Username").wait_for()
    assert_page_quality(page)
    sign_in(tab, base_url, username)
    assert_page_quality(page)
    tab.shot("campaigns")

    page.get_by_role("link", name=campaign.name).click()
    navigation = page.get_by_role("navigation", name="Campaign")
    for name in CAMPAIGN_PAGES:
        navigation.get_by_role("link", name=name, exact=True).click()
        page.wait_for_load_state("networkidle")
        assert_page_quality(page)
        tab.shot(name.lower().replace(" ", "-"))

    page.goto(f"{base_url}/campaigns/{campaign.slug}/battles/{battle.pk}")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert_page_quality(page)
    tab.shot("battle")


@pytest.mark.parametrize("username", ["umpire", "allied"])
def test_every_page_is_accessible_and_fits_a_desktop(live_server, tab: Tab, username: str):
    malta_day_one()
    visit_every_page(tab, live_server.url, username)


@pytest.mark.parametrize("username", ["umpire", "axis"])
def test_every_page_is_accessible_and_fits_a_phone(live_server, phone_tab: Tab, username: str):
    malta_day_one()
    visit_every_page(phone_tab, live_server.url, username)


def test_the_checks_fail_on_a_page_that_breaks_them(phone_tab: Tab):
    page = phone_tab.page
    page.set_content(
        '<html lang="en"><meta name="viewport" content="width=device-width"><title>t</title>'
        '<main><img src="x.png"><div style="width:900px">wide</div></main>'
    )

    with pytest.raises(AssertionError, match="critical image-alt"):
        assert_accessible(page)
    with pytest.raises(AssertionError, match="scrolls sideways by 518px"):
        assert_no_horizontal_scroll(page)
