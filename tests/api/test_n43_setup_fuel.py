"""The 1943 set-up's attacker decision and fuel supply through the API: who rolled high, each
side's fuel rolls and fuel state shown to that side only, the report's fuel refused by field."""

from __future__ import annotations

from typing import Any

import pytest

from campaign import models
from campaign.choices import FuelState
from tests.api.test_force_status import status_url
from tests.api.test_hostile_input import refused
from tests.api.world import Role, World, build_world

pytestmark = pytest.mark.django_db
FUEL = "n43.fuel_supply"
SETUP = {
    "n43.setup_proximity": {"terrain": "Open Terrain"},
    f"{FUEL}@Axis": {"row": "German: North Africa"},
    f"{FUEL}@Allied": {"row": "Commonwealth: North Africa - In Open"},
}


@pytest.fixture
def world() -> World:
    world = build_world(optional_rules=[FUEL])
    world.campaign.battalions.filter(code__in=["A1", "L1"]).update(fuel_state=FuelState.LOW)
    return world


def _battalions(world: World, role: Role) -> dict[str, dict[str, Any]]:
    response = world.client(role).get(world.url("battalion-list"), {"page_size": 100})
    assert response.status_code == 200
    return {row["code"]: row for row in response.json()["results"]}


def test_the_set_up_shows_the_high_roller_and_each_sides_fuel_to_that_side(world):
    umpire = world.client(Role.UMPIRE)
    response = umpire.post(
        world.url("battle-set-up", pk=world.planned.public_id), {"inputs": SETUP}, format="json"
    )
    assert response.status_code == 200, response.content[:300]
    battle = models.Battle.objects.get(pk=world.planned.pk)
    shown = response.json()
    assert shown["attacker_decided_by"] == battle.attacker_decided_by_id == battle.attacker_id
    assert set(shown["setup"][f"{FUEL}@Axis"]) == {"A1"}

    for role, own, enemy in ((Role.AXIS_PLAYER, "Axis", "Allied"), (Role.ALLIED_PLAYER, "Allied", "Axis")):
        seen = world.client(role).get(world.url("battle-detail", pk=battle.public_id)).json()
        assert seen["attacker_decided_by"] == battle.attacker_decided_by_id
        assert "n43.attacker_decision" in seen["setup"]  # rolled once, for both sides
        assert f"{FUEL}@{own}" in seen["setup"]
        assert f"{FUEL}@{enemy}" not in seen["setup"]


def test_a_player_sees_their_own_fuel_state_with_its_label_and_not_the_enemys(world):
    umpire = _battalions(world, Role.UMPIRE)
    assert (umpire["A1"]["fuel_state"], umpire["A1"]["fuel_state_label"]) == ("low", "Low")
    axis, allied = _battalions(world, Role.AXIS_PLAYER), _battalions(world, Role.ALLIED_PLAYER)
    assert (axis["A1"]["fuel_state"], axis["A1"]["fuel_state_label"]) == ("low", "Low")
    assert (allied["L1"]["fuel_state"], allied["L1"]["fuel_state_label"]) == ("low", "Low")
    # Each sees the other's identified battalion (the world's fog), but not its fuel.
    assert (allied["A1"]["fuel_state"], allied["A1"]["fuel_state_label"]) == (None, None)
    assert (axis["L1"]["fuel_state"], axis["L1"]["fuel_state_label"]) == (None, None)


def test_a_battalion_says_whether_a_report_gives_its_fuel(world):
    world.campaign.battalions.filter(code="L1").update(fuel_state=FuelState.NOT_APPLICABLE)

    umpire = _battalions(world, Role.UMPIRE)
    assert (umpire["A1"]["reports_fuel"], umpire["L1"]["reports_fuel"]) == (True, False)
    # Masked with the fuel state it follows from.
    assert _battalions(world, Role.ALLIED_PLAYER)["A1"]["reports_fuel"] is None
    models.Campaign.objects.filter(pk=world.campaign.pk).update(optional_rules=[])
    assert _battalions(world, Role.UMPIRE)["A1"]["reports_fuel"] is False


def test_the_force_status_says_which_battalions_have_fuel_to_speak_of(world):
    own = world.client(Role.AXIS_PLAYER).get(status_url(world, world.axis)).json()
    enemy = world.client(Role.ALLIED_PLAYER).get(status_url(world, world.axis)).json()

    assert {b["code"]: b["reports_fuel"] for b in own["battalions"]} == {"A1": True, "A2": False, "A3": False}
    assert {b["reports_fuel"] for b in enemy["battalions"]} <= {None}


def test_a_report_changes_fuel_and_refuses_a_bad_one_by_field(world):
    umpire = world.client(Role.UMPIRE)
    url = world.url("battle-report", pk=world.planned.public_id)
    world.campaign.battalions.filter(code="L1").update(fuel_state=FuelState.NOT_APPLICABLE)
    before = world.state()

    bad_value = umpire.post(url, {"battalions": [{"code": "A1", "fuel_state": "n/a"}]}, format="json")
    no_vehicles = umpire.post(
        url,
        {"battalions": [{"code": "A1", "fuel_state": "empty"}, {"code": "L1", "fuel_state": "low"}]},
        format="json",
    )

    refused(bad_value, 400, "battalions[0].fuel_state")
    assert "no vehicle companies" in refused(no_vehicles, 400, "battalions[1].fuel_state")["message"]
    assert world.state() == before

    done = umpire.post(url, {"battalions": [{"code": "A1", "fuel_state": "empty"}]}, format="json")

    assert done.status_code == 200, done.content[:300]
    assert done.json()["report"]["battalions"][0]["fuel_state"] == "empty"
    assert _battalions(world, Role.AXIS_PLAYER)["A1"]["fuel_state_label"] == "Empty"
