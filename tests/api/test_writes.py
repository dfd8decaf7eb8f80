"""Writes: umpires only, through the services, one error shape, idempotent retries, CSRF."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from api.errors import exception_handler
from api.idempotency import HEADER, REPLAYED_HEADER
from campaign import models
from campaign.choices import BattleStatus, OperationStatus, StandStatus
from campaign.services.battle_reports import REPORT_RULE, battle_report
from campaign.services.battles import battle_close
from campaign.services.operations import operation_run
from tests.api.world import ACTOR, WRITE_REFUSED, Role, World, assert_statuses

pytestmark = pytest.mark.django_db


def umpire(world: World) -> APIClient:
    return world.client(Role.UMPIRE)


def report_url(world: World, battle: models.Battle | None = None) -> str:
    return world.url("battle-report", pk=(battle or world.planned).public_id)


GOOD_REPORT = {
    "battalions": [
        {"code": "A1", "destroyed": ["3"], "activation_points_spent": 1},
        {"code": "L1", "suppressed": ["3"], "supply_situation": "isolated"},
    ]
}


def test_a_battle_is_created_set_up_reported_and_closed_by_the_umpire_alone(world):
    body = {
        "sector": world.sector("village").pk,
        "battle_type": "Local Attack",
        "attacker_id": world.axis.pk,
        "defender_id": world.allied.pk,
        "battalion_codes": ["A2", "L2"],
    }
    created = assert_statuses(
        world, "post", world.url("battle-list"), {**WRITE_REFUSED, Role.UMPIRE: 201}, body, unchanged=True
    )[Role.UMPIRE]
    battle = models.Battle.objects.get(public_id=created.json()["id"])
    assert created["Location"].endswith(world.url("battle-detail", pk=battle.public_id))
    assert created.json()["battalions"] == ["A2", "L2"]
    assert battle.sector.key == "village"
    assert created.json()["sector_name"] == "Village"

    setup = {"inputs": {"n43.setup_proximity": {"terrain": "Open Terrain"}}}
    set_up = assert_statuses(
        world,
        "post",
        world.url("battle-set-up", pk=battle.public_id),
        {**WRITE_REFUSED, Role.UMPIRE: 200},
        setup,
        unchanged=True,
    )[Role.UMPIRE]
    assert set_up.json()["status"] == BattleStatus.SET_UP
    assert "n43.planned_fire@Axis" in set_up.json()["setup"]

    report = {"battalions": [{"code": "A2", "destroyed": ["4"]}, {"code": "L2", "destroyed": ["1"]}]}
    assert_statuses(
        world, "post", report_url(world, battle), {**WRITE_REFUSED, Role.UMPIRE: 200}, report, unchanged=True
    )
    assert (
        models.Stand.objects.get(battalion__code="A2", label="4", campaign=world.campaign).status
        == "destroyed"
    )

    closed = assert_statuses(
        world,
        "post",
        world.url("battle-close", pk=battle.public_id),
        {**WRITE_REFUSED, Role.UMPIRE: 200},
        unchanged=True,
    )[Role.UMPIRE]
    assert closed.json()["status"] == BattleStatus.CLOSED


def test_players_see_their_set_up_rolls_not_the_enemys(world):
    setup = {"inputs": {"n43.setup_proximity": {"terrain": "Open Terrain"}}}
    umpire(world).post(world.url("battle-set-up", pk=world.planned.public_id), setup, format="json")

    seen = (
        world.client(Role.AXIS_PLAYER)
        .get(world.url("battle-detail", pk=world.planned.public_id))
        .json()["setup"]
    )

    assert "n43.planned_fire@Axis" in seen
    assert "n43.air_superiority" in seen
    assert not [label for label in seen if label.endswith("@Allied")]


def test_the_night_phase_starts_with_202_and_reports_progress_at_its_url(world):
    battle_report(world.planned.campaign_id, ACTOR, world.planned.pk, {"battalions": [{"code": "A1"}]})
    battle_close(world.planned.campaign_id, ACTOR, world.planned.pk)

    started = assert_statuses(
        world,
        "post",
        world.url("operation-list"),
        {**WRITE_REFUSED, Role.UMPIRE: 202},
        {"kind": "night_phase"},
        unchanged=True,
    )[Role.UMPIRE]

    operation = models.Operation.objects.get(public_id=started.json()["id"])
    assert started["Location"] == started.json()["url"]
    assert started.json()["status"] == OperationStatus.PENDING
    assert (started.json()["steps_done"], started.json()["steps_total"]) == (0, 5)
    operation_run(operation.pk)  # the worker's job, run here in process
    polled = world.client(Role.ALLIED_PLAYER).get(started["Location"]).json()
    assert polled["status"] == OperationStatus.DONE
    assert polled["steps_done"] is None  # the campaign-wide progress is the umpire's (rules notes C-14)
    assert polled["report"] is None
    by_umpire = umpire(world).get(started["Location"]).json()
    assert by_umpire["report"]["sides"]
    assert by_umpire["steps_done"] == 5


def test_read_only_collections_refuse_writes_by_role_then_by_method(world):
    force = models.Force.objects.get(side=world.axis)
    expected = {**WRITE_REFUSED, Role.UMPIRE: 405}

    responses = assert_statuses(world, "delete", world.url("force-detail", pk=force.public_id), expected)

    assert responses[Role.UMPIRE].json()["error"]["code"] == "method_not_allowed"
    assert responses[Role.OBSERVER].json()["error"]["code"] == "permission_denied"
    assert models.Force.objects.filter(pk=force.pk).exists()


def test_a_domain_error_names_the_field_in_the_one_error_shape(world):
    bad = {"battalions": [{"code": "ZZ9", "destroyed": ["1"]}]}

    response = umpire(world).post(report_url(world), bad, format="json")

    assert response.status_code == 400
    message = f"Battalion ZZ9 is not in the battle at {world.planned.sector}."
    assert response.json() == {
        "error": {
            "code": "invalid",
            "message": message,
            "fields": {"battalions[0].code": [message]},
            "rule": None,
        }
    }
    assert models.Battle.objects.get(pk=world.planned.pk).status == BattleStatus.PLANNED


def test_a_broken_rule_is_named_and_nothing_is_half_written(world):
    overspent = {
        "battalions": [{"code": "A1", "destroyed": ["3"], "activation_points_spent": 99}, {"code": "L1"}]
    }

    response = umpire(world).post(report_url(world), overspent, format="json")

    error = response.json()["error"]
    assert response.status_code == 400
    assert (error["code"], error["rule"]) == ("pool_overspent", REPORT_RULE)
    assert list(error["fields"]) == ["battalions"]
    stand = models.Stand.objects.get(campaign=world.campaign, battalion__code="A1", label="3")
    assert stand.status == StandStatus.OK


def test_shape_errors_come_from_the_input_serializer_with_dotted_paths(world):
    response = umpire(world).post(
        report_url(world),
        {"battalions": [{"code": "A1"}, {"code": "L1", "activation_points_spent": -1, "objectives": [{}]}]},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert set(response.json()["error"]["fields"]) == {
        "battalions[1].activation_points_spent",
        "battalions[1].objectives[0].name",
    }
    missing = umpire(world).post(world.url("battle-list"), {}, format="json").json()["error"]
    assert missing["fields"]["battle_type"] == ["This field is required."]
    nowhere = {
        "battle_type": "Local Attack",
        "attacker_id": world.axis.pk,
        "defender_id": world.allied.pk,
        "battalion_codes": ["A1"],
    }
    missing = umpire(world).post(world.url("battle-list"), nowhere, format="json").json()["error"]
    assert missing["fields"]["sector"] == ["Give the sector's id, or its name as sector_name."]


def test_state_conflicts_are_409_and_unknown_rows_404_in_the_same_shape(world):
    closing = umpire(world).post(world.url("battle-close", pk=world.planned.public_id))
    missing = umpire(world).post(world.url("battle-close", pk=uuid.uuid4()))
    nowhere = umpire(world).get("/api/v1/no-such-endpoint/")

    assert closing.status_code == 409
    assert closing.json()["error"]["code"] == "wrong_battle_status"
    assert closing.json()["error"]["fields"] == {"status": [closing.json()["error"]["message"]]}
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    assert nowhere.status_code == 404
    assert nowhere.json()["error"]["code"] == "not_found"


def test_a_crash_answers_500_in_the_error_shape():
    response = exception_handler(RuntimeError("boom"), {"view": None})

    assert response.status_code == 500
    assert response.data == {
        "error": {"code": "server_error", "message": "Internal server error.", "fields": {}, "rule": None}
    }


def test_a_retried_report_returns_the_first_response_and_changes_nothing(world):
    first = umpire(world).post(report_url(world), GOOD_REPORT, format="json", headers={HEADER: "report-1"})
    state = world.state()
    points = models.Side.objects.get(pk=world.axis.pk).activation_points

    again = umpire(world).post(report_url(world), GOOD_REPORT, format="json", headers={HEADER: "report-1"})

    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again[REPLAYED_HEADER] == "true"
    assert REPLAYED_HEADER not in first
    assert world.state() == state
    assert models.Side.objects.get(pk=world.axis.pk).activation_points == points
    without_key = umpire(world).post(report_url(world), GOOD_REPORT, format="json")
    assert without_key.status_code == 409  # a plain retry reaches the service: already reported


def test_a_key_names_one_request(world):
    umpire(world).post(report_url(world), GOOD_REPORT, format="json", headers={HEADER: "report-1"})

    other_body = {"battalions": [{"code": "A1"}]}
    response = umpire(world).post(report_url(world), other_body, format="json", headers={HEADER: "report-1"})

    assert response.status_code == 422
    assert response.json()["error"]["code"] == "idempotency_key_reused"
    assert response.json()["error"]["fields"] == {HEADER: [response.json()["error"]["message"]]}


def test_a_refused_write_leaves_its_key_free_for_the_corrected_retry(world):
    bad = {"battalions": [{"code": "ZZ9"}]}
    refused = umpire(world).post(report_url(world), bad, format="json", headers={HEADER: "report-2"})

    accepted = umpire(world).post(report_url(world), GOOD_REPORT, format="json", headers={HEADER: "report-2"})

    assert refused.status_code == 400
    assert accepted.status_code == 200
    assert models.Battle.objects.get(pk=world.planned.pk).status == BattleStatus.REPORTED


def test_a_retried_night_phase_start_starts_one_night_phase(world):
    battle_report(world.planned.campaign_id, ACTOR, world.planned.pk, {"battalions": [{"code": "A1"}]})
    headers = {HEADER: "night-2"}

    first = umpire(world).post(
        world.url("operation-list"), {"kind": "night_phase"}, format="json", headers=headers
    )
    again = umpire(world).post(
        world.url("operation-list"), {"kind": "night_phase"}, format="json", headers=headers
    )

    assert first.status_code == again.status_code == 202
    assert again.json()["id"] == first.json()["id"]
    assert again["Location"] == first["Location"]
    assert world.campaign.operations.filter(day__number=2).count() == 1


def test_keys_are_per_user(world):
    other_umpire = get_user_model().objects.create_user("second-umpire")
    models.Membership.objects.create(user=other_umpire, campaign=world.campaign, role="umpire")
    second = APIClient()
    second.force_login(other_umpire)
    umpire(world).post(report_url(world), GOOD_REPORT, format="json", headers={HEADER: "shared"})

    response = second.post(report_url(world), GOOD_REPORT, format="json", headers={HEADER: "shared"})

    assert response.status_code == 409  # not a replay of someone else's write: the service ran
    assert REPLAYED_HEADER not in response


def test_session_writes_need_the_csrf_token(world):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(world.users[Role.UMPIRE])
    url = world.url("battle-close", pk=world.fought.public_id)

    refused = browser.post(url)
    browser.get(reverse("api:session"))  # sets the csrftoken cookie
    token = browser.cookies["csrftoken"].value
    accepted = browser.post(url, headers={"X-CSRFToken": token})

    assert refused.status_code == 403
    assert "CSRF" in refused.json()["error"]["message"]
    assert accepted.status_code == 200
    assert accepted.json()["status"] == BattleStatus.CLOSED


def test_logging_in_through_the_session_endpoint(world):
    user = world.users[Role.AXIS_PLAYER]
    user.set_password("secret-pass")
    user.save()
    browser = Client(enforce_csrf_checks=True)
    anonymous = browser.get(reverse("api:session")).json()
    token = browser.cookies["csrftoken"].value

    no_token = browser.post(reverse("api:session"), {"username": user.username, "password": "secret-pass"})
    wrong = browser.post(
        reverse("api:session"),
        {"username": user.username, "password": "nope"},
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )
    logged_in = browser.post(
        reverse("api:session"),
        {"username": user.username, "password": "secret-pass"},
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )

    assert anonymous == {"authenticated": False, "username": None, "campaigns": [], "api_key": None}
    assert no_token.status_code == 403
    assert wrong.status_code == 400
    assert wrong.json()["error"]["code"] == "login_failed"
    assert logged_in.status_code == 200
    assert logged_in.json()["campaigns"] == [
        {"slug": world.campaign.slug, "role": "player", "role_label": "Player", "side": world.axis.pk}
    ]
    assert browser.get(world.url("battalion-list")).status_code == 200
    token = browser.cookies["csrftoken"].value  # rotated at log-in
    assert browser.delete(reverse("api:session"), headers={"X-CSRFToken": token}).status_code == 204
    signed_out = browser.get(world.url("battalion-list"))
    assert signed_out.status_code == 401
    assert signed_out.json()["error"]["code"] == "not_authenticated"
