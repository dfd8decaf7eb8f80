"""A player of side B (Allied) on a phone-sized browser: side A's hidden strengths
appear neither on the page nor in any API response the page received."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from campaign import models
from tests.e2e.conftest import Tab, sign_in
from tests.e2e.demo import malta_day_one
from tests.e2e.quality import assert_page_quality

# The demo names reference equipment, which an earlier transactional test's flush removed.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

# The Axis lets the Allies identify G1 but hides strengths (the Malta default).
AXIS_FOG = {"identified_units": ["G1"], "battle_results": True, "strengths": False}


def objects(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object in a response body, nested ones included."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from objects(item)
    elif isinstance(value, list):
        for item in value:
            yield from objects(item)


def test_a_player_of_side_b_sees_no_hidden_strength_of_side_a(live_server, phone_tab: Tab):
    tab = phone_tab
    campaign = malta_day_one(battle=False)
    axis = campaign.sides.get(is_axis=True)
    models.Side.objects.filter(pk=axis.pk).update(fog_of_war=AXIS_FOG)
    axis_codes = set(axis.battalions.values_list("code", flat=True))
    axis_force = models.Force.objects.get(battlegroups__battalions__code="G1", campaign=campaign)
    page = tab.page

    sign_in(tab, live_server.url, "allied")
    page.get_by_role("link", name=campaign.name).click()
    # The sides table's row: the victory standing below it has a row named for the side too.
    axis_row = page.get_by_role("region", name="Sides").get_by_role("row", name=axis.name)
    expect(axis_row).to_contain_text("hidden")
    assert_page_quality(page)
    tab.shot("dashboard")

    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Forces").click()
    page.get_by_text("G1", exact=True).click()
    g1 = page.locator("li.battalion", has_text="G1")
    # What the fog reveals and nothing in place of what it hides.
    expect(g1).to_contain_text("Identified; its side does not reveal its strength.")
    expect(page.locator("ul.forces")).not_to_contain_text("unknown")
    axis_card = page.locator("li.force", has_text=axis_force.name)
    axis_card.get_by_role("button", name="Show force status").click()
    expect(axis_card).to_contain_text("Only the battalions your side has identified are shown.")
    expect(axis_card).not_to_contain_text("Strength hidden")
    assert_page_quality(page)
    tab.shot("forces")
    forces_html = page.content()

    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Statistics").click()
    expect(page.get_by_role("figure", name=f"Strength of {axis.name}")).to_contain_text("hidden")
    tab.shot("statistics")

    axis_labels = set(models.Stand.objects.filter(battalion__side=axis).values_list("label", flat=True))
    allied_labels = set(models.Stand.objects.exclude(battalion__side=axis).values_list("label", flat=True))
    assert not {label for label in axis_labels - allied_labels if f">{label}<" in forces_html}

    urls = [url for url, _ in tab.api_bodies]
    assert any(url.endswith(f"/forces/{axis_force.public_id}/status/") for url in urls)
    assert any(url.endswith("/statistics/") for url in urls)
    assert any(url.endswith("/oob/") for url in urls)
    for url, body in tab.api_bodies:
        for entry in objects(body):
            assert entry.get("battalion_code") not in axis_codes, (url, entry)  # no Axis stand rows
            if entry.get("code") in axis_codes:
                assert entry.get("stands") in (None, []), (url, entry)
                assert entry.get("stands_started") is None, (url, entry)
            if entry.get("side") == axis.pk and "strength" in entry:
                assert entry["strength"] is None, (url, entry)
                assert entry["activation_points"] is None, (url, entry)
            if entry.get("id") == axis.pk and "activation_points" in entry:
                assert entry["activation_points"] is None, (url, entry)
        if url.endswith(f"/forces/{axis_force.public_id}/status/"):
            assert body["strength"] is None
            assert body["side"] is None
