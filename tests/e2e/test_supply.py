"""Issue 30's supply in the web app, in Debian's Chromium against a live server and a real worker:
the umpire reads the day's supply proposal per battalion with its traced line and what the day's
confirmed battle report said; the night's confirmation warns while supply is unconfirmed; the
umpire confirms it with one override and its reason, starts the night, and the night honours
both the override and the confirmed report over the map's proposal (rules notes MS-07). Each
step is checked (axe-core, no sideways scrolling) and screenshotted at 1280 and 390 px."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from campaign import models
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.supply import supply_review
from tests.conftest import WorkerProcess
from tests.e2e.conftest import Tab, sign_in, step
from tests.e2e.demo import malta_day_one

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

NIGHT_TIMEOUT = 120_000
REASON = "cut off by the paratroops at dusk"


def other_than(situation: str) -> str:
    return "separated" if situation == "OK" else "OK"


def test_the_umpire_confirms_supply_with_an_override_and_the_night_honours_it(
    live_server, celery_worker: WorkerProcess, tab: Tab
) -> None:
    campaign = malta_day_one()  # G1 attacks W1 at Gudja, set up
    umpire = Actor(user=get_user_model().objects.get(username="umpire"), request_id="e2e-supply")
    proposed = {
        entry.supply.battalion.code: entry.supply.proposed.value
        for entry in supply_review(campaign).battalions
    }
    # The confirmed report says W1 ended the battle otherwise than the map proposes.
    reported = other_than(proposed["W1"])
    battle = campaign.battles.get()
    battle_report(
        campaign.pk, umpire, battle.pk, {"battalions": [{"code": "W1", "supply_situation": reported}]}
    )
    # The umpire overrides one battalion that fought no battle.
    overridden = next(code for code in sorted(proposed) if code not in ("G1", "W1"))
    chosen = "isolated" if proposed[overridden] != "isolated" else "OK"

    page = tab.page
    sign_in(tab, live_server.url, "umpire")
    page.get_by_role("link", name=campaign.name).click()
    page.get_by_role("navigation", name="Campaign").get_by_role(
        "link", name="Night phase", exact=True
    ).click()
    expect(page.get_by_role("heading", name="Supply of day 1")).to_be_visible()
    w1 = page.get_by_role("listitem", name="Supply of W1", exact=True)
    expect(w1).to_contain_text("after the battle at Gudja")
    expect(w1).to_contain_text("(reported after the battle at Gudja)")
    expect(w1).to_contain_text("→")  # its traced line, in sector names
    step(tab, "supply-proposal")

    # Unconfirmed: the night's confirmation says so.
    page.get_by_role("button", name="Start the night phase of day 1…").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text("Supply for day 1 is not confirmed")
    step(tab, "night-warns-supply-unconfirmed")
    dialog.get_by_role("button", name="Cancel").click()

    card = page.get_by_role("listitem", name=f"Supply of {overridden}", exact=True)
    card.get_by_text(f"Override {overridden}").click()
    card.get_by_label(f"Supply situation of {overridden}").select_option(chosen)
    page.get_by_role("button", name="Confirm the supply (1 overridden)").click()
    # A reason is required: the API's sentence, by the field, and no field path anywhere.
    expect(card.get_by_label(f"Why {overridden} is overridden")).to_have_attribute("aria-invalid", "true")
    expect(card).to_contain_text(f"Say why battalion {overridden}")
    expect(page.get_by_text("overrides[")).to_have_count(0)
    step(tab, "supply-override-needs-a-reason")
    card.get_by_label(f"Why {overridden} is overridden").fill(REASON)
    page.get_by_role("button", name="Confirm the supply (1 overridden)").click()
    expect(page.get_by_text("Confirmed at")).to_be_visible()
    expect(card).to_contain_text("(the umpire's override)")
    step(tab, "supply-confirmed")

    page.get_by_role("button", name="Start the night phase of day 1…").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).not_to_contain_text("not confirmed")
    dialog.get_by_role("button", name="Start the night phase of day 1").click()
    progress = page.get_by_role("progressbar")
    expect(progress).to_have_accessible_name("Night phase of day 1: done", timeout=NIGHT_TIMEOUT)
    step(tab, "night-done")

    situations = dict(campaign.battalions.values_list("code", "supply_situation"))
    assert situations["W1"] == reported  # the confirmed report, not the proposal
    assert situations[overridden] == chosen  # the umpire's override
    override = models.Event.objects.get(campaign=campaign, verb="supply.overridden")
    assert REASON in override.message
