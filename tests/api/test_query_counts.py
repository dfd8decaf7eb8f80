"""Every GET endpoint of the router runs as many queries for 1 battalion a side as for 500.

Every GET route of the router (lists, details and GET actions) must have an
entry in :func:`endpoints`, so a new endpoint fails here until it is counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import pytest
from django.db import connection
from django.db.models import NOT_PROVIDED, Model
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import models
from campaign.choices import (
    ArrivalStatus,
    EventVerb,
    MemberRole,
    NightOrderKind,
    NotificationKind,
    SideOrderKind,
    SideOrderStatus,
    StandType,
)
from campaign.models import CampaignAPIKey
from campaign.services.memberships import invitation_create
from campaign.services.webhook_subscriptions import webhook_subscribe
from tests.api.world import ACTOR, Role, World, build_world, query_count, router_methods
from tests.campaign.factories import ForceFactory

pytestmark = pytest.mark.django_db

_M = TypeVar("_M", bound=Model)
BIG = 500
STANDS_PER_BATTALION = 4
# Umpire-only endpoints: players and keys get 403 from them, in as many queries whatever the size.
UMPIRE_ONLY = {
    "campaign-supply",
    "campaign-todo",
    "webhook-list",
    "webhook-detail",
    "webhook-delivery-list",
    "webhook-delivery-detail",
    "api-key-list",
    "api-key-detail",
    "campaign-export",
    "member-list",
    "invitation-list",
    "battle-setup-inputs",
    "night-order-list",
    "night-order-detail",
    "night-order-changes",
    "battle-drafts",
}
# A battle's players' own: the umpire gets 403 (they compare both drafts at battle-drafts).
PLAYERS_ONLY = {"battle-draft"}
# A person's own: a key gets 403 from them.
PERSONAL = {
    "campaign-calendar",
    "invitation-link-detail",
    "campaign-notification-emails",
    "notification-list",
    "notification-detail",
    "notification-unread-count",
}


def clones(template: _M, changes: Iterable[dict[str, Any]]) -> list[_M]:
    """Unsaved copies of ``template``, each with its ``changes``."""
    fields = {
        f.attname: getattr(template, f.attname)
        for f in template._meta.concrete_fields
        if not f.primary_key and f.db_default is NOT_PROVIDED  # public ids are the database's to give
    }
    return [type(template)(**{**fields, **change}) for change in changes]


def grow(world: World, battalions_per_side: int) -> None:
    """Set-based (bulk inserts, not a service call per row): each side gets ``battalions_per_side``
    battalions with their stands, in both battles and an activation spend, each with a roll and an
    event; one webhook has a delivery of every event."""
    campaign = world.campaign
    subscription = webhook_subscribe(
        campaign.pk, ACTOR, url="http://127.0.0.1:9/hook", events=[EventVerb.DAY_DAWNED]
    )
    day = campaign.days.get(number=campaign.current_day)
    # The night may send forces and battalions to reserve, as the campaign's seed rolls: every
    # world starts from the same table, with a force of each side due later (the schedule).
    campaign.forces.update(arrival_status=ArrivalStatus.ON_TABLE)
    campaign.battalions.update(in_reserve=False)
    for side in (world.axis, world.allied):
        first = models.Battalion.objects.get(side=side)  # A1 or L1
        added = models.Battalion.objects.bulk_create(
            clones(first, ({"code": f"{first.code[0]}{n}"} for n in range(2, battalions_per_side + 1)))
        )
        models.Stand.objects.bulk_create(
            models.Stand(battalion=b, campaign=campaign, label=str(n + 1), stand_type=StandType.INFANTRY)
            for b in added
            for n in range(STANDS_PER_BATTALION)
        )
        ForceFactory(
            side=side, campaign=campaign, arrival_status=ArrivalStatus.SCHEDULED, arrival_day=day.number + 1
        )
        spend = models.ActivationSpend.objects.create(side=side, day=day, turn=1, column="A", cost=1)
        mine = [first, *added]
        models.NightOrder.objects.bulk_create(
            models.NightOrder(campaign=campaign, day=day, kind=NightOrderKind.WITHDRAW, battalion=b)
            for b in mine
        )
        spend.battalions.add(*mine)
        models.SideOrder.objects.bulk_create(
            models.SideOrder(
                campaign=campaign,
                side=side,
                day_number=day.number,
                kind=SideOrderKind.WITHDRAW,
                payload={"battalion_code": b.code},
                status=SideOrderStatus.SUBMITTED,
            )
            for b in mine
        )
        for battle in (world.fought, world.planned):
            battle.battalions.add(*mine)
        roll = campaign.rolls.filter(battalion=first).first()
        assert roll is not None
        models.RollRecord.objects.bulk_create(clones(roll, ({"battalion_id": b.pk} for b in added)))
        event = campaign.events.order_by("pk").first()
        assert event is not None
        models.Event.objects.bulk_create(
            clones(event, ({"object_type": "Battalion", "object_id": b.pk} for b in added))
        )
    models.WebhookDelivery.objects.bulk_create(
        models.WebhookDelivery(subscription=subscription, event=e, payload={}) for e in campaign.events.all()
    )
    # Each side's draft of the planned battle's report names every battalion's stand 2.
    codes = campaign.battalions.values_list("code", flat=True)
    models.BattleDraft.objects.bulk_create(
        models.BattleDraft(
            campaign=campaign,
            battle=world.planned,
            side=side,
            report={"battalions": [{"code": code, outcome: ["2"]} for code in codes]},
        )
        for side, outcome in ((world.axis, "destroyed"), (world.allied, "suppressed"))
    )
    # On the map, next to each other: each side sees the other's battalions in contact.
    campaign.battalions.filter(side=world.axis).update(sector=world.sector("ridge"))
    campaign.battalions.filter(side=world.allied).update(sector=world.sector("village"))
    campaign.forces.update(sector=world.sector("village"))
    # Every person's inbox holds as many notifications as each side has battalions.
    models.Notification.objects.bulk_create(
        models.Notification(
            recipient=user,
            campaign=campaign,
            kind=NotificationKind.BATTLE_ASSIGNED,
            title=f"Battle {n}",
            link=f"/campaigns/{campaign.slug}/battles",
        )
        for user in world.users.values()
        if user is not None
        for n in range(battalions_per_side)
    )


def endpoints(world: World, side: models.Side, user: Any = None) -> dict[str, str]:
    """One URL per GET endpoint of the router, naming rows of ``side`` (a player's or key's own)
    and ``user``'s notification (any one without)."""
    force = models.Force.objects.get(side=side, arrival_status=ArrivalStatus.ON_TABLE)
    battalion = models.Battalion.objects.filter(side=side).order_by("pk").first()
    assert battalion is not None
    webhook = world.campaign.webhooks.get()
    notifications = models.Notification.objects.order_by("pk")
    note = (notifications.filter(recipient=user) if user is not None else notifications).first()
    assert note is not None
    return {
        "campaign-list": reverse("api:campaign-list"),
        "campaign-detail": world.url("campaign-detail"),
        "campaign-oob": world.url("campaign-oob"),
        "campaign-statistics": world.url("campaign-statistics"),
        "campaign-victory": world.url("campaign-victory"),
        "campaign-todo": world.url("campaign-todo"),
        "campaign-dice": world.url("campaign-dice"),
        "day-dice": world.url("day-dice", number=1),
        "campaign-supply": world.url("campaign-supply"),
        "campaign-export": world.url("campaign-export"),
        "campaign-schedule": world.url("campaign-schedule"),
        "campaign-calendar": world.url("campaign-calendar"),
        "campaign-notification-emails": world.url("campaign-notification-emails"),
        "notification-list": reverse("api:notification-list"),
        "notification-unread-count": reverse("api:notification-unread-count"),
        "notification-detail": reverse("api:notification-detail", kwargs={"pk": note.public_id}),
        "member-list": world.url("member-list"),
        "invitation-list": world.url("invitation-list"),
        "invitation-link-detail": reverse(
            "api:invitation-link-detail",
            kwargs={"token": invitation_create(world.campaign.pk, ACTOR, role=MemberRole.OBSERVER)[1]},
        ),
        "side-list": world.url("side-list"),
        "side-detail": world.url("side-detail", pk=side.pk),
        "activation-spend-list": world.url("activation-spend-list", side_pk=side.pk),
        "reinforcement-list": world.url("reinforcement-list"),
        "force-list": world.url("force-list"),
        "force-detail": world.url("force-detail", pk=force.public_id),
        "force-force-status": world.url("force-force-status", pk=force.public_id),
        "battalion-list": world.url("battalion-list"),
        "battalion-detail": world.url("battalion-detail", pk=battalion.public_id),
        "sector-list": world.url("sector-list"),
        "sector-detail": world.url("sector-detail", pk=world.sector("village").pk),
        "campaign-map": world.url("campaign-map"),
        "stand-list": world.url("stand-list"),
        "stand-detail": world.url("stand-detail", pk=battalion.stands.first().public_id),
        "day-list": world.url("day-list"),
        "day-detail": world.url("day-detail", number=1),
        "day-briefing": world.url("day-briefing", number=1) + f"?side={side.pk}",
        "campaign-chronicle": world.url("campaign-chronicle") + "?output=html",
        "battle-list": world.url("battle-list"),
        "battle-detail": world.url("battle-detail", pk=world.fought.public_id),
        "battle-packet": world.url("battle-packet", pk=world.fought.public_id) + f"?side={side.pk}",
        "battle-setup-inputs": world.url("battle-setup-inputs", pk=world.planned.public_id),
        "battle-draft": world.url("battle-draft", pk=world.planned.public_id),
        "battle-drafts": world.url("battle-drafts", pk=world.planned.public_id),
        "night-order-list": world.url("night-order-list"),
        "night-order-detail": world.url(
            "night-order-detail", pk=world.campaign.night_orders.first().public_id
        ),
        "side-order-list": world.url("side-order-list"),
        "side-order-detail": world.url("side-order-detail", pk=side.orders.first().public_id),
        "side-order-deadline": world.url("side-order-deadline"),
        "operation-list": world.url("operation-list"),
        "operation-detail": world.url("operation-detail", pk=world.campaign.operations.get().public_id),
        "night-report-list": world.url("night-report-list"),
        "night-report-detail": world.url(
            "night-report-detail", pk=models.NightReport.objects.get(side=side).public_id
        ),
        "roll-list": world.url("roll-list"),
        "roll-procedures": world.url("roll-procedures"),
        "roll-detail": world.url(
            "roll-detail", pk=world.campaign.rolls.filter(battalion=battalion).first().public_id
        ),
        "event-list": world.url("event-list"),
        "event-detail": world.url("event-detail", pk=world.campaign.events.order_by("pk").first().public_id),
        "webhook-list": world.url("webhook-list"),
        "webhook-detail": world.url("webhook-detail", pk=webhook.public_id),
        "webhook-delivery-list": world.url("webhook-delivery-list", webhook_pk=webhook.public_id),
        "webhook-delivery-detail": world.url(
            "webhook-delivery-detail",
            webhook_pk=webhook.public_id,
            pk=webhook.deliveries.order_by("pk").first().public_id,
        ),
        "api-key-list": world.url("api-key-list"),
        "api-key-detail": world.url(
            "api-key-detail",
            prefix=CampaignAPIKey.objects.filter(campaign=world.campaign).order_by("pk").first().prefix,
        ),
        # A changes read from the start: every row seen, as a list reads them (api.changes).
        **{
            f"{name}-changes": world.url(f"{name}-changes")
            for name in (
                "force",
                "battalion",
                "stand",
                "battle",
                "roll",
                "event",
                "side-order",
                "night-order",
            )
        },
        "equipment-list": reverse("api:equipment-list"),
        "equipment-detail": reverse(
            "api:equipment-detail", kwargs={"pk": models.Equipment.objects.first().pk}
        ),
        "rule-list": reverse("api:rule-list"),
        "rule-detail": reverse("api:rule-detail", kwargs={"key": "gb.weather"}),
    }


def sized_worlds() -> dict[int, World]:
    """A world of one battalion a side and one grown to ``BIG``, side by side."""
    worlds = {}
    for size in (1, BIG):
        world = build_world(battalions_per_side=1)
        grow(world, size)
        worlds[size] = world
    return worlds


@pytest.fixture(scope="module")
def module_rows_build() -> Callable[[], dict[int, World]]:
    return sized_worlds


@pytest.fixture
def worlds(shared_rows: dict[int, World]) -> dict[int, World]:
    """Built once for the module's tests (tests/shared_rows.py): growing ``BIG`` battalions a
    side is most of what a test here would otherwise spend."""
    return shared_rows


def test_every_get_endpoint_of_the_router_has_an_entry(worlds):
    world = worlds[1]

    listed = set(endpoints(world, world.axis))

    served = {name for name, methods in router_methods().items() if "get" in methods}
    missing, gone = served - listed, listed - served
    assert not missing, f"add these GET endpoints to endpoints(): {sorted(missing)}"
    assert not gone, f"no longer served: {sorted(gone)}"


# A paper's PDF is its web page laid out by WeasyPrint, which reads nothing (campaign.paper.pdf):
# at one battalion a side each paper is counted as both, which must agree; at BIG as its web page
# only, the same reads without laying out 128 pages (most of this module's time when it did).
PAPERS = {"day-briefing", "battle-packet"}


def paper_outputs(name: str, url: str, size: int) -> list[tuple[str, str]]:
    if name not in PAPERS:
        return [(name, url)]
    as_html = (name, f"{url}&output=html")
    return [(f"{name} (PDF)", f"{url}&output=pdf"), as_html] if size == 1 else [as_html]


@pytest.mark.parametrize("role", [Role.UMPIRE, Role.AXIS_PLAYER, Role.ALLIED_KEY])
def test_query_counts_do_not_grow_with_the_order_of_battle(role: Role, worlds: dict[int, World]) -> None:
    counts: dict[str, list[int]] = {}
    for size, world in worlds.items():
        assert world.campaign.battalions.filter(side=world.axis).count() == size
        client = world.client(role)
        side = world.allied if role == Role.ALLIED_KEY else world.axis
        asked = endpoints(world, side, world.users.get(role)).items()
        for name, url in (output for endpoint in asked for output in paper_outputs(*endpoint, size)):
            count, response = query_count(client, url)
            refused = (
                (role != Role.UMPIRE and name in UMPIRE_ONLY)
                or (role == Role.ALLIED_KEY and name in PERSONAL)
                or (role == Role.UMPIRE and name in PLAYERS_ONLY)
            )
            expected = 403 if refused else 200
            assert response.status_code == expected, (name, size, response.json())
            counts.setdefault(name, []).append(count)

    for paper in PAPERS & set(counts):
        pdf = counts.pop(f"{paper} (PDF)")
        assert pdf[0] == counts[paper][0], f"{paper}: the PDF reads more than its web page"
    grew = {name: pair for name, pair in counts.items() if pair[0] != pair[1]}
    assert not grew, f"queries at 1 vs {BIG} battalions a side: {grew}"


# A repeated poll of a force status is answered from the cache: all it may query is who is
# asking. A player's session is read from the cache too, leaving their user, then the
# campaign joined to their membership; an API key's grant is read from Redis with the status.
CACHED_STATUS_TABLES = {
    Role.AXIS_PLAYER: ["auth_user", "campaign_campaign"],
    Role.ALLIED_KEY: [],
}


def queried_table(sql: str) -> str:
    match = re.search(r'FROM "(\w+)"', sql)
    assert match is not None, sql
    return match.group(1)


@pytest.mark.parametrize("role", list(CACHED_STATUS_TABLES))
def test_a_cached_force_status_queries_only_who_is_asking(role: Role) -> None:
    world = build_world(battalions_per_side=1)
    side = world.allied if role == Role.ALLIED_KEY else world.axis
    url = world.url("force-force-status", pk=models.Force.objects.get(side=side).public_id)
    client = world.client(role)
    assert client.get(url).status_code == 200  # renders and caches the status

    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)

    assert response.status_code == 200
    assert [queried_table(query["sql"]) for query in captured.captured_queries] == CACHED_STATUS_TABLES[role]
