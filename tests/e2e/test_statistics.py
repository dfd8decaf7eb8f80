"""Issue 32's statistics in the web app, in Debian's Chromium against a live server: the umpire
(1280 px) and a player (390 px) open Statistics after day 1's battle, see its charts and download
the same figures as CSV; the umpire opens a battalion's service history from the Forces page.
Checked (axe-core, no sideways scrolling) and screenshotted at both widths."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from campaign import models
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from tests.e2e.conftest import PHONE_SIZE, Tab, sign_in, step
from tests.e2e.demo import malta_day_one

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]


def open_statistics(tab: Tab, base_url: str, campaign: models.Campaign, username: str) -> None:
    sign_in(tab, base_url, username)
    tab.page.get_by_role("link", name=campaign.name).click()
    tab.page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Statistics").click()
    expect(tab.page.get_by_role("figure", name="Stands lost and replaced")).to_be_visible()
    expect(tab.page.get_by_role("figure", name="Sectors and victory points held")).to_be_visible()


def csv_downloaded(tab: Tab) -> list[list[str]]:
    with tab.page.expect_download() as download:
        tab.page.get_by_role("link", name="Download the figures (CSV)").click()
    assert download.value.suggested_filename.endswith("-statistics.csv")
    return list(csv.reader(io.StringIO(Path(download.value.path()).read_text())))


def test_the_umpire_and_a_player_read_the_statistics_and_a_battalions_history(
    live_server, tab: Tab, phones: dict[str, Tab]
) -> None:
    campaign = malta_day_one()
    battle = campaign.battles.get()
    w1 = campaign.battalions.get(code="W1")
    battle_report(
        campaign.pk,
        Actor(user=get_user_model().objects.get(username="umpire"), request_id="e2e-statistics"),
        battle.pk,
        {"battalions": [{"code": "G1"}, {"code": "W1", "destroyed": [w1.stands.order_by("label")[0].label]}]},
    )

    open_statistics(tab, live_server.url, campaign, "umpire")
    table = tab.page.get_by_role("table", name="Each day's figures per side")
    expect(table.get_by_role("row", name="1 Allied")).to_contain_text("1")  # W1's stand lost
    step(tab, "statistics-umpire")
    header, *rows = csv_downloaded(tab)
    assert header[:3] == ["Day", "Date", "Side"]
    assert [row[2] for row in rows] == ["Axis", "Allied"]

    player = phones["axis"]
    open_statistics(player, live_server.url, campaign, "axis")
    step(player, "statistics-axis", PHONE_SIZE)
    _, *player_rows = csv_downloaded(player)
    allied = dict(zip(header, player_rows[1], strict=True))
    assert (allied["Activation points spent"], allied["Sectors held"]) == (
        "",
        rows[1][header.index("Sectors held")],
    )

    page = tab.page
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Forces", exact=True).click()
    page.locator("li.battalion summary", has_text="W1").first.click()
    page.get_by_role("link", name="Service history of W1").click()
    expect(page.get_by_role("heading", name=f"Service history of W1 {w1.name}")).to_be_visible()
    expect(page.get_by_role("table", name="Battles fought")).to_contain_text("Gudja")
    step(tab, "battalion-history")
