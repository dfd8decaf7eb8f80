"""Another campaign's sides and sectors are no nearer than ones that do not exist (issue 28,
point 7): sides and sectors are named by numbers that count nothing (campaign/models/ids.py),
and every input, filter and URL naming one answers another campaign's number exactly as it
answers a number no row has, a 400 naming the field (a 404 in a URL), changing nothing. So a
club learns nothing of which numbers are taken elsewhere, and a mistyped filter is told, not
answered by an empty list."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.response import Response

from campaign import models
from tests.api.test_strict_inputs import battle_body
from tests.api.world import Role, World

pytestmark = pytest.mark.django_db

NO_ROW = 2**53 - 1  # the largest number a side or sector may have: none has it
# (method, url, body) naming the given number as a side or a sector.
Request = tuple[str, str, Any]
RowModel = type[models.Side] | type[models.Sector]


def _report(field: str) -> Callable[[World, int], Request]:
    return lambda world, number: (
        "post",
        world.url("battle-report", pk=world.planned.public_id),
        {field: number, "battalions": [{"code": "A1"}, {"code": "L1"}]},
    )


def _filtered(route: str, parameter: str) -> Callable[[World, int], Request]:
    return lambda world, number: ("get", world.url(route) + f"?{parameter}={number}", None)


def _force_move(world: World, number: int) -> Request:
    force = models.Force.objects.filter(side=world.allied).first()
    assert force is not None
    return "post", world.url("force-move", pk=force.public_id), {"sector": number}


# Each request naming a side or a sector: (side or sector, the field it names, or None in a URL).
NAMING: dict[str, tuple[RowModel, str | None, Callable[[World, int], Request]]] = {
    "battle sector": (
        models.Sector,
        "sector",
        lambda world, number: ("post", world.url("battle-list"), battle_body(world, sector=number)),
    ),
    "battle attacker": (
        models.Side,
        "attacker_id",
        lambda world, number: ("post", world.url("battle-list"), battle_body(world, attacker_id=number)),
    ),
    "battle report winner": (models.Side, "winner", _report("winner")),
    "battle report sector owner": (models.Side, "sector_owner", _report("sector_owner")),
    "battalion move": (
        models.Sector,
        "sector",
        lambda world, number: (
            "post",
            world.url("battalion-move", pk=world.battalion("L1").public_id),
            {"sector": number},
        ),
    ),
    "force move": (models.Sector, "sector", _force_move),
    "sector control owner": (
        models.Side,
        "owner",
        lambda world, number: (
            "post",
            world.url("sector-control", pk=world.sector("village").pk),
            {"owner": number, "reason": "taken"},
        ),
    ),
    "API key side": (
        models.Side,
        "side",
        lambda world, number: ("post", world.url("api-key-list"), {"name": "bot", "side": number}),
    ),
    "webhook side": (
        models.Side,
        "side",
        lambda world, number: (
            "post",
            world.url("webhook-list"),
            {"url": "https://example.org/hook", "events": ["night.done"], "audience": "side", "side": number},
        ),
    ),
    "member side": (
        models.Side,
        "side",
        lambda world, number: (
            "post",
            world.url("member-list"),
            {"username": f"umpire-{world.campaign.slug}", "role": "player", "side": number},
        ),
    ),
    "invitation side": (
        models.Side,
        "side",
        lambda world, number: ("post", world.url("invitation-list"), {"role": "player", "side": number}),
    ),
    "timeline ?side": (models.Side, "side", _filtered("campaign-timeline", "side")),
    "briefing ?side": (
        models.Side,
        "side",
        lambda world, number: ("get", world.url("day-briefing", number=1) + f"?side={number}", None),
    ),
    "packet ?side": (
        models.Side,
        "side",
        lambda world, number: (
            "get",
            world.url("battle-packet", pk=world.fought.public_id) + f"?side={number}",
            None,
        ),
    ),
    "forces ?side": (models.Side, "side", _filtered("force-list", "side")),
    "battalions ?side": (models.Side, "side", _filtered("battalion-list", "side")),
    "battles ?sector": (models.Sector, "sector", _filtered("battle-list", "sector")),
    "night reports ?side": (models.Side, "side", _filtered("night-report-list", "side")),
    "side orders ?side": (models.Side, "side", _filtered("side-order-list", "side")),
    "sides/{id}/": (
        models.Side,
        None,
        lambda world, number: ("get", world.url("side-detail", pk=number), None),
    ),
    "sides/{id}/activation-spends/": (
        models.Side,
        None,
        lambda world, number: ("get", world.url("activation-spend-list", side_pk=number), None),
    ),
    "sectors/{id}/": (
        models.Sector,
        None,
        lambda world, number: ("get", world.url("sector-detail", pk=number), None),
    ),
    "sectors/{id}/control/": (
        models.Sector,
        None,
        lambda world, number: (
            "post",
            world.url("sector-control", pk=number),
            {"owner": world.axis.pk, "reason": "taken"},
        ),
    ),
}


def _elsewhere(world: World, model: RowModel) -> int:
    """A side, or a sector on the map, of the other umpire's campaign (which has no map: one is laid)."""
    other = models.Campaign.objects.exclude(pk=world.campaign.pk).first()
    assert other is not None
    if model is models.Side:
        return other.sides.values_list("pk", flat=True)[0]
    sector = models.Sector.objects.create(campaign=other, key="ridge", name="Ridge", x=300, y=500)
    return sector.pk


def _answer(world: World, request: Request, number: int) -> tuple[int, Any]:
    method, url, body = request
    response: Response = getattr(world.client(Role.UMPIRE), method)(url, body, format="json")
    # The number given may be repeated in the answer ("No side 123 in this campaign."): only it.
    return response.status_code, response.content.decode().replace(str(number), "N")


@pytest.mark.parametrize("name", NAMING)
def test_another_campaigns_side_or_sector_answers_as_one_that_does_not_exist(world: World, name: str) -> None:
    model, field, request = NAMING[name]
    elsewhere = _elsewhere(world, model)
    before = world.state()

    answered = _answer(world, request(world, elsewhere), elsewhere)

    assert answered == _answer(world, request(world, NO_ROW), NO_ROW)
    status, body = answered
    if field is None:
        assert status == 404, body
    else:
        assert status in (400, 404), body  # 404: the services' "not in this campaign" for sectors
        assert f'"fields":{{"{field}":' in body, body
    assert world.state() == before


def test_a_filter_by_a_side_of_the_campaign_still_narrows(world: World) -> None:
    umpire = world.client(Role.UMPIRE)

    forces = umpire.get(world.url("force-list"), {"side": world.allied.pk}).json()["results"]

    assert forces
    assert {force["side"] for force in forces} == {world.allied.pk}
