"""The day's writes: dawn, segment advance, activation spends, roll overrides,
reinforcements and arrival rolls. Umpires only, through the services, idempotent."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from api.idempotency import HEADER, REPLAYED_HEADER
from campaign import models
from campaign.choices import (
    ArrivalStatus,
    CampaignStatus,
    DayStatus,
    EventVerb,
    OperationKind,
    OperationStatus,
)
from campaign.scenarios.exporting import campaign_export
from campaign.scenarios.validation import scenario_validate
from campaign.services.activation import POOL_RULE
from campaign.services.battle_reports import battle_report
from campaign.services.battle_setups import battle_setup
from campaign.services.days import segment_advance
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from tests.api.world import ACTOR, WRITE_REFUSED, Role, World, assert_statuses
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db
# Members who read as themselves; API keys have their own matrix (tests/api/test_access.py).
READERS = (Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER, Role.UMPIRE)


def night_over(world: World) -> None:
    """Day 2 reported and through its night phase, so day 3 may dawn."""
    battle_report(world.planned.campaign_id, ACTOR, world.planned.pk, {"battalions": [{"code": "A1"}]})
    operation_run(night_phase_start(world.campaign.pk, ACTOR).pk)


def reserve_force(world: World, side: models.Side, name: str) -> models.Force:
    return models.Force.objects.create(
        campaign=world.campaign,
        side=side,
        name=name,
        nation=side.nations[0],
        arrival_status=ArrivalStatus.IN_RESERVE,
    )


def weather_roll(world: World) -> models.RollRecord:
    return world.campaign.rolls.get(procedure="gb.weather", day__number=2, override_of=None)


def other_weather(world: World) -> str:
    today = models.CampaignDay.objects.get(campaign=world.campaign, number=2).weather
    return next(w for w in "CDOF" if w != today)


def axis_reserve(world: World) -> None:
    reserve_force(world, world.axis, "Reserve")


def due_today(world: World) -> None:
    """A reserve force scheduled for today after the segment opened: arrival rolls wait for a start."""
    models.Force.objects.filter(pk=reserve_force(world, world.axis, "Livorno").pk).update(
        arrival_status=ArrivalStatus.SCHEDULED, arrival_day=2
    )


MALTA_RULES = [
    "gb.malta.day_end",
    "gb.malta.barrage_orders",
    "gb.malta.entrenchment",
    "gb.malta.air_support",
    "gb.variant.cops_action_points",
    "gb.variant.action_to_activation",
    "gb.reactivation",
    "gb.initiative_activation",
]


def malta_rules(world: World) -> None:
    """The world plays Malta's rules, and its sides have barrage templates to plan."""
    models.Campaign.objects.filter(pk=world.campaign.pk).update(optional_rules=MALTA_RULES)
    models.Side.objects.filter(campaign=world.campaign).update(barrage_templates=2)


def malta_reserve(world: World) -> None:
    malta_rules(world)
    due_today(world)


def a1_in(state: str) -> Callable[[World], None]:
    def prepare(world: World) -> None:
        malta_rules(world)
        models.Battalion.objects.filter(campaign=world.campaign, code="A1").update(activation=state)

    return prepare


def force_of(world: World, side: models.Side) -> uuid.UUID:
    return world.campaign.forces.filter(side=side).exclude(name="Livorno").order_by("pk")[0].public_id


def stand_of(world: World, code: str) -> uuid.UUID:
    return world.battalion(code).stands.get(label="2").public_id


def being_set_up(world: World) -> None:
    models.Campaign.objects.filter(pk=world.campaign.pk).update(status=CampaignStatus.SETUP)


@dataclass(frozen=True)
class Write:
    url: Callable[[World], str]
    body: Callable[[World], Any]
    status: int
    prepare: Callable[[World], None] = lambda world: None
    role: Role = Role.UMPIRE  # who makes it: the umpire, but for a player's own writes


WRITES = {
    "campaign start": Write(lambda w: w.url("campaign-start"), lambda w: None, 200, being_set_up),
    "dawn": Write(lambda w: w.url("day-dawn"), lambda w: {}, 201, night_over),
    "advance segment": Write(lambda w: w.url("day-advance-segment", number=2), lambda w: None, 200),
    "activation spend": Write(
        lambda w: w.url("activation-spend-list", side_pk=w.axis.pk),
        lambda w: {"column": "1 Bn", "turn": 0, "battalion_codes": ["A1"]},
        201,
    ),
    "roll override": Write(
        lambda w: w.url("roll-override", pk=weather_roll(w).public_id),
        lambda w: {"changes": {"weather": other_weather(w)}, "reason": "the forecast was wrong"},
        201,
    ),
    "reinforcement": Write(
        lambda w: w.url("reinforcement-list"),
        lambda w: {
            "force_id": str(w.campaign.forces.get(name="Reserve").public_id),
            "day": 3,
            "zone": "Gozo",
        },
        201,
        axis_reserve,
    ),
    "arrival rolls": Write(
        lambda w: w.url("operation-list"), lambda w: {"kind": OperationKind.ARRIVALS}, 202, due_today
    ),
    "day-end roll": Write(
        lambda w: w.url("day-day-end-roll", number=2), lambda w: {"allied_turn": 7}, 201, malta_rules
    ),
    "air support": Write(
        lambda w: w.url("force-air-support", pk=force_of(w, w.allied)),
        lambda w: {"turn": 2},
        201,
        malta_rules,
    ),
    "postpone arrival": Write(
        lambda w: w.url("force-postpone-arrival", pk=w.campaign.forces.get(name="Livorno").public_id),
        lambda w: {"entry_point": "St Paul's Bay"},
        201,
        malta_reserve,
    ),
    "C Ops overrun": Write(
        lambda w: w.url("force-cops-overrun", pk=force_of(w, w.axis)), lambda w: {"turn": 3}, 200
    ),
    "entrench": Write(
        lambda w: w.url("stand-entrench", pk=stand_of(w, "L1")),
        lambda w: {"action_points": 5},
        200,
        malta_rules,
    ),
    "stand moved": Write(lambda w: w.url("stand-move", pk=stand_of(w, "L1")), lambda w: None, 200),
    "C Ops action points": Write(
        lambda w: w.url("force-cops-action-points", pk=force_of(w, w.axis)),
        lambda w: {"turn": 2, "quality": "Average"},
        201,
        malta_rules,
    ),
    "deactivate": Write(
        lambda w: w.url("battalion-deactivate", pk=w.battalion("A1").public_id),
        lambda w: None,
        200,
        a1_in("activated"),
    ),
    "reactivate": Write(
        lambda w: w.url("battalion-reactivate", pk=w.battalion("A1").public_id),
        lambda w: {"turn": 3},
        201,
        a1_in("deactivated"),
    ),
    "initiative activation": Write(
        lambda w: w.url("battalion-initiative-activation", pk=w.battalion("A1").public_id),
        lambda w: {"turn": 4},
        200,
        malta_rules,
    ),
    "artillery mode": Write(
        lambda w: w.url("side-artillery-orders", pk=w.axis.pk),
        lambda w: {"template": 1, "mode": "pre-planned"},
        201,
        malta_rules,
    ),
}


@pytest.mark.parametrize("name", WRITES)
def test_only_the_umpire_writes_and_refusals_change_nothing(world, name):
    write = WRITES[name]
    write.prepare(world)

    responses = assert_statuses(
        world,
        "post",
        write.url(world),
        {**WRITE_REFUSED, Role.UMPIRE: write.status},
        write.body(world),
        unchanged=True,
    )

    assert responses[Role.OTHER_UMPIRE].json()["error"]["code"] == "not_found"
    assert responses[Role.OBSERVER].json()["error"]["code"] == "permission_denied"


@pytest.mark.parametrize("name", WRITES)
def test_a_retried_write_returns_the_first_response_and_changes_nothing(world, name):
    write = WRITES[name]
    write.prepare(world)
    umpire = world.client(Role.UMPIRE)
    body = write.body(world)

    first = umpire.post(write.url(world), body, format="json", headers={HEADER: f"{name}-1"})
    state = world.state()
    again = umpire.post(write.url(world), body, format="json", headers={HEADER: f"{name}-1"})

    assert first.status_code == again.status_code == write.status
    assert again.json() == first.json()
    assert again[REPLAYED_HEADER] == "true"
    assert world.state() == state


def test_dawn_opens_the_next_day_with_its_rolls_event_and_tallies(world):
    night_over(world)

    response = world.client(Role.UMPIRE).post(world.url("day-dawn"), {}, format="json")

    assert response.status_code == 201
    body = response.json()
    assert (body["number"], body["status"]) == (3, DayStatus.DAY)
    assert [s["segment"] for s in body["segments"]] == ["early morning"]
    assert response["Location"].endswith(world.url("day-detail", number=3))
    assert world.campaign.rolls.filter(day__number=3, procedure="gb.weather").count() == 1
    assert world.campaign.events.filter(verb=EventVerb.DAY_DAWNED, day_number=3).count() == 1
    assert models.SideDayTally.objects.filter(day__campaign=world.campaign, day__number=3).count() == 2


def test_dawn_refuses_bad_input_and_an_unfinished_day_naming_the_field(world):
    umpire = world.client(Role.UMPIRE)
    early = umpire.post(world.url("day-dawn"), {}, format="json")
    night_over(world)
    before = world.state()

    shapeless = umpire.post(world.url("day-dawn"), {"deployments": [{"battalion": "A1"}]}, format="json")
    not_in_reserve = umpire.post(
        world.url("day-dawn"), {"deployments": [{"battalion": "A1", "range_inches": 12}]}, format="json"
    )

    assert early.status_code == 409
    assert early.json()["error"]["code"] == "day_not_over"
    assert shapeless.status_code == 400
    assert list(shapeless.json()["error"]["fields"]) == ["deployments[0].range_inches"]
    assert not_in_reserve.status_code == 400
    assert list(not_in_reserve.json()["error"]["fields"]) == ["deployments[0].battalion"]
    assert world.state() == before
    assert not world.campaign.days.filter(number=3).exists()


def test_advancing_opens_the_next_segment_of_the_day_under_way_only(world):
    umpire = world.client(Role.UMPIRE)

    advanced = umpire.post(world.url("day-advance-segment", number=2))
    past = umpire.post(world.url("day-advance-segment", number=1))
    missing = umpire.post(world.url("day-advance-segment", number=99))

    assert advanced.status_code == 200
    assert [s["segment"] for s in advanced.json()["segments"]] == ["early morning", "morning"]
    segment = models.DaySegmentRecord.objects.get(day__campaign=world.campaign, day__number=2, order=1)
    assert segment.rolls.filter(procedure="pk.wind").exists()
    assert world.campaign.events.filter(verb=EventVerb.SEGMENT_ADVANCED, object_id=segment.pk).exists()
    assert past.status_code == 409
    assert (past.json()["error"]["code"], list(past.json()["error"]["fields"])) == (
        "not_current_day",
        ["day"],
    )
    assert missing.status_code == 404
    assert models.DaySegmentRecord.objects.filter(day__campaign=world.campaign, day__number=2).count() == 2


def test_an_activation_spend_lowers_the_pool_and_activates_the_battalion(world):
    models.Side.objects.filter(pk=world.axis.pk).update(activation_points=5)

    response = world.client(Role.UMPIRE).post(
        world.url("activation-spend-list", side_pk=world.axis.pk),
        {"column": "1 Bn", "turn": 0, "battalion_codes": ["A1"]},
        format="json",
    )

    assert response.status_code == 201
    assert {k: response.json()[k] for k in ("side", "day", "turn", "column", "cost", "battalions")} == {
        "side": world.axis.pk,
        "day": 2,
        "turn": 0,
        "column": "1 Bn",
        "cost": 1,
        "battalions": ["A1"],
    }
    assert models.Side.objects.get(pk=world.axis.pk).activation_points == 4
    assert world.battalion("A1").activation == "activated"
    assert world.campaign.events.filter(verb=EventVerb.ACTIVATION_SPENT).count() == 1


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"column": "9 Bgs", "turn": 0, "battalion_codes": ["A1"]}, "column", "invalid"),
        ({"column": "1 Bn", "turn": 0, "battalion_codes": []}, "battalion_codes", "invalid"),
        ({"column": "1 Bn", "turn": -1, "battalion_codes": ["A1"]}, "turn", "invalid"),
        ({"column": "1 Bn", "turn": 0, "battalion_codes": ["L1"]}, "battalion_codes[0]", "invalid"),
        ({"column": "1 Bn", "turn": 11, "battalion_codes": ["A1"]}, "turn", "invalid"),
        ({"column": "3 Bgs", "turn": 1, "battalion_codes": ["A1"]}, "column", "pool_overspent"),
    ],
)
def test_a_refused_spend_names_the_field_and_writes_nothing(world, body, field, code):
    models.Side.objects.filter(pk=world.axis.pk).update(activation_points=2)
    before = world.state()

    response = world.client(Role.UMPIRE).post(
        world.url("activation-spend-list", side_pk=world.axis.pk), body, format="json"
    )

    assert response.status_code == 400
    assert (response.json()["error"]["code"], list(response.json()["error"]["fields"])) == (code, [field])
    if code == "pool_overspent":
        assert response.json()["error"]["rule"] == POOL_RULE
    assert world.state() == before
    assert models.Side.objects.get(pk=world.axis.pk).activation_points == 2
    assert not models.ActivationSpend.objects.filter(side=world.axis).exists()


def test_spends_are_listed_to_the_sides_players_and_the_umpire_only(world):
    url = world.url("activation-spend-list", side_pk=world.axis.pk)
    world.client(Role.UMPIRE).post(
        url, {"column": "1 Bn", "turn": 0, "battalion_codes": ["A1"]}, format="json"
    )

    seen = {role: world.client(role).get(url) for role in READERS}
    refused = assert_statuses(world, "get", url, {Role.ANONYMOUS: 401, Role.OTHER_UMPIRE: 404})
    unknown_side = world.client(Role.UMPIRE).get(
        world.url("activation-spend-list", side_pk=campaign_with_sides().sides.first().pk)
    )

    assert {role: r.status_code for role, r in seen.items()} == dict.fromkeys(READERS, 200)
    counts = {role: r.json()["count"] for role, r in seen.items()}
    assert counts == {Role.AXIS_PLAYER: 1, Role.UMPIRE: 1, Role.ALLIED_PLAYER: 0, Role.OBSERVER: 0}
    assert seen[Role.AXIS_PLAYER].json()["results"][0]["battalions"] == ["A1"]
    assert refused[Role.OTHER_UMPIRE].json()["error"]["code"] == "not_found"
    assert unknown_side.status_code == 404


def test_an_override_keeps_the_original_roll_and_answers_both(world):
    roll = weather_roll(world)
    weather = other_weather(world)

    response = world.client(Role.UMPIRE).post(
        world.url("roll-override", pk=roll.public_id),
        {"changes": {"weather": weather}, "reason": "the forecast was wrong"},
        format="json",
    )

    assert response.status_code == 201
    original, override = response.json()["original"], response.json()["override"]
    assert original["id"] == str(roll.public_id)
    assert original["changes"] == roll.changes
    assert (override["override_of"], override["changes"]) == (str(roll.public_id), {"weather": weather})
    assert models.CampaignDay.objects.get(campaign=world.campaign, number=2).weather == weather
    assert models.RollRecord.objects.get(pk=roll.pk).result == roll.result
    assert world.campaign.events.filter(verb=EventVerb.ROLL_OVERRIDDEN).count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"changes": {"weather": "Z"}, "reason": "typo"}, "changes.weather"),
        ({"changes": {"turns": 3}, "reason": "typo"}, "changes.turns"),
        ({"changes": {}, "reason": "typo"}, "changes"),
        ({"changes": {"weather": "C"}, "reason": ""}, "reason"),
    ],
)
def test_a_refused_override_names_the_field_and_writes_nothing(world, body, field):
    roll = weather_roll(world)
    before = world.state()

    response = world.client(Role.UMPIRE).post(
        world.url("roll-override", pk=roll.public_id), body, format="json"
    )

    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == [field]
    assert world.state() == before
    assert not models.RollRecord.objects.filter(override_of=roll).exists()


def test_the_reinforcement_schedule_shows_a_player_only_their_own_sides_forces(world):
    axis_reserve = reserve_force(world, world.axis, "Axis reserve")
    allied_reserve = reserve_force(world, world.allied, "Allied reserve")
    url = world.url("reinforcement-list")

    seen = {role: world.client(role).get(url) for role in READERS}
    refused = assert_statuses(world, "get", url, {Role.ANONYMOUS: 401, Role.OTHER_UMPIRE: 404})

    ids = {role: {row["id"] for row in r.json()["results"]} for role, r in seen.items()}
    assert ids == {
        Role.UMPIRE: {str(axis_reserve.public_id), str(allied_reserve.public_id)},
        Role.AXIS_PLAYER: {str(axis_reserve.public_id)},
        Role.ALLIED_PLAYER: {str(allied_reserve.public_id)},
        Role.OBSERVER: set(),
    }
    assert seen[Role.AXIS_PLAYER].json()["results"][0]["arrival_status"] == ArrivalStatus.IN_RESERVE
    assert refused[Role.OTHER_UMPIRE].status_code == 404


def test_scheduling_a_reinforcement_sets_its_day_and_zone(world):
    force = reserve_force(world, world.allied, "Allied reserve")

    response = world.client(Role.UMPIRE).post(
        world.url("reinforcement-list"),
        {"force_id": str(force.public_id), "day": 4, "zone": "Gozo"},
        format="json",
    )

    assert response.status_code == 201
    assert {k: response.json()[k] for k in ("id", "arrival_status", "arrival_day", "arrival_zone")} == {
        "id": str(force.public_id),
        "arrival_status": ArrivalStatus.SCHEDULED,
        "arrival_day": 4,
        "arrival_zone": "Gozo",
    }
    force.refresh_from_db()
    assert (force.arrival_status, force.arrival_day, force.arrival_zone) == (
        ArrivalStatus.SCHEDULED,
        4,
        "Gozo",
    )
    assert world.campaign.events.filter(verb=EventVerb.REINFORCEMENT_SCHEDULED, object_id=force.pk).exists()


def test_a_refused_schedule_names_the_field_and_writes_nothing(world):
    force = reserve_force(world, world.axis, "Axis reserve")
    elsewhere = campaign_with_sides().forces.first()
    on_table = world.campaign.forces.get(side=world.axis, arrival_status=ArrivalStatus.ON_TABLE)
    umpire = world.client(Role.UMPIRE)
    before = world.state()
    url = world.url("reinforcement-list")

    cases = {
        "day": umpire.post(url, {"force_id": str(force.public_id), "day": 0}, format="json"),
        "force_id": umpire.post(url, {"force_id": str(elsewhere.public_id), "day": 3}, format="json"),
        "passed": umpire.post(url, {"force_id": str(force.public_id), "day": 1}, format="json"),
        "on table": umpire.post(url, {"force_id": str(on_table.public_id), "day": 3}, format="json"),
    }

    fields = {name: (r.status_code, list(r.json()["error"]["fields"])) for name, r in cases.items()}
    assert fields == {
        "day": (400, ["day"]),
        "force_id": (400, ["force_id"]),
        "passed": (400, ["day"]),
        "on table": (409, ["force"]),
    }
    assert world.state() == before
    force.refresh_from_db()
    assert force.arrival_status == ArrivalStatus.IN_RESERVE


def test_arrival_rolls_start_in_the_segment_for_forces_due_since_it_opened(world):
    umpire = world.client(Role.UMPIRE)
    nothing_due = umpire.post(world.url("operation-list"), {"kind": OperationKind.ARRIVALS}, format="json")
    due_today(world)

    started = umpire.post(world.url("operation-list"), {"kind": OperationKind.ARRIVALS}, format="json")
    again = umpire.post(world.url("operation-list"), {"kind": OperationKind.ARRIVALS}, format="json")

    assert nothing_due.status_code == 409
    assert nothing_due.json()["error"]["code"] == "no_arrivals_due"
    assert started.status_code == 202
    assert (started.json()["kind"], started.json()["status"]) == (
        OperationKind.ARRIVALS,
        OperationStatus.PENDING,
    )
    assert started["Location"] == started.json()["url"]
    assert world.campaign.forces.get(name="Livorno").arrival_status == ArrivalStatus.ROLLING
    assert world.campaign.events.filter(verb=EventVerb.ARRIVALS_STARTED).count() == 1
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "arrivals_exist"


def test_starting_makes_the_campaign_active_once(world):
    being_set_up(world)
    umpire = world.client(Role.UMPIRE)

    started = umpire.post(world.url("campaign-start"))
    again = umpire.post(world.url("campaign-start"))

    assert started.status_code == 200
    assert started.json()["status"] == CampaignStatus.ACTIVE
    assert world.campaign.events.filter(verb=EventVerb.CAMPAIGN_STARTED).count() == 1
    assert again.status_code == 409
    assert again.json()["error"]["fields"]["status"]


OVERRIDDEN_AIR = {"outcome": {"winner": "allies", "margin": 1}, "outcome_text": "allied air superiority by 1"}


def set_up(world: World) -> models.RollRecord:
    """Set up the planned battle; its air superiority roll (a step of both sides)."""
    battle_setup(
        world.planned.campaign_id,
        ACTOR,
        world.planned.pk,
        inputs={"n43.setup_proximity": {"terrain": "Open Terrain"}},
    )
    return world.campaign.rolls.filter(battle=world.planned, changes={"setup": "n43.air_superiority"})[0]


def test_a_set_up_override_changes_the_named_values_of_its_step_and_battles_still_read(world):
    roll = set_up(world)
    rolled = models.Battle.objects.get(pk=world.planned.pk).setup

    response = world.client(Role.UMPIRE).post(
        world.url("roll-override", pk=roll.public_id),
        {"changes": {"setup": OVERRIDDEN_AIR}, "reason": "the club agreed the RAF held the sky"},
        format="json",
    )

    assert response.status_code == 201, response.json()
    assert response.json()["override"]["changes"] == {"setup": "n43.air_superiority"}
    setup = models.Battle.objects.get(pk=world.planned.pk).setup
    assert setup == {
        **rolled,
        "n43.air_superiority": {**rolled["n43.air_superiority"], **OVERRIDDEN_AIR},
    }
    for role in READERS:
        assert world.client(role).get(world.url("battle-list")).status_code == 200
    for role in (Role.UMPIRE, Role.AXIS_PLAYER):
        assert (
            world.client(role).get(world.url("battle-detail", pk=world.planned.public_id)).status_code == 200
        )
    assert scenario_validate(campaign_export(world.campaign.pk)) == []


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"setup": "oops"}, "changes.setup", "as an object"),
        ({"setup": {}}, "changes.setup", "as an object"),
        ({"setup": {"verdict": "Axis"}}, "changes.setup.verdict", "has no verdict"),
        ({"setup": {"outcome_text": 5}}, "changes.setup.outcome_text", "must be text"),
        ({"setup": {"outcome": {"winner": "allies"}}}, "changes.setup.outcome", "exactly the keys"),
        (
            {"setup": {"outcome": {"winner": "allies", "margin": "3"}}},
            "changes.setup.outcome.margin",
            "must be a whole number",
        ),
        ({"setup": {"results": "none"}}, "changes.setup.results", "must be a list"),
        ({"setup": {"results": [{"faces": 6}]}}, "changes.setup.results[0]", "exactly the keys"),
    ],
)
def test_a_set_up_override_must_fit_the_shape_of_the_step_result(world, changes, field, message):
    roll = set_up(world)
    before = (world.state(), models.Battle.objects.get(pk=world.planned.pk).setup)

    response = world.client(Role.UMPIRE).post(
        world.url("roll-override", pk=roll.public_id), {"changes": changes, "reason": "typo"}, format="json"
    )

    assert response.status_code == 400, response.json()
    assert list(response.json()["error"]["fields"]) == [field]
    assert message in response.json()["error"]["message"]
    assert (world.state(), models.Battle.objects.get(pk=world.planned.pk).setup) == before
    assert world.client(Role.AXIS_PLAYER).get(world.url("battle-list")).status_code == 200


@pytest.mark.parametrize(
    ("procedure", "changes", "field"),
    [
        ("pk.segment_turns", {"turns": "5"}, "changes.turns"),
        ("pk.segment_turns", {"turns": True}, "changes.turns"),
        ("pk.segment_turns", {"turns": 10**40}, "changes.turns"),
        ("pk.segment_turns", {"turns": -1}, "changes.turns"),
        ("pk.wind", {"wind_velocity": {"knots": 5}}, "changes.wind_velocity"),
        ("pk.wind", {"wind_velocity": "x" * 21}, "changes.wind_velocity"),
        ("pk.wind", {"wind_velocity": "a gale"}, "changes.wind_velocity"),  # not a velocity the table gives
        ("pk.initiative", {"initiative_side": ["Axis"]}, "changes.initiative_side"),
        ("gb.weather", {"weather": None}, "changes.weather"),
        # A count the night's replacements reported but keep on no object.
        ("gb.night_replacements", {"replaced": 1}, "changes.replaced"),
    ],
)
def test_an_override_of_a_value_must_fit_the_column_it_changes(world, procedure, changes, field):
    segment_advance(world.campaign.pk, ACTOR)  # a segment that rolls its turns
    roll = world.campaign.rolls.filter(procedure=procedure).last()
    assert roll is not None, procedure
    before = world.state()

    response = world.client(Role.UMPIRE).post(
        world.url("roll-override", pk=roll.public_id), {"changes": changes, "reason": "typo"}, format="json"
    )

    assert response.status_code == 400, response.json()
    assert list(response.json()["error"]["fields"]) == [field]
    assert world.state() == before


def test_the_umpire_checks_a_combat_lull_and_reads_it_labelled(world):
    url = world.url("battle-lull-check", pk=world.planned.public_id)
    umpire = world.client(Role.UMPIRE)
    early = umpire.post(url, {"turn": 1}, format="json")
    set_up(world)
    missing = umpire.post(url, {}, format="json")
    checked = umpire.post(url, {"turn": 7}, format="json")

    assert (early.status_code, early.json()["error"]["code"]) == (409, "wrong_battle_status")
    assert missing.status_code == 400
    assert list(missing.json()["error"]["fields"]) == ["turn"]
    assert checked.status_code == 200
    assert (
        checked.json()["lull_checks_from_turn"]
        == models.Battle.objects.get(pk=world.planned.pk).lull_checks_from_turn
    )
    (lull,) = checked.json()["lulls"]
    assert set(lull) == {"turn", "length", "length_label", "text"}
    assert lull["turn"] == 7


def test_a_roll_offers_its_coded_values_alternatives_in_words(world):
    roll = weather_roll(world)

    body = world.client(Role.UMPIRE).get(world.url("roll-detail", pk=roll.public_id)).json()

    assert body["change_choices"] == {"weather": {"C": "Clear", "D": "Drizzle", "O": "Overcast", "F": "Fog"}}
    assert body["changes"]["weather"] in body["change_choices"]["weather"]


def test_the_campaign_offers_the_turns_of_the_segment_under_way(world):
    url = world.url("campaign-detail")

    def under_way() -> tuple[models.DaySegmentRecord, int]:
        world.campaign.refresh_from_db()
        record = models.DaySegmentRecord.objects.get(
            day__campaign=world.campaign,
            day__number=world.campaign.current_day,
            segment=world.campaign.current_segment,
        )
        before = sum(s.turns or 0 for s in record.day.segments.filter(order__lt=record.order))
        return record, before

    offered = []
    for role in (Role.UMPIRE, Role.AXIS_PLAYER, Role.UMPIRE):
        segment_advance(world.campaign.pk, ACTOR)
        record, before = under_way()
        turns = world.client(role).get(url).json()["segment_turns"]
        # The day's turns count on through its segments (never 1 to 10 for a 4-turn segment);
        # the dawn turn only while none was played.
        assert turns == [*([0] if before == 0 else []), *range(before + 1, before + (record.turns or 0) + 1)]
        offered.append(turns)
    played = [turn for turns in offered for turn in turns if turn]
    assert played == list(range(1, len(played) + 1)), offered  # no turn offered twice, none skipped
    assert all(turns for turns in offered), offered  # every segment here plays turns


def test_a_segments_wind_and_initiative_are_overridden_by_choosing_from_their_words(world):
    segment_advance(world.campaign.pk, ACTOR)
    umpire = world.client(Role.UMPIRE)
    wind = world.campaign.rolls.filter(procedure="pk.wind").last()
    initiative = world.campaign.rolls.filter(procedure="pk.initiative").last()
    assert wind is not None
    assert initiative is not None

    wind_body = umpire.get(world.url("roll-detail", pk=wind.public_id)).json()
    initiative_body = umpire.get(world.url("roll-detail", pk=initiative.public_id)).json()

    velocities = wind_body["change_choices"]["wind_velocity"]
    assert velocities["light wind"] == "Light wind"
    assert len(velocities) == 5
    assert wind_body["change_choices"]["wind_direction"]["North-East"] == "North-East"
    assert wind_body["changes"]["wind_velocity"] in velocities
    sides = set(world.campaign.sides.values_list("name", flat=True))
    assert initiative_body["change_choices"] == {"initiative_side": {name: name for name in sides}}
    other = next(name for name in sides if name != initiative_body["changes"]["initiative_side"])
    chosen = umpire.post(
        world.url("roll-override", pk=initiative.public_id),
        {"changes": {"initiative_side": other}, "reason": "the club rolled again"},
        format="json",
    )
    assert chosen.status_code == 201, chosen.json()
    assert models.DaySegmentRecord.objects.get(pk=initiative.segment_id).initiative_side.name == other


def test_the_c_ops_isolation_is_read_from_supply_and_the_old_flag_is_refused(world):
    malta_rules(world)
    umpire = world.client(Role.UMPIRE)
    force = force_of(world, world.axis)
    url = world.url("force-cops-action-points", pk=force)
    before = world.state()

    refused = umpire.post(url, {"turn": 2, "quality": "Average", "isolated_from_source": True}, format="json")

    assert refused.status_code == 400
    assert list(refused.json()["error"]["fields"]) == ["isolated_from_source"]
    assert "supply" in refused.json()["error"]["fields"]["isolated_from_source"][0]
    assert world.state() == before

    in_supply = umpire.post(url, {"turn": 2, "quality": "Average"}, format="json")
    # An overrun isolates every battalion of the division: the next roll takes the penalty.
    overrun = umpire.post(world.url("force-cops-overrun", pk=force), {"turn": 3}, format="json")
    cut_off = umpire.post(url, {"turn": 4, "quality": "Average"}, format="json")

    assert (in_supply.status_code, overrun.status_code, cut_off.status_code) == (201, 200, 201)
    rolls = world.campaign.rolls.filter(procedure="gb.variant.cops_action_points").order_by("pk")
    assert [roll.inputs["isolated_from_source"] for roll in rolls] == [False, True]
