"""The map kept for its replay: a snapshot at each dawn and after each night."""

from __future__ import annotations

from django.db import transaction

from campaign import models
from campaign.choices import DayStatus, MapMoment, OperationStatus
from campaign.selectors import map_state
from campaign.services.campaigns import campaign_lock

# Sent by name once the night's last commit is in: the tasks module imports the services.


def map_snapshot_take(campaign: models.Campaign, day_number: int, moment: MapMoment) -> models.MapSnapshot:
    """Keep the map as every audience sees it now, for ``day_number`` at ``moment``.

    Called inside the transaction of the write it follows (the dawn's event records the change):
    a snapshot is written with the moment it shows, or not at all. Taken again, it is replaced."""
    snapshot, _ = models.MapSnapshot.objects.update_or_create(
        campaign=campaign, day_number=day_number, moment=moment, defaults={"state": map_state(campaign)}
    )
    return snapshot


def map_snapshot_after_night_ensure(campaign: models.Campaign) -> models.MapSnapshot | None:
    """The map after the night of the campaign's current day, taken now if it is not kept yet and
    the night is done: the state stands as the night left it until the next dawn, which calls this
    (the campaign locked) before it changes anything. None before the night is done."""
    day = campaign.days.filter(number=campaign.current_day, status=DayStatus.DONE).first()
    if day is None:
        return None
    kept = models.MapSnapshot.objects.filter(
        campaign=campaign, day_number=day.number, moment=MapMoment.NIGHT
    ).first()
    return kept or map_snapshot_take(campaign, day.number, MapMoment.NIGHT)


@transaction.atomic
def map_snapshot_after_night(operation_id: int) -> models.MapSnapshot | None:
    """The map after the night ``operation_id`` ran, taken right after its last commit by a task,
    not in that commit: the maps of every audience would double a small night's cost (issue 34).
    Safe to run twice, or after the next dawn took it."""
    operation = (
        models.Operation.objects.filter(pk=operation_id, status=OperationStatus.DONE)
        .select_related("day")
        .first()
    )
    if operation is None:
        return None
    # Locked like every write: no dawn can start while the snapshot reads the map.
    campaign = campaign_lock(operation.campaign_id, finished_ok=True)
    if campaign.current_day != operation.day.number:
        return models.MapSnapshot.objects.filter(
            campaign=campaign, day_number=operation.day.number, moment=MapMoment.NIGHT
        ).first()
    return map_snapshot_after_night_ensure(campaign)
