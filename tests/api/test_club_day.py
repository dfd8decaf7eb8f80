"""The umpire's club-day writes the web app makes: the dawn's deployment preview, postponed
reinforcements, a stand's corrected state and a side's fog of war. Umpires only, refused with
the field named, nothing half-written, an event for every write."""

from __future__ import annotations

from typing import Any

import pytest

from api.inputs import RANGE_NEEDED
from campaign import models
from campaign.choices import ArrivalStatus, EventVerb, StandStatus
from tests.api.test_day_writes import night_over, reserve_force
from tests.api.world import WRITE_REFUSED, Role, World, assert_statuses

pytestmark = pytest.mark.django_db


def statuses(world: World, code: str) -> dict[str, str]:
    return dict(world.battalion(code).stands.values_list("label", "status"))


def in_reserve(world: World, code: str) -> None:
    models.Battalion.objects.filter(campaign=world.campaign, code=code).update(in_reserve=True)


# The dawn's preview ------------------------------------------------------------------------


def test_the_preview_names_the_stands_the_dawn_then_hits_and_writes_nothing(world):
    night_over(world)
    in_reserve(world, "L2")
    umpire = world.client(Role.UMPIRE)
    body = {"deployments": [{"battalion": "L2", "range_inches": 5}]}
    before, stands_before = world.state(), statuses(world, "L2")

    preview = umpire.post(world.url("day-dawn-preview"), body, format="json")

    assert preview.status_code == 200, preview.json()
    assert world.state() == before
    assert statuses(world, "L2") == stands_before
    assert world.battalion("L2").in_reserve
    answer = preview.json()
    assert answer["day"] == 3
    assert "Deployment Chart" in answer["rule"]
    (deployment,) = answer["deployments"]
    # Stand 2 was lost on day 1; the HQ (stand 1) is hit last.
    assert deployment == {
        "battalion": "L2",
        "battalion_name": deployment["battalion_name"],
        "range_inches": 5.0,
        "friendly_intervening": False,
        "cell": 'Dawn Phase, 6"',
        "destroyed": 0,
        "suppressed": 2,
        "retreat_inches": 0,
        "stands_destroyed": [],
        "stands_suppressed": ["3", "4"],
        "text": 'L2 deployed from reserve at 5" [Dawn Phase, 6"]: 2s',
        "side_order": None,  # the umpire's own, not a side's sealed order
    }

    dawned = umpire.post(world.url("day-dawn"), body, format="json")

    assert dawned.status_code == 201
    after = statuses(world, "L2")
    assert [label for label, status in sorted(after.items()) if status == StandStatus.SUPPRESSED] == [
        "3",
        "4",
    ]
    deployed = world.campaign.events.get(verb=EventVerb.FORCE_DEPLOYED, object_id=world.battalion("L2").pk)
    assert deployed.message == deployment["text"]


def test_the_preview_is_refused_as_the_dawn_would_be_naming_the_field(world):
    umpire = world.client(Role.UMPIRE)
    early = umpire.post(world.url("day-dawn-preview"), {}, format="json")
    night_over(world)
    in_reserve(world, "L2")

    not_in_reserve = umpire.post(
        world.url("day-dawn-preview"),
        {"deployments": [{"battalion": "A1", "range_inches": 12}]},
        format="json",
    )
    twice = umpire.post(
        world.url("day-dawn-preview"),
        {"deployments": [{"battalion": "L2", "range_inches": 12}, {"battalion": "L2", "range_inches": 4}]},
        format="json",
    )
    negative = umpire.post(
        world.url("day-dawn-preview"),
        {"deployments": [{"battalion": "L2", "range_inches": -1}]},
        format="json",
    )
    unpicked = umpire.post(
        world.url("day-dawn-preview"),
        {"deployments": [{"battalion": "L2", "range_inches": None}]},
        format="json",
    )

    assert early.status_code == 409
    assert early.json()["error"]["code"] == "day_not_over"
    assert (not_in_reserve.status_code, not_in_reserve.json()["error"]["fields"]) == (
        400,
        {"deployments[0].battalion": ["Battalion A1 is not in reserve."]},
    )
    assert twice.status_code == 400
    assert list(twice.json()["error"]["fields"]) == ["deployments[1].battalion"]
    assert "named twice" in twice.json()["error"]["message"]
    assert negative.status_code == 400
    assert list(negative.json()["error"]["fields"]) == ["deployments[0].range_inches"]
    # A battalion ticked before its range is given: what to do, not "This field may not be null".
    assert (unpicked.status_code, unpicked.json()["error"]["fields"]) == (
        400,
        {"deployments[0].range_inches": [RANGE_NEEDED]},
    )


def test_only_the_umpire_previews_a_dawn(world):
    night_over(world)

    assert_statuses(world, "post", world.url("day-dawn-preview"), {**WRITE_REFUSED, Role.UMPIRE: 200}, {})


# Reinforcements postponed ------------------------------------------------------------------


def scheduled(world: World, day: int, status: ArrivalStatus = ArrivalStatus.SCHEDULED) -> models.Force:
    force = reserve_force(world, world.axis, "Livorno")
    models.Force.objects.filter(pk=force.pk).update(
        arrival_status=status, arrival_day=day, arrival_attempts=2
    )
    return force


def test_a_rolling_force_is_postponed_to_a_later_day_and_starts_its_rolls_afresh(world):
    force = scheduled(world, 2, ArrivalStatus.ROLLING)

    response = world.client(Role.UMPIRE).post(
        world.url("reinforcement-postpone", pk=force.public_id), {"day": 4}, format="json"
    )

    assert response.status_code == 200, response.json()
    assert (response.json()["arrival_status"], response.json()["arrival_day"]) == ("scheduled", 4)
    force.refresh_from_db()
    assert (force.arrival_status, force.arrival_day, force.arrival_attempts) == (
        ArrivalStatus.SCHEDULED,
        4,
        0,
    )
    event = world.campaign.events.get(verb=EventVerb.REINFORCEMENT_POSTPONED)
    assert event.message == "Livorno's arrival postponed from day 2 to day 4"
    assert (event.visibility, event.side_id) == ("side", world.axis.pk)


def test_a_postponement_must_be_later_and_of_a_force_on_its_way(world):
    force = scheduled(world, 3)
    on_table = world.campaign.forces.filter(arrival_status=ArrivalStatus.ON_TABLE).first()
    umpire = world.client(Role.UMPIRE)
    before = world.state()

    same_day = umpire.post(world.url("reinforcement-postpone", pk=force.public_id), {"day": 3}, format="json")
    no_day = umpire.post(world.url("reinforcement-postpone", pk=force.public_id), {}, format="json")

    assert same_day.status_code == 400
    assert list(same_day.json()["error"]["fields"]) == ["day"]
    assert "not later than day 3" in same_day.json()["error"]["message"]
    assert no_day.status_code == 400
    assert list(no_day.json()["error"]["fields"]) == ["day"]
    if on_table is not None:  # the reinforcement list shows forces off the table only
        table = umpire.post(
            world.url("reinforcement-postpone", pk=on_table.public_id), {"day": 5}, format="json"
        )
        assert table.status_code == 404
    assert world.state() == before


@pytest.mark.parametrize(
    ("status", "actions"),
    [
        (ArrivalStatus.IN_RESERVE, ["schedule"]),
        (ArrivalStatus.SCHEDULED, ["schedule", "postpone"]),
        (ArrivalStatus.ROLLING, ["postpone"]),
        (ArrivalStatus.ARRIVED, []),
        (ArrivalStatus.WILL_NOT_ARRIVE, ["schedule"]),
    ],
)
def test_a_reinforcement_offers_the_umpire_what_its_state_allows_and_no_more(world, status, actions):
    force = scheduled(world, 3, status)
    umpire = world.client(Role.UMPIRE)

    def listed(role: Role) -> dict[str, Any]:
        rows = world.client(role).get(world.url("reinforcement-list"), {"page_size": 200}).json()["results"]
        return next(row for row in rows if row["id"] == str(force.public_id))

    assert listed(Role.UMPIRE)["actions"] == actions
    assert listed(Role.AXIS_PLAYER)["actions"] == []  # players read their reinforcements, never act
    postponed = umpire.post(
        world.url("reinforcement-postpone", pk=force.public_id), {"day": 5}, format="json"
    )
    # What is offered is accepted; what is not, the state refuses (never a button that answers 409).
    assert (postponed.status_code == 200) == ("postpone" in actions), postponed.json()
    assert listed(Role.UMPIRE)["actions"] == (["schedule", "postpone"] if "postpone" in actions else actions)


def test_only_the_umpire_postpones(world):
    force = scheduled(world, 3)

    assert_statuses(
        world,
        "post",
        world.url("reinforcement-postpone", pk=force.public_id),
        {**WRITE_REFUSED, Role.AXIS_PLAYER: 403, Role.ALLIED_PLAYER: 403, Role.UMPIRE: 200},
        {"day": 5},
        unchanged=True,
    )


# A stand's state corrected -----------------------------------------------------------------


def stand(world: World, code: str, label: str) -> models.Stand:
    return world.battalion(code).stands.get(label=label)


def test_the_umpire_corrects_a_stand_with_a_reason_on_the_timeline(world):
    lost = stand(world, "A1", "2")  # destroyed on day 1
    before = world.state()

    response = world.client(Role.UMPIRE).post(
        world.url("stand-correct", pk=lost.public_id),
        {"status": "ok", "reason": "the report named the wrong company"},
        format="json",
    )

    assert response.status_code == 200, response.json()
    assert (response.json()["status"], response.json()["status_label"]) == ("ok", "OK")
    lost.refresh_from_db()
    assert lost.status == StandStatus.OK
    assert world.state()[:2] == (before[0] + 1, before[1] + 1)  # a version, one event
    event = world.campaign.events.get(verb=EventVerb.ADMIN_CORRECTED, object_id=lost.pk)
    assert event.message.endswith(": status (the report named the wrong company)")
    assert (event.before, event.after) == ({"status": "destroyed"}, {"status": "ok"})
    assert event.visibility == "umpire"


def test_a_correction_names_its_field_and_writes_nothing_when_refused(world):
    target = stand(world, "A1", "3")
    umpire = world.client(Role.UMPIRE)
    url = world.url("stand-correct", pk=target.public_id)
    before = world.state()

    no_reason = umpire.post(url, {"status": "destroyed", "reason": "  "}, format="json")
    unknown = umpire.post(url, {"status": "lost", "reason": "x"}, format="json")
    same = umpire.post(url, {"status": "ok", "reason": "x"}, format="json")

    assert (no_reason.status_code, list(no_reason.json()["error"]["fields"])) == (400, ["reason"])
    assert (unknown.status_code, list(unknown.json()["error"]["fields"])) == (400, ["status"])
    assert (same.status_code, list(same.json()["error"]["fields"])) == (400, ["status"])
    assert same.json()["error"]["message"] == "3 is already ok."
    assert world.state() == before
    target.refresh_from_db()
    assert target.status == StandStatus.OK


def test_only_the_umpire_corrects_a_stand(world):
    own = stand(world, "L1", "3")  # the Allied key and player see their own stand

    responses = assert_statuses(
        world,
        "post",
        world.url("stand-correct", pk=own.public_id),
        {**WRITE_REFUSED, Role.UMPIRE: 200},
        {"status": "suppressed", "reason": "missed in the report"},
        unchanged=True,
    )

    assert responses[Role.ALLIED_PLAYER].json()["error"]["code"] == "permission_denied"


# Fog of war --------------------------------------------------------------------------------


def test_identifying_enemy_battalions_is_what_the_enemy_then_sees(world):
    allied_player = world.client(Role.ALLIED_PLAYER)
    seen_before = {b["code"] for b in allied_player.get(world.url("battalion-list")).json()["results"]}

    response = world.client(Role.UMPIRE).put(
        world.url("side-fog-of-war", pk=world.axis.pk),
        {"identified_units": ["A2", "A3"], "strengths": False, "battle_results": True},
        format="json",
    )

    assert response.status_code == 200, response.json()
    assert response.json()["fog_of_war"] == {
        "identified_units": ["A2", "A3"],
        "strengths": False,
        "battle_results": True,
    }
    seen = {b["code"]: b for b in allied_player.get(world.url("battalion-list")).json()["results"]}
    assert seen_before & {"A1", "A2", "A3"} == {"A1"}
    assert {code for code in seen if code.startswith("A")} == {"A2", "A3"}
    assert seen["A2"]["stands_started"] is None  # strengths hidden
    stands = allied_player.get(world.url("stand-list"), {"page_size": 500}).json()["results"]
    assert not [s for s in stands if s["battalion_code"].startswith("A")]
    event = world.campaign.events.get(verb=EventVerb.FOG_OF_WAR_SET)
    assert event.message == ("Axis's units identified by the enemy: A2, A3; revealing battle results")
    assert event.before == {"identified_units": ["A1"], "strengths": True, "battle_results": False}
    assert event.visibility == "umpire"


def test_fog_of_war_names_the_battalion_that_is_not_the_sides(world):
    umpire = world.client(Role.UMPIRE)
    url = world.url("side-fog-of-war", pk=world.axis.pk)
    before = world.state()

    enemy = umpire.put(
        url, {"identified_units": ["A2", "L1"], "strengths": True, "battle_results": True}, format="json"
    )
    twice = umpire.put(
        url, {"identified_units": ["A2", "A2"], "strengths": True, "battle_results": True}, format="json"
    )
    missing = umpire.put(url, {"identified_units": []}, format="json")

    assert enemy.status_code == 400
    assert enemy.json()["error"]["fields"] == {
        "identified_units[1]": ["Battalion L1 is not a battalion of Axis."]
    }
    assert list(twice.json()["error"]["fields"]) == ["identified_units[1]"]
    assert missing.status_code == 400
    assert set(missing.json()["error"]["fields"]) == {"strengths", "battle_results"}
    assert world.state() == before
    assert models.Side.objects.get(pk=world.axis.pk).fog_of_war["identified_units"] == ["A1"]


def test_only_the_umpire_sets_the_fog_of_war(world):
    assert_statuses(
        world,
        "put",
        world.url("side-fog-of-war", pk=world.axis.pk),
        {**WRITE_REFUSED, Role.UMPIRE: 200},
        {"identified_units": ["A1", "A2"], "strengths": True, "battle_results": False},
        unchanged=True,
    )
