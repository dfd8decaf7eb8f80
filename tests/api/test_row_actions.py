"""A row offers exactly the writes the API accepts from its reader now (issue 29): for each state
and reader, its ``actions`` are the writes that get past who may make them and the state they take
the row from. A later check (the day under way, a deadline, the body) may still refuse one, saying
why: that is no state machine the web app could copy."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import transaction

from api.idempotency import HEADER
from campaign import models
from campaign.choices import (
    BATTLE_ACTION_CHOICES,
    SIDE_ORDER_ACTION_CHOICES,
    BattleStatus,
    DeliveryStatus,
    SideOrderStatus,
)
from tests.api.world import Role, World

pytestmark = pytest.mark.django_db

READERS = (Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER, Role.ALLIED_KEY, Role.UMPIRE)
# Each write: its method, URL name and a body it takes.
ORDER_WRITES = {
    "edit": ("patch", "side-order-detail", {"payload": {"battalion_code": "A2"}}),
    "submit": ("post", "side-order-submit", None),
    "withdraw": ("post", "side-order-withdraw", None),
    "approve": ("post", "side-order-approve", None),
    "send_back": ("post", "side-order-send-back", {"reason": "Not on this day"}),
    "amend": ("post", "side-order-amend", {"payload": {"battalion_code": "A3"}, "reason": "A2 is needed"}),
}
BATTLE_WRITES = {
    "set_up": ("post", "battle-set-up", {"inputs": {"n43.setup_proximity": {"terrain": "Open Terrain"}}}),
    "draft": ("put", "battle-draft", {"battalions": [{"code": "A1", "activation_points_spent": 1}]}),
    "report": ("post", "battle-report", {"battalions": [{"code": "A1", "destroyed": ["3"]}]}),
}


def taken(response: Any, wrong_state: str) -> bool:
    """Whether the write got past who may make it and the state it takes the row from."""
    if response.status_code in (403, 404):
        return False
    return not (response.status_code == 409 and response.json()["error"]["code"] == wrong_state)


def accepted(world: World, role: Role, writes: dict[str, Any], pk: Any, wrong_state: str) -> list[str]:
    """The writes ``role`` makes of the row, each tried and rolled back."""
    found = []
    for action, (method, name, body) in writes.items():
        with transaction.atomic():
            response = getattr(world.client(role), method)(
                world.url(name, pk=pk), body, format="json", headers={HEADER: str(uuid.uuid4())}
            )
            transaction.set_rollback(True)
        if taken(response, wrong_state):
            found.append(action)
    return found


def offered(world: World, role: Role, name: str, pk: Any) -> tuple[list[str], list[str]]:
    response = world.client(role).get(world.url(name, pk=pk))
    if response.status_code == 404:  # not theirs to see: nothing to do with it either
        return [], []
    assert response.status_code == 200, response.content
    return response.json()["actions"], response.json()["actions_labels"]


@pytest.mark.parametrize("status", SideOrderStatus.values)
def test_an_order_offers_exactly_the_writes_accepted_in_its_status(world, status):
    response = world.client(Role.AXIS_PLAYER).post(
        world.url("side-order-list"), {"kind": "withdraw", "payload": {"battalion_code": "A2"}}, format="json"
    )
    order = response.json()["id"]
    models.SideOrder.objects.filter(public_id=order).update(status=status)
    words = dict(SIDE_ORDER_ACTION_CHOICES)

    for role in READERS:
        actions, labels = offered(world, role, "side-order-detail", order)

        assert actions == accepted(world, role, ORDER_WRITES, order, "wrong_order_status"), (role, status)
        assert labels == [words[action] for action in actions]


@pytest.mark.parametrize("status", BattleStatus.values)
def test_a_battle_offers_exactly_the_writes_accepted_in_its_status(world, status):
    battle = world.planned
    models.Battle.objects.filter(pk=battle.pk).update(status=status)
    words = dict(BATTLE_ACTION_CHOICES)

    for role in READERS:
        actions, labels = offered(world, role, "battle-detail", battle.public_id)

        assert actions == accepted(world, role, BATTLE_WRITES, battle.public_id, "wrong_battle_status"), (
            role,
            status,
        )
        assert labels == [words[action] for action in actions]


def test_a_battle_names_the_side_whose_draft_its_reader_writes(world):
    url = world.url("battle-detail", pk=world.planned.public_id)
    fighting = (Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.ALLIED_KEY, Role.UMPIRE)

    sides = {role: world.client(role).get(url).json()["draft_side"] for role in fighting}

    assert sides == {
        Role.AXIS_PLAYER: world.axis.pk,
        Role.ALLIED_PLAYER: world.allied.pk,
        Role.ALLIED_KEY: world.allied.pk,  # it reads its side's draft, writes none (not offered)
        Role.UMPIRE: None,
    }


@pytest.mark.parametrize("status", DeliveryStatus.values)
@pytest.mark.parametrize("active", [True, False])
def test_a_delivery_offers_each_action_exactly_when_it_is_accepted(world, status, active):
    client = world.client(Role.UMPIRE)
    created = client.post(
        world.url("webhook-list"),
        {"url": "https://example.com/hook", "events": ["battle.reported"]},
        format="json",
    )
    assert created.status_code == 201, created.content
    subscription = models.WebhookSubscription.objects.get(public_id=created.json()["id"])
    delivery = models.WebhookDelivery.objects.create(
        subscription=subscription, payload={"event": "battle.reported"}, status=status
    )
    models.WebhookSubscription.objects.filter(pk=subscription.pk).update(active=active)
    url = world.url("webhook-delivery-detail", webhook_pk=subscription.public_id, pk=delivery.public_id)

    read = client.get(url).json()
    accepted = []
    for action in ("retry", "publish", "discard"):
        with transaction.atomic():
            if client.post(f"{url}{action}/", format="json").status_code < 300:
                accepted.append(action)
            transaction.set_rollback(True)

    assert read["actions"] == accepted
    assert read["sending"] == (status == DeliveryStatus.PENDING)
