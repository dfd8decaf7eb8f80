"""Third-party API keys: made and revoked by the umpire, scoped to one campaign and a side
(or the public view), read-only unless granted writes, refused when revoked or expired."""

from __future__ import annotations

import datetime
import enum
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from api.idempotency import HEADER, REPLAYED_HEADER
from campaign import models
from campaign.choices import EventVerb, MemberRole
from campaign.models import CampaignAPIKey
from campaign.services.api_keys import api_key_create
from campaign.services.audit import API_KEY_ACTOR, Actor
from tests.api.world import (
    AUTHENTICATE_CHALLENGE,
    OPEN_WRITES,
    PERSONAL,
    UNSAFE_METHODS,
    Role,
    World,
    api_key_client,
    build_world,
    matrix,
    query_count,
    router_methods,
    strings,
)

pytestmark = pytest.mark.django_db

EVERYTHING = {"page_size": 500}
SET_UP = {"inputs": {"n43.setup_proximity": {"terrain": "Open Terrain"}}}


def umpire_actor(world: World) -> Actor:
    return Actor(user=world.users[Role.UMPIRE], request_id="test")


def new_key(world: World, **scope: Any) -> tuple[CampaignAPIKey, str]:
    return api_key_create(world.campaign.pk, umpire_actor(world), name="club app", **scope)


def refusal(response: Any) -> tuple[int, str]:
    if response.status_code == 401:  # a refused credential names the scheme to use
        assert response["WWW-Authenticate"] == AUTHENTICATE_CHALLENGE
    return response.status_code, response.json()["error"]["code"]


def test_the_umpire_makes_a_key_shown_once_stored_hashed_and_recorded_without_its_secret(world):
    umpire = world.client(Role.UMPIRE)
    body = {"name": "Axis tracker", "side": world.axis.pk, "expiry_date": "2099-01-01T00:00:00Z"}

    created = umpire.post(world.url("api-key-list"), body, format="json")

    assert created.status_code == 201, created.json()
    plain, prefix = created.json()["key"], created.json()["prefix"]
    assert plain.startswith(f"{prefix}.")
    assert created["Location"] == created.json()["url"]
    assert (created.json()["side"], created.json()["can_write"]) == (world.axis.pk, False)
    stored = CampaignAPIKey.objects.get(prefix=prefix)
    # One SHA-512, not a password hasher's thousands of rounds: cheap for polling clients.
    assert stored.hashed_key.startswith("sha512$$")
    assert stored.created_by == world.users[Role.UMPIRE]
    listed = umpire.get(world.url("api-key-list")).json()["results"]
    detail = umpire.get(created["Location"]).json()
    event = world.campaign.events.get(verb=EventVerb.API_KEY_CREATED, after__prefix=prefix)
    for shown in (listed, detail, event.message, event.after):
        assert not {plain, stored.hashed_key} & set(strings(shown))
    assert {row["prefix"] for row in listed} >= {prefix}
    assert event.actor == world.users[Role.UMPIRE]
    as_axis = api_key_client(plain).get(world.url("campaign-detail")).json()
    assert (as_axis["role"], as_axis["side"]) == (MemberRole.PLAYER, world.axis.pk)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "  "}, "name"),
        ({"name": "x" * 51}, "name"),
        ({"name": "app", "side": 0}, "side"),
        ({"name": "app", "side": "allied"}, "side"),
        ({"name": "app", "expiry_date": "2001-01-01T00:00:00Z"}, "expiry_date"),
        ({"name": "app", "expiry_date": "tomorrow"}, "expiry_date"),
    ],
)
def test_a_bad_key_request_names_the_field_and_makes_no_key(world, body, field):
    if body.get("side") == "ALLIED":
        body = {**body, "side": world.allied.pk}
    before = (CampaignAPIKey.objects.count(), world.campaign.events.count())

    response = world.client(Role.UMPIRE).post(world.url("api-key-list"), body, format="json")

    assert response.status_code == 400, response.json()
    assert field in response.json()["error"]["fields"]
    assert (CampaignAPIKey.objects.count(), world.campaign.events.count()) == before


def test_a_side_of_another_campaign_is_refused(world):
    other_side = models.Side.objects.exclude(campaign=world.campaign).first()

    response = world.client(Role.UMPIRE).post(
        world.url("api-key-list"), {"name": "app", "side": other_side.pk}, format="json"
    )

    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["side"]


def test_a_public_key_sees_exactly_what_an_observer_sees(world):
    _, plain = new_key(world)
    key = api_key_client(plain)

    for name, route in matrix(world).items():
        if route.read is None or name in PERSONAL:
            continue
        as_observer = world.client(Role.OBSERVER).get(route.url, EVERYTHING)
        as_key = key.get(route.url, EVERYTHING)
        assert (as_key.status_code, as_key.json()) == (as_observer.status_code, as_observer.json()), name
    assert key.get(world.url("campaign-detail")).json()["role"] == MemberRole.OBSERVER
    assert key.get(world.url("battalion-list")).json()["results"] == []


def test_a_polling_key_gets_304_while_the_force_status_is_unchanged(world):
    key = world.client(Role.ALLIED_KEY)
    url = world.url("force-force-status", pk=models.Force.objects.get(side=world.allied).public_id)

    first = key.get(url)
    again = key.get(url, headers={"If-None-Match": first["ETag"]})

    assert first.status_code == 200
    assert (again.status_code, again.content) == (304, b"")


def test_a_revoked_key_is_refused_from_its_next_request(world):
    api_key, plain = new_key(world)
    key = api_key_client(plain)
    assert key.get(world.url("campaign-detail")).status_code == 200

    revoked = world.client(Role.UMPIRE).post(world.url("api-key-revoke", prefix=api_key.prefix))

    assert revoked.status_code == 200
    assert revoked.json()["revoked"] is True
    assert refusal(key.get(world.url("campaign-detail"))) == (401, "api_key_invalid")
    assert world.campaign.events.filter(
        verb=EventVerb.API_KEY_REVOKED, before__prefix=api_key.prefix
    ).exists()
    again = world.client(Role.UMPIRE).post(world.url("api-key-revoke", prefix=api_key.prefix))
    assert refusal(again) == (409, "already_revoked")


def test_an_expired_key_is_refused(world):
    api_key, plain = new_key(world, expiry_date=timezone.now() + datetime.timedelta(days=1))
    CampaignAPIKey.objects.filter(pk=api_key.pk).update(
        expiry_date=timezone.now() - datetime.timedelta(seconds=1)
    )

    response = api_key_client(plain).get(world.url("campaign-detail"))

    assert refusal(response) == (401, "api_key_expired")
    assert "expired" in response.json()["error"]["message"]


@pytest.mark.parametrize(
    "header",
    [
        "Api-Key",
        "Api-Key ",
        "Api-Key nodot",
        "Api-Key a.b",
        "Api-Key ключ.секрет",
        "Api-Key ../../etc.passwd",
    ],
)
def test_a_malformed_or_unknown_key_is_refused_in_the_error_shape(world, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)

    response = client.get(world.url("campaign-detail"))

    assert refusal(response) in {(401, "api_key_invalid"), (401, "not_authenticated")}


def test_a_key_with_a_wrong_secret_is_refused(world):
    prefix = world.keys[Role.ALLIED_KEY].partition(".")[0]

    response = api_key_client(f"{prefix}.{'x' * 32}").get(world.url("campaign-detail"))

    assert refusal(response) == (401, "api_key_invalid")


def test_a_key_of_one_campaign_finds_no_other(world):
    key = world.client(Role.ALLIED_KEY)
    other = models.Campaign.objects.exclude(pk=world.campaign.pk).first()
    other_battalion = other.battalions.first()

    assert refusal(key.get(reverse("api:campaign-detail", kwargs={"campaign_slug": other.slug}))) == (
        404,
        "not_found",
    )
    for name, kwargs in (
        ("battalion-detail", {"pk": other_battalion.public_id}),
        ("side-list", {}),
        ("day-list", {}),
    ):
        url = reverse(f"api:{name}", kwargs={"campaign_slug": other.slug, **kwargs})
        assert refusal(key.get(url)) == (404, "not_found"), name
    assert [c["slug"] for c in key.get(reverse("api:campaign-list")).json()["results"]] == [
        world.campaign.slug
    ]
    # Its own campaign's URLs do not reach another campaign's rows either.
    assert key.get(world.url("battalion-detail", pk=other_battalion.public_id)).status_code == 404


def test_a_read_only_key_may_not_write(world):
    before = world.state()

    response = world.client(Role.ALLIED_KEY).post(
        world.url("battle-set-up", pk=world.planned.public_id), SET_UP, format="json"
    )

    assert refusal(response) == (403, "permission_denied")
    assert world.state() == before


def test_a_write_granted_key_makes_the_umpires_writes_recorded_with_its_prefix(world):
    api_key, plain = new_key(world, can_write=True)
    key = api_key_client(plain)

    set_up = key.post(world.url("battle-set-up", pk=world.planned.public_id), SET_UP, format="json")
    report = {"battalions": [{"code": "A1", "destroyed": ["3"]}]}
    first = key.post(
        world.url("battle-report", pk=world.planned.public_id), report, format="json", headers={HEADER: "r1"}
    )
    retried = key.post(
        world.url("battle-report", pk=world.planned.public_id), report, format="json", headers={HEADER: "r1"}
    )

    assert set_up.status_code == 200, set_up.json()
    assert first.status_code == 200, first.json()
    assert (retried.status_code, retried[REPLAYED_HEADER]) == (200, "true")
    recorded_as = f"{API_KEY_ACTOR}:{api_key.prefix}:"
    rolls = world.campaign.rolls.filter(battle=world.planned)
    assert rolls.exists()
    assert all(r.request_id.startswith(recorded_as) and r.actor_id is None for r in rolls)
    # The battle's own event (each side's has the verb too, and a side's id may equal the battle's).
    reported = world.campaign.events.filter(
        verb=EventVerb.BATTLE_REPORTED, object_type="Battle", object_id=world.planned.pk
    )
    assert [e.request_id.startswith(recorded_as) for e in reported] == [True]
    assert key.get(world.url("campaign-detail")).json()["role"] == MemberRole.UMPIRE


def test_no_key_may_manage_keys(world):
    _, plain = new_key(world, can_write=True)
    key = api_key_client(plain)

    assert refusal(key.get(world.url("api-key-list"))) == (403, "permission_denied")
    assert refusal(key.post(world.url("api-key-list"), {"name": "mine"}, format="json")) == (
        403,
        "permission_denied",
    )
    assert CampaignAPIKey.objects.filter(name="mine").count() == 0


class KeyKind(enum.Enum):
    PUBLIC = "read-only key of no side"
    SIDE = "read-only key of a side"
    WRITE = "write-granted key"


# The umpire's writes that are for the umpire signed in: who may act in the campaign, and
# where its news goes (a subscription would outlive the key that made it).
UMPIRES_IN_PERSON = frozenset(
    {
        "member-list",
        "member-detail",
        "invitation-list",
        "api-key-list",
        "api-key-revoke",
        "webhook-list",
        "webhook-detail",
        "webhook-ping",
        "webhook-delivery-retry",
        "webhook-delivery-publish",
        "webhook-delivery-discard",
    }
)
WRITES = sorted(
    (name, method) for name, methods in router_methods().items() for method in methods & set(UNSAFE_METHODS)
)


def key_refused(kind: KeyKind, route: str) -> bool:
    """Whether a key of ``kind`` is refused a write: read-only keys every one; a write-granted
    key those of the umpire in person and those of persons (OPEN_WRITES: a player's orders and
    drafts, one's own calendar link, inbox, invitation), which keys never make."""
    return kind != KeyKind.WRITE or route in UMPIRES_IN_PERSON or route in OPEN_WRITES


def campaign_and_people(world: World) -> tuple[Any, ...]:
    """What a write could change, who may act in the campaign included."""
    return (
        world.state(),
        get_user_model().objects.count(),
        models.Membership.objects.count(),
        models.Invitation.objects.count(),
        CampaignAPIKey.objects.filter(revoked=False).count(),
    )


@pytest.mark.parametrize(("route", "method"), WRITES, ids=[f"{method} {name}" for name, method in WRITES])
def test_every_write_is_refused_to_every_key_kind_but_the_umpires_for_the_write_key(world, route, method):
    keys = {
        KeyKind.PUBLIC: new_key(world)[1],
        KeyKind.SIDE: world.keys[Role.ALLIED_KEY],
        KeyKind.WRITE: new_key(world, can_write=True)[1],
    }
    url = matrix(world)[route].url

    for kind in KeyKind:  # the write-granted key last: a write it may make changes the campaign
        before = campaign_and_people(world)
        response = getattr(api_key_client(keys[kind]), method)(url, {}, format="json")
        if key_refused(kind, route):
            # 404 where the key's reader sees no such row (an observer, a battle it does not see).
            assert response.status_code in (403, 404), (kind.value, response.content[:300])
            assert campaign_and_people(world) == before, kind.value
        else:
            assert response.status_code not in (401, 403, 404), (kind.value, response.content[:300])


def test_a_write_granted_key_makes_no_account_invitation_or_key_that_would_outlive_it(world):
    api_key, plain = new_key(world, can_write=True)
    key = api_key_client(plain)
    umpire = {"username": "mole", "role": MemberRole.UMPIRE}

    refused = [
        key.post(world.url("member-list"), umpire, format="json"),
        key.post(world.url("invitation-list"), {"role": MemberRole.UMPIRE}, format="json"),
        key.post(world.url("api-key-list"), {"name": "spare", "can_write": True}, format="json"),
        key.delete(
            world.url(
                "member-detail",
                pk=world.campaign.memberships.get(role=MemberRole.PLAYER, side=world.axis).public_id,
            )
        ),
    ]

    assert [refusal(response) for response in refused] == [(403, "permission_denied")] * 4
    assert "signed in" in refused[0].json()["error"]["message"]
    assert not get_user_model().objects.filter(username="mole").exists()
    assert not world.campaign.invitations.filter(role=MemberRole.UMPIRE).exists()
    assert list(world.campaign.api_keys.filter(can_write=True)) == [api_key]
    assert refusal(key.get(world.url("member-list"))) == (403, "permission_denied")
    assert refusal(key.get(world.url("invitation-list"))) == (403, "permission_denied")


def test_no_umpires_key_may_read_or_manage_webhooks(world):
    """Issue 28 leftover: a write-granted key made and changed subscriptions, which kept sending
    the campaign's timeline to their URLs after the key was revoked. (A side's write-granted key
    manages its own side's only, switched off with it: tests/api/test_webhook_audiences.py.)"""
    _, plain = new_key(world, can_write=True)
    key = api_key_client(plain)
    webhook = models.WebhookSubscription.objects.create(
        campaign=world.campaign, url="http://127.0.0.1:9/hook", secret="s" * 32, events=["night.done"]
    )
    body = {"url": "https://club.example/hooks", "events": ["day.dawned"]}
    before = list(models.WebhookSubscription.objects.values())

    answers = [
        key.get(world.url("webhook-list")),
        key.post(world.url("webhook-list"), body, format="json"),
        key.patch(world.url("webhook-detail", pk=webhook.public_id), {"active": False}, format="json"),
        key.delete(world.url("webhook-detail", pk=webhook.public_id)),
        key.get(world.url("webhook-delivery-list", webhook_pk=webhook.public_id)),
    ]

    assert [refusal(answer) for answer in answers] == [(403, "permission_denied")] * len(answers)
    assert "webhooks" in answers[1].json()["error"]["message"]
    assert list(models.WebhookSubscription.objects.values()) == before
    umpire = world.client(Role.UMPIRE).post(world.url("webhook-list"), body, format="json")
    assert umpire.status_code == 201, umpire.content


def test_query_counts_of_a_key_do_not_grow_with_the_order_of_battle():
    counts: dict[str, list[int]] = {}
    for world in (build_world(battalions_per_side=1), build_world(battalions_per_side=50)):
        client = world.client(Role.ALLIED_KEY)
        for name, route in matrix(world).items():
            if route.read is not None:
                count, response = query_count(client, route.url)
                assert response.status_code == route.read[Role.ALLIED_KEY], (name, response.json())
                counts.setdefault(name, []).append(count)

    grew = {name: pair for name, pair in counts.items() if pair[0] != pair[1]}
    assert not grew, f"queries at 1 vs 50 battalions a side: {grew}"


def test_the_admin_shows_keys_read_only_and_revokes_through_the_service(world):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = APIClient()
    client.force_login(admin)
    api_key, _ = new_key(world)
    changelist = reverse("admin:campaign_campaignapikey_changelist")

    page = client.get(reverse("admin:campaign_campaignapikey_change", args=[api_key.pk]))
    revoked = client.post(changelist, {"action": "revoke", "_selected_action": [api_key.pk]})

    assert page.status_code == 200
    assert b'name="name"' not in page.content  # nothing to type
    assert revoked.status_code == 302
    assert CampaignAPIKey.objects.get(pk=api_key.pk).revoked
    assert world.campaign.events.filter(verb=EventVerb.API_KEY_REVOKED).count() == 1


def test_a_key_asks_session_who_it_is_and_reads_its_campaign_role_side_and_grant(world):
    side_key = world.keys[Role.ALLIED_KEY]
    public_key, public_secret = new_key(world)
    _, write_secret = new_key(world, can_write=True)

    as_side = api_key_client(side_key).get(reverse("api:session"))
    as_public = api_key_client(public_secret).get(reverse("api:session")).json()
    as_writer = api_key_client(write_secret).get(reverse("api:session")).json()
    as_person = world.client(Role.AXIS_PLAYER).get(reverse("api:session")).json()

    assert as_side.status_code == 200
    assert as_side.json() == {
        "authenticated": True,
        "username": None,
        "campaigns": [
            {"slug": world.campaign.slug, "role": "player", "role_label": "Player", "side": world.allied.pk}
        ],
        "api_key": {
            "name": CampaignAPIKey.objects.get(prefix=side_key.partition(".")[0]).name,
            "prefix": side_key.partition(".")[0],
            "campaign": world.campaign.slug,
            "campaign_name": world.campaign.name,
            "role": "player",
            "role_label": "Player",
            "side": world.allied.pk,
            "side_name": "Allied",
            "can_write": False,
        },
    }
    assert side_key.partition(".")[2] not in as_side.content.decode()  # never its secret
    assert (as_public["api_key"]["role_label"], as_public["api_key"]["side"]) == ("Observer", None)
    assert as_public["api_key"]["prefix"] == public_key.prefix
    assert (as_writer["api_key"]["role"], as_writer["api_key"]["can_write"]) == (MemberRole.UMPIRE, True)
    assert as_person["api_key"] is None
    assert as_person["username"] == world.users[Role.AXIS_PLAYER].username
