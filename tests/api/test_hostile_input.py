"""Malformed and hostile input: every one a 4xx in the one error shape (api/errors.py),
naming the parameter or field at fault, and nothing written."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from django.urls import reverse

from api.inputs import COUNT_MAX
from api.parsers import MAX_JSON_DEPTH
from campaign import models
from tests.api.world import Role, World

pytestmark = pytest.mark.django_db
READERS = (Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER, Role.ALLIED_KEY, Role.UMPIRE)


def refused(response: Any, status: int, field: str | None = None) -> dict[str, Any]:
    """The error of ``response``, checked: its status, the one shape, the field it names."""
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert list(body) == ["error"]
    assert set(body["error"]) == {"code", "message", "fields", "rule"}
    assert body["error"]["message"]
    if field is not None:
        assert list(body["error"]["fields"]) == [field]
    error: dict[str, Any] = body["error"]
    return error


def nested(depth: int) -> str:
    return '{"changes": ' + '{"a": ' * depth + "1" + "}" * depth + ', "reason": "deep"}'


def override_url(world: World) -> str:
    roll = world.campaign.rolls.filter(procedure="gb.weather").first()
    assert roll is not None
    return world.url("roll-override", pk=roll.public_id)


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 1_000, 100_000])
def test_json_nested_too_deep_is_a_400(world, depth):
    before = world.state()

    response = world.client(Role.UMPIRE).post(
        override_url(world), nested(depth), content_type="application/json"
    )

    assert refused(response, 400)["code"] == "parse_error"
    assert world.state() == before


def test_json_nested_as_deep_as_inputs_go_is_parsed(world):
    response = world.client(Role.UMPIRE).post(
        override_url(world), nested(MAX_JSON_DEPTH - 3), content_type="application/json"
    )

    refused(response, 400, "changes.a")  # parsed, then refused by the override's own checks


@pytest.mark.parametrize("megabytes", [3, 10])
def test_a_body_over_the_upload_limit_is_a_413(world, megabytes):
    filler = "x" * (megabytes * 1024 * 1024)
    umpire = world.client(Role.UMPIRE)

    as_json = umpire.post(
        override_url(world),
        json.dumps({"changes": {"weather": "C"}, "reason": filler}),
        content_type="application/json",
    )
    as_form = umpire.post(override_url(world), {"reason": filler}, format="multipart")

    assert refused(as_json, 413)["code"] == refused(as_form, 413)["code"] == "payload_too_large"


@pytest.mark.parametrize(
    "cursor",
    [
        base64.b64encode(b"o=0&p=abc").decode(),
        base64.b64encode(b"o=0&p=99999999999999999999999").decode(),
        base64.b64encode(b"o=-1").decode(),
        "not base64 at all!",
        "é",
        "%%%",
        base64.b64encode(b"a").decode(),
        base64.b64encode(b"o=1&o=2").decode(),
        base64.b64encode(b"x=1").decode(),
    ],
)
def test_a_tampered_cursor_is_a_400_for_every_member(world, cursor):
    for role in READERS:
        response = world.client(role).get(world.url("event-list"), {"cursor": cursor})
        refused(response, 400, "cursor")


@pytest.mark.parametrize("value", ["null", "0", "-1", "1.5", "ten"])
@pytest.mark.parametrize("route", ["battalion-list", "event-list"])
def test_a_page_size_that_is_no_whole_number_is_a_400(world, route, value):
    response = world.client(Role.UMPIRE).get(world.url(route), {"page_size": value})

    refused(response, 400, "page_size")


def test_a_page_size_over_the_ceiling_is_refused_naming_it(world):
    response = world.client(Role.UMPIRE).get(world.url("battalion-list"), {"page_size": "100000"})

    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["page_size"]


@pytest.mark.parametrize(
    ("url", "parameter", "value"),
    [
        ("equipment-list", "year", "0.5"),
        ("equipment-list", "year", "-1942"),
        ("battle-list", "day", "abc"),
        ("battle-list", "day", str(10**40)),
        ("event-list", "after", "1e3"),
        ("roll-list", "battle", "null"),
        ("battalion-list", "ordering", "strength"),
        ("event-list", "ordering", "-id"),
    ],
)
def test_a_query_parameter_with_an_invalid_value_is_a_400(world, url, parameter, value):
    path = reverse(f"api:{url}") if url == "equipment-list" else world.url(url)

    response = world.client(Role.UMPIRE).get(path, {parameter: value})

    refused(response, 400, parameter)


def test_numbers_beyond_their_bounds_are_refused_naming_the_field(world):
    umpire = world.client(Role.UMPIRE)
    huge = 10**40
    before = world.state()

    report = umpire.post(
        world.url("battle-report", pk=world.planned.public_id),
        {"battalions": [{"code": "A1", "objectives": [{"name": "Mdina", "activation_points": huge}]}]},
        format="json",
    )
    spend = umpire.post(
        world.url("activation-spend-list", side_pk=world.axis.pk),
        {"column": "1 Bn", "turn": 11, "battalion_codes": ["A1"]},
        format="json",
    )
    battle = umpire.post(
        world.url("battle-list"),
        {
            "sector": world.sector("village").pk,
            "battle_type": "Local Attack",
            "attacker_id": huge,
            "defender_id": world.allied.pk,
            "battalion_codes": ["A1"],
        },
        format="json",
    )
    spent = umpire.post(
        world.url("battle-report", pk=world.planned.public_id),
        {"battalions": [{"code": "A1", "activation_points_spent": COUNT_MAX + 1}]},
        format="json",
    )

    refused(report, 400, "battalions[0].objectives[0].activation_points")
    refused(spend, 400, "turn")
    refused(battle, 400, "attacker_id")
    refused(spent, 400, "battalions[0].activation_points_spent")
    assert world.state() == before


def test_a_nul_in_the_calendar_path_is_a_400_naming_the_token(world):
    refused(world.client(Role.ANONYMOUS).get("/api/v1/calendar/%00.ics"), 400, "token")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"kind": "withdraw", "payload": {"battalion_code": "A2\\u0000"}}', "payload.battalion_code"),
        ('{"kind": "withdraw", "payload": {"battalion_code": "A2\\ud800"}}', "payload.battalion_code"),
        ('{"kind": "withdraw\\u0000", "payload": {"battalion_code": "A2"}}', "kind"),
        ('{"kind": "withdraw", "payload": {"battalion_code\\u0000": "A2"}}', "payload"),
    ],
)
def test_text_postgresql_cannot_store_in_a_json_body_is_a_400_naming_the_field(world, body, field):
    before = (world.state(), models.SideOrder.objects.count())

    response = world.client(Role.AXIS_PLAYER).post(
        world.url("side-order-list"), body, content_type="application/json"
    )

    assert "cannot be stored" in refused(response, 400, field)["message"]
    assert (world.state(), models.SideOrder.objects.count()) == before


@pytest.mark.parametrize(("route", "parameter"), [("battalion-list", "code"), ("roll-list", "procedure")])
def test_a_nul_in_a_query_parameter_is_a_400_naming_it(world, route, parameter):
    refused(world.client(Role.UMPIRE).get(world.url(route), {parameter: "A1\x00"}), 400, parameter)


@pytest.mark.parametrize("header", ["X-Request-ID", "Idempotency-Key"])
def test_a_nul_in_a_header_the_service_stores_is_a_400_naming_it(world, header):
    before = world.state()

    response = world.client(Role.UMPIRE).post(
        world.url("battle-set-up", pk=world.planned.public_id), {}, format="json", headers={header: "r\x001"}
    )

    refused(response, 400, header)
    assert world.state() == before


def test_plain_and_escaped_unicode_text_is_stored_as_sent(world):
    """The check refuses only what cannot be stored: an emoji escaped as a surrogate pair is text,
    and so is a backslash followed by u0000."""
    reason = r"Taken \ud83d\udca5 by night, caf\u00e9 \\u0000 ruined"
    response = world.client(Role.UMPIRE).post(
        world.url("sector-control", pk=world.sector("village").pk),
        f'{{"owner": {world.axis.pk}, "reason": "{reason}"}}',
        content_type="application/json",
    )

    assert response.status_code == 200, response.content
    assert world.campaign.events.latest("id").message.endswith(": Taken 💥 by night, café \\u0000 ruined")
