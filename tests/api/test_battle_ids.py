"""Battles are named by public ids (issue 28 point 7): every campaign's battles share one
sequence, and in a campaign of three sides a player does not read the battles the other two
fight, so a battle's number counted rows its reader never sees."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from campaign import models
from campaign.services.battles import battle_create
from campaign.services.days import day_dawn
from tests.api.world import ACTOR, Role, World
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
NUMBERED_LINK = re.compile(r"/battles/\d+(?![0-9a-f-])")
BATTLE_REFERENCES = frozenset({"battle", "continues", "feeds"})
BATTLE_ROWS = frozenset({"battles"})


def _battle_numbers(value: Any, where: str = "", rows: bool = False) -> list[str]:
    """Every integer naming a battle in a read (a battle row's id, a reference to one, a link)."""
    found: list[str] = []
    if isinstance(value, list):
        for index, inner in enumerate(value):
            found += _battle_numbers(inner, f"{where}[{index}]", rows)
    elif isinstance(value, dict):
        for key, inner in value.items():
            number = isinstance(inner, int) and not isinstance(inner, bool)
            listed = isinstance(inner, list) and any(isinstance(i, int) for i in inner)
            if (key == "id" and rows and number) or (key in BATTLE_REFERENCES and (number or listed)):
                found.append(f"{where}.{key}={inner}")
            found += _battle_numbers(inner, f"{where}.{key}", key in BATTLE_ROWS or key == "battle")
    elif isinstance(value, str) and NUMBERED_LINK.search(value):
        found.append(f"{where}={value}")
    return found


def _new_battle(world: World) -> dict[str, Any]:
    """What the umpire posts to fight a battle on the world's village."""
    return {
        "sector": world.sector("village").pk,
        "battle_type": "Local Attack",
        "attacker_id": world.axis.pk,
        "defender_id": world.allied.pk,
        "battalion_codes": ["A2", "L2"],
    }


def test_a_battle_is_named_by_an_id_that_counts_no_battle_created_in_between_elsewhere(world: World):
    umpire = world.client(Role.UMPIRE)
    elsewhere = campaign_with_sides()
    day_dawn(elsewhere.pk, ACTOR)
    axis, allied = elsewhere.sides.get(name="Axis"), elsewhere.sides.get(name="Allied")
    between = battle_create(
        elsewhere.pk,
        ACTOR,
        sector_name="Luqa",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["A1"],
    )

    body = _new_battle(world)
    numbered = umpire.post(
        world.url("battle-list"), {**body, "continues_id": world.planned.pk}, format="json"
    )
    created = umpire.post(
        world.url("battle-list"),
        {**body, "continues_id": str(world.planned.public_id), "feeds_ids": [str(world.fought.public_id)]},
        format="json",
    )

    assert created.status_code == 201, created.json()
    battle = created.json()
    named = models.Battle.objects.get(public_id=battle["id"])
    assert named.pk > between.pk > world.planned.pk  # what a number would have told
    assert created["Location"].endswith(f"/battles/{battle['id']}/")
    assert battle["continues"] == str(world.planned.public_id)
    assert battle["feeds"] == [str(world.fought.public_id)]
    assert numbered.status_code == 400
    assert "continues_id" in numbered.json()["error"]["fields"]
    for role in (Role.UMPIRE, Role.AXIS_PLAYER, Role.ALLIED_KEY):
        client = world.client(role)
        reads = {
            "battles": client.get(world.url("battle-list"), {"page_size": 100}).json(),
            "battle": client.get(world.url("battle-detail", pk=named.public_id)).json(),
            "rolls": client.get(world.url("roll-list"), {"page_size": 100}).json(),
            "events": client.get(world.url("event-list"), {"page_size": 100}).json(),
            "map": client.get(world.url("campaign-map")).json(),
            "sector": client.get(world.url("sector-detail", pk=world.sector("village").pk)).json(),
            "force status": client.get(
                world.url("force-force-status", pk=world.battalion("A2").battlegroup.force.public_id)
            ).json(),
        }
        if role is not Role.ALLIED_KEY:
            reads["notifications"] = client.get(reverse("api:notification-list")).json()
        assert _battle_numbers(reads) == [], role
        ids = {row["id"] for row in reads["battles"]["results"]}
        assert str(named.public_id) in ids, role
        assert all(UUID.fullmatch(i) for i in ids), role
        by_battle = client.get(world.url("event-list"), {"battle": str(named.public_id)}).json()["results"]
        assert by_battle or role is not Role.UMPIRE  # players read no battle.created
        assert all(e["object_public_id"] == battle["id"] for e in by_battle), role
        assert all(e["object_id"] is None for e in by_battle if e["object_type"] == "Battle"), role
    fought_rolls = umpire.get(
        world.url("roll-list"), {"battle": str(world.fought.public_id), "page_size": "100"}
    )
    assert {roll["battle"] for roll in fought_rolls.json()["results"]} <= {str(world.fought.public_id)}


def test_webhooks_and_notifications_name_a_battle_by_its_public_id(world: World):
    umpire = world.client(Role.UMPIRE)
    umpire.post(
        world.url("webhook-list"),
        {"url": "https://club.example/hooks", "events": ["battle.created"]},
        format="json",
    )
    body = _new_battle(world)
    created = umpire.post(world.url("battle-list"), body, format="json").json()

    delivery = models.WebhookDelivery.objects.get(
        event__object_type="Battle", event__object_public_id=created["id"]
    )
    assert delivery.payload["object"]["id"] == created["id"]
    assert delivery.payload["links"]["object"].endswith(f"/battles/{created['id']}/")
    notes = models.Notification.objects.filter(link__contains="/battles/")
    assert notes.exists()
    assert all(UUID.search(note.link) and not NUMBERED_LINK.search(note.link) for note in notes)
