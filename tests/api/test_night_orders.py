"""``night-orders/``: the umpire queues withdrawals, attachments and detachments for tonight,
checked against Great Battles' attachment limits, and takes them back before the night."""

from __future__ import annotations

from typing import Any

import pytest

from campaign import models
from campaign.choices import EventVerb, StandStatus
from campaign.services.battle_reports import battle_report
from campaign.services.night import night_phase_start
from tests.api.world import ACTOR, WRITE_REFUSED, Role, World, assert_statuses

pytestmark = pytest.mark.django_db

ATTACHMENT_RULE = "Great Battles of WWII charts, Unit Type Capabilities, Attachment Notes"
READ_REFUSED = {**WRITE_REFUSED}


def queue(world: World, **body: Any) -> Any:
    return world.client(Role.UMPIRE).post(world.url("night-order-list"), body, format="json")


def hq_of(world: World, code: str) -> models.Stand:
    """The battalions' first stand is their HQ (tests.campaign.factories)."""
    return world.battalion(code).stands.get(label="1")


def refused(response: Any, status: int, field: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    error: dict[str, Any] = response.json()["error"]
    assert field in error["fields"], error
    assert error["message"][0].isupper(), error["message"]
    assert error["message"].endswith("."), error["message"]
    return error


def test_only_umpires_list_queue_and_take_back_orders(world):
    assert_statuses(world, "get", world.url("night-order-list"), {**READ_REFUSED, Role.UMPIRE: 200})
    body = {"kind": "withdraw", "battalion_code": "A2"}
    created = assert_statuses(
        world,
        "post",
        world.url("night-order-list"),
        {**WRITE_REFUSED, Role.UMPIRE: 201},
        body,
        unchanged=True,
    )[Role.UMPIRE]
    order_url = created["Location"]
    assert_statuses(world, "delete", order_url, {**WRITE_REFUSED, Role.UMPIRE: 204}, unchanged=True)


def test_a_withdrawal_is_queued_listed_and_recorded(world):
    response = queue(world, kind="withdraw", battalion_code="A2")

    assert response.status_code == 201, response.content
    order = response.json()
    assert order["kind"] == "withdraw"
    assert order["kind_label"] == "Withdraw to reserve"
    assert order["battalion"] == "A2"
    assert order["side"] == world.axis.pk
    assert order["day"] == 2
    assert order["applied"] is False
    listed = world.client(Role.UMPIRE).get(world.url("night-order-list"), {"applied": "false"}).json()
    assert [o["id"] for o in listed["results"]] == [order["id"]]
    # The list's words are the timeline's: one sentence, from the domain.
    assert listed["results"][0]["words"] == order["words"] == "A2 to withdraw to reserve"
    event = world.campaign.events.get(verb=EventVerb.NIGHT_ORDER_QUEUED)
    assert event.message == "Night order for the night of day 2: A2 to withdraw to reserve"


def test_an_attachment_takes_its_kind_from_the_stand_type(world):
    response = queue(world, kind="attach", battalion_code="A2", stand_label="1", target_battalion_code="A1")

    assert response.status_code == 201, response.content
    assert response.json()["attachment_kind"] == "hq"
    assert response.json()["attachment_kind_label"] == "HQ"
    assert response.json()["stand"] == "1"
    assert response.json()["target_battalion"] == "A1"
    assert response.json()["words"] == "A2/1 to be attached to A1"


def test_a_second_hq_for_one_battalion_is_refused_naming_the_rule(world):
    assert (
        queue(
            world, kind="attach", battalion_code="A2", stand_label="1", target_battalion_code="A1"
        ).status_code
        == 201
    )
    before = world.state()

    response = queue(world, kind="attach", battalion_code="A3", stand_label="1", target_battalion_code="A1")

    error = refused(response, 400, "target_battalion_code")
    assert error["code"] == "attachment_limit"
    assert error["rule"] == ATTACHMENT_RULE
    assert "2 HQ attachments, at most 1" in error["message"]
    assert world.state() == before
    assert models.NightOrder.objects.filter(campaign=world.campaign).count() == 1


def test_a_stand_already_attached_counts_against_the_limit(world):
    models.Stand.objects.filter(pk=hq_of(world, "A3").pk).update(
        battalion=world.battalion("A1"), label="A3 HQ", attached=True, attachment_kind="hq"
    )

    response = queue(world, kind="attach", battalion_code="A2", stand_label="1", target_battalion_code="A1")

    assert refused(response, 400, "target_battalion_code")["code"] == "attachment_limit"


def test_an_infantry_stand_is_not_an_attachment(world):
    response = queue(world, kind="attach", battalion_code="A2", stand_label="3", target_battalion_code="A1")

    error = refused(response, 400, "stand_label")
    assert error["code"] == "not_an_attachment"
    assert error["rule"] == ATTACHMENT_RULE
    assert not models.NightOrder.objects.filter(campaign=world.campaign).exists()


def test_an_attachment_kind_that_contradicts_the_stand_type_is_refused(world):
    response = queue(
        world,
        kind="attach",
        battalion_code="A2",
        stand_label="1",
        target_battalion_code="A1",
        attachment_kind="other",
    )

    error = refused(response, 400, "attachment_kind")
    assert "HQ" in error["message"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"battalion_code": "A2"}, "kind"),
        ({"kind": "march", "battalion_code": "A2"}, "kind"),
        ({"kind": "withdraw", "battalion_code": "Z9"}, "battalion_code"),
        (
            {"kind": "attach", "battalion_code": "A2", "stand_label": "99", "target_battalion_code": "A1"},
            "stand_label",
        ),
        (
            {"kind": "attach", "battalion_code": "A2", "stand_label": "1", "target_battalion_code": "L1"},
            "target_battalion_code",
        ),
        (
            {"kind": "detach", "battalion_code": "A2", "stand_label": "1", "target_battalion_code": "A1"},
            "stand_label",
        ),
    ],
    ids=["no kind", "unknown kind", "unknown battalion", "unknown stand", "enemy target", "not attached"],
)
def test_a_bad_order_is_a_400_naming_the_field_and_writes_nothing(world, body, field):
    before = world.state()

    refused(queue(world, **body), 400, field)

    assert world.state() == before


def test_a_destroyed_stand_is_refused_and_its_row_says_no_order_may_name_it(world):
    models.Stand.objects.filter(pk=hq_of(world, "A2").pk).update(status=StandStatus.DESTROYED)

    error = refused(
        queue(world, kind="attach", battalion_code="A2", stand_label="1", target_battalion_code="A1"),
        400,
        "stand_label",
    )

    assert "destroyed" in error["message"]
    forces = world.client(Role.UMPIRE).get(world.url("campaign-oob")).json()["forces"]
    stands = {
        (battalion["code"], stand["label"]): stand["may_be_ordered"]
        for force in forces
        for group in force["battlegroups"]
        for battalion in group["battalions"]
        for stand in battalion["stands"]
    }
    assert stands[("A2", "1")] is False
    assert stands[("A2", "3")] is True


def test_a_battalion_is_ordered_to_withdraw_once(world):
    assert queue(world, kind="withdraw", battalion_code="A2").status_code == 201

    refused(queue(world, kind="withdraw", battalion_code="A2"), 400, "battalion_code")


def test_an_order_is_taken_back_before_the_night_and_not_after(world):
    first = queue(world, kind="withdraw", battalion_code="A2")
    second = queue(world, kind="withdraw", battalion_code="A3")
    client = world.client(Role.UMPIRE)

    assert client.delete(first["Location"]).status_code == 204
    assert not models.NightOrder.objects.filter(public_id=first.json()["id"]).exists()
    assert world.campaign.events.filter(verb=EventVerb.NIGHT_ORDER_CANCELLED).count() == 1

    battle_report(world.campaign.pk, ACTOR, world.planned.pk, {"battalions": [{"code": "A1"}]})
    night_phase_start(world.campaign.pk, ACTOR)
    before = world.state()
    refused(client.delete(second["Location"]), 409, "day")
    refused(queue(world, kind="withdraw", battalion_code="A1"), 409, "day")
    assert world.state() == before
    assert models.NightOrder.objects.filter(public_id=second.json()["id"]).exists()


def test_the_setup_inputs_ask_what_the_campaign_cannot_know(world):
    response = world.client(Role.UMPIRE).get(world.url("battle-setup-inputs", pk=world.planned.public_id))

    assert response.status_code == 200, response.content
    steps = {question["step"]: question for question in response.json()}
    proximity = {i["name"]: i for i in steps["n43.setup_proximity"]["inputs"]}
    assert proximity["terrain"]["needed"] is True
    assert proximity["terrain"]["value_type"] == "choice"
    assert "Open Terrain" in proximity["terrain"]["choices"]
    assert proximity["scale"]["needed"] is False
    assert_statuses(
        world,
        "get",
        world.url("battle-setup-inputs", pk=world.planned.public_id),
        READ_REFUSED,
    )
