"""Issue 17's acceptance for sealed orders, in Debian's Chromium against a live server: both
players draft and submit an order from a phone-sized window; neither sees the other's (not in
the orders list nor anywhere else the web app reads); the umpire approves one and sends the
other back with a reason, which its side reads; the night phase applies the approved order.
Every step is screenshotted at 1280 and 390 px and checked by axe-core and for sideways
scrolling."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaign import models
from campaign.choices import SideOrderStatus
from campaign.services.audit import Actor
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from tests.api.world import strings
from tests.e2e.conftest import PHONE_SIZE, Tab, sign_in, step
from tests.e2e.demo import malta_day_one

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

REASON = "the western battalions hold the line tonight"


def on_the_table(campaign: models.Campaign, is_axis: bool) -> str:
    battalion = (
        campaign.battalions.filter(side__is_axis=is_axis, in_reserve=False)
        .exclude(code="G1")
        .order_by("code")
        .first()
    )
    assert battalion is not None
    return battalion.code


def player_submits(tab: Tab, base_url: str, campaign: models.Campaign, username: str, code: str) -> None:
    page = tab.page
    sign_in(tab, base_url, username)
    page.get_by_role("link", name=campaign.name).click()
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Orders", exact=True).click()
    form = page.get_by_role("form", name="New order")
    form.get_by_label("Order", exact=True).select_option("withdraw")
    form.get_by_label("Battalion", exact=True).select_option(code)
    form.get_by_role("button", name="Save as draft").click()
    order = page.locator("li.card", has_text=f"{code} to withdraw to reserve")
    expect(order.get_by_text("Draft")).to_be_visible()
    step(tab, "drafted", PHONE_SIZE)
    order.get_by_role("button", name="Submit order").click()
    expect(order.get_by_text("Submitted to the umpire")).to_be_visible()
    step(tab, "submitted", PHONE_SIZE)


def sees_nothing_of(tab: Tab, enemy_code: str, enemy_order: str) -> None:
    """What the player's web app read: none of the enemy's order, in any answer of the API."""
    page = tab.page
    for link in ("Dashboard", "Map", "Night phase", "Roll log", "Orders"):
        page.get_by_role("navigation", name="Campaign").get_by_role("link", name=link, exact=True).click()
        page.wait_for_load_state("networkidle")
    for url, body in tab.api_bodies:
        said = list(strings(body))
        assert not any(f"{enemy_code} to withdraw" in text for text in said), url
        if "/orders/" in url and isinstance(body, dict) and "results" in body:
            assert enemy_order not in [order["id"] for order in body["results"]], url


def test_both_sides_order_by_phone_and_the_umpire_decides(
    live_server, tab: Tab, phones: dict[str, Tab]
) -> None:
    campaign = malta_day_one(battle=False)
    axis_code, allied_code = on_the_table(campaign, True), on_the_table(campaign, False)

    player_submits(phones["axis"], live_server.url, campaign, "axis", axis_code)
    player_submits(phones["allied"], live_server.url, campaign, "allied", allied_code)
    axis_order = models.SideOrder.objects.get(side__is_axis=True)
    allied_order = models.SideOrder.objects.get(side__is_axis=False)
    sees_nothing_of(phones["allied"], axis_code, str(axis_order.public_id))
    sees_nothing_of(phones["axis"], allied_code, str(allied_order.public_id))

    # The umpire's approval queue: approve the Axis order, send the Allied one back.
    page = tab.page
    sign_in(tab, live_server.url, "umpire")
    page.get_by_role("link", name=campaign.name).click()
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Orders", exact=True).click()
    expect(page.get_by_role("heading", name="Waiting for approval")).to_be_visible()
    step(tab, "queue")
    page.get_by_role("button", name=f"Approve order: {axis_order.label}").click()
    expect(page.get_by_role("button", name=f"Approve order: {axis_order.label}")).to_have_count(0)
    page.get_by_label("Reason to send it back").fill(REASON)
    page.get_by_role("button", name=f"Send back order: {allied_order.label}").click()
    expect(page.get_by_text("No order waits for approval.")).to_be_visible()
    step(tab, "decided")

    allied = phones["allied"].page
    allied.reload()
    returned = allied.locator("li.card", has_text=f"{allied_code} to withdraw to reserve")
    expect(returned.get_by_text("Sent back by the umpire")).to_be_visible()
    expect(returned.get_by_text(REASON)).to_be_visible()
    step(phones["allied"], "sent-back", PHONE_SIZE)

    # The night applies the approved order (and lapses the one sent back, for the umpire to read).
    umpire = Actor(
        user=models.Membership.objects.get(campaign=campaign, role="umpire").user, request_id="e2e"
    )
    operation_run(night_phase_start(campaign.pk, umpire).pk)
    assert campaign.battalions.get(code=axis_code).in_reserve
    assert not campaign.battalions.get(code=allied_code).in_reserve
    axis_order.refresh_from_db()
    allied_order.refresh_from_db()
    assert (axis_order.status, allied_order.status) == (SideOrderStatus.APPLIED, SideOrderStatus.LAPSED)
    axis = phones["axis"].page
    axis.reload()
    expect(
        axis.locator("li.card", has_text=f"{axis_code} to withdraw to reserve").get_by_text("Applied")
    ).to_be_visible()
    step(phones["axis"], "applied", PHONE_SIZE)
