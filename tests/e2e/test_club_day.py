"""The umpire's club day in a real browser, only through the web app, at desk and phone width:
schedule and postpone reinforcements, dawn with a deployment (its casualties previewed, then
confirmed), open a segment and see the arrival rolled on a real worker, spend activation points,
override a roll, correct a stand, identify an enemy battalion; then the Allied player's view of
the Axis shows exactly what the fog reveals."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from campaign import models
from campaign.choices import ArrivalStatus, EventVerb, StandStatus, StandType
from campaign.services.demo import demo_campaign_load, demo_users_ensure
from tests.e2e.conftest import PHONE, Tab, open_tab, sign_in
from tests.e2e.quality import DICE_TEXT, assert_readable

# The demo names reference equipment, which an earlier transactional test's flush removed.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

DESKTOP = {"width": 1280, "height": 900}
RESERVE = "E4"  # 8th Bn Manchester Regiment, in reserve in the demo
RANGE = "5"  # inches to the nearest enemy: the dawn column of 6" suppresses two stands


def fits_the_screen(page: Page) -> bool:
    """No sideways scrolling of the whole page (wide tables scroll in their own box)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def tab_for(browser: Browser, request: pytest.FixtureRequest, width: str) -> Iterator[Tab]:
    if width == "phone":
        return open_tab(browser, request, viewport=PHONE, is_mobile=True, has_touch=True)
    return open_tab(browser, request, viewport=DESKTOP)


def go(tab: Tab, name: str) -> None:
    tab.page.get_by_role("navigation", name="Campaign").get_by_role("link", name=name, exact=True).click()
    tab.page.get_by_role("heading", level=1).wait_for()


def step(tab: Tab, name: str) -> None:
    assert fits_the_screen(tab.page), f"{name}: the page scrolls sideways"
    assert_readable(tab.page)
    tab.shot(name)


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_the_umpire_runs_a_club_day_and_the_player_sees_what_fog_reveals(
    live_server, celery_worker, browser: Browser, request: pytest.FixtureRequest, width: str
):
    demo_users_ensure()
    campaign = demo_campaign_load()
    assert campaign is not None
    livorno = campaign.forces.get(name__startswith="4a Divisione")
    panzer = campaign.forces.get(name="Panzer-Abteilung z.b.V. 66")
    umpire_tab = tab_for(browser, request, width)
    tab = next(umpire_tab)
    page = tab.page

    sign_in(tab, live_server.url, "umpire")
    page.get_by_role("link", name=campaign.name).click()
    page.get_by_role("button", name="Start the campaign").click()
    dawn_link = page.get_by_role("link", name="Dawn the next day…")
    expect(dawn_link).to_be_visible()
    dawn_link.click()
    expect(page.get_by_role("heading", name="Dawn of day 1")).to_be_visible()

    # Reinforcements: the tanks due today, the Livorno division put off a day.
    schedule = page.get_by_role("form", name="Schedule a reinforcement")
    schedule.get_by_label("Force").select_option(label=f"{panzer.name} (Axis, scheduled)")
    schedule.get_by_label("Due on day").fill("1")
    schedule.get_by_role("button", name="Schedule").click()
    expect(page.get_by_role("listitem").filter(has_text=panzer.name).first).to_contain_text("day 1")
    postpone = page.get_by_role("form", name=f"Postpone {livorno.name}")
    postpone.get_by_label("To day").fill("2")
    postpone.get_by_role("button", name="Postpone").click()
    expect(postpone.get_by_label("To day")).to_have_accessible_description(
        f"Day 2 is not later than day 2: {livorno.name} is due on day 2 and the campaign is on day 0."
    )
    postpone.get_by_label("To day").fill("3")
    postpone.get_by_role("button", name="Postpone").click()
    expect(page.get_by_role("listitem").filter(has_text=livorno.name).first).to_contain_text("day 3")
    livorno.refresh_from_db()
    assert (livorno.arrival_status, livorno.arrival_day) == (ArrivalStatus.SCHEDULED, 3)
    step(tab, "reinforcements")

    # Dawn with a deployment: the chart's casualties first, then the confirmation.
    battalion = models.Battalion.objects.get(campaign=campaign, code=RESERVE)
    intact = sorted(battalion.stands.all(), key=lambda s: (s.stand_type == StandType.HQ, s.label))
    expected = [stand.label for stand in intact[:2]]
    deploy = page.get_by_role("group", name=f"Deploy {RESERVE}")
    deploy.get_by_role("checkbox").first.check()
    deploy.get_by_label("Range to the nearest enemy (inches)").fill(RANGE)
    dawn = page.get_by_role("button", name="Dawn day 1…")
    expect(dawn).to_be_disabled()
    page.get_by_role("button", name="Preview the dawn").click()
    preview = page.get_by_role("list", name="Deployment casualties")
    expect(preview).to_contain_text(f"suppressed: {', '.join(expected)}")
    expect(preview).to_contain_text('Dawn Phase, 6"')
    assert not campaign.days.exists()  # the preview wrote nothing
    assert set(battalion.stands.values_list("status", flat=True)) == {StandStatus.OK}
    step(tab, "dawn-preview")
    dawn.click()
    dialog = page.get_by_role("alertdialog", name="Dawn day 1?")
    expect(dialog).to_contain_text("A dawn cannot be undone.")
    step(tab, "dawn-confirm")
    dialog.get_by_role("button", name="Dawn day 1").click()
    expect(page.get_by_role("heading", name="Day 1: under way")).to_be_visible()
    suppressed = set(battalion.stands.filter(status=StandStatus.SUPPRESSED).values_list("label", flat=True))
    assert suppressed == set(expected)
    assert not models.Battalion.objects.get(pk=battalion.pk).in_reserve

    # The dawn's weather and the segment's rolls, one line each, opening to their dice.
    rolls = page.get_by_role("list", name="Rolls of day 1")
    weather = rolls.locator("details.roll-line").filter(has_text="weather").first
    weather.locator("summary").first.click()
    expect(weather.get_by_text(DICE_TEXT).first).to_be_visible()
    step(tab, "day-rolls")

    # Activation points by column: the Axis buys one battlegroup at dawn.
    axis = campaign.sides.get(is_axis=True)
    spend = page.get_by_role("form", name="Spend activation points")
    expect(spend).to_contain_text(f"Axis holds {axis.activation_points} activation points")
    spend.get_by_label("Side").select_option(label="Axis")
    spend.get_by_role("radio", name="1 Bg costs 2 AP").check()
    ramcke = spend.get_by_role("group", name="Fallschirmjäger-Brigade Ramcke")
    ramcke.get_by_role("checkbox", name="G1", exact=False).first.check()
    ramcke.get_by_role("checkbox").nth(1).check()
    spend.get_by_role("button", name="Spend 2 points on 1 Bg").click()
    expect(spend.get_by_role("status")).to_contain_text("Axis spent 2 points on 1 Bg")
    expect(spend).to_contain_text(f"Axis holds {axis.activation_points - 2} activation points")
    step(tab, "activation")

    # Open a segment: the arrival rolls run on the worker; the tanks roll.
    page.get_by_role("button", name="Open the next segment").click()
    expect(page.get_by_role("table", name="Segments")).to_contain_text("Morning")
    arrivals = page.get_by_role("list", name="Arrivals")
    expect(arrivals).to_contain_text(panzer.name, timeout=60_000)
    operation = models.Operation.objects.filter(campaign=campaign, kind="arrivals").latest("id")
    assert operation.status == "done"
    # The reinforcements list is read again when the rolls end: the tanks' new state, and Postpone
    # offered only while the state allows it.
    panzer.refresh_from_db()
    assert panzer.arrival_status != ArrivalStatus.SCHEDULED
    tanks = page.get_by_role("listitem").filter(has_text=f"{panzer.name} (Axis)").first
    expect(tanks).to_contain_text(panzer.get_arrival_status_display())
    postponable = panzer.arrival_status == ArrivalStatus.ROLLING
    expect(page.get_by_role("form", name=f"Postpone {panzer.name}")).to_have_count(1 if postponable else 0)
    step(tab, "arrivals")

    # Override the morning's turns with a reason.
    turns_roll = models.RollRecord.objects.get(
        campaign=campaign, procedure="pk.segment_turns", day__number=1, segment__order=1, override_of=None
    )
    turns = turns_roll.changes["turns"]
    morning = re.compile(r"Turns per segment · Morning:")
    line = rolls.locator("details.roll-line").filter(has_text=morning).first
    line.locator("summary").first.click()
    line.get_by_text("Override this roll").click()
    form = line.get_by_role("form")
    form.get_by_label("New turns").fill(str(turns + 1))
    form.get_by_label("Reason").fill("the club plays a longer morning")
    form.get_by_role("button", name="Override").click()
    expect(form.get_by_role("status")).to_contain_text("the club plays a longer morning")
    segment = models.DaySegmentRecord.objects.get(day__campaign=campaign, day__number=1, order=1)
    assert segment.turns == turns + 1
    assert models.RollRecord.objects.filter(override_of=turns_roll).count() == 1
    step(tab, "override")

    # Correct a stand of the Allies, with the reason.
    go(tab, "Forces")
    w1 = page.locator("li.battalion").filter(has_text="W1").first
    w1.locator("summary").first.click()
    stand = models.Stand.objects.filter(battalion__campaign=campaign, battalion__code="W1").earliest("label")
    w1.get_by_text(f"Correct {stand.label}", exact=True).click()
    correction = w1.get_by_role("form", name=f"Correct stand {stand.label}")
    correction.get_by_label("State").select_option(label="Destroyed")
    correction.get_by_label("Reason").fill("lost to the night bombing")
    correction.get_by_role("button", name="Correct").click()
    expect(correction.get_by_role("status")).to_contain_text(f"{stand.label} is destroyed")
    stand.refresh_from_db()
    assert stand.status == StandStatus.DESTROYED
    event = campaign.events.get(verb=EventVerb.ADMIN_CORRECTED, object_id=stand.pk)
    assert event.message.endswith("(lost to the night bombing)")
    step(tab, "stand-corrected")

    # The Allies identify G1 (strengths stay hidden). Contact on the map would show the paratroops
    # next to Allied units too: this club plays without it, so only what is identified shows.
    models.Side.objects.filter(pk=axis.pk).update(fog_of_war={**axis.fog_of_war, "in_contact": False})
    go(tab, "Fog of war")
    axis_fog = page.get_by_role("form", name="Fog of war of Axis")
    axis_fog.get_by_role("checkbox", name="G1 I./Fallschirmjäger-Regiment 2 (Bataillon Kroh)").check()
    axis_fog.get_by_role("button", name="Save what Allied sees").click()
    expect(axis_fog.get_by_role("status")).to_have_text("Saved.")
    axis.refresh_from_db()
    assert axis.fog_of_war["identified_units"] == ["G1"]
    assert axis.fog_of_war["in_contact"] is False  # the picker keeps the map's contact setting
    step(tab, "fog-of-war")
    next(umpire_tab, None)  # closes it, checking the page raised no error

    # The Allied player sees G1 by name and nothing of the Axis the fog hides.
    player_tab = tab_for(browser, request, width)
    player = next(player_tab)
    player.name += "-allied"  # its screenshots beside the umpire's
    sign_in(player, live_server.url, "allied")
    player.page.get_by_role("link", name=campaign.name).click()
    go(player, "Forces")
    forces = player.page.locator("ul.forces")
    g1 = player.page.locator("li.battalion").filter(has_text="G1").first
    g1.locator("summary").first.click()
    expect(g1).to_contain_text("Identified; its side does not reveal its strength.")
    expect(forces).not_to_contain_text("G2")
    expect(forces).not_to_contain_text("unknown")
    expect(forces).not_to_contain_text("Strength hidden")
    axis_force = player.page.locator("li.force").filter(has_text="Fallschirmjäger-Brigade Ramcke").first
    axis_force.get_by_role("button", name="Show force status").click()
    expect(axis_force).to_contain_text("Identified battalions")
    axis_labels = set(models.Stand.objects.filter(battalion__side=axis).values_list("label", flat=True))
    allied_labels = set(models.Stand.objects.exclude(battalion__side=axis).values_list("label", flat=True))
    html = player.page.content()
    assert not {label for label in axis_labels - allied_labels if f">{label}<" in html}
    assert player.page.get_by_role("link", name="Fog of war").count() == 0  # the umpire's page
    step(player, "player-forces")
    next(player_tab, None)

    user = get_user_model().objects.get(username="umpire")
    assert campaign.events.filter(actor=user, verb=EventVerb.FOG_OF_WAR_SET).count() == 1
