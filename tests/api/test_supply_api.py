"""`supply/`: the umpire's supply proposal and its confirmation; the campaign summary and the
writes once a campaign has finished (rules notes MS-04, MS-06)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign import models
from campaign.choices import CampaignStatus, EventVerb
from tests.api.world import (
    MEMBERS,
    WRITE_REFUSED,
    Role,
    World,
    assert_statuses,
    build_world,
    query_count,
)

pytestmark = pytest.mark.django_db

UMPIRE_READS = {Role.ANONYMOUS: 401, Role.OTHER_UMPIRE: 404, **dict.fromkeys(MEMBERS, 403), Role.UMPIRE: 200}


@pytest.fixture
def world() -> World:
    """The world's row of sectors, north to south: the Axis holds north (its source) and the
    ridge, the village is contested, the Allies hold the bridge and the south (their source).
    A1 is on the ridge, A2 has pushed into the south, L1 holds the bridge."""
    world = build_world()
    sector = {key: world.sector(key) for key in ("north", "ridge", "village", "bridge", "south")}
    for key, side in (
        ("north", world.axis),
        ("ridge", world.axis),
        ("bridge", world.allied),
        ("south", world.allied),
    ):
        models.Sector.objects.filter(pk=sector[key].pk).update(owner=side)
    sector["north"].supply_source_for.add(world.axis)
    sector["south"].supply_source_for.add(world.allied)
    world.campaign.forces.filter(side=world.axis).update(sector=sector["north"])
    world.campaign.forces.filter(side=world.allied).update(sector=sector["south"])
    for code, key in (("A1", "ridge"), ("A2", "south"), ("L1", "bridge")):
        world.campaign.battalions.filter(code=code).update(sector=sector[key], in_reserve=False)
    return world


def test_only_the_umpire_reads_the_proposal(world):
    url = world.url("campaign-supply")
    assert_statuses(world, "get", url, UMPIRE_READS)
    assert_statuses(
        world, "post", url, {**WRITE_REFUSED, Role.UMPIRE: 200}, {"overrides": []}, unchanged=True
    )


def test_the_proposal_names_each_battalions_line_and_reason(world):
    count, response = query_count(world.client(Role.UMPIRE), world.url("campaign-supply"))
    assert response.status_code == 200
    body = response.json()
    battalions = {entry["code"]: entry for entry in body["battalions"]}
    assert sorted(battalions) == ["A1", "A2", "L1"]
    ridge, north, south = (world.sector(key).pk for key in ("ridge", "north", "south"))
    assert battalions["A1"]["path"] == [ridge, north]
    assert (battalions["A1"]["proposed"], battalions["A1"]["proposed_label"]) == ("OK", "OK")
    assert battalions["A2"]["path"] is None  # in the enemy's south, with no held ground next to it
    assert battalions["A2"]["reason"] == "no line over sectors its side holds to a source of supply"
    assert (battalions["A2"]["proposed"], battalions["A2"]["situation_label"]) == ("isolated", "OK")
    assert battalions["L1"]["links_to_c_ops"] == 1
    assert battalions["A1"]["line"] == f"{world.sector('ridge').name} → {world.sector('north').name}"
    assert battalions["A2"]["line"] == "no line to a source of supply"
    # No report and no override: the night applies the proposal (rules notes MS-07).
    assert {k: battalions["A2"][k] for k in ("reported", "override", "applies", "applies_because")} == {
        "reported": None,
        "override": None,
        "applies": "isolated",
        "applies_because": "the map's proposal",
    }
    assert battalions["A2"]["applies_label"] == battalions["A2"]["proposed_label"]
    assert {s["side"]: s["sectors"] for s in body["sources"]} == {
        world.axis.pk: [north],
        world.allied.pk: [south],
    }
    assert {f["side"]: f["isolated_from_source"] for f in body["forces"]} == {
        world.axis.pk: False,
        world.allied.pk: False,
    }
    assert (body["day"], body["confirmed_at"], body["overrides"]) == (2, None, [])
    assert body["situations"] == ["OK", "separated", "isolated"]
    assert len(body["situations_labels"]) == 3
    assert (body["actions"], body["actions_labels"]) == (["confirm"], ["Confirm the supply"])
    assert body["warning"] == (
        "Supply for day 2 is not confirmed: the night will apply the map's proposal, "
        "with the day's battle reports, to 3 battalions."
    )
    assert count <= 12  # the proposal's five, the caller's campaign and membership, the day


def test_confirming_with_an_override_writes_and_answers_the_proposal_confirmed(world):
    a2 = world.battalion("A2")
    response = world.client(Role.UMPIRE).post(
        world.url("campaign-supply"),
        {
            "overrides": [
                {
                    "battalion": str(a2.public_id),
                    "situation": "separated",
                    "reason": "supplied by sea at night",
                }
            ]
        },
        format="json",
    )

    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["confirmed_at"] is not None
    assert body["overrides"] == [{"code": "A2", "situation": "separated", "situation_label": "Separated"}]
    assert {entry["code"]: entry["situation"] for entry in body["battalions"]} == {
        "A1": "OK",
        "A2": "separated",
        "L1": "OK",
    }
    a2_now = next(entry for entry in body["battalions"] if entry["code"] == "A2")
    assert (a2_now["override"], a2_now["applies"], a2_now["applies_because"]) == (
        "separated",
        "separated",
        "the umpire's override",
    )
    assert body["warning"] is None  # confirmed: the night's confirmation has nothing to warn of
    event = world.campaign.events.get(verb=EventVerb.SUPPLY_OVERRIDDEN)
    assert event.after == {"situation": "separated", "reason": "supplied by sea at night"}


def test_a_second_confirmation_replaces_the_first_whole(world):
    """Confirming again is the umpire's whole word on today's supply: A2, overridden the first time
    and not the second, goes back to the proposal's situation, in the review and on its row."""
    umpire = world.client(Role.UMPIRE)
    a2, l1 = world.battalion("A2"), world.battalion("L1")

    def confirm(battalion: models.Battalion, situation: str) -> dict[str, Any]:
        override = {"battalion": str(battalion.public_id), "situation": situation, "reason": "the table"}
        response = umpire.post(world.url("campaign-supply"), {"overrides": [override]}, format="json")
        assert response.status_code == 200, response.json()
        body: dict[str, Any] = response.json()
        return body

    confirm(a2, "separated")  # the proposal says isolated
    assert world.battalion("A2").supply_situation == "separated"
    body = confirm(l1, "isolated")

    assert body["overrides"] == [{"code": "L1", "situation": "isolated", "situation_label": "Isolated"}]
    a2_now = next(entry for entry in body["battalions"] if entry["code"] == "A2")
    assert (a2_now["override"], a2_now["applies"], a2_now["applies_because"]) == (
        None,
        "isolated",
        "the map's proposal",
    )
    assert world.battalion("A2").supply_situation == "isolated"
    assert world.battalion("L1").supply_situation == "isolated"
    assert world.campaign.days.get(number=2).supply_overrides == {"L1": "isolated"}


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"situation": "separated", "reason": "r"}, "overrides[0].battalion"),
        ({"battalion": "L2", "situation": "OK", "reason": "r"}, "overrides[0].battalion"),  # off the map
        ({"battalion": "A2", "situation": "reserve", "reason": "r"}, "overrides[0].situation"),
        ({"battalion": "A2", "situation": "OK", "reason": ""}, "overrides[0].reason"),
    ],
)
def test_a_bad_override_is_a_400_naming_its_field(world, override, field):
    if "battalion" in override:
        override = {**override, "battalion": str(world.battalion(override["battalion"]).public_id)}
    before = world.state()
    response = world.client(Role.UMPIRE).post(
        world.url("campaign-supply"), {"overrides": [override]}, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == [field]
    assert world.state() == before


def test_a_finished_campaign_shows_its_result_and_refuses_writes(world):
    models.Campaign.objects.filter(pk=world.campaign.pk).update(
        status=CampaignStatus.FINISHED, winner=world.allied, result="The bridge holds", finished_day=2
    )
    client = world.client(Role.UMPIRE)

    summary = client.get(world.url("campaign-detail")).json()
    assert (summary["status"], summary["status_label"]) == ("finished", "Finished")
    assert (summary["winner"], summary["result"], summary["finished_day"]) == (
        world.allied.pk,
        "The bridge holds",
        2,
    )
    for url, data in (
        (world.url("campaign-supply"), {"overrides": []}),
        (world.url("day-dawn"), {}),
        (world.url("battle-report", pk=world.planned.public_id), {"battalions": [{"code": "A1"}]}),
    ):
        refused = client.post(url, data, format="json")
        assert refused.status_code == 409, url
        assert refused.json()["error"]["code"] == "campaign_finished"
        assert refused.json()["error"]["message"] == (
            f"Campaign {world.campaign.slug} finished on day 2 (The bridge holds): it is read-only."
        )
    assert client.get(world.url("campaign-supply")).status_code == 200  # reads go on


def test_without_sources_of_supply_nothing_is_traced_so_nothing_is_offered_or_warned(world):
    models.Sector.supply_source_for.through.objects.filter(sector__campaign=world.campaign).delete()

    body = world.client(Role.UMPIRE).get(world.url("campaign-supply")).json()

    assert (body["actions"], body["warning"]) == ([], None)  # the night's supply step does not run either
