"""A campaign on day 2 seen by every role, and helpers to assert what each role gets.

Fog of war: the Axis lets the Allies see A1 (identified) with its strengths,
but not its lines of battle reports; the Allies let the Axis see L1, with
battle results but without strengths. Every other battalion is hidden from
the enemy.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.response import Response
from rest_framework.test import APIClient

from campaign import models
from campaign.choices import MemberRole
from campaign.services.audit import Actor
from campaign.services.battles import battle_create, battle_report
from campaign.services.days import day_dawn
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from tests.campaign.factories import UserFactory, campaign_with_sides

ACTOR = Actor(request_id="api-test")
AXIS_FOG = {"identified_units": ["A1"], "battle_results": False, "strengths": True}
ALLIED_FOG = {"identified_units": ["L1"], "battle_results": True, "strengths": False}
ALLIED_ACTIVATION_POINTS = 13


class Role(enum.Enum):
    """In the order the matrix runs them: the umpire, who may write, last."""

    ANONYMOUS = "anonymous"
    OTHER_UMPIRE = "umpire of another campaign"
    AXIS_PLAYER = "player of side A (Axis)"
    ALLIED_PLAYER = "player of side B (Allied)"
    OBSERVER = "observer"
    UMPIRE = "umpire"


MEMBERS = (Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER, Role.UMPIRE)
# What a write answers a caller who may not make it: 403 to members and the
# anonymous, 404 to an outsider, for whom the campaign does not exist.
WRITE_REFUSED = {
    Role.ANONYMOUS: 403,
    Role.OTHER_UMPIRE: 404,
    Role.AXIS_PLAYER: 403,
    Role.ALLIED_PLAYER: 403,
    Role.OBSERVER: 403,
}


@dataclass
class World:
    campaign: models.Campaign
    axis: models.Side
    allied: models.Side
    fought: models.Battle  # day 1, reported and through the night phase
    planned: models.Battle  # day 2, planned: A1 attacks L1
    users: dict[Role, Any] = field(default_factory=dict)

    def url(self, name: str, **kwargs: Any) -> str:
        return reverse(f"api:{name}", kwargs={"campaign_slug": self.campaign.slug, **kwargs})

    def client(self, role: Role) -> APIClient:
        client = APIClient()
        if self.users.get(role) is not None:
            client.force_login(self.users[role])
        return client

    def battalion(self, code: str) -> models.Battalion:
        return models.Battalion.objects.get(campaign=self.campaign, code=code)

    def codes(self, prefix: str) -> set[str]:
        return set(self.campaign.battalions.filter(code__startswith=prefix).values_list("code", flat=True))

    def state(self) -> tuple[int, int, int, int]:
        """What any write would change: the campaign version and its audit trail."""
        campaign = models.Campaign.objects.get(pk=self.campaign.pk)
        return (campaign.version, campaign.events.count(), campaign.rolls.count(), campaign.battles.count())


def build_world(battalions_per_side: int = 3) -> World:
    campaign = campaign_with_sides(battalions_per_side=battalions_per_side, stands_per_battalion=4)
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
        sector="Ta' Qali",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=codes,
    )
    battle_report(
        fought.pk,
        ACTOR,
        {"battalions": [{"code": code, "destroyed": ["2"]} for code in codes]},
    )
    operation_run(night_phase_start(campaign.pk, ACTOR).pk)
    day_dawn(campaign.pk, ACTOR)
    planned = battle_create(
        campaign.pk,
        ACTOR,
        sector="Mdina",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["A1", "L1"],
    )
    campaign.refresh_from_db()
    return World(campaign, axis, allied, fought, planned, users)


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
        before = world.state()
        response = getattr(world.client(role), method)(url, data=data, format="json", headers=headers)
        assert response.status_code == expected[role], (
            f"{method.upper()} {url} as {role.value}: {response.status_code}, "
            f"expected {expected[role]}: {getattr(response, 'data', None)}"
        )
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
