"""The world the visibility tests read (tests/api/test_visibility.py), built once per module,
and what each kind of reader may read of it, written out here rather than asked of
campaign.access."""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass

from rest_framework.test import APIClient

from campaign import models
from campaign.choices import (
    ArrivalStatus,
    OperationKind,
    Visibility,
)
from campaign.services.api_keys import api_key_create
from campaign.services.audit import Actor
from campaign.services.battle_setups import battle_setup
from campaign.services.days import segment_advance
from campaign.services.operations import operation_run
from tests.api.world import ACTOR, Role, World, api_key_client, build_world

CARRY_OVER = "gb.activation_carry_over"


ARRIVAL_PROCEDURES = {"pk.force_availability", "pk.arrival", "pk.deployment"}


class Reader(enum.Enum):
    UMPIRE = "umpire"
    UMPIRE_KEY = "write-granted API key"
    AXIS_PLAYER = "Axis player"
    ALLIED_PLAYER = "Allied player"
    OBSERVER = "observer"
    AXIS_KEY = "read-only API key of the Axis"
    ALLIED_KEY = "read-only API key of the Allies"
    CAMPAIGN_KEY = "read-only API key of no side"
    ANONYMOUS = "anonymous"


@dataclass
class VisibilityWorld:
    world: World
    clients: dict[Reader, APIClient]

    @property
    def sides(self) -> dict[str, models.Side]:
        return {"Axis": self.world.axis, "Allied": self.world.allied}

    def reader_side(self, reader: Reader) -> int | None:
        return {
            Reader.AXIS_PLAYER: self.world.axis.pk,
            Reader.AXIS_KEY: self.world.axis.pk,
            Reader.ALLIED_PLAYER: self.world.allied.pk,
            Reader.ALLIED_KEY: self.world.allied.pk,
        }.get(reader)


def reserve_due(world: World, side: models.Side) -> models.Force:
    return models.Force.objects.create(
        campaign=world.campaign,
        side=side,
        name=f"{side.name} reserve",
        nation=side.nations[0],
        arrival_status=ArrivalStatus.SCHEDULED,
        arrival_day=2,
    )


def build_visibility_world() -> VisibilityWorld:
    world = build_world(optional_rules=[CARRY_OVER])  # the night of day 1 rolls each side's carry-over
    campaign = world.campaign
    for side in (world.axis, world.allied):
        reserve_due(world, side)
    segment_advance(campaign.pk, ACTOR)  # the reserves fall due: their arrival rolls start
    operation_run(campaign.operations.get(kind=OperationKind.ARRIVALS).pk)
    battle_setup(
        world.planned.campaign_id,
        ACTOR,
        world.planned.pk,
        inputs={"n43.setup_proximity": {"terrain": "Open Terrain"}},
    )
    # A roll for the umpires alone, as an imported pack may hold.
    weather = campaign.rolls.filter(procedure="gb.weather").first()
    assert weather is not None
    weather.pk, weather.public_id, weather.visibility = None, uuid.uuid4(), Visibility.UMPIRE
    weather.save()

    umpire = Actor(user=world.users[Role.UMPIRE])
    keys = {
        Reader.UMPIRE_KEY: api_key_create(campaign.pk, umpire, name="Umpire's tool", can_write=True)[1],
        Reader.AXIS_KEY: api_key_create(campaign.pk, umpire, name="Axis tracker", side_id=world.axis.pk)[1],
        Reader.ALLIED_KEY: world.keys[Role.ALLIED_KEY],
        Reader.CAMPAIGN_KEY: api_key_create(campaign.pk, umpire, name="Club page")[1],
    }
    clients = {reader: api_key_client(key) for reader, key in keys.items()}
    for reader, role in (
        (Reader.UMPIRE, Role.UMPIRE),
        (Reader.AXIS_PLAYER, Role.AXIS_PLAYER),
        (Reader.ALLIED_PLAYER, Role.ALLIED_PLAYER),
        (Reader.OBSERVER, Role.OBSERVER),
        (Reader.ANONYMOUS, Role.ANONYMOUS),
    ):
        clients[reader] = world.client(role)
    return VisibilityWorld(world, clients)


def may_read_roll(seen: VisibilityWorld, reader: Reader, roll: models.RollRecord) -> bool:
    if reader in (Reader.UMPIRE, Reader.UMPIRE_KEY):
        return True
    side_id = seen.reader_side(reader)
    battle_sides = {roll.battle.attacker_id, roll.battle.defender_id} if roll.battle else set()
    return {
        Visibility.PUBLIC: True,
        Visibility.BATTLE: side_id in battle_sides,
        Visibility.SIDE: side_id is not None and side_id == roll.side_id,
        Visibility.UMPIRE: False,
    }[Visibility(roll.visibility)]


def may_read_event(seen: VisibilityWorld, reader: Reader, event: models.Event) -> bool:
    if reader in (Reader.UMPIRE, Reader.UMPIRE_KEY):
        return True
    side_id = seen.reader_side(reader)
    return event.visibility == Visibility.PUBLIC or (side_id is not None and event.side_id == side_id)


def may_read_report(seen: VisibilityWorld, reader: Reader, report: models.NightReport) -> bool:
    return reader in (Reader.UMPIRE, Reader.UMPIRE_KEY) or report.side_id == seen.reader_side(reader)


def roll_side_id(roll: models.RollRecord) -> int | None:
    """The side a roll is about, from what it was rolled for (not from its owner)."""
    if roll.battalion is not None:
        return roll.battalion.side_id
    if roll.force is not None:
        return roll.force.side_id
    if roll.procedure == CARRY_OVER:
        return models.Side.objects.get(campaign=roll.campaign, name=roll.inputs["side"]).pk
    label = str(roll.changes.get("setup", ""))
    if "@" in label:
        return models.Side.objects.get(campaign=roll.campaign, name=label.partition("@")[2]).pk
    return None


def event_side_id(event: models.Event) -> int | None:
    """The side an event is about, from its subject."""
    if event.object_type == "Side" or event.object_id is None:
        return event.object_id
    if event.object_type == "Force":
        return models.Force.objects.get(pk=event.object_id).side_id
    if event.object_type == "Battalion":
        return models.Battalion.objects.get(pk=event.object_id).side_id
    return None
