"""Issue 17's acceptance for reported battles, in Debian's Chromium against a live server: each
side's player drafts the battle's report from a phone-sized window and reads only whether the
other side filed (never what); the drafts disagree on one thing, the winner; the umpire, at
desktop width, reads exactly that one conflict with both versions side by side, chooses one and
confirms, and the battle shows reported with the chosen version and each side's own points.
Issue 30: a side drafts the points of its own battalion only (the form asks nothing else of the
enemy's), so what each side alone knows is never a conflict. Every step is screenshotted at
1280 and 390 px and checked by axe-core and for sideways scrolling."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaign import models
from campaign.choices import BattleStatus
from tests.e2e.conftest import PHONE_SIZE, Tab, sign_in, step
from tests.e2e.demo import SECTOR, malta_day_one

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

# Each side's own battalion and the activation points it spent (never a conflict), and the
# winner each side claims (the one real disagreement).
OWN = {"axis": "G1", "allied": "W1"}
SPENT = {"axis": "2", "allied": "3"}


def open_battle(tab: Tab, base_url: str, campaign: models.Campaign, username: str) -> None:
    page = tab.page
    sign_in(tab, base_url, username)
    page.get_by_role("link", name=campaign.name).click()
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Battles", exact=True).click()
    page.get_by_role("link", name=SECTOR).click()


def player_drafts(tab: Tab, username: str, winner: str) -> None:
    """On the battle's page: its own battalion's activation points, and the winner the player's
    side claims; of the enemy's battalion the form asks no points, supply or objectives."""
    page = tab.page
    draft = page.get_by_role("form", name="Your side's draft report")
    expect(page.get_by_text("Your side has not filed a draft yet.")).to_be_visible()
    enemy = next(code for side, code in OWN.items() if side != username)
    expect(draft.get_by_role("group", name=f"Battalion {enemy}").get_by_role("spinbutton")).to_have_count(0)
    expect(draft.get_by_role("group", name=f"Battalion {enemy}").get_by_role("combobox")).to_have_count(0)
    own = draft.get_by_role("group", name=f"Battalion {OWN[username]}")
    own.get_by_label("Activation points spent").fill(SPENT[username])
    draft.get_by_label("Winner").select_option(label=winner)
    draft.get_by_role("button", name="Save draft").click()
    expect(page.get_by_text("Draft saved")).to_be_visible()
    step(tab, "drafted", PHONE_SIZE)


def test_both_sides_draft_by_phone_and_the_umpire_confirms(
    live_server, tab: Tab, phones: dict[str, Tab]
) -> None:
    campaign = malta_day_one()
    battle = models.Battle.objects.get(campaign=campaign)
    axis_name = campaign.sides.get(is_axis=True).name
    allied_name = campaign.sides.get(is_axis=False).name

    # A bad draft is refused next to the field it names, and nothing is filed.
    axis = phones["axis"].page
    open_battle(phones["axis"], live_server.url, campaign, "axis")
    form = axis.get_by_role("form", name="Your side's draft report")
    points = form.get_by_role("group", name="Battalion G1").get_by_label("Activation points spent")
    points.fill("-1")
    form.get_by_role("button", name="Save draft").click()
    expect(points).to_have_attribute("aria-invalid", "true")
    step(phones["axis"], "refused", PHONE_SIZE)
    assert not models.BattleDraft.objects.filter(battle=battle).exists()

    player_drafts(phones["axis"], "axis", axis_name)
    expect(points).to_have_attribute("aria-invalid", "false")
    open_battle(phones["allied"], live_server.url, campaign, "allied")
    expect(phones["allied"].page.get_by_text("The other side has filed its draft.")).to_be_visible()
    player_drafts(phones["allied"], "allied", allied_name)
    # Each reads that the other filed, never what it says.
    axis.reload()
    expect(axis.get_by_text("The other side has filed its draft.")).to_be_visible()
    for url, body in phones["axis"].api_bodies + phones["allied"].api_bodies:
        if url.endswith("/draft/") and isinstance(body, dict) and body.get("draft"):
            side = "axis" if body["side"] == campaign.sides.get(is_axis=True).pk else "allied"
            entries = {entry["code"]: entry for entry in body["draft"]["report"]["battalions"]}
            assert str(entries[OWN[side]].get("activation_points_spent")) == SPENT[side], url

    # The umpire at desktop width: exactly one conflict, its two versions side by side.
    page = tab.page
    open_battle(tab, live_server.url, campaign, "umpire")
    expect(page.locator("fieldset.conflict")).to_have_count(1)
    conflict = page.get_by_role("group", name="Winner")
    axis_version = conflict.get_by_role("radio", name=f"{axis_name}: {axis_name}")
    allied_version = conflict.get_by_role("radio", name=f"{allied_name}: {allied_name}")
    expect(axis_version).to_be_visible()
    expect(allied_version).to_be_visible()
    axis_box, allied_box = axis_version.bounding_box(), allied_version.bounding_box()
    assert axis_box is not None
    assert allied_box is not None
    assert abs(axis_box["y"] - allied_box["y"]) < 5, "the versions stand side by side"
    step(tab, "compared")
    allied_version.check()
    page.get_by_role("button", name="Confirm as the battle's report").click()
    expect(page.get_by_role("heading", name=SECTOR).get_by_text("Reported")).to_be_visible()
    step(tab, "reported")
    battle.refresh_from_db()
    assert battle.status == BattleStatus.REPORTED
    assert battle.winner == campaign.sides.get(is_axis=False)
    assert battle.report is not None
    reported = {entry["code"]: entry for entry in battle.report["battalions"]}
    assert {side: reported[code]["activation_points_spent"] for side, code in OWN.items()} == {
        side: int(spent) for side, spent in SPENT.items()
    }
