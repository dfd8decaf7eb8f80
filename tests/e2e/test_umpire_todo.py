"""Issue 30's umpire's to-do in Debian's Chromium against a live server: on the dashboard the umpire
reads what waits for them (an order submitted, a draft filed by one side, the day's supply
unconfirmed, segments left), follows an item to where it is done, and finds the order and the
draft in their inbox too. Checked (axe-core, no sideways scrolling) and screenshotted at 1280 and
390 px."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from campaign.services.audit import Actor
from campaign.services.battle_drafts import battle_draft_save
from campaign.services.orders import side_order_draft, side_order_submit
from tests.e2e.conftest import Tab, sign_in, step
from tests.e2e.demo import malta_day_one

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]


def test_the_umpire_reads_what_waits_and_follows_it(live_server, tab: Tab) -> None:
    campaign = malta_day_one()  # a segment on, G1 attacks W1 at Gudja
    axis = campaign.sides.get(is_axis=True)
    player = Actor(user=get_user_model().objects.get(username="axis"), request_id="e2e-todo")
    code = campaign.battalions.filter(side=axis, in_reserve=False).exclude(code="G1").order_by("code")[0].code
    order = side_order_draft(
        campaign.pk, player, side_id=axis.pk, kind="withdraw", payload={"battalion_code": code}
    )
    side_order_submit(campaign.pk, player, order.pk, side_id=axis.pk)
    battle_draft_save(campaign.pk, player, campaign.battles.get().pk, {"battalions": [{"code": "G1"}]})

    page = tab.page
    sign_in(tab, live_server.url, "umpire")
    page.get_by_role("link", name=campaign.name).click()
    waiting = page.get_by_role("region", name="Waiting for you")
    expect(waiting.get_by_role("link", name="1 order waits for your approval")).to_be_visible()
    expect(waiting).to_contain_text(
        "Axis filed its draft of the battle at Gudja (day 1); Allied's is awaited"
    )
    expect(waiting).to_contain_text("Supply of day 1 is not confirmed")
    expect(waiting).to_contain_text("segments of day 1 left to play")
    step(tab, "todo")

    waiting.get_by_role("link", name="1 order waits for your approval").click()
    expect(page.get_by_role("heading", name="Waiting for approval")).to_be_visible()

    page.get_by_role("link", name="Inbox").click()
    expect(page.get_by_text("Axis submitted an order for day 1")).to_be_visible()
    expect(page.get_by_text("Axis filed its draft of the battle at Gudja")).to_be_visible()
    step(tab, "umpire-inbox")
