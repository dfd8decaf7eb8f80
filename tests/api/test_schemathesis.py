"""schemathesis against the served OpenAPI schema: no 5xx, every response as documented.

The app is called in-process over WSGI, inside the test's transaction, as a
member of a populated campaign (or with its API key). Path parameters are drawn
mostly from rows that exist, else nearly every case would stop at a 404, and
sometimes as generated. Hypothesis is derandomized: the same cases run every time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import schemathesis
from django.conf import settings
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.middleware.csrf import get_token
from django.test import RequestFactory
from django.urls import reverse
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from campaign import models
from campaign.choices import EventVerb, MemberRole, NotificationKind
from campaign.services.memberships import invitation_create
from campaign.services.night_orders import night_order_queue
from campaign.services.orders import side_order_draft, side_order_submit
from campaign.services.webhook_subscriptions import webhook_ping, webhook_subscribe
from tests.api.world import ACTOR, Role, World, build_world

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]  # schemathesis draws its cases (tests/tiers.py)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# Per operation; an operation with few distinct inputs stops early, hence the totals asserted.
EXAMPLES_PER_OPERATION = {Role.UMPIRE: 20, Role.AXIS_PLAYER: 6, Role.ALLIED_KEY: 6}
LEAST_CASES = {Role.UMPIRE: 1_000, Role.AXIS_PLAYER: 300, Role.ALLIED_KEY: 300}
# Only the umpire reads these; everybody else gets 403.
UMPIRE_ONLY = (
    "/webhooks/",
    "/api-keys/",
    "/export/",
    "/members/",
    "{campaign_slug}/invitations/",
    "/night-orders/",
    "/supply/",
    "/setup-inputs/",
    "/drafts/",
    "/todo/",
)
# A battle's players' own: the umpire gets 403 (they compare both sides' drafts at drafts/).
PLAYERS_ONLY = ("/draft/",)
# A person's own: a key gets 403.
PERSONAL = ("/calendar/", "/api/v1/invitations/{token}/", "/notification-emails/", "/api/v1/notifications/")


@contextmanager
def wsgi_app() -> Iterator[Any]:
    """Django's WSGI app on the test's connection: as in the test client, requests must not
    close connections (that would end the test's transaction). No test client call inside:
    it connects the signal again."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def credentials(world: World, role: Role) -> dict[str, Any]:
    """What the role's requests carry: its API key, or a fresh session and CSRF token."""
    if role in world.keys:
        return {"headers": {"Authorization": f"Api-Key {world.keys[role]}"}}
    session = world.client(role).cookies[settings.SESSION_COOKIE_NAME].value
    token = get_token(RequestFactory().get("/"))
    return {
        "headers": {"X-CSRFToken": token},
        "cookies": {settings.SESSION_COOKIE_NAME: session, settings.CSRF_COOKIE_NAME: token},
    }


# The lists whose rows' ids fill ``<collection>/{id}``, read as the caller.
LISTS = {
    "sides": "side-list",
    "forces": "force-list",
    "battalions": "battalion-list",
    "stands": "stand-list",
    "days": "day-list",
    "battles": "battle-list",
    "operations": "operation-list",
    "night-reports": "night-report-list",
    "rolls": "roll-list",
    "events": "event-list",
    "webhooks": "webhook-list",
    "api-keys": "api-key-list",
    "sectors": "sector-list",
    "night-orders": "night-order-list",
    "orders": "side-order-list",
}


def existing_values(world: World, role: Role) -> dict[str, list[Any]]:
    """Path parameters naming rows the role sees (its own lists say which): by name, and
    ``id`` by ``<collection>/{id}``."""
    webhook = webhook_subscribe(
        world.campaign.pk, ACTOR, url="http://127.0.0.1:9/hook", events=[EventVerb.DAY_DAWNED]
    )
    webhook_ping(webhook.campaign_id, ACTOR, webhook.pk)  # a delivery, for deliveries/{id}
    night_order_queue(world.campaign.pk, ACTOR, kind="withdraw", battalion_code="A2")  # night-orders/{id}
    for side, code in ((world.axis, "A3"), (world.allied, "L3")):  # orders/{id}: each side reads its own
        order = side_order_draft(
            world.campaign.pk, ACTOR, side_id=side.pk, kind="withdraw", payload={"battalion_code": code}
        )
        side_order_submit(world.campaign.pk, ACTOR, order.pk, side_id=side.pk)
    client = world.client(role)
    seen: dict[str, list[dict[str, Any]]] = {}
    for collection, name in LISTS.items():
        response = client.get(world.url(name), {"page_size": 20})
        seen[collection] = response.json()["results"] if response.status_code == 200 else []
    if world.users.get(role) is not None:  # a person's inbox holds one at least, for notifications/{id}
        models.Notification.objects.create(
            recipient=world.users[role],
            campaign=world.campaign,
            kind=NotificationKind.ORDERS_DUE,
            title="Orders due",
            link=f"/campaigns/{world.campaign.slug}",
        )
    notifications = client.get(reverse("api:notification-list"))
    seen["notifications"] = notifications.json()["results"] if notifications.status_code == 200 else []
    deliveries = client.get(world.url("webhook-delivery-list", webhook_pk=webhook.public_id))
    seen["deliveries"] = deliveries.json()["results"] if deliveries.status_code == 200 else []
    equipment = client.get(reverse("api:equipment-list"), {"page_size": 20}).json()["results"]
    summary = client.get(world.url("campaign-detail")).json()
    return {
        **{f"{collection}/{{id}}": [row.get("id") for row in rows] for collection, rows in seen.items()},
        "equipment/{id}": [row["id"] for row in equipment],
        "campaign_slug": [world.campaign.slug],
        "side_pk": [row["id"] for row in seen["sides"]],
        "webhook_pk": [row["id"] for row in seen["webhooks"]],
        "number": [row["number"] for row in seen["days"]],
        "prefix": [row["prefix"] for row in seen["api-keys"]],
        "key": ["gb.weather", "gb.barrage_delay"],
        # ?side= of a printable paper: a player prints only their own side's.
        "side": [summary["side"]] if summary["role"] == "player" else [row["id"] for row in seen["sides"]],
        "token": [invitation_create(world.campaign.pk, ACTOR, role=MemberRole.OBSERVER)[1]],
    }


def run_operation(
    operation: Any, max_examples: int, sent: dict[str, Any], existing: dict[str, list[Any]]
) -> Counter[int]:
    """Run the operation's cases: how many answered each status code."""
    answered: Counter[int] = Counter()
    collection = operation.path.split("/{id}")[0].rsplit("/", 1)[-1]
    known = {**existing, "id": existing.get(f"{collection}/{{id}}", [])}

    @given(case=operation.as_strategy(), data=st.data())
    @hypothesis_settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def call(case: Any, data: st.DataObject) -> None:
        for parameters in (case.path_parameters, case.query):
            for name, generated in (parameters or {}).items():
                real = known.get(name, [])
                # Mostly rows that exist, so that the cases reach past the 404.
                parameters[name] = data.draw(st.sampled_from([*real, *real, *real, generated]))
        answered[case.call_and_validate(checks=CHECKS, **sent).status_code] += 1

    call()
    return answered


@pytest.mark.parametrize("role", [Role.UMPIRE, Role.AXIS_PLAYER, Role.ALLIED_KEY])
def test_every_response_matches_the_schema_and_none_is_a_server_error(role: Role) -> None:
    world = build_world()
    existing = existing_values(world, role)
    answered: dict[str, Counter[int]] = {}
    failures: dict[str, str] = {}

    with wsgi_app() as app:
        schema = schemathesis.openapi.from_wsgi(f"{reverse('api:schema')}?format=json", app)
        operations = [result.ok() for result in schema.get_all_operations()]
        # Deletes last: a deleted webhook would leave its deliveries nothing but 404s.
        for operation in sorted(operations, key=lambda operation: operation.method == "delete"):
            label = f"{operation.method.upper()} {operation.path}"
            try:
                # Fresh credentials each time: an operation may log out (DELETE /session/).
                sent = credentials(world, role)
                answered[label] = run_operation(operation, EXAMPLES_PER_OPERATION[role], sent, existing)
            except (Exception, BaseExceptionGroup) as failure:  # every operation's, reported together
                failures[label] = f"{type(failure).__name__}: {failure}"

    assert not failures, "\n\n".join(f"{label}\n{text}" for label, text in failures.items())
    total = sum(sum(counts.values()) for counts in answered.values())
    assert total >= LEAST_CASES[role], answered
    # The cases reached the endpoints: every read the role may make answered 200 at least once.
    never_read = [
        label
        for label, counts in answered.items()
        if label.startswith("GET ")
        and not counts[200]
        and (role == Role.UMPIRE or not any(part in label for part in UMPIRE_ONLY))
        and (role != Role.ALLIED_KEY or not any(part in label for part in PERSONAL))
        and (role != Role.UMPIRE or not any(part in label for part in PLAYERS_ONLY))
    ]
    assert not never_read, {label: answered[label] for label in never_read}
