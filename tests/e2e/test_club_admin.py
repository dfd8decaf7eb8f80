"""The umpire sets up a club in a real browser: a campaign from the demo, a refused pack
upload with its issue shown by path, a player invited by link who joins on their phone,
the club's schedule, an API key made and revoked, a webhook made and pinged through a
real worker, a side's Discord channel whose held posts the umpire publishes (one) and
discards (one, on the phone). Every page of it is checked at 390 px for horizontal scroll."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from django.db import transaction
from django.utils import timezone
from playwright.sync_api import Page, ViewportSize, expect

from campaign import models
from campaign.choices import DeliveryStatus, EventVerb, MemberRole
from campaign.scenarios import MALTA_PACK_PATH
from campaign.services.audit import SYSTEM, event_record
from campaign.services.demo import demo_users_ensure
from tests.e2e.conftest import PHONE, Tab, sign_in
from tests.webhook_receiver import Receiver, running

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("equipment_reference")]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with running(Receiver()) as receiver:
        yield receiver


def no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"{page.url} scrolls sideways at {width[1]} px: {width[0]} px wide"


def broken_pack(directory: Path) -> Path:
    pack = yaml.safe_load(MALTA_PACK_PATH.read_text(encoding="utf-8"))
    del pack["sides"][0]["name"]
    path = directory / "broken-club.yaml"
    path.write_text(yaml.safe_dump(pack), encoding="utf-8")
    return path


def test_the_umpire_sets_up_a_club_and_a_player_joins_by_link(
    live_server, celery_worker, receiver: Receiver, tab: Tab, phone_tab: Tab, tmp_path: Path
):
    demo_users_ensure()
    page = tab.page
    sign_in(tab, live_server.url, "umpire")

    # A campaign from the demo: the umpire is its umpire, its only member.
    page.get_by_role("link", name="New campaign").click()
    expect(page.get_by_role("heading", name="New campaign")).to_be_visible()
    tab.shot("new-campaign")
    page.get_by_role("button", name="Create the campaign").click()
    expect(page.get_by_role("navigation", name="Campaign")).to_be_visible()
    campaign = models.Campaign.objects.get()
    assert list(campaign.memberships.values_list("user__username", "role")) == [("umpire", MemberRole.UMPIRE)]
    tab.shot("created-from-demo")

    # A pack the schema refuses: its issue named by its path, next to the upload; nothing made.
    page.goto(f"{live_server.url}/campaigns/new")
    page.get_by_label("A scenario pack file (YAML or JSON)").check()
    page.get_by_label("Scenario pack file", exact=True).set_input_files(str(broken_pack(tmp_path)))
    page.get_by_role("button", name="Create the campaign").click()
    issues = page.locator("#pack-errors")
    expect(issues).to_contain_text("sides[0].name: Required field is missing.")
    expect(page.get_by_label("Scenario pack file", exact=True)).to_have_attribute("aria-invalid", "true")
    tab.shot("pack-refused-by-path")
    assert models.Campaign.objects.count() == 1

    # Invite a player of the Allies by link.
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/club")
    expect(page.get_by_role("heading", name="Club", exact=True)).to_be_visible()
    invite = page.get_by_role("form", name="Invite by link")
    invite.get_by_label("Side").select_option(label="Allied")
    invite.get_by_role("button", name="Make an invitation link").click()
    link = page.get_by_label("Invitation link")
    expect(link).to_have_value(re.compile(rf"^{re.escape(live_server.url)}/join/[\w-]+$"))
    invitation_link = link.input_value()
    tab.shot("invitation-link")

    # The player, on their phone, signed in, opens the link and joins.
    player = phone_tab.page
    phone_tab.name += "-player"  # its screenshots apart from the umpire's
    sign_in(phone_tab, live_server.url, "allied")
    player.goto(invitation_link)
    expect(player.get_by_text(f"You are invited to {campaign.name} as player of Allied.")).to_be_visible()
    no_horizontal_scroll(player)
    phone_tab.shot("player-invited")
    player.get_by_role("button", name=f"Join {campaign.name}").click()
    expect(player.get_by_role("navigation", name="Campaign")).to_be_visible()
    joined = campaign.memberships.get(user__username="allied")
    assert (joined.role, joined.side.name) == (MemberRole.PLAYER, "Allied")
    phone_tab.shot("player-joined")

    # The schedule: a weekly night phase and one more club night.
    schedule = page.get_by_role("form", name="Club schedule")
    schedule.get_by_label("Night phase on").select_option(label="Thursday")
    schedule.get_by_label(f"At ({timezone.get_default_timezone_name()})").fill("21:30")
    nights_before = campaign.club_nights.count()  # the demo's
    schedule.get_by_role("button", name="Add a club night").click()
    added = schedule.get_by_role("group", name=f"Club night {nights_before + 1}")
    expect(added.get_by_label("Campaign day")).to_have_value(str(nights_before + 1))
    added.get_by_label("Played on").fill("2026-12-03")
    schedule.get_by_role("button", name="Save the schedule").click()
    expect(page.get_by_role("status").filter(has_text="Schedule saved.")).to_be_visible()
    expect(page.get_by_text("Every Thursday at 21:30")).to_be_visible()
    campaign.refresh_from_db()
    assert (campaign.night_weekday, str(campaign.night_time)) == (3, "21:30:00")
    assert campaign.club_nights.order_by("campaign_day").last().play_date.isoformat() == "2026-12-03"
    assert campaign.club_nights.count() == nights_before + 1
    tab.shot("schedule-set")

    # The player sees the schedule and their own calendar link.
    player.goto(f"{live_server.url}/campaigns/{campaign.slug}/club")
    expect(
        player.get_by_text(re.compile(rf"Campaign day {nights_before + 1}: Thu,? 3 December 2026"))
    ).to_be_visible()
    expect(player.get_by_label("Calendar address")).to_have_value(
        f"{live_server.url}/api/v1/calendar/{joined.calendar_token}.ics"
    )
    expect(player.get_by_role("heading", name="Members")).to_have_count(0)
    no_horizontal_scroll(player)
    phone_tab.shot("player-club")

    # An API key: shown once, then revoked.
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="API keys & webhooks").click()
    page.get_by_label("Who uses it, for what").fill("Club scoreboard")
    page.get_by_role("button", name="Create the key").click()
    expect(page.get_by_label("The new key")).to_have_value(re.compile(r"^\w+\.\w+"))
    prefix = models.CampaignAPIKey.objects.get(campaign=campaign).prefix
    assert page.get_by_label("The new key").input_value().startswith(f"{prefix}.")
    tab.shot("api-key-created")
    page.get_by_role("button", name="Revoke Club scoreboard").click()
    expect(page.get_by_text("Revoked")).to_be_visible()
    assert models.CampaignAPIKey.objects.get(campaign=campaign).revoked
    tab.shot("api-key-revoked")

    # A webhook, pinged: the worker delivers the test event to the receiver.
    page.get_by_label("Address (https://…)").fill(receiver.url)
    page.get_by_label("Night phase done").check()
    page.get_by_role("button", name="Create the webhook").click()
    expect(page.get_by_label("Signing secret")).not_to_have_value("")
    # The new webhook's own button, once its row is listed (a click during the list's re-render
    # once went nowhere: "Nothing sent yet").
    webhook = page.get_by_role("listitem", name=f"Webhook {receiver.url}")
    expect(webhook).to_be_visible()
    webhook.get_by_role("button", name="Send a test event").click()
    deliveries = page.get_by_role("list", name=f"Deliveries to {receiver.url}")
    expect(deliveries).to_contain_text("Ping (a test event): Delivered after 1 attempt", timeout=60_000)
    assert models.WebhookDelivery.objects.get().status == DeliveryStatus.DELIVERED
    assert [received.headers["X-Campaign-Event"] for received in receiver.requests] == ["ping"]
    tab.shot("webhook-pinged")

    # A Discord channel of the Allies whose posts wait for the umpire: one published, one discarded.
    with running(Receiver(discord=True)) as channel:
        form = page.get_by_role("form", name="New webhook")
        form.get_by_label("Address (https://…)").fill(channel.url)
        form.get_by_label("It is").select_option(label="Discord channel")
        form.get_by_label("It reads as").select_option(label="One side: what its players may read")
        form.get_by_label("Whose side (for one side)").select_option(label="Allied")
        form.get_by_label("Hold each post until an umpire publishes it").check()
        form.get_by_label("Sector changed hands").check()
        form.get_by_role("button", name="Create the webhook").click()
        held = page.get_by_role("listitem", name=f"Webhook {channel.url}")
        expect(held).to_contain_text("Discord channel, for One side: what its players may read")
        channel_hook = models.WebhookSubscription.objects.get(url=channel.url)
        assert (channel_hook.side.name, channel_hook.hold_for_approval) == ("Allied", True)
        for sector in campaign.sectors.order_by("name")[:2]:
            with transaction.atomic():  # as the services record it
                event_record(campaign, EventVerb.SECTOR_CONTROL_CHANGED, sector, "Changed hands", SYSTEM)
        page.reload()
        posts = page.get_by_role("list", name=f"Deliveries to {channel.url}").get_by_role("listitem")
        expect(posts).to_have_count(2)
        expect(posts.nth(0)).to_contain_text("Held for an umpire's approval")
        assert channel.requests == []  # nothing reaches the club before the umpire checked it
        tab.shot("discord-posts-held")
        posts.nth(0).get_by_role("button", name="Publish").click()
        expect(posts.nth(0)).to_contain_text("Delivered after 1 attempt", timeout=60_000)
        assert len(channel.requests) == 1
        assert channel.problems == []
        tab.shot("discord-post-published")
        # The other, on the umpire's phone: discarded, it never goes.
        page.set_viewport_size(ViewportSize(width=PHONE["width"], height=PHONE["height"]))
        posts.nth(1).get_by_role("button", name="Discard").click()
        expect(posts.nth(1)).to_contain_text("Discarded by an umpire")
        no_horizontal_scroll(page)
        tab.shot("phone-discord-post-discarded")
        assert len(channel.requests) == 1

    # Every page of the club's administration at 390 px: nothing scrolls sideways.
    page.set_viewport_size(ViewportSize(width=PHONE["width"], height=PHONE["height"]))
    for path, step in (
        ("/campaigns/new", "phone-new-campaign"),
        (f"/campaigns/{campaign.slug}/club", "phone-club"),
        (f"/campaigns/{campaign.slug}/integrations", "phone-integrations"),
    ):
        page.goto(f"{live_server.url}{path}")
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        page.wait_for_load_state("networkidle")
        no_horizontal_scroll(page)
        tab.shot(step)
