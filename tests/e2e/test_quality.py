"""Every page of the web app, for the umpire and for each side's player, at 1280 and at 390 px:
no sideways scrolling, no serious or critical axe-core violation, every text in words."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from urllib.parse import urljoin

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import FloatRect, Locator, Page, expect

from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.services.audit import Actor
from campaign.services.orders import side_order_draft, side_order_submit
from tests.e2e.conftest import PHONE_SIZE, Tab, sign_in
from tests.e2e.demo import SECTOR, malta_day_one
from tests.e2e.quality import (
    assert_accessible,
    assert_no_horizontal_scroll,
    assert_page_quality,
    readability_findings,
)

# The demo names reference equipment, which an earlier transactional test's flush removed.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

CAMPAIGN_PAGES = [
    "Dashboard",
    "The day",
    "Map",
    "Forces",
    "Battles",
    "Orders",
    "Night phase",
    "Roll log",
    "Timeline",
    "Statistics",
    "Club",
]
UMPIRE_PAGES = ["Fog of war", "API keys & webhooks"]


def assert_no_roll_hidden_from(tab: Tab, campaign: models.Campaign, username: str) -> None:
    """The roll log page received the player's side's rolls and the public ones, nothing else."""
    side = models.Membership.objects.get(campaign=campaign, user__username=username).side
    readable = selectors.rolls(CampaignAccess.of_side(campaign, side.pk))
    hidden = models.RollRecord.objects.filter(campaign=campaign).exclude(pk__in=readable.values("pk"))
    assert hidden.exists()  # the enemy's own set-up rolls: else this check could not fail
    hidden_ids = {str(roll.public_id) for roll in hidden}
    shown_ids = {roll["id"] for url, body in tab.api_bodies if "/rolls/?" in url for roll in body["results"]}
    assert shown_ids
    assert not shown_ids & hidden_ids


# The innermost of the selected elements whose right edge is past the viewport's (not only the
# page's scrolling: a table in its own scrolling box may be cut off without the page scrolling).
PAST_THE_RIGHT_EDGE = """(selector) => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll(selector)]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5)
        .map((e) => e.tagName.toLowerCase() + " '" + e.textContent.trim().slice(0, 40) + "' ("
            + Math.round(e.getBoundingClientRect().right) + "px)");
}"""


def assert_charts_fit(page: Page) -> None:
    """Every chart, table, caption and cell shown on the statistics page ends inside the phone's screen
    (a table's column headings are for screen readers only there: each cell shows its own)."""
    page.locator("main table").first.wait_for()  # else this check could not fail
    shown = "main figure, main figcaption, main table, main caption, main tbody th, main td"
    past = page.evaluate(PAST_THE_RIGHT_EDGE, shown)
    assert not past, f"cut off at the right edge at {page.viewport_size}: {past}"


def assert_header_on_one_line(page: Page) -> None:
    """The top bar (name, inbox, who is signed in, Sign out) keeps to one line: lower than two of
    its buttons stacked."""
    header = box(page.get_by_role("banner"))
    button = box(page.get_by_role("banner").get_by_role("button", name="Sign out"))
    assert header["height"] < 2 * button["height"], f"the header wraps: {header} with a button of {button}"


def box(locator: Locator) -> FloatRect:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not shown"
    return found


def apart(a: FloatRect, b: FloatRect, gap: float) -> bool:
    """At least ``gap`` pixels between the two boxes, across or down."""
    return (
        a["x"] + a["width"] + gap <= b["x"]
        or b["x"] + b["width"] + gap <= a["x"]
        or a["y"] + a["height"] + gap <= b["y"]
        or b["y"] + b["height"] + gap <= a["y"]
    )


def assert_order_buttons_apart(page: Page) -> None:
    """The umpire's Send back and Amend of a queued order have a gap between them."""
    send_back = page.get_by_role("button", name=re.compile("^Send back order")).first
    amend = page.get_by_role("button", name=re.compile("^Amend order")).first
    assert apart(box(send_back), box(amend), 4), f"Send back {box(send_back)} touches Amend {box(amend)}"


def axis_order_submitted(campaign: models.Campaign) -> None:
    """An Axis withdrawal waiting for the umpire's approval, as the Axis player submits it."""
    axis = campaign.sides.get(is_axis=True)
    battalion = campaign.battalions.filter(side=axis, in_reserve=False).order_by("code").first()
    assert battalion is not None
    player = Actor(user=get_user_model().objects.get(username="axis"), request_id="e2e-setup")
    order = side_order_draft(
        campaign.pk, player, side_id=axis.pk, kind="withdraw", payload={"battalion_code": battalion.code}
    )
    side_order_submit(campaign.pk, player, order.pk, side_id=axis.pk)


def visit_every_page(
    tab: Tab, base_url: str, username: str, checks: Mapping[str, Callable[[Page], None]] = {}
) -> None:
    """Each page's quality, and with ``checks`` what a page of that name must hold besides."""
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
    for name in CAMPAIGN_PAGES + (UMPIRE_PAGES if username == "umpire" else []):
        navigation.get_by_role("link", name=name, exact=True).click()
        page.wait_for_load_state("networkidle")
        # A page opened within the app fetches after the click: check it loaded, not its loading.
        expect(page.locator("p.loading")).to_have_count(0)
        assert_page_quality(page)
        checks.get(name, lambda page: None)(page)
        tab.shot(re.sub(r"\W+", "-", name.lower()))

    navigation.get_by_role("link", name="Roll log", exact=True).click()
    newest = page.get_by_role("list", name="Rolls, newest first").locator("summary").first
    newest.click()  # a roll opens to its dice
    expect(page.get_by_role("list", name="Rolls, newest first").get_by_text("Dice").first).to_be_visible()
    assert_page_quality(page)
    tab.shot("roll-opened")
    if username != "umpire":
        assert_no_roll_hidden_from(tab, campaign, username)

    page.goto(f"{base_url}/campaigns/{campaign.slug}/battles/{battle.public_id}")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert_page_quality(page)
    tab.shot("battle")


# Every member's view: the umpire's and each side's (fog of war shows each side other words).
MEMBERS = ["umpire", "axis", "allied"]


def visit_every_page_as_each_member(
    tab: Tab, base_url: str, checks: Callable[[str], Mapping[str, Callable[[Page], None]]]
) -> None:
    """Each member in turn in the same window, signing out between them (one demo, one server)."""
    for username in MEMBERS:
        tab.api_bodies.clear()  # the roll check reads only what this member's pages received
        visit_every_page(tab, base_url, username, checks(username))
        tab.page.get_by_role("banner").get_by_role("button", name="Sign out").click()
        tab.page.get_by_label("Username").wait_for()


def test_every_page_is_accessible_and_fits_a_desktop(live_server, tab: Tab):
    axis_order_submitted(malta_day_one())
    visit_every_page_as_each_member(tab, live_server.url, lambda username: {})


def test_every_page_is_accessible_and_fits_a_phone(live_server, phone_tab: Tab):
    axis_order_submitted(malta_day_one())
    assert phone_tab.page.viewport_size == PHONE_SIZE

    def checks(username: str) -> Mapping[str, Callable[[Page], None]]:
        on_a_phone = {"Dashboard": assert_header_on_one_line, "Statistics": assert_charts_fit}
        if username == "umpire":  # the queue's buttons are the umpire's
            return {**on_a_phone, "Orders": assert_order_buttons_apart}
        return on_a_phone

    visit_every_page_as_each_member(phone_tab, live_server.url, checks)


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


def findings_on(page: Page, main: str) -> list[str]:
    """What the readability check finds on a page of ``main``: each finding without its sentence."""
    page.set_content(f'<html lang="en"><title>t</title><main>{main}</main>')
    return [finding.split(" in '")[0] for finding in readability_findings(page)]


def test_the_readability_check_finds_codes_doubled_words_one_in_the_plural_and_crowded_names(phone_tab: Tab):
    findings = findings_on(
        phone_tab.page,
        "<p>Arrives at dz_hal_far on <b>the</b> the first turn, or at st-pauls-bay.</p>"
        "<p>The Axis has 1 points; day 1 orders are in. <code>malta_1942</code> is a slug to copy.</p>"
        '<svg class="map-svg" viewBox="0 0 400 200" width="400" height="200">'
        '<g transform="translate(0,0) scale(1)">'
        '<g data-sector="luqa"><circle class="map-marker" cx="100" cy="100" r="18"/>'
        '<text class="map-name" x="100" y="140" font-size="22" text-anchor="middle">Luqa</text></g>'
        '<g data-sector="gudja"><circle class="map-marker" cx="130" cy="150" r="18"/>'
        '<text class="map-name" x="110" y="150" font-size="22" text-anchor="middle">Gudja</text></g>'
        "</g></svg>",
    )

    assert findings == [
        "a code where words belong ('dz_hal_far')",
        "a code where words belong ('st-pauls-bay')",
        "a doubled word ('the the')",
        "map name 'Luqa' covers the marker of gudja",
        "map names overlap: 'Luqa' and 'Gudja'",
        "one counted in the plural ('has 1 points')",
    ]


def test_a_player_prints_their_briefing_and_battle_packet_from_the_app(live_server, tab: Tab):
    campaign = malta_day_one()
    allied = campaign.sides.get(is_axis=False)
    page = tab.page
    sign_in(tab, live_server.url, "allied")
    page.get_by_role("link", name=campaign.name).click()

    briefing = page.get_by_role("link", name=f"{allied.name}'s briefing for day 1 (PDF)")
    briefing.wait_for()
    assert page.get_by_role("link", name="briefing").count() == 1  # the Axis's is not offered
    answer = page.request.get(urljoin(live_server.url, briefing.get_attribute("href")))
    assert answer.status == 200
    assert answer.headers["content-type"] == "application/pdf"

    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Battles").click()
    page.get_by_role("link", name=SECTOR).click()
    packet = page.get_by_role("link", name=f"{allied.name}'s battle packet (PDF)")
    packet.wait_for()
    assert page.get_by_role("link", name="battle packet").count() == 1
    answer = page.request.get(urljoin(live_server.url, packet.get_attribute("href")))
    assert answer.status == 200
    assert answer.body().startswith(b"%PDF")
    assert_page_quality(page)
    tab.shot("battle-with-packet-link")


def test_the_readability_check_finds_letter_codes_without_their_meaning(phone_tab: Tab):
    findings = findings_on(
        phone_tab.page,
        "<p>Force led by B Exceptional; CO average (C,B).</p><p>Leader (C)</p>"
        "<ul><li>A) Highly Responsive</li>"
        "<li><span>●</span><span>A Coy</span> <span>Infantry</span></li></ul>"
        "<p>A battalion of Force A moves with its C Ops; I see stand A. at G1 (d6 [3] = 3), "
        'drifting 3" N, 2" W; Inspirational (rating C).</p>',
    )

    assert findings == [
        "a letter code without its meaning ('A')",
        "a letter code without its meaning ('B')",
        "a letter code without its meaning ('C')",  # in "(C,B)"
        "a letter code without its meaning ('C')",  # in "Leader (C)"
    ]
