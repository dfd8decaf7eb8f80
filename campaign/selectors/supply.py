"""The night's supply proposal: each force and battalion OK, separated or isolated, with its line."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from campaign import access as access_rules
from campaign import models
from campaign.access import CampaignAccess
from campaign.supply_lines import Ground, SideLines, side_lines
from rules_engine.vocab import SupplySituation

CUT_OFF = (SupplySituation.ISOLATED, SupplySituation.SEPARATED)


@dataclass(frozen=True)
class SupplyForce:
    id: int
    name: str
    side_id: int
    sector_id: int | None  # its C Ops; None: off the map
    public_id: uuid.UUID  # what the API names it by


@dataclass(frozen=True)
class SupplyBattalion:
    id: int
    code: str
    side_id: int
    force_id: int
    sector_id: int
    situation: str  # as it stands (confirmed, or applied by the last night)
    public_id: uuid.UUID  # what the API names it by


@dataclass(frozen=True)
class SupplyMap:
    """What supply lines are traced from, read in five queries whatever the campaign's size."""

    ground: Ground
    side_ids: tuple[int, ...]
    forces: dict[int, SupplyForce]
    battalions: list[SupplyBattalion]  # on the map (reserves and battalions not yet placed are off it)

    @cached_property
    def lines(self) -> dict[int, SideLines]:
        return side_lines(self.ground, self.side_ids)


def supply_map(campaign_id: int) -> SupplyMap:
    owners = dict(models.Sector.objects.filter(campaign_id=campaign_id).values_list("pk", "owner_id"))
    links = tuple(models.SectorLink.objects.filter(campaign_id=campaign_id).values_list("a_id", "b_id"))
    listed: dict[int, set[int]] = defaultdict(set)
    sources = models.Sector.supply_source_for.through.objects.filter(sector__campaign_id=campaign_id)
    for sector_id, side_id in sources.values_list("sector_id", "side_id"):
        listed[side_id].add(sector_id)
    forces = {
        pk: SupplyForce(pk, name, side_id, sector_id, public_id)
        for pk, name, side_id, sector_id, public_id in models.Force.objects.filter(campaign_id=campaign_id)
        .order_by("pk")
        .values_list("pk", "name", "side_id", "sector_id", "public_id")
    }
    battalions = [
        SupplyBattalion(*row)
        for row in models.Battalion.objects.filter(
            campaign_id=campaign_id, sector__isnull=False, in_reserve=False
        )
        .order_by("code")
        .values_list(
            "pk", "code", "side_id", "battlegroup__force_id", "sector_id", "supply_situation", "public_id"
        )
    ]
    return SupplyMap(
        ground=Ground(owners, links, {side: frozenset(s) for side, s in listed.items()}),
        side_ids=tuple(sorted({force.side_id for force in forces.values()} | listed.keys())),
        forces=forces,
        battalions=battalions,
    )


def supply_map_part(
    access: CampaignAccess,
    sectors: Sequence[models.Sector],
    links: Sequence[models.SectorLink],
    battalions: Iterable[models.Battalion],
) -> dict[str, Any]:
    """The map document's supply, from the rows it read (no query of its own): every side's
    sources of supply (its listed sectors it holds: who holds a sector is public), the reader's
    own lines (umpires: every side's), and the battalions whose supply the reader sees (its own
    side's: never an enemy's) that are cut off, as their situation stands (confirmed by the
    umpire or applied by the last night).

    ``sectors`` come with their ``supply_source_for`` prefetched; ``battalions`` are the reader's."""
    listed: dict[int, set[int]] = defaultdict(set)
    for sector in sectors:
        for side in sector.supply_source_for.all():
            listed[side.pk].add(sector.pk)
    ground = Ground(
        {sector.pk: sector.owner_id for sector in sectors},
        tuple((link.a_id, link.b_id) for link in links),
        {side: frozenset(keys) for side, keys in listed.items()},
    )
    side_ids = sorted(access.sides)
    drawn = side_lines(
        ground, side_ids if access.is_umpire else [s for s in side_ids if s == access.player_side_id]
    )
    situations: dict[str, list[uuid.UUID]] = {s.value: [] for s in CUT_OFF}
    for battalion in battalions:
        shown = access_rules.battalion_fields_shown(access, battalion.side_id)
        if (
            (shown is None or "supply_situation" in shown)
            and battalion.sector_id is not None
            and not battalion.in_reserve
            and battalion.supply_situation in situations
        ):
            situations[battalion.supply_situation].append(battalion.public_id)
    return {
        "sides": [
            {
                "side": side_id,
                "sources": sorted(ground.sources(side_id)),
                "lines": [list(step) for step in drawn[side_id].lines()] if side_id in drawn else [],
            }
            for side_id in side_ids
        ],
        "isolated": sorted(situations[SupplySituation.ISOLATED.value], key=str),
        "separated": sorted(situations[SupplySituation.SEPARATED.value], key=str),
    }
