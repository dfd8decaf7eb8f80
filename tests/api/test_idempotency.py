"""Every unsafe method of the API honours ``Idempotency-Key``: a retry with the same key and
body answers as the first request did and writes nothing (issue 20)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.http import HttpResponse
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.views import APIView

from api.idempotency import HEADER, REPLAYED_HEADER
from api.models import IdempotencyKey
from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import (
    EventVerb,
    MemberRole,
    NotificationKind,
    OperationKind,
    SideOrderKind,
    SideOrderStatus,
)
from campaign.selectors import battle_draft_comparison
from campaign.services.audit import Actor
from campaign.services.battle_drafts import battle_draft_save
from campaign.services.battle_setups import battle_setup
from campaign.services.memberships import invitation_create
from campaign.services.night_orders import night_order_queue
from campaign.services.webhook_subscriptions import webhook_subscribe
from tests.api.test_day_writes import WRITES as DAY_WRITES
from tests.api.test_day_writes import (
    Write,
    axis_reserve,
    being_set_up,
    due_today,
    night_over,
    other_weather,
    weather_roll,
)
from tests.api.world import ACTOR, UNSAFE_METHODS, Role, World
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db

# Logging in and out writes nothing of a campaign's, and a caller not yet logged in holds no key.
EXEMPT = {("session", "post"), ("session", "delete")}
HOOK = "https://club.example/hooks/campaign"
# Secrets an answer shows once: a replay answers them as null, so no copy is kept.
SHOWN_ONCE = {
    ("api-key-list", "post"): ("key",),
    ("webhook-list", "post"): ("secret",),
    ("member-list", "post"): ("initial_password",),
    ("invitation-list", "post"): ("token", "link"),
}
# Invitation tokens exist in clear only when made: the tests keep them here, by world.
INVITATION_TOKENS: dict[int, str] = {}


def served_writes() -> set[tuple[str, str]]:
    """(URL name, method) of every unsafe method of every DRF view the URLconf serves."""
    writes: set[tuple[str, str]] = set()

    def walk(patterns: list[URLPattern | URLResolver]) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns)
                continue
            view = getattr(pattern.callback, "cls", None)
            if view is None or not issubclass(view, APIView):
                continue
            actions = getattr(pattern.callback, "actions", None)  # a viewset's route: method → action
            methods = actions.keys() if actions else [m for m in UNSAFE_METHODS if hasattr(view, m)]
            writes.update((str(pattern.name), method) for method in methods if method in UNSAFE_METHODS)

    walk(get_resolver().url_patterns)
    return writes


def planned_set_up(world: World) -> None:
    battle_setup(
        world.campaign.pk, ACTOR, world.planned.pk, {"n43.setup_proximity": {"terrain": "Open Terrain"}}
    )


def hooked(world: World) -> None:
    webhook_subscribe(world.campaign.pk, ACTOR, url=HOOK, events=[EventVerb.DAY_DAWNED])


def failed_delivery(world: World) -> None:
    hooked(world)
    models.WebhookDelivery.objects.create(
        subscription=world.campaign.webhooks.get(), payload={"event": "ping"}, status="failed", attempts=5
    )


def held_delivery(world: World) -> None:
    hooked(world)
    models.WebhookDelivery.objects.create(
        subscription=world.campaign.webhooks.get(), payload={"event": "ping"}, status="held"
    )


def delivery_url(name: str) -> Any:
    return lambda w: w.url(
        name,
        webhook_pk=w.campaign.webhooks.get().public_id,
        pk=models.WebhookDelivery.objects.get(subscription__campaign=w.campaign).public_id,
    )


def invited_elsewhere(world: World) -> None:
    """An invitation to another campaign, which the umpire of this one follows."""
    other = campaign_with_sides(battalions_per_side=1)
    _, INVITATION_TOKENS[id(world)] = invitation_create(other.pk, ACTOR, role=MemberRole.OBSERVER)


def withdrawal(world: World) -> None:
    night_order_queue(world.campaign.pk, ACTOR, kind="withdraw", battalion_code="A2")


def umpire_notified(world: World) -> None:
    models.Notification.objects.create(
        recipient=world.users[Role.UMPIRE],
        campaign=world.campaign,
        kind=NotificationKind.ORDERS_DUE,
        title="Orders due",
        link=f"/campaigns/{world.campaign.slug}",
    )


def umpire_notification_read_url(world: World) -> str:
    note = models.Notification.objects.get(recipient=world.users[Role.UMPIRE])
    return reverse("api:notification-read", kwargs={"pk": note.public_id})


def drafts_filed(world: World) -> None:
    """Both players' drafts of the planned battle, agreeing."""
    for role, draft in DRAFTS.items():
        actor = Actor(user=world.users[role], request_id=f"draft-{role.name}")
        battle_draft_save(world.campaign.pk, actor, world.planned.pk, draft)


def drafts_revision(world: World) -> str:
    umpire = CampaignAccess(world.campaign, MemberRole.UMPIRE, None)
    compared = battle_draft_comparison(umpire, world.planned)
    assert compared is not None
    return compared.comparison.revision


# Each side drafts its own battalions' stands: its fog of war hides the enemy's (issue 30).
DRAFTS = {
    Role.AXIS_PLAYER: {"battalions": [{"code": "A1", "destroyed": ["3"]}]},
    Role.ALLIED_PLAYER: {"battalions": [{"code": "L1", "suppressed": ["3"]}]},
}


def webhook_url(name: str) -> Any:
    return lambda w: w.url(name, pk=w.campaign.webhooks.get().public_id)


def allied_key_prefix(world: World) -> str:
    return world.keys[Role.ALLIED_KEY].partition(".")[0]


WRITES: dict[tuple[str, str], Write] = {
    ("campaign-start", "post"): Write(lambda w: w.url("campaign-start"), lambda w: None, 200, being_set_up),
    ("campaign-supply", "post"): Write(lambda w: w.url("campaign-supply"), lambda w: {"overrides": []}, 200),
    ("day-dawn", "post"): Write(lambda w: w.url("day-dawn"), lambda w: {}, 201, night_over),
    ("day-dawn-preview", "post"): Write(lambda w: w.url("day-dawn-preview"), lambda w: {}, 200, night_over),
    ("reinforcement-postpone", "post"): Write(
        lambda w: w.url("reinforcement-postpone", pk=w.campaign.forces.get(name="Livorno").public_id),
        lambda w: {"day": 4},
        200,
        due_today,
    ),
    ("stand-correct", "post"): Write(
        lambda w: w.url("stand-correct", pk=w.battalion("A1").stands.get(label="2").public_id),
        lambda w: {"status": "ok", "reason": "the report named the wrong company"},
        200,
    ),
    ("side-fog-of-war", "put"): Write(
        lambda w: w.url("side-fog-of-war", pk=w.axis.pk),
        lambda w: {"identified_units": ["A1", "A2"], "strengths": False, "battle_results": True},
        200,
    ),
    ("day-advance-segment", "post"): Write(
        lambda w: w.url("day-advance-segment", number=2), lambda w: None, 200
    ),
    ("activation-spend-list", "post"): Write(
        lambda w: w.url("activation-spend-list", side_pk=w.axis.pk),
        lambda w: {"column": "1 Bn", "turn": 0, "battalion_codes": ["A1"]},
        201,
    ),
    ("reinforcement-list", "post"): Write(
        lambda w: w.url("reinforcement-list"),
        lambda w: {
            "force_id": str(w.campaign.forces.get(name="Reserve").public_id),
            "day": 3,
            "zone": "Gozo",
        },
        201,
        axis_reserve,
    ),
    ("battle-list", "post"): Write(
        lambda w: w.url("battle-list"),
        lambda w: {
            "sector": w.sector("village").pk,
            "battle_type": "Local Attack",
            "attacker_id": w.axis.pk,
            "defender_id": w.allied.pk,
            "battalion_codes": ["A2", "L2"],
        },
        201,
    ),
    ("battle-set-up", "post"): Write(
        lambda w: w.url("battle-set-up", pk=w.planned.public_id),
        lambda w: {"inputs": {"n43.setup_proximity": {"terrain": "Open Terrain"}}},
        200,
    ),
    ("battle-report", "post"): Write(
        lambda w: w.url("battle-report", pk=w.planned.public_id),
        lambda w: {"battalions": [{"code": "A1"}]},
        200,
    ),
    ("battle-draft", "put"): Write(
        lambda w: w.url("battle-draft", pk=w.planned.public_id),
        lambda w: DRAFTS[Role.AXIS_PLAYER],
        200,
        role=Role.AXIS_PLAYER,
    ),
    ("battle-drafts-confirm", "post"): Write(
        lambda w: w.url("battle-drafts-confirm", pk=w.planned.public_id),
        lambda w: {"revision": drafts_revision(w), "choices": {}},
        200,
        drafts_filed,
    ),
    ("battle-close", "post"): Write(
        lambda w: w.url("battle-close", pk=w.fought.public_id), lambda w: None, 200
    ),
    ("battle-lull-check", "post"): Write(
        lambda w: w.url("battle-lull-check", pk=w.planned.public_id),
        lambda w: {"turn": 4},
        200,
        planned_set_up,
    ),
    ("operation-list", "post"): Write(
        lambda w: w.url("operation-list"), lambda w: {"kind": OperationKind.ARRIVALS}, 202, due_today
    ),
    ("roll-override", "post"): Write(
        lambda w: w.url("roll-override", pk=weather_roll(w).public_id),
        lambda w: {"changes": {"weather": other_weather(w)}, "reason": "the forecast was wrong"},
        201,
    ),
    ("night-order-list", "post"): Write(
        lambda w: w.url("night-order-list"), lambda w: {"kind": "withdraw", "battalion_code": "A2"}, 201
    ),
    ("night-order-detail", "delete"): Write(
        lambda w: w.url("night-order-detail", pk=w.campaign.night_orders.get().public_id),
        lambda w: None,
        204,
        withdrawal,
    ),
    ("webhook-list", "post"): Write(
        lambda w: w.url("webhook-list"), lambda w: {"url": HOOK, "events": [EventVerb.DAY_DAWNED]}, 201
    ),
    ("webhook-detail", "patch"): Write(
        webhook_url("webhook-detail"), lambda w: {"active": False}, 200, hooked
    ),
    ("webhook-detail", "delete"): Write(webhook_url("webhook-detail"), lambda w: None, 204, hooked),
    ("webhook-ping", "post"): Write(webhook_url("webhook-ping"), lambda w: None, 202, hooked),
    ("api-key-list", "post"): Write(lambda w: w.url("api-key-list"), lambda w: {"name": "Scoreboard"}, 201),
    ("campaign-list", "post"): Write(
        lambda w: reverse("api:campaign-list"), lambda w: {"based_on": "demo"}, 201
    ),
    ("campaign-schedule", "put"): Write(
        lambda w: w.url("campaign-schedule"),
        lambda w: {
            "night_weekday": 3,
            "night_time": "21:30",
            "club_nights": [{"campaign_day": 3, "play_date": "2026-12-03"}],
        },
        200,
    ),
    ("day-journal", "put"): Write(
        lambda w: w.url("day-journal", number=1), lambda w: {"text": "Rain, and the Axis pushed on."}, 200
    ),
    ("campaign-calendar-renew", "post"): Write(
        lambda w: w.url("campaign-calendar-renew"), lambda w: None, 200
    ),
    ("campaign-notification-emails", "put"): Write(
        lambda w: w.url("campaign-notification-emails"), lambda w: {"notification_emails": False}, 200
    ),
    ("notification-read", "post"): Write(umpire_notification_read_url, lambda w: None, 200, umpire_notified),
    ("notification-read-all", "post"): Write(
        lambda w: reverse("api:notification-read-all"), lambda w: {}, 200, umpire_notified
    ),
    ("member-list", "post"): Write(
        lambda w: w.url("member-list"), lambda w: {"username": "newcomer", "role": "observer"}, 201
    ),
    ("member-detail", "delete"): Write(
        lambda w: w.url("member-detail", pk=w.campaign.memberships.get(role=MemberRole.OBSERVER).public_id),
        lambda w: None,
        204,
    ),
    ("invitation-list", "post"): Write(
        lambda w: w.url("invitation-list"), lambda w: {"role": "observer"}, 201
    ),
    ("invitation-link-accept", "post"): Write(
        lambda w: reverse("api:invitation-link-accept", kwargs={"token": INVITATION_TOKENS[id(w)]}),
        lambda w: None,
        201,
        invited_elsewhere,
    ),
    ("webhook-delivery-retry", "post"): Write(
        delivery_url("webhook-delivery-retry"), lambda w: None, 202, failed_delivery
    ),
    ("webhook-delivery-publish", "post"): Write(
        delivery_url("webhook-delivery-publish"), lambda w: None, 202, held_delivery
    ),
    ("webhook-delivery-discard", "post"): Write(
        delivery_url("webhook-delivery-discard"), lambda w: None, 200, held_delivery
    ),
    ("force-move", "post"): Write(
        lambda w: w.url("force-move", pk=w.battalion("A1").battlegroup.force.public_id),
        lambda w: {"sector": w.sector("north").pk},
        200,
    ),
    ("battalion-move", "post"): Write(
        lambda w: w.url("battalion-move", pk=w.battalion("A1").public_id),
        lambda w: {"sector": w.sector("north").pk},
        200,
    ),
    ("sector-control", "post"): Write(
        lambda w: w.url("sector-control", pk=w.sector("north").pk),
        lambda w: {"owner": w.axis.pk, "reason": "the paratroops hold it"},
        200,
    ),
    ("api-key-revoke", "post"): Write(
        lambda w: w.url("api-key-revoke", prefix=allied_key_prefix(w)), lambda w: None, 200
    ),
    # Issue 15's umpire actions, as the day's writes test them.
    ("day-day-end-roll", "post"): DAY_WRITES["day-end roll"],
    ("force-air-support", "post"): DAY_WRITES["air support"],
    ("force-postpone-arrival", "post"): DAY_WRITES["postpone arrival"],
    ("force-cops-overrun", "post"): DAY_WRITES["C Ops overrun"],
    ("stand-entrench", "post"): DAY_WRITES["entrench"],
    ("stand-move", "post"): DAY_WRITES["stand moved"],
    ("side-artillery-orders", "post"): DAY_WRITES["artillery mode"],
    ("force-cops-action-points", "post"): DAY_WRITES["C Ops action points"],
    ("battalion-deactivate", "post"): DAY_WRITES["deactivate"],
    ("battalion-reactivate", "post"): DAY_WRITES["reactivate"],
    ("battalion-initiative-activation", "post"): DAY_WRITES["initiative activation"],
}


def axis_order(status: str = SideOrderStatus.DRAFT) -> Callable[[World], None]:
    def prepare(world: World) -> None:
        models.SideOrder.objects.create(
            campaign=world.campaign,
            side=world.axis,
            day_number=2,
            kind=SideOrderKind.WITHDRAW,
            payload={"battalion_code": "A2"},
            status=status,
        )

    return prepare


def order_url(name: str) -> Callable[[World], str]:
    return lambda w: w.url(name, pk=w.campaign.side_orders.get().public_id)


SIDE_ORDER_WRITES: dict[tuple[str, str], Write] = {
    ("side-order-list", "post"): Write(
        lambda w: w.url("side-order-list"),
        lambda w: {"kind": "withdraw", "payload": {"battalion_code": "A2"}},
        201,
    ),
    ("side-order-detail", "patch"): Write(
        order_url("side-order-detail"), lambda w: {"payload": {"battalion_code": "A3"}}, 200, axis_order()
    ),
    ("side-order-submit", "post"): Write(order_url("side-order-submit"), lambda w: None, 200, axis_order()),
    ("side-order-withdraw", "post"): Write(
        order_url("side-order-withdraw"), lambda w: None, 200, axis_order()
    ),
    ("side-order-approve", "post"): Write(
        order_url("side-order-approve"), lambda w: None, 200, axis_order(SideOrderStatus.SUBMITTED)
    ),
    ("side-order-send-back", "post"): Write(
        order_url("side-order-send-back"),
        lambda w: {"reason": "not tonight"},
        200,
        axis_order(SideOrderStatus.SUBMITTED),
    ),
    ("side-order-amend", "post"): Write(
        order_url("side-order-amend"),
        lambda w: {"payload": {"battalion_code": "A3"}, "reason": "A3 needs the night more"},
        200,
        axis_order(SideOrderStatus.SUBMITTED),
    ),
}
# A side's orders are its players' to write, the umpire's to decide on.
WRITES.update(
    {
        route: dataclasses.replace(write, role=Role.AXIS_PLAYER)
        if route[0] in ("side-order-list", "side-order-detail", "side-order-submit", "side-order-withdraw")
        else write
        for route, write in SIDE_ORDER_WRITES.items()
    }
)


def written(world: World) -> tuple[object, ...]:
    """What any write of the API changes: the campaign and its audit trail, and its rows
    that are not the game's (webhooks, deliveries, keys)."""
    return (
        *world.state(),
        world.campaign.webhooks.count(),
        models.WebhookDelivery.objects.filter(subscription__campaign=world.campaign).count(),
        world.campaign.operations.count(),
        models.CampaignAPIKey.objects.filter(campaign=world.campaign).count(),
        models.CampaignAPIKey.objects.filter(campaign=world.campaign, revoked=True).count(),
        models.Campaign.objects.count(),
        models.Membership.objects.count(),
        models.Invitation.objects.count(),
        models.WebhookDelivery.objects.filter(status="pending").count(),
        tuple(models.Membership.objects.order_by("pk").values_list("calendar_token", flat=True)),
        tuple(models.Membership.objects.order_by("pk").values_list("notification_emails", flat=True)),
        tuple(models.Notification.objects.order_by("pk").values_list("read_at", flat=True)),
    )


def body(response: HttpResponse) -> Any:
    return json.loads(response.content) if response.content else None


def test_every_unsafe_method_the_urlconf_serves_is_retried_below():
    served = served_writes()

    assert served - EXEMPT - WRITES.keys() == set(), "writes no test retries: add them to WRITES"
    assert WRITES.keys() - served == set(), "WRITES names routes that are gone"
    assert served >= EXEMPT


@pytest.mark.parametrize("route", sorted(WRITES), ids="{0[1]} {0[0]}".format)
def test_a_retried_write_replays_its_first_answer_and_writes_nothing(world, route):
    name, method = route
    write = WRITES[route]
    write.prepare(world)
    send = getattr(world.client(write.role), method)
    url, data = write.url(world), write.body(world)

    first = send(url, data, format="json", headers={HEADER: f"{method}-{name}"})
    after_first = written(world)
    again = send(url, data, format="json", headers={HEADER: f"{method}-{name}"})

    assert first.status_code == write.status, body(first)
    assert again.status_code == write.status, body(again)
    assert again.get(REPLAYED_HEADER) == "true"
    assert REPLAYED_HEADER not in first
    once = SHOWN_ONCE.get(route, ())
    assert body(again) == ({**body(first), **dict.fromkeys(once)} if once else body(first))
    for field in once:
        assert body(first)[field]
        assert IdempotencyKey.objects.get(key=f"{method}-{name}").response_body[field] is None
    assert again.get("Location") == first.get("Location")
    assert written(world) == after_first
