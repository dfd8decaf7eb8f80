"""What a client syncing a list needs: the rows that changed, and where it stopped reading.

:class:`ChangeRecord` rows are written by PostgreSQL triggers (migration 0046) on every insert,
update and delete of the lists a client syncs, so no write path can forget one; a change of a
stand also records its battalion, and one of a battalion its force (their rows show what is
under them). :class:`SyncCursor` is what a changes token names: the last change read and the
rows the reader saw then, so a row that became hidden is reported as removed and one that
became visible appears (fog of war moves with the map, not only with the row).
"""

from __future__ import annotations

import uuid

from django.db import models

from campaign.models.campaigns import Campaign

# The lists a client syncs, as the triggers name them (their tables without the app prefix).
SYNCED_KINDS = ("force", "battalion", "stand", "battle", "rollrecord", "event", "sideorder", "nightorder")


class ChangeRecord(models.Model):
    """One row of a synced list inserted, updated or deleted (by a trigger, never by Python)."""

    id = models.BigAutoField(primary_key=True)
    # No foreign key: deleting a campaign deletes its rows, whose triggers record them.
    campaign_id = models.BigIntegerField()
    kind = models.CharField(max_length=20, help_text="the list: " + ", ".join(SYNCED_KINDS))
    row_id = models.BigIntegerField(help_text="the row's key (not its public id: a deleted row has none)")

    class Meta:
        indexes = [models.Index(fields=["campaign_id", "id"], name="change_record_campaign")]

    def __str__(self) -> str:
        return f"{self.kind} {self.row_id} changed (change {self.id})"


class SyncCursor(models.Model):
    """Where a reader stopped reading changes of a list: named by an opaque, signed token."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20)
    reader = models.CharField(max_length=100, help_text="whose view: umpire, side:<id> or public")
    query = models.CharField(max_length=500, blank=True, help_text="the list's filters, as asked")
    change_id = models.BigIntegerField(help_text="the last ChangeRecord read")
    fog = models.CharField(max_length=64, help_text="a digest of the sides' fog settings then")
    rows = models.JSONField(help_text="{row key: [public id, what the fog showed of it]} as seen")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.kind} changes read by {self.reader} up to change {self.change_id}"
