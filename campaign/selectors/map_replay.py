"""The map replayed: the state kept at each dawn and after each night (``models.MapSnapshot``),
and what each audience saw of it then.

A snapshot holds the moment's rows once, by battalion (the map draws battalions, never stands),
and per audience (``umpire``, each side's id, ``observer``) the ids it saw, with its supply part,
as :func:`campaign.selectors.map_document` answered that audience then: the fog of the past is
the past's fog, whatever the sides have seen since.
"""

from __future__ import annotations

import copy
import json
import uuid
import zlib
from typing import Any

from django.db.models import prefetch_related_objects

from campaign import models
from campaign.access import CampaignAccess
from campaign.audiences import OBSERVER, UMPIRE, audience_of, audience_reader
from campaign.selectors.force_status import one_moment
from campaign.selectors.map import (
    MapDocument,
    MapGround,
    labels_placed,
    links_read,
    map_document,
    sectors_read,
)

FORMAT = 1


def _audiences(campaign: models.Campaign) -> dict[str, CampaignAccess]:
    """Every audience's reader, sharing one read of the sides (each reader's fog needs them):
    prefetched on a copy of ``campaign`` with a cache of its own (a copy shares the original's),
    so that the caller's keeps no list its own writes after the snapshot (a dawn's) would leave
    stale."""
    reading = copy.copy(campaign)
    vars(reading).pop("_prefetched_objects_cache", None)
    prefetch_related_objects([reading], "sides")
    sides = sorted(side.pk for side in reading.sides.all())
    return {key: audience_reader(reading, key) for key in [UMPIRE, OBSERVER, *map(str, sides)]}


def map_state(campaign: models.Campaign) -> bytes:
    """The map as every audience sees it now, compressed for a ``MapSnapshot``'s ``state``."""
    with one_moment():  # the ground read once: every audience sees the same
        ground = MapGround.read(campaign)
        documents = {
            key: map_document(access, labels=False, ground=ground)
            for key, access in _audiences(campaign).items()
        }
    full = documents[UMPIRE]
    state: dict[str, Any] = {
        "format": FORMAT,
        "owners": [[sector.pk, sector.owner_id] for sector in full.sectors],
        "forces": [
            [force.pk, force.public_id.hex, force.name, force.side_id, force.sector_id, force.fup_sector_id]
            for force in full.forces
        ],
        "battalions": [
            [
                battalion.pk,
                battalion.public_id.hex,
                battalion.code,
                battalion.name,
                battalion.side_id,
                battalion.sector_id,
                int(battalion.in_reserve),
                battalion.supply_situation,
            ]
            for battalion in full.battalions
        ],
        "battles": [
            [
                battle.pk,
                battle.public_id.hex,
                battle.sector_id,
                battle.status,
                battle.attacker_id,
                battle.defender_id,
            ]
            for battle in full.battles
        ],
        "seen": {
            key: {
                # A force's forming-up point shows only where the audience sees it.
                "forces": [
                    [force.pk, int(bool(getattr(force, "fup_sector_seen", False)))] for force in doc.forces
                ],
                "battalions": [battalion.pk for battalion in doc.battalions],
                "battles": [battle.pk for battle in doc.battles],
                "supply": doc.supply,
            }
            for key, doc in documents.items()
        },
    }
    return zlib.compress(json.dumps(state, separators=(",", ":"), default=str).encode(), 9)


def map_moments(campaign: models.Campaign) -> list[tuple[int, str]]:
    """The moments kept for the replay, in order (one query)."""
    return list(
        models.MapSnapshot.objects.filter(campaign=campaign)
        .order_by("day_number", "moment")
        .values_list("day_number", "moment")
    )


def map_replay(access: CampaignAccess, day: int, moment: str) -> MapDocument | None:
    """The map of ``day`` at ``moment`` as ``access``'s audience saw it then (None: not kept):
    one query for the snapshot, and the ground's (sectors, links, the sides' names) as today's
    map reads it; the sectors' owners are the snapshot's."""
    blob = (
        models.MapSnapshot.objects.filter(campaign=access.campaign, day_number=day, moment=moment)
        .values_list("state", flat=True)
        .first()
    )
    if blob is None:
        return None
    state = json.loads(zlib.decompress(bytes(blob)))
    seen = state["seen"].get(audience_of(access)) or state["seen"][OBSERVER]
    sectors = sectors_read(access.campaign)
    owners = dict(state["owners"])
    for sector in sectors:
        sector.owner_id = owners.get(sector.pk, sector.owner_id)
    forces_by_pk = {row[0]: row for row in state["forces"]}
    forces = []
    for pk, fup_seen in seen["forces"]:
        _, public_id, name, side_id, sector_id, fup_sector_id = forces_by_pk[pk]
        force = models.Force(
            pk=pk,
            public_id=uuid.UUID(public_id),
            name=name,
            side_id=side_id,
            sector_id=sector_id,
            fup_sector_id=fup_sector_id,
        )
        force.fup_sector_seen = bool(fup_seen)  # type: ignore[attr-defined]
        forces.append(force)
    battalions_by_pk = {row[0]: row for row in state["battalions"]}
    battalions = []
    for pk in seen["battalions"]:
        _, public_id, code, name, side_id, sector_id, in_reserve, situation = battalions_by_pk[pk]
        battalions.append(
            models.Battalion(
                pk=pk,
                public_id=uuid.UUID(public_id),
                code=code,
                name=name,
                side_id=side_id,
                sector_id=sector_id,
                in_reserve=bool(in_reserve),
                supply_situation=situation,
            )
        )
    battles_by_pk = {row[0]: row for row in state["battles"]}
    battles = []
    for pk in seen["battles"]:
        _, public_id, sector_id, status, attacker_id, defender_id = battles_by_pk[pk]
        battles.append(
            models.Battle(
                pk=pk,
                public_id=uuid.UUID(public_id),
                sector_id=sector_id,
                status=status,
                attacker_id=attacker_id,
                defender_id=defender_id,
            )
        )
    return MapDocument(
        sectors=sectors,
        links=links_read(access.campaign),
        forces=forces,
        battalions=battalions,
        battles=battles,
        supply=seen["supply"],
        labels=labels_placed(access.campaign, sectors),
        day=day,
        moment=moment,
    )
