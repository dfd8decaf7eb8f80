"""The campaign map in a real browser: the umpire and each player at 1280 and 390 px. The
umpire moves a battalion and sets a sector's control from the map; a player's map never
shows an enemy force outside the fog rule (on the page or in any API response it received)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db.models import Q
from playwright.sync_api import Browser, Page, expect

from campaign import models
from tests.e2e.conftest import PHONE, Tab, open_tab, sign_in
from tests.e2e.demo import malta_day_one
from tests.e2e.quality import assert_page_quality, assert_readable
from tests.e2e.test_fog_of_war import objects

# The demo names reference equipment, which an earlier transactional test's flush removed.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

VIEWPORTS: dict[str, dict[str, Any]] = {
    "1280": {"viewport": {"width": 1280, "height": 900}},
    "390": {"viewport": PHONE, "is_mobile": True, "has_touch": True},
}


def sector_button(page: Page, sector: models.Sector):
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(sector.name)}:"))


def open_sector(page: Page, sector: models.Sector) -> None:
    """A tap on its marker, as a person would (the button's middle may be between the marker
    and its name, moved aside to keep clear of the others)."""
    sector_button(page, sector).locator(".map-marker").click()


def neighbour_ids(sector_ids: set[int]) -> set[int]:
    links = models.SectorLink.objects.filter(Q(a_id__in=sector_ids) | Q(b_id__in=sector_ids))
    return {end for link in links for end in (link.a_id, link.b_id)}


def in_contact(side: models.Side) -> set[int]:
    """The sectors where ``side`` sees the enemy (MAP_CONTRACT's fog rule): on or next to a
    sector where ``side`` has a battalion or a C Ops."""
    own = set(
        models.Battalion.objects.filter(side=side, sector__isnull=False).values_list("sector_id", flat=True)
    ) | set(models.Force.objects.filter(side=side, sector__isnull=False).values_list("sector_id", flat=True))
    return own | neighbour_ids(own)


def open_map(tab: Tab, base_url: str, username: str, campaign: models.Campaign) -> Page:
    page = tab.page
    sign_in(tab, base_url, username)
    page.get_by_role("link", name=campaign.name).click()
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Map", exact=True).click()
    expect(page.get_by_role("list", name="Map key")).to_be_visible()
    page.wait_for_load_state("networkidle")
    return page


@pytest.fixture
def tabs(browser: Browser, request: pytest.FixtureRequest) -> Iterator[dict[str, Tab]]:
    """One tab per viewport, their screenshots told apart by the width in their names."""
    opened: dict[str, Tab] = {}
    contexts = [open_tab(browser, request, **options) for options in VIEWPORTS.values()]
    for width, context in zip(VIEWPORTS, contexts, strict=True):
        tab = next(context)
        tab.name = f"{tab.name}-{width}"
        opened[width] = tab
    yield opened
    for context in contexts:
        next(context, None)


def test_the_umpire_moves_a_battalion_and_sets_control_from_the_map(live_server, tabs: dict[str, Tab]):
    campaign = malta_day_one(battle=False)
    battalion = (
        models.Battalion.objects.filter(campaign=campaign, sector__isnull=False, in_reserve=False)
        .select_related("sector")
        .order_by("code")
        .first()
    )
    assert battalion is not None
    assert battalion.sector is not None
    start = battalion.sector
    destination = (
        models.Sector.objects.filter(pk__in=neighbour_ids({start.pk}) - {start.pk}).order_by("name").first()
    )
    assert destination is not None

    phone = open_map(tabs["390"], live_server.url, "umpire", campaign)
    # Victory on the map: where the campaign stands, and the sectors a condition names starred.
    expect(phone.locator(".map-victory")).to_contain_text("the night of day 6 ends the campaign")
    valletta = campaign.sectors.get(key="valletta")
    expect(sector_button(phone, valletta)).to_have_accessible_name(re.compile("a victory objective of Axis"))
    expect(phone.locator(".map-objective")).to_have_count(2)  # Valletta and the Grand Harbour
    assert_page_quality(phone)
    assert_readable(phone)
    tabs["390"].shot("map")
    svg = phone.locator("svg.map-svg > g").first
    before = svg.get_attribute("transform")
    phone.get_by_role("button", name="Zoom in").click()
    expect(svg).not_to_have_attribute("transform", before or "")
    tabs["390"].shot("zoomed")
    phone.get_by_role("button", name="Whole map").click()
    open_sector(phone, start)
    expect(phone.get_by_role("region", name=start.name)).to_contain_text(battalion.code)
    assert_page_quality(phone)
    assert_readable(phone)
    tabs["390"].shot("sector")

    page = open_map(tabs["1280"], live_server.url, "umpire", campaign)
    expect(page.locator(".map-sector")).to_have_count(
        models.Sector.objects.filter(campaign=campaign).exclude(x__isnull=True, geometry__isnull=True).count()
    )
    assert_page_quality(page)
    assert_readable(page)
    tabs["1280"].shot("map")
    open_sector(page, start)
    move = page.get_by_role("form", name=f"Move from {start.name}")
    move.get_by_label("What moves").select_option(label=f"Battalion {battalion.code} {battalion.name}")
    move.get_by_label("To the adjacent sector").select_option(label=destination.name)
    move.get_by_role("button", name="Move").click()
    expect(move.get_by_role("status")).to_have_text("Moved.")
    battalion.refresh_from_db()
    assert battalion.sector_id == destination.pk
    assert models.Event.objects.filter(campaign=campaign, verb="battalion.moved").count() == 1
    open_sector(page, destination)
    expect(page.get_by_role("region", name=destination.name)).to_contain_text(battalion.code)
    assert_page_quality(page)
    assert_readable(page)
    tabs["1280"].shot("moved")

    holders = campaign.sides.order_by("name")
    other = (holders.exclude(pk=destination.owner_id) if destination.owner_id else holders).first()
    assert other is not None
    control = page.get_by_role("form", name=f"Control of {destination.name}")
    control.get_by_label("Held by").select_option(label=other.name)
    control.get_by_label("Reason").fill("Taken by a night raid")
    control.get_by_role("button", name="Set control").click()
    expect(control.get_by_role("status")).to_have_text("Control set.")
    destination.refresh_from_db()
    assert destination.owner_id == other.pk
    expect(sector_button(page, destination)).to_have_accessible_name(re.compile(f"held by {other.name}"))
    tabs["1280"].shot("control-set")


@pytest.mark.parametrize("username", ["axis", "allied"])
def test_a_player_sees_no_enemy_force_outside_the_fog_rule(live_server, tabs: dict[str, Tab], username: str):
    campaign = malta_day_one(battle=False)
    side = campaign.sides.get(is_axis=username == "axis")
    enemy = campaign.sides.exclude(pk=side.pk).get()
    # No identified units: the map shows the enemy by contact only.
    models.Side.objects.filter(pk=enemy.pk).update(fog_of_war={**enemy.fog_of_war, "identified_units": []})
    contact = in_contact(side)
    placed = models.Sector.objects.filter(campaign=campaign).exclude(x__isnull=True, geometry__isnull=True)
    far = placed.exclude(pk__in=contact).order_by("name")
    unseen = models.Force.objects.filter(side=enemy).order_by("name").first()
    far_sector = far.first()
    assert unseen is not None
    assert far_sector is not None
    unseen.sector = far_sector  # an enemy C Ops nowhere near this side
    unseen.save(update_fields=["sector"])
    hidden = models.Force.objects.filter(side=enemy).exclude(sector__in=contact)
    hidden_names = set(hidden.values_list("name", flat=True))
    hidden_ids = set(hidden.values_list("pk", flat=True))
    assert unseen.name in hidden_names

    for width, tab in tabs.items():
        page = open_map(tab, live_server.url, username, campaign)
        assert_page_quality(page)
        assert_readable(page)
        tab.shot("map")
        open_sector(page, far_sector)
        panel = page.get_by_role("region", name=far_sector.name)
        expect(panel).to_be_visible()
        expect(panel.get_by_role("form")).to_have_count(0)  # a player: no umpire's actions
        tab.shot("far-sector")
        html = page.content()
        assert not {name for name in hidden_names if name in html}, width
        map_bodies = [body for url, body in tab.api_bodies if url.endswith("/map/")]
        assert map_bodies, tab.api_bodies
        for body in map_bodies:
            assert not hidden_ids & {force["id"] for force in body["forces"]}
        for url, body in tab.api_bodies:  # names are public (the order of battle); places are not
            for entry in objects(body):
                if entry.get("name") in hidden_names:
                    assert entry.get("sector") is None, (url, entry)
                    assert entry.get("fup_sector") is None, (url, entry)
