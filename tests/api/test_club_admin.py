"""The club's administration through the API: creating and exporting campaigns, members
and invitations, the club's schedule, each member's calendar feed, a delivery sent again."""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Any

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse
from icalendar import Calendar
from rest_framework.test import APIClient

from campaign import models
from campaign.choices import DeliveryStatus, EventVerb, MemberRole
from campaign.scenarios import MALTA_PACK_PATH
from campaign.services.memberships import invitation_create
from campaign.services.webhook_subscriptions import webhook_subscribe
from tests.api.world import ACTOR
from tests.campaign.factories import UserFactory, campaign_with_sides

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("equipment_reference")]

CAMPAIGNS = reverse("api:campaign-list")


def signed_in(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def url(campaign: models.Campaign, name: str, **kwargs: Any) -> str:
    return reverse(f"api:{name}", kwargs={"campaign_slug": campaign.slug, **kwargs})


def umpire_of(campaign: models.Campaign) -> Any:
    return campaign.memberships.get(role=MemberRole.UMPIRE).user


def error(response: Any) -> dict[str, Any]:
    body: dict[str, Any] = response.json()["error"]
    return body


def written() -> tuple[int, ...]:
    return (
        models.Campaign.objects.count(),
        models.Membership.objects.count(),
        get_user_model().objects.count(),
        models.Event.objects.count(),
        models.Invitation.objects.count(),
        models.ClubNight.objects.count(),
    )


# Creating and exporting ----------------------------------------------------------------


def test_anybody_signed_in_creates_a_campaign_from_the_demo_and_is_its_only_member_its_umpire():
    creator = UserFactory(username="creator")
    users_before = get_user_model().objects.count()

    response = signed_in(creator).post(CAMPAIGNS, {"based_on": "demo"}, format="json")

    assert response.status_code == 201, response.json()
    campaign = models.Campaign.objects.get(slug=response.json()["slug"])
    assert response.json()["role"] == MemberRole.UMPIRE
    assert list(campaign.memberships.values_list("user__username", "role")) == [("creator", "umpire")]
    # The pack's logins (umpire, axis, allied) are neither made nor let in.
    assert get_user_model().objects.count() == users_before
    assert campaign.events.filter(verb=EventVerb.MEMBER_JOINED, actor=creator).exists()

    again = signed_in(creator).post(CAMPAIGNS, {"based_on": "demo", "name": "Malta again"}, format="json")

    assert again.status_code == 201
    assert again.json()["slug"] == f"{campaign.slug}-2"  # the pack's slug, numbered
    assert again.json()["name"] == "Malta again"


def test_a_pack_the_schema_refuses_is_a_400_naming_each_issue_by_its_path_and_writes_nothing():
    pack = yaml.safe_load(MALTA_PACK_PATH.read_text())
    pack["sides"][1]["forces"][0]["battlegroups"][0]["battalions"][0]["stands"][0]["stand_type"] = "dragon"
    del pack["sides"][0]["name"]
    client = signed_in(UserFactory())
    before = written()

    response = client.post(
        CAMPAIGNS,
        {"based_on": "pack", "pack_file_name": "broken.yaml", "pack": yaml.safe_dump(pack)},
        format="json",
    )

    assert response.status_code == 400
    body = error(response)
    assert body["code"] == "invalid_scenario"
    assert body["fields"]["pack.sides[0].name"] == ["Required field is missing."]
    stand_type = "pack.sides[1].forces[0].battlegroups[0].battalions[0].stands[0].stand_type"
    assert body["fields"][stand_type][0].startswith("'dragon' is not one of")
    assert body["message"].startswith("The pack was not imported:")
    assert written() == before


def test_a_file_that_is_not_yaml_is_a_400_on_the_pack_in_a_sentence():
    response = signed_in(UserFactory()).post(
        CAMPAIGNS,
        {"based_on": "pack", "pack_file_name": "x.yaml", "pack": "campaign: [unclosed"},
        format="json",
    )

    assert response.status_code == 400
    assert list(error(response)["fields"]) == ["pack"]
    assert (
        error(response)["message"].startswith("X.yaml is not valid YAML")
        or "not valid YAML" in (error(response)["message"])
    )


def test_a_pack_without_its_file_names_the_pack_field():
    response = signed_in(UserFactory()).post(CAMPAIGNS, {"based_on": "pack"}, format="json")

    assert response.status_code == 400
    assert error(response)["fields"] == {"pack": ["Choose a scenario pack file (YAML or JSON)."]}


def test_an_api_key_creates_no_campaign():
    campaign = campaign_with_sides()
    response = signed_in(umpire_of(campaign)).post(
        url(campaign, "api-key-list"), {"name": "k"}, format="json"
    )
    key = APIClient()
    key.credentials(HTTP_AUTHORIZATION=f"Api-Key {response.json()['key']}")

    refused = key.post(CAMPAIGNS, {"based_on": "demo"}, format="json")

    assert refused.status_code == 403
    assert models.Campaign.objects.count() == 1


def test_the_umpire_exports_the_campaign_as_a_file_that_imports_again():
    creator = UserFactory()
    client = signed_in(creator)
    slug = client.post(CAMPAIGNS, {"based_on": "demo"}, format="json").json()["slug"]
    campaign = models.Campaign.objects.get(slug=slug)

    response = client.get(url(campaign, "campaign-export"))

    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{slug}.yaml"'
    pack = yaml.safe_load(response.content)
    assert pack["campaign"]["slug"] == slug
    assert [m["username"] for m in pack["memberships"]] == [creator.username]
    as_json = client.get(url(campaign, "campaign-export"), {"file_format": "json"})
    assert as_json["Content-Type"].startswith("application/json")
    assert client.get(url(campaign, "campaign-export"), {"file_format": "xml"}).status_code == 400

    copy = client.post(
        CAMPAIGNS,
        {"based_on": "pack", "pack_file_name": f"{slug}.yaml", "pack": response.content.decode()},
        format="json",
    )
    assert copy.status_code == 201, copy.json()
    assert copy.json()["slug"] == f"{slug}-2"


# Members and invitations ----------------------------------------------------------------


def test_an_invitation_link_joins_the_signed_in_person_who_opens_it_once():
    campaign = campaign_with_sides()
    allied = campaign.sides.get(name="Allied")
    made = signed_in(umpire_of(campaign)).post(
        url(campaign, "invitation-list"), {"role": "player", "side": allied.pk}, format="json"
    )
    assert made.status_code == 201, made.json()
    token = made.json()["token"]
    assert made.json()["link"].endswith(f"/join/{token}")
    assert not models.Invitation.objects.filter(token_hash=token).exists()  # only its hash is kept
    player, latecomer = UserFactory(), UserFactory()
    link = reverse("api:invitation-link-detail", kwargs={"token": token})
    accept = reverse("api:invitation-link-accept", kwargs={"token": token})

    preview = signed_in(player).get(link)
    assert preview.json() | {"expires_at": None} == {
        "campaign": campaign.slug,
        "campaign_name": campaign.name,
        "role": "player",
        "role_label": "Player",
        "side_name": "Allied",
        "expires_at": None,
        "used": False,
        "expired": False,
    }
    joined = signed_in(player).post(accept)

    assert joined.status_code == 201
    membership = campaign.memberships.get(user=player)
    assert (membership.role, membership.side) == (MemberRole.PLAYER, allied)
    used = signed_in(latecomer).post(accept)
    assert used.status_code == 409
    assert error(used)["message"] == "This invitation was already used."
    assert not campaign.memberships.filter(user=latecomer).exists()
    assert APIClient().post(accept).status_code == 401


def test_an_expired_or_unknown_invitation_lets_nobody_in():
    campaign = campaign_with_sides()
    invitation, token = invitation_create(campaign.pk, ACTOR, role=MemberRole.OBSERVER)
    models.Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
    )
    person = signed_in(UserFactory())

    expired = person.post(reverse("api:invitation-link-accept", kwargs={"token": token}))
    unknown = person.post(reverse("api:invitation-link-accept", kwargs={"token": "not-a-token"}))

    assert expired.status_code == 409
    assert error(expired)["message"].startswith("This invitation expired on 01 January 2020")
    assert unknown.status_code == 404
    assert campaign.memberships.count() == 1


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"role": "player"}, "side", "A player needs a side."),
        ({"role": "observer", "side": 1}, "side", "Only players play a side, not an observer."),
        ({"role": "player", "side": 999999}, "side", None),
        ({"role": "observer", "expires_in_days": 90}, "expires_in_days", None),
    ],
)
def test_an_invitation_the_campaign_cannot_give_names_its_field(body, field, message):
    campaign = campaign_with_sides()
    before = written()

    response = signed_in(umpire_of(campaign)).post(url(campaign, "invitation-list"), body, format="json")

    assert response.status_code == 400
    assert list(error(response)["fields"]) == [field]
    if message:
        assert error(response)["message"] == message
    assert written() == before


def test_the_umpire_creates_an_account_whose_initial_password_signs_in():
    campaign = campaign_with_sides()
    axis = campaign.sides.get(name="Axis")
    client = signed_in(umpire_of(campaign))

    response = client.post(
        url(campaign, "member-list"), {"username": "rommel", "role": "player", "side": axis.pk}, format="json"
    )

    assert response.status_code == 201, response.json()
    password = response.json()["initial_password"]
    assert response.json()["side_name"] == "Axis"
    assert APIClient().login(username="rommel", password=password)
    listed = client.get(url(campaign, "member-list")).json()
    assert [(m["username"], m["role_label"]) for m in listed] == [
        ("rommel", "Player"),
        (umpire_of(campaign).username, "Umpire"),
    ]
    assert password not in str(list(campaign.events.values_list("message", "after")))
    taken = client.post(
        url(campaign, "member-list"), {"username": "ROMMEL", "role": "observer"}, format="json"
    )
    assert taken.status_code == 409
    assert error(taken)["fields"] == {
        "username": ["The username 'ROMMEL' is taken: invite that person by link instead."]
    }


def test_members_are_removed_but_never_the_last_umpire():
    campaign = campaign_with_sides()
    umpire = umpire_of(campaign)
    observer = models.Membership.objects.create(
        user=UserFactory(), campaign=campaign, role=MemberRole.OBSERVER
    )
    client = signed_in(umpire)

    assert client.delete(url(campaign, "member-detail", pk=observer.public_id)).status_code == 204
    last = client.delete(url(campaign, "member-detail", pk=campaign.memberships.get(user=umpire).public_id))

    assert last.status_code == 409
    assert error(last)["message"] == (
        f"{umpire.username} is the last umpire of {campaign.name}: make another umpire first."
    )
    assert campaign.memberships.filter(user=umpire).exists()
    assert campaign.events.filter(verb=EventVerb.MEMBER_REMOVED).count() == 1


def test_players_manage_no_members_invitations_keys_or_webhooks():
    campaign = campaign_with_sides()
    player = UserFactory()
    models.Membership.objects.create(
        user=player, campaign=campaign, role=MemberRole.PLAYER, side=campaign.sides.get(name="Axis")
    )
    client = signed_in(player)
    before = written()

    for name, body in (
        ("member-list", {"username": "spy", "role": "umpire"}),
        ("invitation-list", {"role": "umpire"}),
        ("api-key-list", {"name": "mine"}),
        ("webhook-list", {"url": "https://club.example/hook", "events": ["day.dawned"]}),
    ):
        response = client.post(url(campaign, name), body, format="json")
        assert response.status_code == 403, name
        assert error(response)["message"].startswith("Only an umpire of this campaign"), name
    assert client.put(url(campaign, "campaign-schedule"), {}, format="json").status_code == 403
    assert client.get(url(campaign, "campaign-export")).status_code == 403
    assert written() == before


# The schedule and the calendar -----------------------------------------------------------


def schedule_body(**changes: Any) -> dict[str, Any]:
    return {
        "night_weekday": 3,
        "night_time": "21:30",
        "club_nights": [
            {"campaign_day": 2, "play_date": "2026-12-10"},
            {"campaign_day": 1, "play_date": "2026-12-03"},
        ],
        **changes,
    }


def test_the_umpire_sets_the_schedule_and_every_member_reads_it():
    campaign = campaign_with_sides()
    models.ClubNight.objects.create(campaign=campaign, campaign_day=9, play_date=datetime.date(2027, 1, 1))

    response = signed_in(umpire_of(campaign)).put(
        url(campaign, "campaign-schedule"), schedule_body(), format="json"
    )

    assert response.status_code == 200, response.json()
    assert response.json()["night_weekday_label"] == "Thursday"
    assert response.json()["night_time"] == "21:30:00"
    assert response.json()["club_nights"] == [  # the list replaces the one there was, by day
        {"campaign_day": 1, "play_date": "2026-12-03"},
        {"campaign_day": 2, "play_date": "2026-12-10"},
    ]
    campaign.refresh_from_db()
    assert (campaign.night_weekday, campaign.night_time) == (3, datetime.time(21, 30))
    assert campaign.events.get(verb=EventVerb.SCHEDULE_SET).visibility == "public"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"night_time": None}, "night_time"),
        ({"night_weekday": None}, "night_weekday"),
        ({"night_weekday": 7}, "night_weekday"),
        (
            {"club_nights": [{"campaign_day": 1, "play_date": "2026-12-03"}] * 2},
            "club_nights[1].campaign_day",
        ),
        ({"club_nights": [{"campaign_day": 1, "play_date": "someday"}]}, "club_nights[0].play_date"),
    ],
)
def test_a_schedule_that_does_not_hold_together_names_its_field_and_changes_nothing(changes, field):
    campaign = campaign_with_sides()
    before = (written(), models.Campaign.objects.get(pk=campaign.pk).version)

    response = signed_in(umpire_of(campaign)).put(
        url(campaign, "campaign-schedule"), schedule_body(**changes), format="json"
    )

    assert response.status_code == 400
    assert list(error(response)["fields"]) == [field]
    assert error(response)["message"].endswith(".")
    assert (written(), models.Campaign.objects.get(pk=campaign.pk).version) == before


def feed(client: APIClient, link: str) -> Any:
    return client.get(link.removeprefix("http://testserver"))


@override_settings(TIME_ZONE="Europe/Malta")
def test_the_calendar_feed_holds_the_club_nights_their_orders_deadlines_and_the_weekly_night_phase():
    campaign = campaign_with_sides()
    other = campaign_with_sides()
    models.ClubNight.objects.create(campaign=other, campaign_day=1, play_date=datetime.date(2026, 12, 1))
    player = UserFactory(username="gozo-player")
    models.Membership.objects.create(
        user=player, campaign=campaign, role=MemberRole.PLAYER, side=campaign.sides.get(name="Allied")
    )
    signed_in(umpire_of(campaign)).put(url(campaign, "campaign-schedule"), schedule_body(), format="json")
    client = signed_in(player)
    link = client.get(url(campaign, "campaign-calendar")).json()["url"]

    response = APIClient().get(link.removeprefix("http://testserver"))  # a calendar app: no session

    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    parsed = Calendar.from_ical(response.content)
    events = {str(event["summary"]): event for event in parsed.walk("VEVENT")}
    assert set(events) == {
        f"{campaign.name}: club night, campaign day 1",
        f"{campaign.name}: club night, campaign day 2",
        f"{campaign.name}: orders for campaign day 1 close",
        f"{campaign.name}: orders for campaign day 2 close",
        f"{campaign.name}: night phase",
    }
    assert events[f"{campaign.name}: club night, campaign day 1"].decoded("dtstart") == datetime.date(
        2026, 12, 3
    )
    # Orders close at the night phase after the club night: Thursday 3 December, 21:30 (no lead time).
    deadline = events[f"{campaign.name}: orders for campaign day 1 close"].decoded("dtstart")
    assert deadline == datetime.datetime(2026, 12, 3, 21, 30, tzinfo=zoneinfo.ZoneInfo("Europe/Malta"))
    weekly = events[f"{campaign.name}: night phase"]
    start = weekly.decoded("dtstart")
    assert start.tzinfo == zoneinfo.ZoneInfo("Europe/Malta")
    assert (start.weekday(), start.time()) == (3, datetime.time(21, 30))
    assert weekly["rrule"]["FREQ"] == ["WEEKLY"]
    assert [tz["tzid"] for tz in parsed.walk("VTIMEZONE")] == ["Europe/Malta"]
    # Nothing else: not the other campaign's nights, not who reads it, not the sides.
    text = response.content.decode()
    for leak in (other.name, "2026-12-01", "20261201", player.username, "Allied", "Axis"):
        assert leak not in text


def test_a_renewed_calendar_link_shuts_the_old_one_and_an_unknown_one_is_404():
    campaign = campaign_with_sides()
    client = signed_in(umpire_of(campaign))
    old = client.get(url(campaign, "campaign-calendar")).json()["url"]

    renewed = client.post(url(campaign, "campaign-calendar-renew"))

    new = renewed.json()["url"]
    assert renewed.status_code == 200
    assert new != old
    assert feed(APIClient(), old).status_code == 404
    assert feed(APIClient(), new).status_code == 200
    assert APIClient().get(reverse("api:calendar-feed", kwargs={"token": "guess"})).status_code == 404
    renewal = campaign.events.get(verb=EventVerb.CALENDAR_RENEWED)
    assert new.rsplit("/", 1)[1].removesuffix(".ics") not in str((renewal.message, renewal.after))


# Webhook deliveries sent again -----------------------------------------------------------


def test_a_failed_delivery_is_sent_again_and_a_pending_one_is_a_409():
    campaign = campaign_with_sides()
    subscription = webhook_subscribe(
        campaign.pk, ACTOR, url="https://club.example/hook", events=["day.dawned"]
    )
    failed = models.WebhookDelivery.objects.create(
        subscription=subscription, payload={"event": "ping"}, status=DeliveryStatus.FAILED, attempts=5
    )
    client = signed_in(umpire_of(campaign))
    retry = url(campaign, "webhook-delivery-retry", webhook_pk=subscription.public_id, pk=failed.public_id)

    response = client.post(retry)

    assert response.status_code == 202, response.json()
    assert (response.json()["status"], response.json()["attempts"]) == ("pending", 0)
    again = client.post(retry)
    assert again.status_code == 409
    assert error(again)["message"] == "The delivery is pending: only a failed one is sent again."
