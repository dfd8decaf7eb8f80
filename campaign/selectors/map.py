"""The campaign map as a reader sees it: sectors, their links and the supply proposal,
read at one moment."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch

from campaign import access as access_rules
from campaign import map_layout, models
from campaign.access import CampaignAccess
from campaign.selectors.force_status import one_moment
from campaign.selectors.scoped import battalions, forces
from campaign.selectors.supply import supply_map_part


@dataclass(frozen=True)
class MapDocument:
    """One side's view of the campaign map (the umpire's: everything), read in one moment."""

    sectors: list[models.Sector]
    links: list[models.SectorLink]
    forces: list[models.Force]  # those whose C Ops the reader sees on the map, or off it when their own
    battalions: list[models.Battalion]
    battles: list[models.Battle]
    supply: dict[str, Any]  # supply_map_part's, from these rows
    labels: list[map_layout.Label]  # where each sector's name stands (the ground's, not fogged)
    # A replay's moment (``campaign.selectors.map_replay``); None: the map as it stands now.
    day: int | None = None
    moment: str | None = None
    # The moments kept for the replay, ``(day number, moment)`` in order; filled by the API's read.
    moments: list[tuple[int, str]] = field(default_factory=list)


def sectors_read(campaign: models.Campaign) -> list[models.Sector]:
    """The campaign's sectors with the sides each is a source of supply for (two queries)."""
    return list(
        models.Sector.objects.filter(campaign=campaign)
        .prefetch_related(
            Prefetch("supply_source_for", queryset=models.Side.objects.only("id").order_by("pk"))
        )
        .order_by("pk")
    )


def links_read(campaign: models.Campaign) -> list[models.SectorLink]:
    return list(models.SectorLink.objects.filter(campaign=campaign).order_by("a_id", "b_id"))


def labels_placed(campaign: models.Campaign, sectors: list[models.Sector]) -> list[map_layout.Label]:
    """Where each sector's name stands (one query: the sides' names, which the legend shows)."""
    return map_layout.place_labels(
        sectors,
        map_layout.map_points(sectors)[1],
        [
            *models.Side.objects.filter(campaign=campaign).values_list("name", flat=True),
            map_layout.CONTESTED_NOTE,
        ],
    )


@dataclass(frozen=True)
class MapGround:
    """What every reader of a campaign's map sees alike: its sectors (with their owners and the
    sides each supplies) and their links."""

    sectors: list[models.Sector]
    links: list[models.SectorLink]

    @classmethod
    def read(cls, campaign: models.Campaign) -> MapGround:
        return cls(sectors=sectors_read(campaign), links=links_read(campaign))


def map_document(
    access: CampaignAccess, *, labels: bool = True, ground: MapGround | None = None
) -> MapDocument:
    """The map as ``access`` sees it, in a constant number of queries whatever its size;
    without ``labels``, no names placed (a snapshot keeps no ground: its replay places them);
    ``ground``: read already in this moment (every audience's map at once)."""
    with one_moment():
        ground = ground or MapGround.read(access.campaign)
        sectors, links = ground.sectors, ground.links
        access = access_rules.contact_read(access)  # asked for by the battalions and the forces
        seen = list(battalions(access))
        return MapDocument(
            sectors=sectors,
            links=links,
            forces=list(forces(access).filter(access_rules.force_place_seen(access))),
            battalions=seen,
            battles=list(
                models.Battle.objects.filter(campaign=access.campaign)
                .filter(access_rules.battles_readable(access))
                .order_by("pk")
            ),
            supply=supply_map_part(access, sectors, links, seen),
            labels=labels_placed(access.campaign, sectors) if labels else [],
        )
