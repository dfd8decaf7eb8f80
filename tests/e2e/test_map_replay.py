"""The map replayed in a real browser (issue 32): the demo played for two days (a battle at Gudja
won by the Axis, two night phases), then the map replayed from the dawn of day 1 to the night of
day 2 as the umpire and as each player at 1280 and 390 px, a screenshot per moment; a player's
replay shows no enemy unit that side did not see that day, even once it has seen them all since."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from campaign import models
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn, segment_advance
from campaign.services.demo import demo_campaign_load, demo_users_ensure
from campaign.services.map_snapshots import map_snapshot_after_night
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from tests.api.test_papers import pdf_text
from tests.conftest import SHARED_WORKER
from tests.e2e.conftest import Tab
from tests.e2e.demo import gudja_battle
from tests.e2e.quality import assert_page_quality
from tests.e2e.test_map import in_contact, open_map
from tests.e2e.test_map import tabs as tabs

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]

TITLES = ("Day 1, at dawn", "Day 1, after the night", "Day 2, at dawn", "Day 2, after the night")


@dataclass(frozen=True)
class Seen:
    """What the fog rule (MAP_CONTRACT) let a side see of the enemy at one moment: the sectors
    where it sees the enemy (on or next to its own units) and the battalions it identified."""

    contact: frozenset[int]
    identified: frozenset[str]


def seen_now(campaign: models.Campaign) -> dict[str, Seen]:
    seen = {}
    for side in campaign.sides.all():
        enemy = campaign.sides.exclude(pk=side.pk).get()
        fog = enemy.fog_of_war or {}
        contact = in_contact(side) if fog.get("in_contact", True) is not False else set()
        seen[side.name] = Seen(frozenset(contact), frozenset(fog.get("identified_units") or []))
    return seen


def two_days() -> tuple[models.Campaign, list[dict[str, Seen]]]:
    """The demo from its start to the night of day 2 (G1 attacks W1 at Gudja on day 1), through
    the services as the umpire would; what each side saw at each of the four moments. Each side
    sees the enemy it identified only (no contact on an island this small hides nothing)."""
    demo_users_ensure()
    campaign = demo_campaign_load()
    assert campaign is not None
    for side in campaign.sides.all():
        models.Side.objects.filter(pk=side.pk).update(fog_of_war={**side.fog_of_war, "in_contact": False})
    actor = Actor(user=get_user_model().objects.get(username="umpire"), request_id="e2e-replay")
    campaign_start(campaign.pk, actor)
    day_dawn(campaign.pk, actor)
    moments = [seen_now(campaign)]
    segment_advance(campaign.pk, actor)
    battle = gudja_battle(campaign, actor)
    axis = campaign.sides.get(is_axis=True)
    battle_report(
        campaign.pk,
        actor,
        battle.pk,
        {"battalions": [{"code": "G1"}, {"code": "W1"}], "winner": axis.pk, "sector_owner": axis.pk},
    )
    for day in (1, 2):
        if day == 2:
            day_dawn(campaign.pk, actor)
            moments.append(seen_now(campaign))
        night = operation_run(night_phase_start(campaign.pk, actor).pk)
        map_snapshot_after_night(night.pk)  # as its task does on a worker, once the night is in
        moments.append(seen_now(campaign))
    campaign.refresh_from_db()
    return campaign, moments


def slide_to(page: Page, index: int, title: str) -> None:
    slider = page.get_by_role("slider", name="Moment shown")
    slider.focus()
    page.keyboard.press("Home")
    for _ in range(index):
        page.keyboard.press("ArrowRight")
    replay = page.get_by_role("group", name="Replay the map day by day")
    expect(replay.locator("output")).to_have_text(title)
    expect(page.locator(".map-replay-note")).to_contain_text(title)
    page.wait_for_load_state("networkidle")


def enemy_units_outside_the_fog(tab: Tab, side: models.Side, moments: list[dict[str, Seen]]) -> list[str]:
    """Enemy battalions and C Ops a replayed map body showed outside what the side saw then."""
    wrong = []
    for url, body in tab.api_bodies:
        if "/map/?" not in url or "day=" not in url:
            continue
        index = TITLES.index(
            next(
                m["title"]
                for m in body["moments"]
                if (m["day"], m["moment"]) == (body["day"], body["moment"])
            )
        )
        seen = moments[index][side.name]
        for battalion in body["battalions"]:
            if battalion["side"] != side.pk and not (
                battalion["sector"] in seen.contact or battalion["code"] in seen.identified
            ):
                wrong.append(f"{TITLES[index]}: battalion {battalion['code']}")
        for force in body["forces"]:
            if force["side"] != side.pk and force["sector"] not in seen.contact:
                wrong.append(f"{TITLES[index]}: C Ops of {force['name']}")
    return wrong


@pytest.fixture
def campaign_played() -> tuple[models.Campaign, list[dict[str, Seen]]]:
    # The test plays the worker's part itself: a worker left running by an earlier test would take
    # the tasks the services send (the night reports' e-mails, the map after the night) while the
    # next dawn runs, and the two would wait on each other's rows.
    SHARED_WORKER.stop()
    campaign, moments = two_days()
    assert list(models.MapSnapshot.objects.filter(campaign=campaign).values_list("day_number", "moment")) == [
        (1, "dawn"),
        (1, "night"),
        (2, "dawn"),
        (2, "night"),
    ]
    # Since then each side has identified every enemy battalion: today's map shows them all,
    # the replay only what was seen then.
    for side in campaign.sides.all():
        enemy = campaign.sides.exclude(pk=side.pk).get()
        codes = sorted(enemy.battalions.values_list("code", flat=True))
        models.Side.objects.filter(pk=enemy.pk).update(
            fog_of_war={**enemy.fog_of_war, "identified_units": codes}
        )
    return campaign, moments


@pytest.mark.parametrize("username", ["umpire", "axis", "allied"])
def test_the_map_replays_two_days_as_each_reader_saw_them(
    live_server, browser: Browser, tabs: dict[str, Tab], campaign_played, username: str
):
    campaign, moments = campaign_played
    gudja = campaign.sectors.get(name="Gudja")
    for width, tab in tabs.items():
        page = open_map(tab, live_server.url, username, campaign)
        replay = page.get_by_role("group", name="Replay the map day by day")
        expect(replay.locator("output")).to_have_text("Now")
        tab.shot("now")
        for index, title in enumerate(TITLES):
            slide_to(page, index, title)
            assert_page_quality(page)
            tab.shot(f"replay-{index + 1}")
        if width == "1280":
            # Play runs from the first dawn to the last moment kept.
            page.get_by_role("slider", name="Moment shown").press("End")
            expect(replay.locator("output")).to_have_text("Now")
            replay.get_by_role("button", name="Play").click()
            expect(replay.locator("output")).to_have_text(TITLES[0])
            expect(replay.locator("output")).to_have_text(TITLES[-1], timeout=15_000)
            expect(replay.get_by_role("button", name="Play")).to_be_visible()
            tab.shot("played")
        replayed = [body for url, body in tab.api_bodies if "/map/?" in url and "day=" in url]
        assert {(body["day"], body["moment"]) for body in replayed} == {
            (1, "dawn"),
            (1, "night"),
            (2, "dawn"),
            (2, "night"),
        }
        # Gudja changed hands in the battle of day 1: the Axis's after the night, not at dawn.
        owners = {
            (body["day"], body["moment"]): next(s["owner"] for s in body["sectors"] if s["id"] == gudja.pk)
            for body in replayed
        }
        assert owners[(1, "night")] == campaign.sides.get(is_axis=True).pk
        if username != "umpire":
            side = campaign.sides.get(is_axis=username == "axis")
            assert enemy_units_outside_the_fog(tab, side, moments) == [], width
            live = [body for url, body in tab.api_bodies if url.endswith("/map/")][-1]
            enemy = {b["code"] for b in live["battalions"] if b["side"] != side.pk}
            then = {b["code"] for body in replayed for b in body["battalions"] if b["side"] != side.pk}
            assert enemy - then, "today's map shows enemy battalions the replay must not"
        print_the_chronicle(tab, username, width == "1280")


def print_the_chronicle(tab: Tab, username: str, printing: bool) -> None:
    """The dashboard's link to the chronicle of the two days, and with ``printing`` the chronicle
    printed for the reader (once a reader: the PDF is the same at every width; its fog is tested
    in tests/api/test_chronicle.py)."""
    page = tab.page
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Dashboard").click()
    link = page.get_by_role("navigation", name="Print").get_by_role("link", name="The chronicle so far (PDF)")
    expect(link).to_be_visible()
    tab.shot("chronicle-link")
    if not printing:
        return
    printed = page.request.get(link.get_attribute("href") or "")
    assert printed.status == 200
    assert printed.headers["content-type"] == "application/pdf"
    copy = "the umpires' copy" if username == "umpire" else f"{username.capitalize()}'s copy"
    text = pdf_text(printed.body(), f"chronicle-{username}-{tab.name}")
    assert copy in text
    assert "Day 1:" in text
    assert "Day 2:" in text
