"""The map kept for its replay: a snapshot at each dawn and after each night."""

from __future__ import annotations

from campaign import models
from campaign.choices import MapMoment
from campaign.selectors import map_state


def map_snapshot_take(campaign: models.Campaign, day_number: int, moment: MapMoment) -> models.MapSnapshot:
    """Keep the map as every audience sees it now, for ``day_number`` at ``moment``.

    Called inside the dawn's and the night's transactions (their events record the change):
    a snapshot is written with the moment it shows, or not at all. Taken again (a night
    finished twice), it is replaced."""
    snapshot, _ = models.MapSnapshot.objects.update_or_create(
        campaign=campaign, day_number=day_number, moment=moment, defaults={"state": map_state(campaign)}
    )
    return snapshot
