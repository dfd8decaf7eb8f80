"""The map API: the map document (one request, ETag and 304, as many queries for a 200-sector,
2,000-battalion campaign as for a small one), sectors/, and the umpire's moves and control."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from campaign import models
from campaign.choices import EventVerb, MemberRole
from campaign.scenarios.generator import synthetic_pack
from campaign.services.audit import Actor
from campaign.services.scenario import scenario_import
from tests.api.world import WRITE_REFUSED, Role, assert_statuses, build_world, query_count

pytestmark = pytest.mark.django_db

# Who is asking, the rows of each kind, and the moments kept for the replay (one query).
MAP_DOCUMENT_QUERIES = 11
# A player's map reads the sectors where it sees the enemy in contact once, before the rows
# (access.contact_read): a list of ids costs its forces' and battalions' reads less than the
# subquery planned in each.
PLAYER_MAP_DOCUMENT_QUERIES = MAP_DOCUMENT_QUERIES + 1


def _mapped_campaign(battalions: int, sectors: int, seed: str) -> models.Campaign:
    """A generated campaign of ``battalions`` one-stand battalions on a grid of ``sectors``."""
    pack = synthetic_pack(battalions, seed=seed, stands_per_battalion=1, sectors=sectors)
    pack["campaign"]["slug"] = f"map-{seed}"
    campaign = scenario_import(pack, Actor())
    users = get_user_model().objects
    for role, side in ((MemberRole.UMPIRE, None), (MemberRole.PLAYER, campaign.sides.get(name="Axis"))):
        user = users.create(username=f"{role}-{seed}")
        models.Membership.objects.create(user=user, campaign=campaign, role=role, side=side)
    return campaign


def _client(campaign: models.Campaign, role: MemberRole) -> APIClient:
    client = APIClient()
    client.force_login(get_user_model().objects.get(username=f"{role}-{campaign.rng_seed}"))
    return client


def _map_url(campaign: models.Campaign) -> str:
    return reverse("api:campaign-map", kwargs={"campaign_slug": campaign.slug})


def test_the_map_document_takes_as_many_queries_for_200_sectors_and_2000_battalions_as_for_2():
    # The umpire's and a player's reads of one pair of campaigns: importing 2,000 battalions is
    # most of this test's time (it was one test per role, each importing its own).
    small = _mapped_campaign(battalions=2, sectors=2, seed="small")
    large = _mapped_campaign(battalions=2000, sectors=200, seed="large")
    assert large.battalions.count() == 2000
    assert large.sectors.count() == 200
    for role in (MemberRole.UMPIRE, MemberRole.PLAYER):
        assert_map_queries_do_not_grow(small, large, role)


def assert_map_queries_do_not_grow(small: models.Campaign, large: models.Campaign, role: MemberRole) -> None:
    counts, bodies = [], []
    for campaign in (small, large):
        count, response = query_count(_client(campaign, role), _map_url(campaign))
        assert response.status_code == 200
        counts.append(count)
        bodies.append(response.json())

    assert counts[0] == counts[1], f"{role}: queries for 2 vs 200 sectors: {counts}"
    # Who is asking, then one query for each kind of row (sectors, their sources, links,
    # forces, battalions, battles).
    expected = PLAYER_MAP_DOCUMENT_QUERIES if role == MemberRole.PLAYER else MAP_DOCUMENT_QUERIES
    assert counts[1] == expected, role
    large_map = bodies[1]
    assert len(large_map["sectors"]) == 200
    assert len(large_map["links"]) == large.sector_links.count() > 200
    axis = large.sides.get(name="Axis")
    if role == MemberRole.UMPIRE:
        assert len(large_map["battalions"]) == 2000
    else:  # its own 1,000 and the enemy's it is in contact with: on or next to its own sectors
        own = [b for b in large_map["battalions"] if b["side"] == axis.pk]
        enemy = [b for b in large_map["battalions"] if b["side"] != axis.pk]
        assert len(own) == 1000
        assert enemy
        assert all(b["supply_situation"] is None for b in enemy)


def test_the_map_document_answers_304_to_its_etag_until_the_map_changes():
    world = build_world()
    client = world.client(Role.AXIS_PLAYER)
    url = world.url("campaign-map")

    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    body = first.json()
    # The tables its battles were fought on are sectors too, unplaced (x and y null).
    placed = [s for s in body["sectors"] if s["x"] is not None]
    assert [s["key"] for s in placed] == ["north", "ridge", "village", "bridge", "south"]
    assert {s["name"] for s in body["sectors"] if s["x"] is None} == {"Ta' Qali", "Mdina"}
    assert placed[0]["owner_label"] == "Contested"
    assert body["links"][0]["kind_label"] == "Road"
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304

    north = world.sector("north")
    umpire = world.client(Role.UMPIRE)
    moved = umpire.post(
        world.url("battalion-move", pk=world.battalion("A1").public_id), {"sector": north.pk}, format="json"
    )
    assert moved.status_code == 200, moved.json()
    assert moved.json()["sector_name"] == "North"

    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    [a1] = [b for b in changed.json()["battalions"] if b["code"] == "A1"]
    assert (a1["sector"], a1["side_label"]) == (north.pk, "Axis")


def test_moves_and_control_are_the_umpires_and_a_move_not_next_door_is_refused_naming_the_field():
    world = build_world()
    a1, north, bridge = world.battalion("A1"), world.sector("north"), world.sector("bridge")
    place = world.url("battalion-move", pk=a1.public_id)
    assert_statuses(
        world, "post", place, {**WRITE_REFUSED, Role.UMPIRE: 200}, {"sector": north.pk}, unchanged=True
    )

    refused = world.client(Role.UMPIRE).post(place, {"sector": bridge.pk}, format="json")

    assert refused.status_code == 400
    error = refused.json()["error"]
    assert (error["code"], list(error["fields"])) == ("not_adjacent", ["sector"])
    assert error["message"] == "Bridge is not next to North, where battalion A1 stands (next to it: Ridge)."
    force = a1.battlegroup.force
    moved = world.client(Role.UMPIRE).post(
        world.url("force-move", pk=force.public_id), {"sector": north.pk}, format="json"
    )
    assert (moved.status_code, moved.json()["sector_name"]) == (200, "North")

    control = world.url("sector-control", pk=north.pk)
    body: dict[str, Any] = {"owner": world.axis.pk, "reason": "the paratroops hold it"}
    taken = assert_statuses(world, "post", control, {**WRITE_REFUSED, Role.UMPIRE: 200}, body, unchanged=True)
    answer = taken[Role.UMPIRE].json()
    assert (answer["owner"], answer["owner_label"]) == (world.axis.pk, "Axis")
    assert answer["forces"] == [{"id": str(force.public_id), "name": force.name, "side": world.axis.pk}]
    assert answer["battalions"] == [{"id": str(a1.public_id), "code": "A1", "side": world.axis.pk}]
    event = world.campaign.events.get(verb=EventVerb.SECTOR_CONTROL_CHANGED)
    # Every member reads who holds the ground and why.
    listed = world.client(Role.OBSERVER).get(world.url("event-list")).json()["results"]
    assert str(event.public_id) in {row["id"] for row in listed}


def test_a_battle_is_created_on_a_sector_by_id_and_lists_on_that_sector():
    world = build_world()
    village = world.sector("village")
    created = world.client(Role.UMPIRE).post(
        world.url("battle-list"),
        {
            "sector": village.pk,
            "battle_type": "Local Attack",
            "attacker_id": world.axis.pk,
            "defender_id": world.allied.pk,
            "battalion_codes": ["A2", "L2"],
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    assert (created.json()["sector"], created.json()["sector_name"]) == (village.pk, "Village")
    battle_id = created.json()["id"]

    for role, sees in ((Role.UMPIRE, True), (Role.AXIS_PLAYER, True), (Role.OBSERVER, False)):
        detail = world.client(role).get(world.url("sector-detail", pk=village.pk)).json()
        assert (battle_id in {b["id"] for b in detail["battles"]}) is sees, role
    on_village = world.client(Role.AXIS_PLAYER).get(world.url("battle-list"), {"sector": village.pk}).json()
    assert [b["id"] for b in on_village["results"]] == [battle_id]
