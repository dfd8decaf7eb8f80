"""A campaign on day 2 seen by every role, and helpers to assert what each role gets.

The roles are users of each membership, an outsider, the anonymous, and a
read-only API key of the Allied side (which should see what an Allied player sees).

Fog of war: the Axis lets the Allies see A1 (identified) with its strengths,
but not its lines of battle reports; the Allies let the Axis see L1, with
battle results but without strengths. Every other battalion is hidden from
the enemy.

The campaign has a map of five sectors in a row (:data:`MAP_SECTORS`, each linked to the
next) besides the tables its two battles were fought on; nothing stands on the map, so no
unit is in contact with the enemy until a test places it.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.response import Response
from rest_framework.test import APIClient

from api.urls import router
from campaign import models
from campaign.choices import (
    EventVerb,
    MemberRole,
    NightOrderKind,
    NotificationKind,
    SideOrderKind,
    SideOrderStatus,
)
from campaign.services.api_keys import api_key_create
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.battles import battle_create
from campaign.services.days import day_dawn
from campaign.services.dice import dice_commitment_fields
from campaign.services.memberships import invitation_create
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from tests.campaign.factories import UserFactory, campaign_with_sides

ACTOR = Actor(request_id="api-test")
AXIS_FOG = {"identified_units": ["A1"], "battle_results": False, "strengths": True}
ALLIED_FOG = {"identified_units": ["L1"], "battle_results": True, "strengths": False}
ALLIED_ACTIVATION_POINTS = 13
WORLD_SEED = "api-world"
# Keys of the world's map, in a row: each sector is next to the one before it.
MAP_SECTORS = ("north", "ridge", "village", "bridge", "south")


class Role(enum.Enum):
    """In the order the matrix runs them: the umpire, who may write, last."""

    ANONYMOUS = "anonymous"
    OTHER_UMPIRE = "umpire of another campaign"
    AXIS_PLAYER = "player of side A (Axis)"
    ALLIED_PLAYER = "player of side B (Allied)"
    OBSERVER = "observer"
    ALLIED_KEY = "read-only API key of side B (Allied)"
    UMPIRE = "umpire"


# What a 401 answers in WWW-Authenticate: the API key scheme (api.authentication).
AUTHENTICATE_CHALLENGE = 'Api-Key realm="api"'
MEMBERS = (Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER, Role.ALLIED_KEY, Role.UMPIRE)
UNSAFE_METHODS = ("post", "put", "patch", "delete")
# What a write answers a caller who may not make it: 401 to the anonymous (no
# credentials), 403 to members, 404 to an outsider, for whom the campaign does not exist.
WRITE_REFUSED = {
    Role.ANONYMOUS: 401,
    Role.OTHER_UMPIRE: 404,
    Role.AXIS_PLAYER: 403,
    Role.ALLIED_PLAYER: 403,
    Role.OBSERVER: 403,
    Role.ALLIED_KEY: 403,
}


@dataclass
class World:
    campaign: models.Campaign
    axis: models.Side
    allied: models.Side
    fought: models.Battle  # day 1, reported and through the night phase
    planned: models.Battle  # day 2, planned: A1 attacks L1
    users: dict[Role, Any] = field(default_factory=dict)
    keys: dict[Role, str] = field(default_factory=dict)  # plain API keys

    def url(self, name: str, **kwargs: Any) -> str:
        return reverse(f"api:{name}", kwargs={"campaign_slug": self.campaign.slug, **kwargs})

    def client(self, role: Role) -> APIClient:
        if role in self.keys:
            return api_key_client(self.keys[role])
        client = APIClient()
        if self.users.get(role) is not None:
            client.force_login(self.users[role])
        return client

    def battalion(self, code: str) -> models.Battalion:
        return models.Battalion.objects.get(campaign=self.campaign, code=code)

    def sector(self, key: str) -> models.Sector:
        return models.Sector.objects.get(campaign=self.campaign, key=key)

    def codes(self, prefix: str) -> set[str]:
        return set(self.campaign.battalions.filter(code__startswith=prefix).values_list("code", flat=True))

    def state(self) -> tuple[int, int, int, int]:
        """What any write would change: the campaign version and its audit trail."""
        campaign = models.Campaign.objects.get(pk=self.campaign.pk)
        return (campaign.version, campaign.events.count(), campaign.rolls.count(), campaign.battles.count())


def api_key_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {key}")
    return client


def build_world(battalions_per_side: int = 3, optional_rules: Sequence[str] = ()) -> World:
    campaign = campaign_with_sides(battalions_per_side=battalions_per_side, stands_per_battalion=4)
    # One seed for every world: its dice (weather, night replacements) must not depend
    # on how many campaigns earlier tests made.
    models.Campaign.objects.filter(pk=campaign.pk).update(
        **dice_commitment_fields(WORLD_SEED), optional_rules=list(optional_rules)
    )
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    models.Side.objects.filter(pk=axis.pk).update(fog_of_war=AXIS_FOG)
    models.Side.objects.filter(pk=allied.pk).update(
        fog_of_war=ALLIED_FOG, activation_points=ALLIED_ACTIVATION_POINTS
    )
    slug = campaign.slug
    user_model = get_user_model()
    users: dict[Role, Any] = {
        Role.ANONYMOUS: None,
        Role.UMPIRE: user_model.objects.get(username=f"umpire-{slug}"),
    }
    for role, member_role, side in (
        (Role.AXIS_PLAYER, MemberRole.PLAYER, axis),
        (Role.ALLIED_PLAYER, MemberRole.PLAYER, allied),
        (Role.OBSERVER, MemberRole.OBSERVER, None),
    ):
        users[role] = UserFactory(username=f"{role.name.lower()}-{slug}")
        models.Membership.objects.create(user=users[role], campaign=campaign, role=member_role, side=side)
    other = campaign_with_sides(battalions_per_side=1)
    users[Role.OTHER_UMPIRE] = user_model.objects.get(username=f"umpire-{other.slug}")

    day_dawn(campaign.pk, ACTOR)
    codes = sorted(campaign.battalions.values_list("code", flat=True))
    fought = battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Ta' Qali",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=codes,
    )
    battle_report(
        fought.campaign_id,
        ACTOR,
        fought.pk,
        {"battalions": [{"code": code, "destroyed": ["2"]} for code in codes]},
    )
    operation_run(night_phase_start(campaign.pk, ACTOR).pk)
    day_dawn(campaign.pk, ACTOR)
    planned = battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Mdina",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["A1", "L1"],
    )
    map_build(campaign)
    umpire = Actor(user=users[Role.UMPIRE], request_id="api-test")
    _, allied_key = api_key_create(campaign.pk, umpire, name="Allied tracker", side_id=allied.pk)
    campaign.refresh_from_db()
    return World(campaign, axis, allied, fought, planned, users, keys={Role.ALLIED_KEY: allied_key})


def map_build(campaign: models.Campaign) -> list[models.Sector]:
    """The :data:`MAP_SECTORS` in a row, west to east, each linked to the next by road."""
    sectors = models.Sector.objects.bulk_create(
        models.Sector(campaign=campaign, key=key, name=key.title(), x=100 + 200 * i, y=500)
        for i, key in enumerate(MAP_SECTORS)
    )
    models.SectorLink.objects.bulk_create(
        models.SectorLink(campaign=campaign, a=a, b=b) for a, b in itertools.pairwise(sectors)
    )
    return sectors


def assert_statuses(
    world: World,
    method: str,
    url: str,
    expected: Mapping[Role, int],
    data: Any = None,
    unchanged: bool = False,
    **headers: str,
) -> dict[Role, Response]:
    """Call ``url`` as each role in ``expected`` (in Role order) and check every status.

    With ``unchanged``, every refused call must leave the campaign as it was.
    """
    responses = {}
    for role in Role:
        if role not in expected:
            continue
        before = world.state() if unchanged else None  # four queries a call, read only for refusals
        response = getattr(world.client(role), method)(url, data=data, format="json", headers=headers)
        assert response.status_code == expected[role], (
            f"{method.upper()} {url} as {role.value}: {response.status_code}, "
            f"expected {expected[role]}: {getattr(response, 'data', None)}"
        )
        if response.status_code == 401:
            assert response["WWW-Authenticate"] == AUTHENTICATE_CHALLENGE, f"{method.upper()} {url}"
        if unchanged and response.status_code >= 400:
            assert world.state() == before, f"a refused {method.upper()} as {role.value} changed the campaign"
        responses[role] = response
    return responses


def strings(value: Any) -> Iterator[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def query_count(client: APIClient, url: str) -> tuple[int, Any]:
    """How many queries one GET runs (the client is logged in beforehand)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    return len(captured), response


READ = {Role.ANONYMOUS: 401, Role.OTHER_UMPIRE: 404, **dict.fromkeys(MEMBERS, 200)}
UMPIRE_ONLY = {Role.ANONYMOUS: 401, Role.OTHER_UMPIRE: 404, **dict.fromkeys(MEMBERS, 404), Role.UMPIRE: 200}
# Rows of one side: the Allied key sees as an Allied player.
AXIS_ONLY = {**UMPIRE_ONLY, Role.AXIS_PLAYER: 200}
ALLIES_ONLY = {**UMPIRE_ONLY, Role.ALLIED_PLAYER: 200, Role.ALLIED_KEY: 200}
PLAYERS = {**ALLIES_ONLY, Role.AXIS_PLAYER: 200}
# Umpire-only collections refuse members outright rather than hiding rows.
MEMBERS_REFUSED = {**UMPIRE_ONLY, **dict.fromkeys(MEMBERS, 403), Role.UMPIRE: 200}
ANY_CALLER = {**dict.fromkeys(Role, 200), Role.ANONYMOUS: 401}
# A person's own, which a key never reads: their calendar link, an invitation they follow.
PERSONAL = frozenset(
    {
        "campaign-calendar",
        "invitation-link-detail",
        "campaign-notification-emails",
        "notification-list",
        "notification-detail",
        "notification-unread-count",
    }
)
PERSONS = (Role.OTHER_UMPIRE, Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER, Role.UMPIRE)
# A side's sealed orders: its players write them, logged in (an empty body: 400 to draft; the
# matrix's order has lapsed: 409 to its side, 404 to the enemy, who never finds it).
SIDE_ORDER_PLAYER_WRITE = {
    **WRITE_REFUSED,
    Role.AXIS_PLAYER: 409,
    Role.ALLIED_PLAYER: 404,
    Role.UMPIRE: 403,
}
SIDE_ORDER_WRITES = {
    "side-order-list": {**WRITE_REFUSED, Role.AXIS_PLAYER: 400, Role.ALLIED_PLAYER: 400, Role.UMPIRE: 403},
    "side-order-detail": SIDE_ORDER_PLAYER_WRITE,
    "side-order-submit": SIDE_ORDER_PLAYER_WRITE,
    "side-order-withdraw": SIDE_ORDER_PLAYER_WRITE,
}
# Writes open to more than the umpire, and what each role's empty body gets there.
OPEN_WRITES: Mapping[str, Mapping[Role, int]] = {
    # Any person signed in creates a campaign (an empty body says how it starts from: 400).
    "campaign-list": {
        Role.ANONYMOUS: 401,
        Role.ALLIED_KEY: 403,
        **dict.fromkeys((Role.OTHER_UMPIRE, Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER), 400),
    },
    # Every member renews their own calendar link.
    "campaign-calendar-renew": {
        **WRITE_REFUSED,
        **dict.fromkeys((Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER), 200),
    },
    # Every member sets their own notification e-mails (an empty body names the missing field).
    "campaign-notification-emails": {
        **WRITE_REFUSED,
        **dict.fromkeys((Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER, Role.UMPIRE), 400),
    },
    # A person's inbox: their own notifications only (the matrix's one is the Allied player's).
    "notification-read": {
        Role.ANONYMOUS: 401,
        Role.ALLIED_KEY: 403,
        **dict.fromkeys(PERSONS, 404),
        Role.ALLIED_PLAYER: 200,
    },
    "notification-read-all": {Role.ANONYMOUS: 401, Role.ALLIED_KEY: 403, **dict.fromkeys(PERSONS, 200)},
    # A battle's players file their side's draft (an empty body: 400); a key files none.
    "battle-draft": {
        **WRITE_REFUSED,
        Role.AXIS_PLAYER: 400,
        Role.ALLIED_PLAYER: 400,
        Role.OBSERVER: 404,
        Role.UMPIRE: 403,
    },
    # The first person to follow a link joins; it is used up for the next, a member already.
    "invitation-link-accept": {
        Role.ANONYMOUS: 401,
        Role.OTHER_UMPIRE: 201,
        **dict.fromkeys((Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER), 409),
        Role.ALLIED_KEY: 403,
    },
    **SIDE_ORDER_WRITES,
}
# A battle's players read their side's draft of its report (the side's key too); the umpire
# compares both elsewhere; observers do not see the battle.
DRAFTERS = {**PLAYERS, Role.UMPIRE: 403}
# A person's own (a calendar link): every member signed in, never a key.
MEMBERS_IN_PERSON = {**READ, Role.ALLIED_KEY: 403}
# Whoever is signed in (an invitation link), never a key.
ANY_PERSON = {**ANY_CALLER, Role.ALLIED_KEY: 403}


@dataclass(frozen=True)
class Route:
    url: str
    read: Mapping[Role, int] | None  # None: the route only writes


def matrix(world: World) -> dict[str, Route]:
    """Every route of the API router by URL name: a URL naming a real row, and what each
    role reads there. Writes are refused to everyone but the umpire (``WRITE_REFUSED``)."""
    l1 = world.battalion("L1")
    allied_force = models.Force.objects.get(side=world.allied)
    allied_report = models.NightReport.objects.get(side=world.allied)
    webhook = models.WebhookSubscription.objects.create(
        campaign=world.campaign, url="http://127.0.0.1:9/hook", secret="s" * 32, events=["night.done"]
    )
    ping = models.WebhookDelivery.objects.create(subscription=webhook, payload={"event": "ping"})
    key_prefix = world.keys[Role.ALLIED_KEY].partition(".")[0]
    _, token = invitation_create(world.campaign.pk, ACTOR, role=MemberRole.OBSERVER)
    order = models.NightOrder.objects.create(
        campaign=world.campaign, day=world.planned.day, kind=NightOrderKind.WITHDRAW, battalion=l1
    )
    note = models.Notification.objects.create(
        recipient=world.users[Role.ALLIED_PLAYER],
        campaign=world.campaign,
        kind=NotificationKind.ORDERS_DUE,
        title="Orders due",
        link=f"/campaigns/{world.campaign.slug}",
    )
    allied_player_only = {
        Role.ANONYMOUS: 401,
        Role.ALLIED_KEY: 403,
        **dict.fromkeys(PERSONS, 404),
        Role.ALLIED_PLAYER: 200,
    }
    # An Axis order no write can change any more: every write to it answers the same in any order.
    side_order = models.SideOrder.objects.create(
        campaign=world.campaign,
        side=world.axis,
        day_number=2,
        kind=SideOrderKind.WITHDRAW,
        payload={"battalion_code": "A2"},
        status=SideOrderStatus.LAPSED,
    )
    everybody, umpire, players, allies = READ, MEMBERS_REFUSED, PLAYERS, ALLIES_ONLY
    # A side's papers: its players and the umpires print them; the enemy and observers may not.
    allied_papers = {**MEMBERS_REFUSED, Role.ALLIED_PLAYER: 200, Role.ALLIED_KEY: 200}
    return {
        "campaign-list": Route(reverse("api:campaign-list"), ANY_CALLER),
        "campaign-detail": Route(world.url("campaign-detail"), everybody),
        "campaign-oob": Route(world.url("campaign-oob"), everybody),
        "campaign-statistics": Route(world.url("campaign-statistics"), everybody),
        "campaign-timeline": Route(world.url("campaign-timeline"), everybody),
        "day-journal": Route(world.url("day-journal", number=1), None),
        "campaign-victory": Route(world.url("campaign-victory"), everybody),
        # Printed for its reader, through their fog (tests/api/test_chronicle.py); as its web page here.
        "campaign-chronicle": Route(world.url("campaign-chronicle") + "?output=html", everybody),
        "campaign-todo": Route(world.url("campaign-todo"), umpire),
        "campaign-dice": Route(world.url("campaign-dice"), everybody),
        "day-dice": Route(world.url("day-dice", number=1), everybody),
        "campaign-start": Route(world.url("campaign-start"), None),
        "campaign-supply": Route(world.url("campaign-supply"), umpire),
        "campaign-export": Route(world.url("campaign-export"), umpire),
        "day-briefing": Route(
            world.url("day-briefing", number=1) + f"?side={world.allied.pk}", allied_papers
        ),
        "battle-packet": Route(
            world.url("battle-packet", pk=world.fought.public_id) + f"?side={world.allied.pk}",
            {**allied_papers, Role.OBSERVER: 404},  # observers do not see the battle at all
        ),
        "roll-procedures": Route(world.url("roll-procedures"), everybody),
        "campaign-schedule": Route(world.url("campaign-schedule"), everybody),
        "campaign-calendar": Route(world.url("campaign-calendar"), MEMBERS_IN_PERSON),
        "campaign-calendar-renew": Route(world.url("campaign-calendar-renew"), None),
        "campaign-notification-emails": Route(world.url("campaign-notification-emails"), MEMBERS_IN_PERSON),
        "notification-list": Route(reverse("api:notification-list"), ANY_PERSON),
        "notification-unread-count": Route(reverse("api:notification-unread-count"), ANY_PERSON),
        "notification-detail": Route(
            reverse("api:notification-detail", kwargs={"pk": note.public_id}), allied_player_only
        ),
        "notification-read": Route(reverse("api:notification-read", kwargs={"pk": note.public_id}), None),
        "notification-read-all": Route(reverse("api:notification-read-all"), None),
        "member-list": Route(world.url("member-list"), umpire),
        "member-detail": Route(
            world.url("member-detail", pk=world.campaign.memberships.first().public_id), None
        ),
        "invitation-list": Route(world.url("invitation-list"), umpire),
        "invitation-link-detail": Route(
            reverse("api:invitation-link-detail", kwargs={"token": token}), ANY_PERSON
        ),
        "invitation-link-accept": Route(reverse("api:invitation-link-accept", kwargs={"token": token}), None),
        "side-list": Route(world.url("side-list"), everybody),
        "side-detail": Route(world.url("side-detail", pk=world.allied.pk), everybody),
        "side-fog-of-war": Route(world.url("side-fog-of-war", pk=world.allied.pk), None),
        "activation-spend-list": Route(
            world.url("activation-spend-list", side_pk=world.allied.pk), everybody
        ),
        "reinforcement-list": Route(world.url("reinforcement-list"), everybody),
        "reinforcement-postpone": Route(world.url("reinforcement-postpone", pk=allied_force.public_id), None),
        "force-list": Route(world.url("force-list"), everybody),
        "force-detail": Route(world.url("force-detail", pk=allied_force.public_id), players),
        "force-force-status": Route(world.url("force-force-status", pk=allied_force.public_id), players),
        "force-air-support": Route(world.url("force-air-support", pk=allied_force.public_id), None),
        "force-postpone-arrival": Route(world.url("force-postpone-arrival", pk=allied_force.public_id), None),
        "force-cops-overrun": Route(world.url("force-cops-overrun", pk=allied_force.public_id), None),
        "force-cops-action-points": Route(
            world.url("force-cops-action-points", pk=allied_force.public_id), None
        ),
        "side-artillery-orders": Route(world.url("side-artillery-orders", pk=world.allied.pk), None),
        "battalion-list": Route(world.url("battalion-list"), everybody),
        "battalion-move": Route(world.url("battalion-move", pk=l1.public_id), None),
        "force-move": Route(world.url("force-move", pk=allied_force.public_id), None),
        "sector-list": Route(world.url("sector-list"), everybody),
        "sector-detail": Route(world.url("sector-detail", pk=world.sector("village").pk), everybody),
        "sector-control": Route(world.url("sector-control", pk=world.sector("village").pk), None),
        "campaign-map": Route(world.url("campaign-map"), everybody),
        "battalion-detail": Route(world.url("battalion-detail", pk=l1.public_id), players),
        "battalion-history": Route(world.url("battalion-history", pk=l1.public_id), players),
        "battalion-deactivate": Route(world.url("battalion-deactivate", pk=l1.public_id), None),
        "battalion-reactivate": Route(world.url("battalion-reactivate", pk=l1.public_id), None),
        "battalion-initiative-activation": Route(
            world.url("battalion-initiative-activation", pk=l1.public_id), None
        ),
        "stand-list": Route(world.url("stand-list"), everybody),
        "stand-detail": Route(world.url("stand-detail", pk=l1.stands.first().public_id), allies),
        "stand-correct": Route(world.url("stand-correct", pk=l1.stands.first().public_id), None),
        "stand-entrench": Route(world.url("stand-entrench", pk=l1.stands.first().public_id), None),
        "stand-move": Route(world.url("stand-move", pk=l1.stands.first().public_id), None),
        "day-list": Route(world.url("day-list"), everybody),
        "day-detail": Route(world.url("day-detail", number=1), everybody),
        "day-dawn": Route(world.url("day-dawn"), None),
        "day-dawn-preview": Route(world.url("day-dawn-preview"), None),
        "day-advance-segment": Route(world.url("day-advance-segment", number=2), None),
        "day-day-end-roll": Route(world.url("day-day-end-roll", number=2), None),
        "battle-list": Route(world.url("battle-list"), everybody),
        "battle-detail": Route(world.url("battle-detail", pk=world.fought.public_id), players),
        "battle-set-up": Route(world.url("battle-set-up", pk=world.planned.public_id), None),
        "battle-report": Route(world.url("battle-report", pk=world.planned.public_id), None),
        "battle-close": Route(world.url("battle-close", pk=world.fought.public_id), None),
        "battle-draft": Route(world.url("battle-draft", pk=world.planned.public_id), DRAFTERS),
        "battle-drafts": Route(world.url("battle-drafts", pk=world.planned.public_id), umpire),
        "battle-drafts-confirm": Route(world.url("battle-drafts-confirm", pk=world.planned.public_id), None),
        "battle-lull-check": Route(world.url("battle-lull-check", pk=world.planned.public_id), None),
        "operation-list": Route(world.url("operation-list"), everybody),
        "operation-detail": Route(
            world.url("operation-detail", pk=world.campaign.operations.get().public_id), everybody
        ),
        "battle-setup-inputs": Route(world.url("battle-setup-inputs", pk=world.planned.public_id), umpire),
        "night-order-list": Route(world.url("night-order-list"), umpire),
        "night-order-detail": Route(world.url("night-order-detail", pk=order.public_id), umpire),
        "side-order-list": Route(world.url("side-order-list"), everybody),
        "side-order-deadline": Route(world.url("side-order-deadline"), everybody),
        "side-order-detail": Route(world.url("side-order-detail", pk=side_order.public_id), AXIS_ONLY),
        **{
            name: Route(world.url(name, pk=side_order.public_id), None)
            for name in (
                f"side-order-{action}" for action in ("submit", "withdraw", "approve", "send-back", "amend")
            )
        },
        "night-report-list": Route(world.url("night-report-list"), everybody),
        "night-report-detail": Route(world.url("night-report-detail", pk=allied_report.public_id), allies),
        "roll-list": Route(world.url("roll-list"), everybody),
        "roll-detail": Route(
            world.url("roll-detail", pk=world.campaign.rolls.filter(battalion=l1).first().public_id), allies
        ),
        "roll-override": Route(world.url("roll-override", pk=world.campaign.rolls.first().public_id), None),
        "event-list": Route(world.url("event-list"), everybody),
        # A list's changes read as its list (api.changes).
        **{
            f"{name}-changes": Route(world.url(f"{name}-changes"), everybody)
            for name in ("force", "battalion", "stand", "battle", "side-order", "roll", "event")
        },
        "night-order-changes": Route(world.url("night-order-changes"), umpire),
        "event-detail": Route(
            world.url(
                "event-detail", pk=world.campaign.events.filter(verb=EventVerb.DAY_DAWNED).first().public_id
            ),
            everybody,
        ),
        "webhook-list": Route(world.url("webhook-list"), umpire),
        "webhook-detail": Route(world.url("webhook-detail", pk=webhook.public_id), umpire),
        "webhook-ping": Route(world.url("webhook-ping", pk=webhook.public_id), None),
        "webhook-delivery-retry": Route(
            world.url("webhook-delivery-retry", webhook_pk=webhook.public_id, pk=ping.public_id), None
        ),
        "webhook-delivery-publish": Route(
            world.url("webhook-delivery-publish", webhook_pk=webhook.public_id, pk=ping.public_id), None
        ),
        "webhook-delivery-discard": Route(
            world.url("webhook-delivery-discard", webhook_pk=webhook.public_id, pk=ping.public_id), None
        ),
        "webhook-delivery-list": Route(
            world.url("webhook-delivery-list", webhook_pk=webhook.public_id), umpire
        ),
        "webhook-delivery-detail": Route(
            world.url("webhook-delivery-detail", webhook_pk=webhook.public_id, pk=ping.public_id), umpire
        ),
        "api-key-list": Route(world.url("api-key-list"), umpire),
        "api-key-detail": Route(world.url("api-key-detail", prefix=key_prefix), umpire),
        "api-key-revoke": Route(world.url("api-key-revoke", prefix=key_prefix), None),
        "equipment-list": Route(reverse("api:equipment-list"), ANY_CALLER),
        "equipment-detail": Route(
            reverse("api:equipment-detail", kwargs={"pk": models.Equipment.objects.first().pk}), ANY_CALLER
        ),
        "rule-list": Route(reverse("api:rule-list"), ANY_CALLER),
        "rule-detail": Route(reverse("api:rule-detail", kwargs={"key": "gb.weather"}), ANY_CALLER),
    }


def router_methods() -> dict[str, set[str]]:
    """The HTTP methods of every route the API router serves, by URL name."""
    methods: dict[str, set[str]] = {}
    for pattern in router.urls:
        actions = getattr(pattern.callback, "actions", None)
        if actions:  # the API root lists the routes and has none
            methods.setdefault(str(pattern.name), set()).update(actions)
    return methods
